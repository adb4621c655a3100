/**
 * The marker store that lives inside the markers worker (pure: no DOM, no comlink).
 *
 * It decodes and validates the server's marker list once, keeps it, and answers the main
 * thread with compact results: column arrays for the engine, index lists for filters.
 *
 * Each marker has a slot: its index in the columns, which is the engine's index. An edit
 * touches one slot: `upsert` replaces a marker in its slot (same uid) or appends a new slot,
 * `remove` empties a slot (it never passes a filter again; the other indices stay).
 */
import { SUBCATEGORIES } from '../src/domain/categories';
import { type Language, type Marker, type MarkerIssue, localized, markerSchema, validateMarkers } from '../src/domain/marker';
import type { MarkerColumns, MarkerRow } from '../src/domain/marker-columns';

export interface MarkerFilterQuery {
  hiddenCategories: string[];
  hiddenSubCategories: string[];
  /** Only markers on these levels; all levels when absent. */
  levels?: number[];
  /**
   * The quests the visitor follows. A marker linked to a quest (`questUid`) is drawn only while
   * its quest is selected. When absent, quest-linked markers are not restricted.
   */
  selectedQuests?: string[];
  /**
   * uids of the quest list (the server's quest cache). Markers linked to a quest that is not in
   * it are dropped (spec §5). When absent (the list is not loaded yet), none are dropped.
   */
  knownQuests?: string[];
  /**
   * Quests whose markers are dropped even while followed: with own progress (pro), the user's
   * done and hidden quests (spec §4). When absent, none are dropped for progress.
   */
  hiddenQuests?: string[];
}

export interface MarkerLoadResult {
  /** Markers kept (valid and on this map). */
  count: number;
  /** Markers dropped for validation issues. */
  issues: number;
  /** The first few issues, for a console warning. */
  sampleIssues: MarkerIssue[];
  /** Markers of other maps that were dropped. */
  otherMap: number;
  columns: MarkerColumns;
  /** Markers per subcategory id. */
  counts: Record<string, number>;
}

export interface MarkerUpsertResult {
  /** The marker's slot: its index in the columns (the engine's index). */
  index: number;
  /** The marker's columns, for the engine's upsertMarker. */
  row: MarkerRow;
  /** Markers per subcategory id after the change. */
  counts: Record<string, number>;
  /**
   * Whether the marker passes the last filter query this store answered (true before any):
   * the `passes` argument of the engine's upsertMarker.
   */
  passes: boolean;
}

export interface MarkerRemoveResult {
  /** The slot that was emptied. */
  index: number;
  /** Markers per subcategory id after the change. */
  counts: Record<string, number>;
}

export class MarkerListError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MarkerListError';
  }
}

const SAMPLE_ISSUES = 5;
const iconIndex = new Map(SUBCATEGORIES.map((s, i) => [s.id, i]));
const ALWAYS_LABEL_CATEGORY = 'Extractions';

/** Decodes a UTF-8 JSON body `{ markers: [...] }` (or a bare list). Throws MarkerListError on bad input. */
export function decodeMarkerList(buffer: ArrayBuffer): unknown {
  if (!(buffer instanceof ArrayBuffer)) throw new MarkerListError('marker list is not an ArrayBuffer');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(buffer);
  } catch {
    throw new MarkerListError('marker list is not valid UTF-8');
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new MarkerListError(`marker list is not valid JSON (${(error as Error).message})`);
  }
  if (Array.isArray(body)) return body;
  if (body && typeof body === 'object' && 'markers' in body) return (body as { markers: unknown }).markers;
  throw new MarkerListError('marker list has no "markers" field');
}

export function markerLabel(marker: Marker, lang: Language): string {
  return localized(marker, 'name', lang) || marker.subCategory;
}

/** One marker's columns. */
export function markerRow(m: Marker, lang: Language): MarkerRow {
  return {
    uid: m.uid,
    x: m.geometry.x,
    y: m.geometry.y,
    level: m.level,
    icon: iconIndex.get(m.subCategory) ?? 0,
    label: markerLabel(m, lang),
    alwaysLabel: m.category === ALWAYS_LABEL_CATEGORY ? 1 : 0,
  };
}

