/**
 * A short diff of two versions of a marker, field by field, for the edit mode's conflict view
 * and the change history: only the fields an admin edits (and the position), each value as a
 * short line of text. Plain data in, plain text out: the UI renders it as text.
 */
import type { Marker } from '../../domain/marker';

export type DiffField =
  | 'name'
  | 'nameEn'
  | 'nameRu'
  | 'desc'
  | 'descEn'
  | 'descRu'
  | 'category'
  | 'subCategory'
  | 'level'
  | 'position'
  | 'quest'
  | 'items'
  | 'images';

export interface FieldChange {
  field: DiffField;
  before: string;
  after: string;
}

/** The longest value shown; longer text is cut with an ellipsis. */
export const DIFF_VALUE_MAX = 80;

/** What the diff reads of a marker (read-only, so valtio snapshots fit). */
export interface MarkerLike {
  readonly name?: string;
  readonly desc?: string;
  readonly name_l10n?: Readonly<Marker['name_l10n']>;
  readonly desc_l10n?: Readonly<Marker['desc_l10n']>;
  readonly category?: string;
  readonly subCategory?: string;
  readonly level?: number;
  readonly geometry?: { readonly x: number; readonly y: number };
  readonly questUid?: string | null;
  readonly itemsUid?: readonly string[];
  readonly imgs?: readonly { readonly img: string; readonly name: string; readonly desc: string }[];
}

function short(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > DIFF_VALUE_MAX ? `${line.slice(0, DIFF_VALUE_MAX - 1)}…` : line;
}

const READERS: Record<DiffField, (m: MarkerLike) => string> = {
  name: (m) => m.name ?? '',
  nameEn: (m) => m.name_l10n?.en ?? '',
  nameRu: (m) => m.name_l10n?.ru ?? '',
  desc: (m) => m.desc ?? '',
  descEn: (m) => m.desc_l10n?.en ?? '',
  descRu: (m) => m.desc_l10n?.ru ?? '',
  category: (m) => m.category ?? '',
  subCategory: (m) => m.subCategory ?? '',
  level: (m) => (m.level === undefined ? '' : String(m.level)),
  position: (m) => (m.geometry ? `${m.geometry.x}, ${m.geometry.y}` : ''),
  quest: (m) => m.questUid ?? '',
  items: (m) => (m.itemsUid ?? []).join(', '),
  images: (m) => (m.imgs ?? []).map((i) => [i.name, i.img, i.desc].filter(Boolean).join(' · ')).join('; '),
};

export const DIFF_FIELDS = Object.keys(READERS) as DiffField[];

/** The fields that differ between `before` and `after` (either may be missing: an add or a delete). */
export function markerDiff(before: MarkerLike | null | undefined, after: MarkerLike | null | undefined): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of DIFF_FIELDS) {
    const a = before ? READERS[field](before) : '';
    const b = after ? READERS[field](after) : '';
    if (a !== b) changes.push({ field, before: short(a), after: short(b) });
  }
  return changes;
}

/**
 * One image change of the history: an image added or removed (by its file), the images put in
 * another order, or one image's file, name or description changed. `name` is the image's name,
 * else its file's name (empty when neither: the UI says "image N"); `index` counts from 1, in
 * the list after the change (before it, for a removal).
 */
export type ImageChange =
  | { field: 'images'; kind: 'added' | 'removed'; index: number; name: string }
  | { field: 'images'; kind: 'reordered'; before: string; after: string }
  | { field: 'images'; kind: 'file' | 'name' | 'desc'; index: number; name: string; before: string; after: string };

/** A line of the change history: a field's change, or one image's. */
export type HistoryChange = FieldChange | ImageChange;

type Img = { readonly img: string; readonly name: string; readonly desc: string };

/** The file name of an image URL (no folder, no query), as the admin knows the file. */
export function imageFileName(url: string): string {
  const path = url.split(/[?#]/)[0];
  const last = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** The longest file name shown whole; an upload's (`<marker uid>-<index>-<id>.webp`) is cut to its end. */
export const FILE_NAME_MAX = 24;

function shortFile(url: string): string {
  const file = imageFileName(url);
  return file.length > FILE_NAME_MAX ? `…${file.slice(-(FILE_NAME_MAX - 1))}` : file;
}

function imageLabel(image: Img): string {
  return short(image.name || shortFile(image.img));
}

/**
 * The image changes between two lists. Images are matched by their URL (an upload is a new
 * file, so a URL names one picture); an unmatched image of the old list and one of the new at
 * the same place are one image given a new file (an upload keeps its name and description); the
 * rest were removed or added. Matched images whose order differs: "reordered", once.
 */
export function imageChanges(before: readonly Img[], after: readonly Img[]): ImageChange[] {
  const changes: ImageChange[] = [];
  const taken = new Set<number>();
  /** after index → before index */
  const match = new Map<number, number>();
  after.forEach((image, j) => {
    const i = before.findIndex((old, k) => !taken.has(k) && old.img === image.img);
    if (i >= 0) {
      taken.add(i);
      match.set(j, i);
    }
  });
  const removed = before.map((_, i) => i).filter((i) => !taken.has(i));
  const added = after.map((_, j) => j).filter((j) => !match.has(j));
  // Same place, new file: one image changed, not one removed and one added.
  const replaced = new Map<number, number>();
  for (const j of added) if (removed.includes(j)) replaced.set(j, j);

  const textChanges = (j: number, old: Img, now: Img, file: boolean) => {
    const name = imageLabel(now);
    if (file) changes.push({ field: 'images', kind: 'file', index: j + 1, name, before: shortFile(old.img), after: shortFile(now.img) });
    if (old.name !== now.name) changes.push({ field: 'images', kind: 'name', index: j + 1, name, before: short(old.name), after: short(now.name) });
    if (old.desc !== now.desc) changes.push({ field: 'images', kind: 'desc', index: j + 1, name, before: short(old.desc), after: short(now.desc) });
  };

  for (const i of removed) if (!replaced.has(i)) changes.push({ field: 'images', kind: 'removed', index: i + 1, name: imageLabel(before[i]) });
  after.forEach((image, j) => {
    if (replaced.has(j)) textChanges(j, before[j], image, true);
    else if (match.has(j)) textChanges(j, before[match.get(j)!], image, false);
    else changes.push({ field: 'images', kind: 'added', index: j + 1, name: imageLabel(image) });
  });

  // Each image by its name now (a rename in the same change does not read as another image).
  const kept = [...match.entries()].sort((x, y) => x[0] - y[0]);
  const order = kept.map(([, i]) => i);
  if (order.some((i, k) => k > 0 && i < order[k - 1])) {
    const names = (pairs: [number, number][]) => pairs.map(([j]) => imageLabel(after[j]) || String(j + 1)).join(', ');
    changes.push({
      field: 'images',
      kind: 'reordered',
      before: short(names([...kept].sort((x, y) => x[1] - y[1]))),
      after: short(names(kept)),
    });
  }
  return changes;
}

/**
 * The change history's diff: as `markerDiff`, but images as the images added, removed,
 * reordered or changed (a joined list cut to one line hid which image changed).
 */
export function historyDiff(before: MarkerLike | null | undefined, after: MarkerLike | null | undefined): HistoryChange[] {
  const changes: HistoryChange[] = markerDiff(before, after).filter((change) => change.field !== 'images');
  changes.push(...imageChanges(before?.imgs ?? [], after?.imgs ?? []));
  return changes;
}
