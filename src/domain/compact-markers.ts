/**
 * The compact marker list (issue 11): what the map draws and filters, and no more, as columns.
 *
 * `GET /api/be/markers/compact?map=&lang=` answers one JSON object:
 *
 *   { "format": "raidmap.markers.compact", "version": 1, "map": "customs", "lang": "en", "count": 3,
 *     "kinds":  [["Loot", "Safe"], ["Extractions", "PMC Extraction"]],   category / subCategory pairs
 *     "quests": ["q1"],                                                   quest uids
 *     "uid":    ["a", "b", "c"],
 *     "x":      [10, 20.5, 30],  "y": [1, 2, 3],                          map pixels (as stored)
 *     "level":  [1, 1, -1],
 *     "kind":   [0, 0, 1],                                                index into kinds
 *     "quest":  [0, -1, -1],                                              index into quests, -1: none
 *     "label":  ["Safe 1", "", "Gate"] }                                  name in `lang`; "": the subCategory
 *
 * Rows are in uid order, like the full list. One JSON.parse of number and string arrays (no
 * per-marker objects, no per-marker schema) is several times faster than the full list's, and
 * about a tenth of its size; descriptions, images, items and translations come with the full
 * marker (`GET /api/be/markers/one?uid=`) when its popup opens. Measured in docs/PERFORMANCE.md.
 */
import { type Language, type Marker, MARKER_BOUNDS, localized } from './marker';
import { isKnownCategory } from './categories';

export const COMPACT_FORMAT = 'raidmap.markers.compact';
export const COMPACT_VERSION = 1;

export interface CompactMarkerList {
  format: typeof COMPACT_FORMAT;
  version: typeof COMPACT_VERSION;
  map: string;
  lang: Language;
  count: number;
  kinds: [string, string][];
  quests: string[];
  uid: string[];
  x: number[];
  y: number[];
  level: number[];
  kind: number[];
  quest: number[];
  label: string[];
}

/** The fields of a marker the compact list carries (a full Marker has them all). */
export type CompactSource = Pick<Marker, 'uid' | 'category' | 'subCategory' | 'level' | 'geometry' | 'name' | 'name_l10n'> & {
  questUid?: string | null;
};

/** The label of a marker in a language as the compact list sends it: '' when it is the subCategory. */
function compactLabel(m: CompactSource, lang: Language): string {
  const label = localized({ name: m.name, desc: '', name_l10n: m.name_l10n ?? {}, desc_l10n: {} }, 'name', lang);
  return label === m.subCategory ? '' : label;
}

/** Builds the compact list of markers (in the order given). */
export function encodeCompactList(markers: readonly CompactSource[], map: string, lang: Language): CompactMarkerList {
  const kinds: [string, string][] = [];
  const kindIndex = new Map<string, number>();
  const quests: string[] = [];
  const questIndex = new Map<string, number>();
  const n = markers.length;
  const out: CompactMarkerList = {
    format: COMPACT_FORMAT,
    version: COMPACT_VERSION,
    map,
    lang,
    count: n,
    kinds,
    quests,
    uid: new Array<string>(n),
    x: new Array<number>(n),
    y: new Array<number>(n),
    level: new Array<number>(n),
    kind: new Array<number>(n),
    quest: new Array<number>(n),
    label: new Array<string>(n),
  };
  markers.forEach((m, i) => {
    const kindKey = `${m.category}\u0000${m.subCategory}`;
    let k = kindIndex.get(kindKey);
    if (k === undefined) {
      k = kinds.length;
      kinds.push([m.category, m.subCategory]);
      kindIndex.set(kindKey, k);
    }
    let q = -1;
    if (m.questUid) {
      q = questIndex.get(m.questUid) ?? -1;
      if (q < 0) {
        q = quests.length;
        quests.push(m.questUid);
        questIndex.set(m.questUid, q);
      }
    }
    out.uid[i] = m.uid;
    out.x[i] = m.geometry.x;
    out.y[i] = m.geometry.y;
    out.level[i] = m.level;
    out.kind[i] = k;
    out.quest[i] = q;
    out.label[i] = compactLabel(m, lang);
  });
  return out;
}