/**
 * Columns of a marker list; an empty slot (null, a removed marker) gets an empty row: no uid,
 * no label, at (0, 0). It never passes a filter, so the engine never draws it.
 */
export function buildColumns(markers: readonly (Marker | null)[], lang: Language): MarkerColumns {
  const n = markers.length;
  const columns: MarkerColumns = {
    uids: new Array<string>(n),
    x: new Float32Array(n),
    y: new Float32Array(n),
    level: new Int16Array(n),
    icon: new Uint8Array(n),
    labels: new Array<string>(n),
    alwaysLabel: new Uint8Array(n),
  };
  markers.forEach((m, i) => {
    if (!m) {
      columns.uids[i] = '';
      columns.labels[i] = '';
      return;
    }
    const row = markerRow(m, lang);
    columns.uids[i] = row.uid;
    columns.x[i] = row.x;
    columns.y[i] = row.y;
    columns.level[i] = row.level;
    columns.icon[i] = row.icon;
    columns.labels[i] = row.label;
    columns.alwaysLabel[i] = row.alwaysLabel;
  });
  return columns;
}

/** A filter query as a predicate on one marker. */
export function markerPredicate(query: MarkerFilterQuery): (m: Marker) => boolean {
  const hiddenCategories = new Set(query.hiddenCategories);
  const hiddenSubCategories = new Set(query.hiddenSubCategories);
  const levels = query.levels ? new Set(query.levels) : null;
  const selectedQuests = query.selectedQuests ? new Set(query.selectedQuests) : null;
  const knownQuests = query.knownQuests ? new Set(query.knownQuests) : null;
  const hiddenQuests = query.hiddenQuests ? new Set(query.hiddenQuests) : null;
  return (m) => {
    if (hiddenCategories.has(m.category) || hiddenSubCategories.has(m.subCategory)) return false;
    if (levels && !levels.has(m.level)) return false;
    if (m.questUid) {
      if (knownQuests && !knownQuests.has(m.questUid)) return false;
      if (hiddenQuests && hiddenQuests.has(m.questUid)) return false;
      if (selectedQuests && !selectedQuests.has(m.questUid)) return false;
    }
    return true;
  };
}

/** Indices (into `markers`) of the markers that pass the query, ascending; empty slots never pass. */
export function filterIndices(markers: readonly (Marker | null)[], query: MarkerFilterQuery | ((m: Marker) => boolean)): Uint32Array {
  const passes = typeof query === 'function' ? query : markerPredicate(query);
  const out = new Uint32Array(markers.length);
  let n = 0;
  markers.forEach((m, i) => {
    if (m && passes(m)) out[n++] = i;
  });
  return out.slice(0, n);
}

export function countBySubCategory(markers: readonly (Marker | null)[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const m of markers) if (m) counts[m.subCategory] = (counts[m.subCategory] ?? 0) + 1;
  return counts;
}

function issueMessage(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  return error.issues.map((i) => `${i.path.map(String).join('.') || 'marker'}: ${i.message}`).join('; ');
}

function isFilterQuery(query: unknown): query is MarkerFilterQuery {
  const q = query as MarkerFilterQuery;
  const strings = (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === 'string');
  return (
    !!q && typeof q === 'object' && strings(q.hiddenCategories) && strings(q.hiddenSubCategories) &&
    (q.levels === undefined || (Array.isArray(q.levels) && q.levels.every((l) => Number.isFinite(l)))) &&
    (q.selectedQuests === undefined || strings(q.selectedQuests)) &&
    (q.knownQuests === undefined || strings(q.knownQuests)) &&
    (q.hiddenQuests === undefined || strings(q.hiddenQuests))
  );
}

