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
import { decodeCompactBinary, isCompactBinary } from '../src/domain/compact-binary';
import { type CompactMarker, CompactListError, type DecodedCompactList, decodeCompactList, isCompactBody } from '../src/domain/compact-markers';
import { type Language, type Marker, type MarkerIssue, localized, markerSchema, validateMarkers } from '../src/domain/marker';
import type { MarkerColumns, MarkerRow } from '../src/domain/marker-columns';

/**
 * What a slot holds: a full marker (from a full list, an edit or a live change) or the compact
 * list's record of it (issue 11: the fields filtering, counting and drawing need).
 */
export type SlotMarker = Marker | CompactMarker;

/** The fields a filter reads: a full marker or a compact one. */
export type FilterFacts = Pick<Marker, 'category' | 'subCategory' | 'level'> & { questUid?: string | null };

/** True when a slot holds the full marker (not only its compact record). */
export function isFullMarker(m: SlotMarker): m is Marker {
  return (m as Marker).geometry !== undefined;
}

/** How many full markers fetched for popups (compact lists) the store keeps, least recently read dropped first. */
export const FETCHED_CACHE_SIZE = 256;

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
  /**
   * 'full': the list had whole markers (`{ markers }`); 'compact': the compact list, whose full
   * markers are fetched one at a time (`lookup` answers 'fetch', `remember` keeps them).
   */
  format: 'full' | 'compact';
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

/** Parses a UTF-8 JSON body. Throws MarkerListError on bad input. */
export function parseMarkerBody(buffer: ArrayBuffer): unknown {
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
  return body;
}

/**
 * A marker list's body as the store reads it: a binary compact list stays bytes (its
 * ArrayBuffer, decoded by decodeCompact); anything else is parsed as UTF-8 JSON.
 */
function readMarkerBody(buffer: ArrayBuffer): unknown {
  return buffer instanceof ArrayBuffer && isCompactBinary(buffer) ? buffer : parseMarkerBody(buffer);
}

/** A compact list, binary (its bytes) or parsed JSON, decoded; a bad frame is a MarkerListError. */
function decodeCompact(body: unknown): DecodedCompactList {
  try {
    return body instanceof ArrayBuffer ? decodeCompactBinary(body) : decodeCompactList(body);
  } catch (error) {
    if (error instanceof CompactListError) throw new MarkerListError(error.message);
    throw error;
  }
}

/** Decodes a UTF-8 JSON body `{ markers: [...] }` (or a bare list). Throws MarkerListError on bad input. */
export function decodeMarkerList(buffer: ArrayBuffer): unknown {
  return markersOf(parseMarkerBody(buffer));
}

function markersOf(body: unknown): unknown {
  if (Array.isArray(body)) return body;
  if (body && typeof body === 'object' && 'markers' in body) return (body as { markers: unknown }).markers;
  throw new MarkerListError('marker list has no "markers" field');
}

export function markerLabel(marker: Marker, lang: Language): string {
  return localized(marker, 'name', lang) || marker.subCategory;
}

/** One marker's columns (a compact record's label is in its list's language). */
export function markerRow(m: SlotMarker, lang: Language): MarkerRow {
  const full = isFullMarker(m);
  return {
    uid: m.uid,
    x: full ? m.geometry.x : m.x,
    y: full ? m.geometry.y : m.y,
    level: m.level,
    icon: iconIndex.get(m.subCategory) ?? 0,
    label: full ? markerLabel(m, lang) : m.label,
    alwaysLabel: m.category === ALWAYS_LABEL_CATEGORY ? 1 : 0,
  };
}

/**
 * Columns of a marker list; an empty slot (null, a removed marker) gets an empty row: no uid,
 * no label, at (0, 0). It never passes a filter, so the engine never draws it.
 */
