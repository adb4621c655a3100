/**
 * Rules of a marker edit (spec §5; the marker popup's edit mode, docs/EDITOR.md): what is
 * trimmed, the numeric level, the known fields sent to the server, the quest and item search,
 * and the image list operations. Pure functions; inputs are never changed.
 *
 * Decisions where the spec is silent:
 * - Trimmed (spec: "Name and image text fields are trimmed"): `name`, the `name_l10n` texts
 *   (an empty translation is dropped, so the plain name shows), and each image's `img`, `name`
 *   and `desc`. The marker's `desc` and `desc_l10n` are kept exactly as typed: they are
 *   free text whose line breaks and indentation may matter.
 * - `level` must be a whole number: a number, or text that reads as one ("2", " -1 ").
 *   Empty, non-numeric or fractional text is an error, never silently rounded.
 * - `questUid`: trimmed, empty means no quest (null). `itemsUid`: trimmed, empty ones dropped,
 *   repeats dropped.
 * - An image with no text at all (an added slot never filled) is dropped; an image with a name
 *   or description but no file is an error.
 */
import { isKnownCategory } from './categories';
import { MARKER_BOUNDS } from './marker-bounds';
import { markerSchema, type Marker, type MarkerImage } from './marker';
import { issueProblem, textCharacterProblem, UNKNOWN_CATEGORY_PAIR, type MarkerFieldProblem } from './marker-problem';
import { sortQuests, type Item, type Quest } from './quests';
import type { Language } from './marker';

/**
 * The marker fields the site knows (spec §3) and the only ones sent to the server (spec §5).
 * `version` is the version an edit was based on (docs/EDITOR.md).
 */
export const KNOWN_MARKER_FIELDS = [
  'uid', 'map', 'category', 'subCategory', 'level', 'geometry', 'name', 'desc', 'imgs',
  'name_l10n', 'desc_l10n', 'questUid', 'itemsUid', 'version',
] as const;

export type KnownMarkerField = (typeof KNOWN_MARKER_FIELDS)[number];

/** Known fields of a marker, each optional. */
export type KnownMarkerFields = { [K in KnownMarkerField]?: Marker[K] };

/** The popup's edit form: a marker whose level may still be the typed text. */
export type MarkerDraft = Omit<KnownMarkerFields, 'level'> & { level?: number | string; [field: string]: unknown };

/** The message of an image with text but no file (the form shows its own words for it). */
export const IMAGE_NO_FILE = 'Image has no file: upload one or remove the image';

export type MarkerSaveResult =
  | { ok: true; marker: Marker }
  /**
   * Messages by field path (`level`, `name`, `imgs.1.img`, `subCategory`, …), first message per
   * path; `problems` says the same as data (kind, limit) in that order, for the form's own words.
   */
  | { ok: false; errors: Record<string, string>; problems: MarkerFieldProblem[] };

/** Only the known marker fields of `marker` (fields that are undefined are left out). */
export function pickKnownFields(marker: Readonly<Record<string, unknown>>): KnownMarkerFields {
  const out: Record<string, unknown> = {};
  for (const key of KNOWN_MARKER_FIELDS) {
    if (marker[key] !== undefined) out[key] = marker[key];
  }
  return out as KnownMarkerFields;
}

/** A level from a number or typed text: a whole number, or an error message. */
export function parseLevel(value: unknown): { ok: true; level: number } | { ok: false; error: string } {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : NaN;
  if (!Number.isFinite(n)) return { ok: false, error: 'Level must be a number' };
  if (!Number.isInteger(n)) return { ok: false, error: 'Level must be a whole number' };
  const { min, max } = MARKER_BOUNDS.level;
  // The schema's bound (marker-bounds.ts), said here so the form can say it next to the field.
  if (n < min || n > max) return { ok: false, error: `Level must be a whole number from ${min} to ${max}` };
  return { ok: true, level: Object.is(n, -0) ? 0 : n };
}

const trimmed = (v: unknown): unknown => (typeof v === 'string' ? v.trim() : v);

function trimL10n(table: unknown): unknown {
  if (table === null || typeof table !== 'object') return table;
  const out: Record<string, unknown> = {};
  for (const [lang, text] of Object.entries(table as Record<string, unknown>)) {
    const t = trimmed(text);
    if (t !== '') out[lang] = t;
  }
  return out;
}