/** One map's marker list, kept between calls. */
export interface MarkerStore {
  load(buffer: ArrayBuffer, mapId: string, lang: Language): MarkerLoadResult;
  filter(query: MarkerFilterQuery): Uint32Array;
  get(uid: string): Marker | null;
  /** Labels per slot in a language ('' for an empty slot). */
  relabel(lang: Language): string[];
  /**
   * Validates one marker (as the list's markers are) and puts it in: a known uid keeps its
   * slot, a removed uid gets its old slot back, a new one is appended. Throws MarkerListError
   * for an invalid marker, one of another map, or before a list was loaded.
   */
  upsert(raw: unknown, lang: Language): MarkerUpsertResult;
  /** Empties a marker's slot; null when no marker has that uid. */
  remove(uid: string): MarkerRemoveResult | null;
}

export function createMarkerStore(): MarkerStore {
  /** Marker per slot; null for an emptied slot. */
  let markers: (Marker | null)[] = [];
  /** Slot per uid, for the markers present. */
  let slotOf = new Map<string, number>();
  /** Slot of each removed uid: putting it back refills that slot. */
  let emptied = new Map<string, number>();
  let counts: Record<string, number> = {};
  let mapId: string | null = null;
  /** The last filter query, as a predicate (null: none yet, everything passes). */
  let lastPredicate: ((m: Marker) => boolean) | null = null;

  const count = (subCategory: string, delta: number) => {
    const next = (counts[subCategory] ?? 0) + delta;
    if (next > 0) counts[subCategory] = next;
    else delete counts[subCategory];
  };

  return {
    load(buffer, map, lang) {
      const { markers: valid, issues } = validateMarkers(decodeMarkerList(buffer));
      const kept = valid.filter((m) => m.map === map);
      markers = kept;
      mapId = map;
      // A uid listed twice keeps its last marker's slot for edits (the list keeps both).
      slotOf = new Map(kept.map((m, i) => [m.uid, i]));
      emptied = new Map();
      counts = countBySubCategory(markers);
      return {
        count: markers.length,
        issues: issues.length,
        sampleIssues: issues.slice(0, SAMPLE_ISSUES),
        otherMap: valid.length - markers.length,
        columns: buildColumns(markers, lang),
        counts: { ...counts },
      };
    },
    filter(query) {
      if (!isFilterQuery(query)) throw new MarkerListError('filter query must have hiddenCategories, hiddenSubCategories (string lists), optional levels (numbers) and optional selectedQuests, knownQuests, hiddenQuests (string lists)');
      lastPredicate = markerPredicate(query);
      return filterIndices(markers, lastPredicate);
    },
    get(uid) {
      const slot = slotOf.get(uid);
      return slot === undefined ? null : markers[slot];
    },
    relabel(lang) {
      return markers.map((m) => (m ? markerLabel(m, lang) : ''));
    },
    upsert(raw, lang) {
      if (mapId === null) throw new MarkerListError('no marker list is loaded: load one before editing a marker');
      const parsed = markerSchema.safeParse(raw);
      if (!parsed.success) {
        const uid = typeof (raw as { uid?: unknown })?.uid === 'string' ? ` ${(raw as { uid: string }).uid}` : '';
        throw new MarkerListError(`marker${uid} is not valid: ${issueMessage(parsed.error)}`);
      }
      const marker = parsed.data;
      if (marker.map !== mapId) throw new MarkerListError(`marker ${marker.uid} is on map ${marker.map}, not ${mapId}`);
      let index = slotOf.get(marker.uid);
      if (index !== undefined) {
        count(markers[index]!.subCategory, -1);
      } else {
        index = emptied.get(marker.uid) ?? markers.length;
        emptied.delete(marker.uid);
        slotOf.set(marker.uid, index);
      }
      markers[index] = marker;
      count(marker.subCategory, 1);
      return { index, row: markerRow(marker, lang), counts: { ...counts }, passes: lastPredicate ? lastPredicate(marker) : true };
    },
    remove(uid) {
      const index = slotOf.get(uid);
      if (index === undefined) return null;
      count(markers[index]!.subCategory, -1);
      markers[index] = null;
      slotOf.delete(uid);
      emptied.set(uid, index);
      return { index, counts: { ...counts } };
    },
  };
}