export function buildColumns(markers: readonly (SlotMarker | null)[], lang: Language): MarkerColumns {
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
export function markerPredicate(query: MarkerFilterQuery): (m: FilterFacts) => boolean {
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
export function filterIndices(markers: readonly (FilterFacts | null)[], query: MarkerFilterQuery | ((m: FilterFacts) => boolean)): Uint32Array {
  const passes = typeof query === 'function' ? query : markerPredicate(query);
  const out = new Uint32Array(markers.length);
  let n = 0;
  markers.forEach((m, i) => {
    if (m && passes(m)) out[n++] = i;
  });
  return out.slice(0, n);
}

export function countBySubCategory(markers: readonly (FilterFacts | null)[]): Record<string, number> {
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
  /** Loads a full list (`{ markers }`) or a compact one, JSON or binary (issue 11); the format is read from the body. */
  load(buffer: ArrayBuffer, mapId: string, lang: Language): MarkerLoadResult;
  filter(query: MarkerFilterQuery): Uint32Array;
  /** The full marker when the store has it (a full list, an edit, a live change, a fetched one); else null. */
  get(uid: string): Marker | null;
  /**
   * The full marker when the store has it; 'fetch' when the marker is on the map but only its
   * compact record is here (read it from the server and hand it to `remember`); null when no
   * marker has that uid.
   */
  lookup(uid: string): Marker | 'fetch' | null;
  /**
   * Keeps a full marker read from the server for a compact list's slot (a popup, an edit
   * snapshot), validated; the least recently read are dropped past FETCHED_CACHE_SIZE. Answers
   * the marker to use: the store's own copy when it has a newer one (an edit or a live change
   * came first), null when the marker is no longer on the map or is not valid.
   */
  remember(raw: unknown): Marker | null;
  /**
   * Labels per slot in a language ('' for an empty slot). A compact list's records take their
   * label from `compact`, the compact list in that language, when given (a record missing from
   * it keeps its label); full markers are labelled from their translations.
   */
  relabel(lang: Language, compact?: ArrayBuffer): string[];
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
  /** Marker per slot (full or compact); null for an emptied slot. */
  let markers: (SlotMarker | null)[] = [];
  /**
   * Slot per uid, for the markers present; made on first use (a popup, an edit), not with the
   * list: at 100,000 markers it was a sixth of a load (docs/PERFORMANCE.md, "Fifth session").
   * Made from the slots as they are then, so every use asks `slots()` before it changes one.
   */
  let slotIndex: Map<string, number> | null = null;
  const slots = (): Map<string, number> => {
    if (!slotIndex) {
      // A uid listed twice keeps its last marker's slot for edits (the list keeps both).
      slotIndex = new Map();
      for (let i = 0; i < markers.length; i++) {
        const m = markers[i];
        if (m) slotIndex.set(m.uid, i);
      }
    }
    return slotIndex;
  };
  /** Slot of each removed uid: putting it back refills that slot. */
  let emptied = new Map<string, number>();
  /** Full markers fetched for compact slots, least recently read first. */
  let fetched = new Map<string, Marker>();
  let counts: Record<string, number> = {};
  let mapId: string | null = null;
  /** The last filter query, as a predicate (null: none yet, everything passes). */
  let lastPredicate: ((m: FilterFacts) => boolean) | null = null;

  const count = (subCategory: string, delta: number) => {
    const next = (counts[subCategory] ?? 0) + delta;
    if (next > 0) counts[subCategory] = next;
    else delete counts[subCategory];
  };

  const lookup = (uid: string): Marker | 'fetch' | null => {
    const slot = slots().get(uid);
    if (slot === undefined) return null;
    const m = markers[slot];
    if (!m) return null;
    if (isFullMarker(m)) return m;
    const known = fetched.get(uid);
    if (!known) return 'fetch';
    fetched.delete(uid);
    fetched.set(uid, known);
    return known;
  };

  const loadFull = (body: unknown, map: string) => {
    const { markers: valid, issues } = validateMarkers(markersOf(body));
    const kept = valid.filter((m) => m.map === map);
    return { kept: kept as SlotMarker[], issues, otherMap: valid.length - kept.length };
  };

  const loadCompact = (body: unknown, map: string) => {
    const decoded = decodeCompact(body);
    // A compact list is one map's: another map's list keeps nothing.
    if (decoded.map !== map) return { kept: [] as SlotMarker[], issues: decoded.issues, otherMap: decoded.markers.length };
    return { kept: decoded.markers as SlotMarker[], issues: decoded.issues, otherMap: 0 };
  };

  return {
    load(buffer, map, lang) {
      const body = readMarkerBody(buffer);
      const compact = body instanceof ArrayBuffer || isCompactBody(body);
      const { kept, issues, otherMap } = compact ? loadCompact(body, map) : loadFull(body, map);
      markers = kept;
      mapId = map;
      slotIndex = null;
      emptied = new Map();
      fetched = new Map();
      counts = countBySubCategory(markers);
      return {
        count: markers.length,
        issues: issues.length,
        sampleIssues: issues.slice(0, SAMPLE_ISSUES),
        otherMap,
        columns: buildColumns(markers, lang),
        counts: { ...counts },
        format: compact ? 'compact' : 'full',
      };
    },
    filter(query) {
      if (!isFilterQuery(query)) throw new MarkerListError('filter query must have hiddenCategories, hiddenSubCategories (string lists), optional levels (numbers) and optional selectedQuests, knownQuests, hiddenQuests (string lists)');
      lastPredicate = markerPredicate(query);
      return filterIndices(markers, lastPredicate);
    },
    get(uid) {
      const found = lookup(uid);
      return found === 'fetch' ? null : found;
    },
    lookup,
    remember(raw) {
      const parsed = markerSchema.safeParse(raw);
      if (!parsed.success) return null;
      const marker = parsed.data;
      const slot = slots().get(marker.uid);
      if (slot === undefined || marker.map !== mapId) return null;
      const m = markers[slot];
      if (!m) return null;
      if (isFullMarker(m)) return m;
      fetched.delete(marker.uid);
      fetched.set(marker.uid, marker);
      while (fetched.size > FETCHED_CACHE_SIZE) fetched.delete(fetched.keys().next().value!);
      return marker;
    },
    relabel(lang, compact) {
      let fromList: Map<string, string> | null = null;
      if (compact) {
        const body = readMarkerBody(compact);
        if (body instanceof ArrayBuffer || isCompactBody(body)) fromList = new Map(decodeCompact(body).markers.map((m) => [m.uid, m.label]));
      }
      return markers.map((m) => {
        if (!m) return '';
        if (isFullMarker(m)) return markerLabel(m, lang);
        const label = fromList?.get(m.uid);
        if (label !== undefined) m.label = label;
        else {
          const known = fetched.get(m.uid);
          if (known) m.label = markerLabel(known, lang);
        }
        return m.label;
      });
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
      const slotOf = slots();
      let index = slotOf.get(marker.uid);
      if (index !== undefined) {
        count(markers[index]!.subCategory, -1);
      } else {
        index = emptied.get(marker.uid) ?? markers.length;
        emptied.delete(marker.uid);
        slotOf.set(marker.uid, index);
      }
      markers[index] = marker;
      fetched.delete(marker.uid);
      count(marker.subCategory, 1);
      return { index, row: markerRow(marker, lang), counts: { ...counts }, passes: lastPredicate ? lastPredicate(marker) : true };
    },
    remove(uid) {
      const slotOf = slots();
      const index = slotOf.get(uid);
      if (index === undefined) return null;
      count(markers[index]!.subCategory, -1);
      markers[index] = null;
      slotOf.delete(uid);
      emptied.set(uid, index);
      fetched.delete(uid);
      return { index, counts: { ...counts } };
    },
  };
}
