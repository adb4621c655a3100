/**
 * The marker store that lives inside the markers worker (pure: no DOM, no comlink).
 *
 * It decodes and validates the server's marker list once, keeps it, and answers the main
 * thread with compact results: column arrays for the engine, index lists for filters.
 */
import { SUBCATEGORIES } from '../src/domain/categories';
import { type Language, type Marker, type MarkerIssue, localized, validateMarkers } from '../src/domain/marker';
import type { MarkerColumns } from '../src/engine/types';

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

export function buildColumns(markers: readonly Marker[], lang: Language): MarkerColumns {
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
    columns.uids[i] = m.uid;
    columns.x[i] = m.geometry.x;
    columns.y[i] = m.geometry.y;
    columns.level[i] = m.level;
    columns.icon[i] = iconIndex.get(m.subCategory) ?? 0;
    columns.labels[i] = markerLabel(m, lang);
    columns.alwaysLabel[i] = m.category === ALWAYS_LABEL_CATEGORY ? 1 : 0;
  });
  return columns;
}

/** Indices (into `markers`) of the markers that pass the query, ascending. */
export function filterIndices(markers: readonly Marker[], query: MarkerFilterQuery): Uint32Array {
  const hiddenCategories = new Set(query.hiddenCategories);
  const hiddenSubCategories = new Set(query.hiddenSubCategories);
  const levels = query.levels ? new Set(query.levels) : null;
  const selectedQuests = query.selectedQuests ? new Set(query.selectedQuests) : null;
  const knownQuests = query.knownQuests ? new Set(query.knownQuests) : null;
  const hiddenQuests = query.hiddenQuests ? new Set(query.hiddenQuests) : null;
  const out = new Uint32Array(markers.length);
  let n = 0;
  markers.forEach((m, i) => {
    if (hiddenCategories.has(m.category) || hiddenSubCategories.has(m.subCategory)) return;
    if (levels && !levels.has(m.level)) return;
    if (m.questUid) {
      if (knownQuests && !knownQuests.has(m.questUid)) return;
      if (hiddenQuests && hiddenQuests.has(m.questUid)) return;
      if (selectedQuests && !selectedQuests.has(m.questUid)) return;
    }
    out[n++] = i;
  });
  return out.slice(0, n);
}

export function countBySubCategory(markers: readonly Marker[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const m of markers) counts[m.subCategory] = (counts[m.subCategory] ?? 0) + 1;
  return counts;
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
  relabel(lang: Language): string[];
}

export function createMarkerStore(): MarkerStore {
  let markers: Marker[] = [];
  let byUid = new Map<string, Marker>();

  return {
    load(buffer, mapId, lang) {
      const { markers: valid, issues } = validateMarkers(decodeMarkerList(buffer));
      markers = valid.filter((m) => m.map === mapId);
      byUid = new Map(markers.map((m) => [m.uid, m]));
      return {
        count: markers.length,
        issues: issues.length,
        sampleIssues: issues.slice(0, SAMPLE_ISSUES),
        otherMap: valid.length - markers.length,
        columns: buildColumns(markers, lang),
        counts: countBySubCategory(markers),
      };
    },
    filter(query) {
      if (!isFilterQuery(query)) throw new MarkerListError('filter query must have hiddenCategories, hiddenSubCategories (string lists), optional levels (numbers) and optional selectedQuests, knownQuests, hiddenQuests (string lists)');
      return filterIndices(markers, query);
    },
    get(uid) {
      return byUid.get(uid) ?? null;
    },
    relabel(lang) {
      return markers.map((m) => markerLabel(m, lang));
    },
  };
}