/**
 * Applies the edit rules to the popup's draft and validates the result as a marker.
 * Pass-through fields of the draft are kept on the returned marker (it replaces the page's
 * copy); what is sent to the server is `pickKnownFields(marker)`.
 */
export function prepareMarkerForSave(draft: MarkerDraft): MarkerSaveResult {
  const errors: Record<string, string> = {};
  const problems: MarkerFieldProblem[] = [];
  /** The first objection to `path` is kept (as the message and as data). */
  const object = (path: string, message: string, problem: Omit<MarkerFieldProblem, 'field'>) => {
    if (path in errors) return;
    errors[path] = message;
    problems.push({ field: path, ...problem });
  };
  const out: Record<string, unknown> = { ...draft };

  out.name = trimmed(draft.name ?? '');
  if (draft.name_l10n !== undefined) out.name_l10n = trimL10n(draft.name_l10n);

  const level = parseLevel(draft.level);
  if (level.ok) out.level = level.level;
  else object('level', level.error, { kind: 'level' });

  // Position of each kept image in the draft: the schema's paths (`imgs.0.img`) count kept
  // images only, the form's count every slot.
  const draftIndexOf: number[] = [];
  if (Array.isArray(draft.imgs)) {
    const imgs: MarkerImage[] = [];
    draft.imgs.forEach((raw, i) => {
      const img = String(trimmed(raw?.img ?? ''));
      const name = String(trimmed(raw?.name ?? ''));
      const desc = String(trimmed(raw?.desc ?? ''));
      if (!img && !name && !desc) return;
      if (!img) object(`imgs.${i}.img`, IMAGE_NO_FILE, { kind: 'noFile' });
      // Said as a length (the URL rule would say only "not a valid URL" to the form).
      else if (img.length > MARKER_BOUNDS.imageUrl) object(`imgs.${i}.img`, `must be at most ${MARKER_BOUNDS.imageUrl} characters`, { kind: 'tooLong', limit: MARKER_BOUNDS.imageUrl });
      draftIndexOf.push(i);
      imgs.push({ img, name, desc });
    });
    out.imgs = imgs;
  }

  if (draft.questUid !== undefined) {
    const q = trimmed(draft.questUid);
    out.questUid = q === '' ? null : q;
  }
  if (Array.isArray(draft.itemsUid)) {
    out.itemsUid = [...new Set(draft.itemsUid.map((u) => String(trimmed(u))).filter(Boolean))];
  }

  // The schema checks the pair only when every other field is valid; checked here too, so the
  // form shows every error at once.
  if (typeof out.category === 'string' && typeof out.subCategory === 'string' && !isKnownCategory(out.category, out.subCategory)) {
    object('subCategory', UNKNOWN_CATEGORY_PAIR, { kind: 'unknownCategory' });
  }

  // U+0000 and broken Unicode (a lone surrogate) cannot be stored, and the server refuses them
  // (server/http/no-nul.ts) in English: said here first, naming the field. A paste brings them.
  for (const [path, text] of editedTexts(out, draftIndexOf)) {
    const problem = textCharacterProblem(text);
    if (problem) object(path, problem, { kind: 'badCharacters' });
  }

  const result = markerSchema.safeParse(out);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const parts = issue.path.map(String);
      if (parts[0] === 'imgs' && parts.length > 1 && draftIndexOf[Number(parts[1])] !== undefined) parts[1] = String(draftIndexOf[Number(parts[1])]);
      const path = parts.join('.') || 'marker';
      if (!(path.startsWith('level') && 'level' in errors)) object(path, issue.message, issueProblem(path, issue));
    }
  }
  if (Object.keys(errors).length > 0 || !result.success) return { ok: false, errors, problems };
  return { ok: true, marker: result.data };
}

/**
 * The texts of a prepared draft the form edits, by path (images at the draft's own index): the
 * names and descriptions, each image's address, name and description, the quest and the items.
 */
