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
import { compactRowsFromBinary, isCompactBinary } from '../src/domain/compact-binary';
import { CompactListError, type CompactRows, compactRowsFromJson, isCompactBody } from '../src/domain/compact-markers';
import { type Language, type Marker, type MarkerIssue, localized, markerSchema, validateMarkers } from '../src/domain/marker';
import { type MarkerColumns, type MarkerRow, writeMarkerRow } from '../src/domain/marker-columns';
import type { HeldChange } from '../src/domain/list-replay';
import { type Landmark, type MatchKind, type NamedByText, nearestLandmark, searchLabels, searchMarkers } from '../src/domain/marker-search';
import { subCategoryName } from '../src/domain/subcategory-names';

/** The fields a filter reads: a full marker's, or a compact row's. */
export type FilterFacts = Pick<Marker, 'category' | 'subCategory' | 'level'> & { questUid?: string | null };

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

/** One marker found by name (`search`): what the panel's list shows of it. */
export interface MarkerSearchHit {
  uid: string;
  /** Its label as the map draws it, in the language of the last load, relabel or edit. */
  label: string;
  subCategory: string;
  level: number;
}

/** What Find a marker asks (`find`): the typed text, the ids its words name (src/domain/marker-search.ts), how many rows. */
export interface MarkerFindQuery extends NamedByText {
  text: string;
  limit: number;
}

/** One marker found by `find`: a search hit, and what tells it apart from others of the same name. */
export interface MarkerFindHit extends MarkerSearchHit {
  /** What made it match: its label, or its subcategory, quest or category named by the text. */
  by: MatchKind;
  category: string;
  questUid: string | null;
  /** Its position, map pixels. */
  x: number;
  y: number;
  /** The nearest named extraction (not itself), distance in map pixels; null when the map has none. */
  near: { label: string; distance: number } | null;
}

export interface MarkerFindResult {
  /** Best first, at most the query's limit (capped at SEARCH_LIMIT_MAX). */
  hits: MarkerFindHit[];
  /** How many markers match in all. */
  total: number;
}

/** The most hits one search answers (a query asks for fewer). */
export const SEARCH_LIMIT_MAX = 200;

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

/** A compact list, binary (its bytes) or parsed JSON, as columns of its good rows; a bad frame is a MarkerListError. */
function decodeRows(body: unknown): CompactRows {
  try {
    return body instanceof ArrayBuffer ? compactRowsFromBinary(body) : compactRowsFromJson(body);
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

/** A marker's label on the map: its name in `lang`, else its subcategory's name in `lang` (as its popup's title). */
export function markerLabel(marker: Marker, lang: Language): string {
  return localized(marker, 'name', lang) || subCategoryName(marker.subCategory, lang);
}

/** One full marker's columns. */
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
 * The columns of `size` slots: a compact list's rows copied column by column (its positions and
 * levels in one typed copy each), then each slot with a marker of its own (a full list's, an
 * edit's) or none (null: an emptied slot gets an empty row: no uid, no label, at (0, 0); it never
 * passes a filter, so the engine never draws it).
 */
function buildColumns(size: number, rows: CompactRows | null, own: readonly (Marker | null | undefined)[], lang: Language): MarkerColumns {
  const columns: MarkerColumns = {
    uids: new Array<string>(size).fill(''),
    x: new Float32Array(size),
    y: new Float32Array(size),
    level: new Int16Array(size),
    icon: new Uint8Array(size),
    labels: new Array<string>(size).fill(''),
    alwaysLabel: new Uint8Array(size),
  };
  // The list's rows come first (size is never below rows.count: edits only append).
  if (rows && rows.count > 0) {
    const n = rows.count;
    columns.x.set(rows.x);
    columns.y.set(rows.y);
    columns.level.set(rows.level);
    const kindIcon = rows.kinds.map(([, sub]) => iconIndex.get(sub) ?? 0);
    const kindAlways = rows.kinds.map(([category]) => (category === ALWAYS_LABEL_CATEGORY ? 1 : 0));
    for (let i = 0; i < n; i++) {
      const k = rows.kind[i];
      columns.uids[i] = rows.uid[i];
      columns.labels[i] = rows.label[i] || subCategoryName(rows.kinds[k][1], lang);
      columns.icon[i] = kindIcon[k];
      columns.alwaysLabel[i] = kindAlways[k];
    }
  }
  own.forEach((m, i) => {
    if (m) writeMarkerRow(columns, i, markerRow(m, lang));
    else if (m === null) writeMarkerRow(columns, i, EMPTY_ROW);
  });
  return columns;
}

const EMPTY_ROW: MarkerRow = { uid: '', x: 0, y: 0, level: 0, icon: 0, label: '', alwaysLabel: 0 };

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
  /**
   * Loads a full list (`{ markers }`) or a compact one, JSON or binary (issue 11); the format is
   * read from the body. `replay`: changes the page made or heard while the list was on its way,
   * put back on top of it before its columns are made (src/domain/list-replay.ts); one that is
   * no longer valid is left out.
   */
  load(buffer: ArrayBuffer, mapId: string, lang: Language, replay?: readonly HeldChange[]): MarkerLoadResult;
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
  /**
   * Markers whose label contains `text` (case-insensitive, best first: src/domain/marker-search.ts),
   * at most `limit` (capped at SEARCH_LIMIT_MAX), whatever the filters: the panel reveals a hidden one.
   */
  search(text: string, limit: number): MarkerSearchHit[];
  /**
   * Find a marker: markers whose label matches the text or whose subcategory, quest or category
   * the text names (src/domain/marker-search.ts `searchMarkers`), whatever the filters, each with
   * its position and nearest named extraction (the row's place hint), and how many match in all.
   */
  find(query: MarkerFindQuery): MarkerFindResult;
}