/** One marker as the compact list describes it: what filtering, counting and drawing need. */
export interface CompactMarker {
  uid: string;
  category: string;
  subCategory: string;
  level: number;
  questUid: string | null;
  x: number;
  y: number;
  /** The label in the list's language (the subCategory when the marker has no name). */
  label: string;
}

export interface CompactIssue {
  index: number;
  uid?: string;
  message: string;
}

export interface DecodedCompactList {
  map: string;
  lang: Language;
  markers: CompactMarker[];
  issues: CompactIssue[];
}

export class CompactListError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CompactListError';
  }
}

/** True when a parsed body looks like a compact list (its `format` field), whatever its shape. */
export function isCompactBody(body: unknown): body is { format: typeof COMPACT_FORMAT } {
  return !!body && typeof body === 'object' && (body as { format?: unknown }).format === COMPACT_FORMAT;
}

const { min: MIN_LEVEL, max: MAX_LEVEL } = MARKER_BOUNDS.level;

/**
 * What is wrong with one row of a compact list (JSON or binary), or null when it is good:
 * `knownKind[k]` says whether kind k is a known category / subCategory pair.
 */
export function checkCompactRow(u: unknown, x: unknown, y: unknown, level: unknown, k: unknown, q: unknown, l: unknown, knownKind: readonly boolean[], questCount: number): string | null {
  if (typeof u !== 'string' || u.length === 0 || u.length > MARKER_BOUNDS.uid) return 'uid: must be a non-empty string';
  if (typeof x !== 'number' || !Number.isFinite(x) || typeof y !== 'number' || !Number.isFinite(y)) return 'geometry: x and y must be finite numbers';
  if (typeof level !== 'number' || !Number.isInteger(level) || level < MIN_LEVEL || level > MAX_LEVEL) return `level: must be a whole number from ${MIN_LEVEL} to ${MAX_LEVEL}`;
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 0 || k >= knownKind.length || !knownKind[k]) return 'subCategory: unknown category / subCategory pair';
  if (typeof q !== 'number' || !Number.isInteger(q) || q < -1 || q >= questCount) return 'questUid: not in the quest table';
  if (typeof l !== 'string') return 'label: must be a string';
  return null;
}

/**
 * A compact list's kind and quest tables, checked (`what` names the list in the error), with
 * whether each kind is a known category / subCategory pair.
 */
export function checkTables(kinds: unknown, quests: unknown, what: string): { kinds: [string, string][]; knownKind: boolean[]; quests: string[] } {
  if (!Array.isArray(kinds) || !kinds.every((k) => Array.isArray(k) && k.length === 2 && typeof k[0] === 'string' && typeof k[1] === 'string')) {
    throw new CompactListError(`${what}: "kinds" must be a list of [category, subCategory] pairs`);
  }
  if (!Array.isArray(quests) || !quests.every((q) => typeof q === 'string' && q.length > 0)) {
    throw new CompactListError(`${what}: "quests" must be a list of quest uids`);
  }
  const pairs = kinds as [string, string][];
  return { kinds: pairs, knownKind: pairs.map(([c, s]) => isKnownCategory(c, s)), quests: quests as string[] };
}

const COLUMNS = ['uid', 'x', 'y', 'level', 'kind', 'quest', 'label'] as const;

/**
 * A compact list's good rows as columns: what the markers worker keeps (no record per marker,
 * issue 11). `label` '' stands for the subCategory. Row i of every column is the same marker.
 */
export interface CompactRows {
  map: string;
  lang: Language;
  kinds: [string, string][];
  quests: string[];
  count: number;
  uid: string[];
  label: string[];
  x: ArrayLike<number>;
  y: ArrayLike<number>;
  level: ArrayLike<number>;
  /** Index into kinds. */
  kind: ArrayLike<number>;
  /** Index into quests, -1: none. */
  quest: ArrayLike<number>;
  /** The rows left out, and why. */
  issues: CompactIssue[];
}

/** A list's columns as read, before the row checks (JSON arrays or typed arrays). */
export interface CompactColumnsIn {
  map: string;
  lang: Language;
  kinds: [string, string][];
  knownKind: boolean[];
  quests: string[];
  count: number;
  uid: ArrayLike<unknown>;
  label: ArrayLike<unknown>;
  x: ArrayLike<unknown>;
  y: ArrayLike<unknown>;
  level: ArrayLike<unknown>;
  kind: ArrayLike<unknown>;
  quest: ArrayLike<unknown>;
}