function editedTexts(out: Record<string, unknown>, draftIndexOf: readonly number[]): Array<[string, string]> {
  const texts: Array<[string, unknown]> = [['name', out.name], ['desc', out.desc], ['questUid', out.questUid]];
  for (const field of ['name_l10n', 'desc_l10n'] as const) {
    const table = out[field];
    if (table && typeof table === 'object') for (const [lang, text] of Object.entries(table)) texts.push([`${field}.${lang}`, text]);
  }
  if (Array.isArray(out.imgs)) {
    (out.imgs as MarkerImage[]).forEach((image, i) => {
      for (const key of ['img', 'name', 'desc'] as const) texts.push([`imgs.${draftIndexOf[i] ?? i}.${key}`, image[key]]);
    });
  }
  if (Array.isArray(out.itemsUid)) out.itemsUid.forEach((uid, i) => texts.push([`itemsUid.${i}`, uid]));
  return texts.filter((entry): entry is [string, string] => typeof entry[1] === 'string');
}

// ---------------------------------------------------------------------------------------------
// Quest and item search (spec §5: exact uid, or name in English or Russian, case-insensitive;
// quest names match exactly, item names by substring)

const fold = (s: string): string => s.trim().toLowerCase();

/**
 * Quests whose uid is the query, or whose name or ruName equals it (case-insensitive, the
 * query trimmed). Uid matches come first; with `lang`, the name matches are in the quest
 * list's order (`sortQuests`). An empty query finds nothing.
 */
export function searchQuests<T extends Pick<Quest, 'uid' | 'name' | 'ruName'>>(quests: readonly T[], query: string, lang?: Language): T[] {
  const q = fold(query);
  if (!q) return [];
  const byUid = quests.filter((quest) => fold(quest.uid) === q);
  const byName = quests.filter((quest) => !byUid.includes(quest) && (fold(quest.name) === q || fold(quest.ruName ?? '') === q));
  return [...byUid, ...(lang ? sortQuests(byName, lang) : byName)];
}

/**
 * Items whose uid is the query, or whose name or ruName contains it (case-insensitive, the
 * query trimmed). Ranked: uid match, then a name equal to the query, then a name starting
 * with it, then the rest, each in input order; at most `limit`. An empty query finds nothing.
 */
export function searchItems<T extends Pick<Item, 'uid' | 'name' | 'ruName'>>(items: Iterable<T>, query: string, limit = Infinity): T[] {
  const q = fold(query);
  if (!q || limit <= 0) return [];
  const ranks: T[][] = [[], [], [], []];
  for (const item of items) {
    if (fold(item.uid) === q) {
      ranks[0].push(item);
      continue;
    }
    const names = [fold(item.name ?? ''), fold(item.ruName ?? '')];
    if (names.some((n) => n === q)) ranks[1].push(item);
    else if (names.some((n) => n.startsWith(q))) ranks[2].push(item);
    else if (names.some((n) => n.includes(q))) ranks[3].push(item);
  }
  return ranks.flat().slice(0, limit);
}

// ---------------------------------------------------------------------------------------------
// Images

const inRange = (list: readonly unknown[], i: number): boolean => Number.isInteger(i) && i >= 0 && i < list.length;

/** Moves the image at `from` to position `to`; a copy, unchanged when either is out of range. */
export function moveImage<T>(imgs: readonly T[], from: number, to: number): T[] {
  const out = [...imgs];
  if (!inRange(imgs, from) || !inRange(imgs, to) || from === to) return out;
  const [img] = out.splice(from, 1);
  out.splice(to, 0, img);
  return out;
}

/** The list without the image at `index`; a copy, unchanged when out of range. */
export function removeImage<T>(imgs: readonly T[], index: number): T[] {
  return inRange(imgs, index) ? imgs.filter((_, i) => i !== index) : [...imgs];
}

/** The list with `img` appended (by default an empty slot that an upload fills). */
export function addImage(imgs: readonly MarkerImage[], img: MarkerImage = { img: '', name: '', desc: '' }): MarkerImage[] {
  return [...imgs, { ...img }];
}

/** The image index to show after removing `removed` while `current` was shown. */
export function imageIndexAfterRemove(current: number, removed: number, remaining: number): number {
  if (remaining <= 0) return 0;
  const next = removed < current ? current - 1 : current;
  return Math.max(0, Math.min(remaining - 1, next));
}