export function createMarkerStore(): MarkerStore {
  /**
   * A compact list's good rows, as columns (issue 11: no record per marker). Slot s below
   * `rows.count` is row s unless `own[s]` says otherwise. Null after a full list.
   */
  let rows: CompactRows | null = null;
  /**
   * Slots with a marker of their own: a full list's, an edit's or a live change's (a Marker), or
   * none any more (null: emptied). A compact row's slot has no entry until an edit gives it one.
   */
  let own: (Marker | null | undefined)[] = [];
  /** Slots so far: the list's, and those appended by edits. */
  let size = 0;
  /**
   * Slot per uid, for the markers present; made on first use (a popup, an edit), not with the
   * list: at 100,000 markers it was a sixth of a load (docs/PERFORMANCE.md, "Fifth session").
   * Made from the slots as they are then, so every use asks `slots()` before it changes one.
   */
  let slotIndex: Map<string, number> | null = null;
  /** Whether slot s is a compact row (no marker of its own). */
  const isRow = (s: number) => rows !== null && s < rows.count && own[s] === undefined;
  /** The uid of a slot's marker, '' for an empty slot. */
  const uidAt = (s: number): string => {
    const m = own[s];
    if (m) return m.uid;
    return m === undefined && rows && s < rows.count ? rows.uid[s] : '';
  };
  /** The subCategory of a slot's marker, null for an empty slot. */
  const subCategoryAt = (s: number): string | null => {
    const m = own[s];
    if (m) return m.subCategory;
    return m === undefined && rows && s < rows.count ? rows.kinds[rows.kind[s]][1] : null;
  };
  const slots = (): Map<string, number> => {
    if (!slotIndex) {
      // A uid listed twice keeps its last marker's slot for edits (the list keeps both).
      slotIndex = new Map();
      for (let s = 0; s < size; s++) {
        const uid = uidAt(s);
        if (uid !== '') slotIndex.set(uid, s);
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
  /** The language the labels are in now: a full marker's label is made from its translations in it. */
  let labelLang: Language = 'en';
  /** The label of a slot's marker as the map draws it, '' for an empty slot. */
  const labelAt = (s: number): string => {
    const m = own[s];
    if (m) return markerLabel(m, labelLang);
    return m === undefined && rows && s < rows.count ? rows.label[s] || subCategoryName(rows.kinds[rows.kind[s]][1], labelLang) : '';
  };
  const levelAt = (s: number): number => own[s]?.level ?? (rows && s < rows.count ? rows.level[s] : 0);
  /** The category of a slot's marker, '' for an empty slot. */
  const categoryAt = (s: number): string => {
    const m = own[s];
    if (m) return m.category;
    return m === undefined && rows && s < rows.count ? rows.kinds[rows.kind[s]][0] : '';
  };
  /** The quest a slot's marker is linked to, null for none. */
  const questAt = (s: number): string | null => {
    const m = own[s];
    if (m) return m.questUid ?? null;
    if (m !== undefined || !rows || s >= rows.count) return null;
    const q = rows.quest[s];
    return q >= 0 ? rows.quests[q] : null;
  };
  const xAt = (s: number): number => own[s]?.geometry.x ?? (rows && s < rows.count ? rows.x[s] : 0);
  const yAt = (s: number): number => own[s]?.geometry.y ?? (rows && s < rows.count ? rows.y[s] : 0);
  /** The extractions with a name of their own (not just their subcategory's), for place hints. */
  const namedExtractions = (): (Landmark & { slot: number })[] => {
    const out: (Landmark & { slot: number })[] = [];
    for (let s = 0; s < size; s++) {
      if (categoryAt(s) !== ALWAYS_LABEL_CATEGORY) continue;
      const m = own[s];
      const name = m ? localized(m, 'name', labelLang) : m === undefined && rows && s < rows.count ? rows.label[s] : '';
      if (name) out.push({ slot: s, label: name, x: xAt(s), y: yAt(s) });
    }
    return out;
  };
  /** The last filter query, as a predicate (null: none yet, everything passes). */
  let lastPredicate: ((m: FilterFacts) => boolean) | null = null;

  const count = (subCategory: string | null, delta: number) => {
    if (subCategory === null) return;
    const next = (counts[subCategory] ?? 0) + delta;
    if (next > 0) counts[subCategory] = next;
    else delete counts[subCategory];
  };

  const countSlots = (): Record<string, number> => {
    const out: Record<string, number> = {};
    if (rows) {
      const perKind = new Array<number>(rows.kinds.length).fill(0);
      for (let s = 0; s < rows.count; s++) if (own[s] === undefined) perKind[rows.kind[s]]++;
      rows.kinds.forEach(([, sub], k) => {
        if (perKind[k] > 0) out[sub] = (out[sub] ?? 0) + perKind[k];
      });
    }
    own.forEach((m) => {
      if (m) out[m.subCategory] = (out[m.subCategory] ?? 0) + 1;
    });
    return out;
  };

  const lookup = (uid: string): Marker | 'fetch' | null => {
    const slot = slots().get(uid);
    if (slot === undefined) return null;
    const m = own[slot];
    if (m) return m;
    if (m === null || !isRow(slot)) return null;
    const known = fetched.get(uid);
    if (!known) return 'fetch';
    fetched.delete(uid);
    fetched.set(uid, known);
    return known;
  };

  const loadFull = (body: unknown, map: string) => {
    const { markers: valid, issues } = validateMarkers(markersOf(body));
    const kept = valid.filter((m) => m.map === map);
    return { kept, issues, otherMap: valid.length - kept.length };
  };

  const store: MarkerStore = {
    load(buffer, map, lang, replay = []) {
      const body = readMarkerBody(buffer);
      const compact = body instanceof ArrayBuffer || isCompactBody(body);
      let issues: readonly MarkerIssue[];
      let otherMap = 0;
      if (compact) {
        const decoded = decodeRows(body);
        issues = decoded.issues;
        // A compact list is one map's: another map's list keeps nothing.
        if (decoded.map !== map) {
          otherMap = decoded.count;
          rows = null;
        } else {
          rows = decoded;
        }
        own = [];
        size = rows?.count ?? 0;
      } else {
        const full = loadFull(body, map);
        issues = full.issues;
        otherMap = full.otherMap;
        rows = null;
        own = full.kept;
        size = own.length;
      }
      mapId = map;
      labelLang = lang;
      slotIndex = null;
      emptied = new Map();
      fetched = new Map();
      counts = countSlots();
      // The changes a list read again may lack go back on top (list-replay.ts): never an older list over a newer change.
      for (const change of replay) {
        try {
          if (change.marker === null) store.remove(change.uid);
          else store.upsert(change.marker, lang);
        } catch (error) {
          if (!(error instanceof MarkerListError)) throw error;
        }
      }
      return {
        count: size,
        issues: issues.length,
        sampleIssues: issues.slice(0, SAMPLE_ISSUES),
        otherMap,
        columns: buildColumns(size, rows, own, lang),
        counts: { ...counts },
        format: compact ? 'compact' : 'full',
      };
    },
    filter(query) {
      if (!isFilterQuery(query)) throw new MarkerListError('filter query must have hiddenCategories, hiddenSubCategories (string lists), optional levels (numbers) and optional selectedQuests, knownQuests, hiddenQuests (string lists)');
      const passes = markerPredicate(query);
      lastPredicate = passes;
      const out = new Uint32Array(size);
      let n = 0;
      // One facts object for every compact row: no record per marker.
      const facts = { category: '', subCategory: '', level: 0, questUid: null as string | null };
      for (let s = 0; s < size; s++) {
        const m = own[s];
        if (m) {
          if (passes(m)) out[n++] = s;
          continue;
        }
        if (m === null || !rows || s >= rows.count) continue;
        const kind = rows.kinds[rows.kind[s]];
        const q = rows.quest[s];
        facts.category = kind[0];
        facts.subCategory = kind[1];
        facts.level = rows.level[s];
        facts.questUid = q >= 0 ? rows.quests[q] : null;
        if (passes(facts)) out[n++] = s;
      }
      return out.slice(0, n);
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
      const m = own[slot];
      if (m) return m;
      if (m === null || !isRow(slot)) return null;
      fetched.delete(marker.uid);
      fetched.set(marker.uid, marker);
      while (fetched.size > FETCHED_CACHE_SIZE) fetched.delete(fetched.keys().next().value!);
      return marker;
    },
    relabel(lang, compact) {
      labelLang = lang;
      let fromList: Map<string, string> | null = null;
      if (compact) {
        const body = readMarkerBody(compact);
        if (body instanceof ArrayBuffer || isCompactBody(body)) {
          const other = decodeRows(body);
          fromList = new Map();
          // '' stands for the subCategory, named below in `lang`.
          for (let i = 0; i < other.count; i++) fromList.set(other.uid[i], other.label[i]);
        }
      }
      const labels = new Array<string>(size);
      for (let s = 0; s < size; s++) {
        const m = own[s];
        if (m) {
          labels[s] = markerLabel(m, lang);
          continue;
        }
        if (m === null || !rows || s >= rows.count) {
          labels[s] = '';
          continue;
        }
        const uid = rows.uid[s];
        const label = fromList?.get(uid);
        if (label !== undefined) rows.label[s] = label;
        else {
          const known = fetched.get(uid);
          if (known) rows.label[s] = localized(known, 'name', lang);
        }
        labels[s] = rows.label[s] || subCategoryName(rows.kinds[rows.kind[s]][1], lang);
      }
      return labels;
    },
    upsert(raw, lang) {
      if (mapId === null) throw new MarkerListError('no marker list is loaded: load one before editing a marker');
      const parsed = markerSchema.safeParse(raw);
      if (!parsed.success) {
        const uid = typeof (raw as { uid?: unknown })?.uid === 'string' ? ` ${(raw as { uid: string }).uid}` : '';
        throw new MarkerListError(`marker${uid} is not valid: ${issueMessage(parsed.error)}`);
      }
      const marker = parsed.data;
      labelLang = lang;
      if (marker.map !== mapId) throw new MarkerListError(`marker ${marker.uid} is on map ${marker.map}, not ${mapId}`);
      const slotOf = slots();
      let index = slotOf.get(marker.uid);
      if (index !== undefined) {
        count(subCategoryAt(index), -1);
      } else {
        index = emptied.get(marker.uid) ?? size;
        emptied.delete(marker.uid);
        slotOf.set(marker.uid, index);
      }
      own[index] = marker;
      if (index >= size) size = index + 1;
      fetched.delete(marker.uid);
      count(marker.subCategory, 1);
      return { index, row: markerRow(marker, lang), counts: { ...counts }, passes: lastPredicate ? lastPredicate(marker) : true };
    },
    remove(uid) {
      const slotOf = slots();
      const index = slotOf.get(uid);
      if (index === undefined) return null;
      count(subCategoryAt(index), -1);
      own[index] = null;
      slotOf.delete(uid);
      emptied.set(uid, index);
      fetched.delete(uid);
      return { index, counts: { ...counts } };
    },
    search(text, limit) {
      if (typeof text !== 'string' || !Number.isInteger(limit)) throw new MarkerListError('search needs text (a string) and limit (a whole number)');
      return searchLabels(size, labelAt, text, Math.min(limit, SEARCH_LIMIT_MAX)).map((s) => ({
        uid: uidAt(s),
        label: labelAt(s),
        subCategory: subCategoryAt(s) ?? '',
        level: levelAt(s),
      }));
    },
    find(query) {
      const strings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string');
      if (
        !query || typeof query.text !== 'string' || !Number.isInteger(query.limit) ||
        !strings(query.subCategories) || !strings(query.quests) || !strings(query.categories)
      ) {
        throw new MarkerListError('find needs text (a string), limit (a whole number) and subCategories, quests, categories (string lists)');
      }
      const facts = { count: size, label: labelAt, subCategory: (s: number) => subCategoryAt(s) ?? '', category: categoryAt, quest: questAt };
      const { matches, total } = searchMarkers(facts, query.text, query, Math.min(query.limit, SEARCH_LIMIT_MAX));
      const landmarks = matches.length > 0 ? namedExtractions() : [];
      const hits = matches.map(({ slot: s, by }): MarkerFindHit => {
        const category = categoryAt(s);
        const x = xAt(s);
        const y = yAt(s);
        // An extraction's own name says where it is: no hint from the others.
        const near = category === ALWAYS_LABEL_CATEGORY ? null : nearestLandmark(landmarks.filter((l) => l.slot !== s), x, y);
        return { uid: uidAt(s), label: labelAt(s), subCategory: subCategoryAt(s) ?? '', level: levelAt(s), by, category, questUid: questAt(s), x, y, near };
      });
      return { hits, total };
    },
  };
  return store;
}