/**
 * Checks every row (checkCompactRow) and keeps the good ones: the columns as they are when all
 * rows are good (the usual case: no copy), else copies of the good rows. A bad row is reported.
 */
export function keepGoodRows(c: CompactColumnsIn): CompactRows {
  const issues: CompactIssue[] = [];
  let bad: number[] | null = null;
  for (let i = 0; i < c.count; i++) {
    const u = c.uid[i];
    const problem = checkCompactRow(u, c.x[i], c.y[i], c.level[i], c.kind[i], c.quest[i], c.label[i], c.knownKind, c.quests.length);
    if (!problem) continue;
    issues.push({ index: i, ...(typeof u === 'string' ? { uid: u } : {}), message: problem });
    (bad ??= []).push(i);
  }
  const base = { map: c.map, lang: c.lang, kinds: c.kinds, quests: c.quests, issues };
  if (!bad) {
    return { ...base, count: c.count, uid: c.uid as string[], label: c.label as string[], x: c.x as ArrayLike<number>, y: c.y as ArrayLike<number>, level: c.level as ArrayLike<number>, kind: c.kind as ArrayLike<number>, quest: c.quest as ArrayLike<number> };
  }
  const dropped = new Set(bad);
  const good: number[] = [];
  for (let i = 0; i < c.count; i++) if (!dropped.has(i)) good.push(i);
  const pick = <T>(column: ArrayLike<unknown>) => good.map((i) => column[i] as T);
  return {
    ...base,
    count: good.length,
    uid: pick<string>(c.uid),
    label: pick<string>(c.label),
    x: pick<number>(c.x),
    y: pick<number>(c.y),
    level: pick<number>(c.level),
    kind: pick<number>(c.kind),
    quest: pick<number>(c.quest),
  };
}

/** The record of each row (what a popup or a test reads; the worker keeps the columns). */
export function rowsToRecords(rows: CompactRows): DecodedCompactList {
  const markers: CompactMarker[] = new Array(rows.count);
  for (let i = 0; i < rows.count; i++) {
    const [category, subCategory] = rows.kinds[rows.kind[i]];
    const q = rows.quest[i];
    markers[i] = { uid: rows.uid[i], category, subCategory, level: rows.level[i], questUid: q >= 0 ? rows.quests[q] : null, x: rows.x[i], y: rows.y[i], label: rows.label[i] || subCategory };
  }
  return { map: rows.map, lang: rows.lang, markers, issues: rows.issues };
}

/**
 * Checks a parsed compact list and keeps its good rows as columns. A list whose shape is wrong
 * (a missing column, lengths that differ, another version) throws CompactListError; a row with a
 * bad value (a non-finite position, an unknown kind) is dropped and reported, never fatal.
 */
export function compactRowsFromJson(body: unknown): CompactRows {
  if (!isCompactBody(body)) throw new CompactListError('not a compact marker list (no "format" field)');
  const b = body as unknown as Record<string, unknown>;
  if (b.version !== COMPACT_VERSION) throw new CompactListError(`compact marker list version ${String(b.version)} is not supported (want ${COMPACT_VERSION})`);
  const count = b.count;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) throw new CompactListError('compact marker list: "count" must be a whole number');
  for (const column of COLUMNS) {
    const value = b[column];
    if (!Array.isArray(value) || value.length !== count) throw new CompactListError(`compact marker list: "${column}" must be a list of ${count} values`);
  }
  const { kinds, knownKind, quests } = checkTables(b.kinds, b.quests, 'compact marker list');
  return keepGoodRows({
    map: typeof b.map === 'string' ? b.map : '',
    lang: b.lang === 'ru' ? 'ru' : 'en',
    kinds,
    knownKind,
    quests,
    count,
    uid: b.uid as unknown[],
    label: b.label as unknown[],
    x: b.x as unknown[],
    y: b.y as unknown[],
    level: b.level as unknown[],
    kind: b.kind as unknown[],
    quest: b.quest as unknown[],
  });
}

/** The same checks, one record per good row. */
export function decodeCompactList(body: unknown): DecodedCompactList {
  return rowsToRecords(compactRowsFromJson(body));
}
