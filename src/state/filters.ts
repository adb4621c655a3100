/**
 * Category filters of the open map: which categories and subcategories are hidden.
 * Remembered per map in localStorage `map:filters:{map}`. The engine honours them through
 * the wiring module (filters → worker → engine.setFilter).
 *
 * Tabs of the same map share them: a change is made to what is stored now (another tab may have
 * hidden something else meanwhile) and only it is added, and another tab's change shows here at
 * once (the `storage` event: src/state/otherTabs.ts).
 */
import { proxy } from 'valtio';
import { CATEGORIES, SUBCATEGORIES } from '../domain/categories';
import type { MapId } from '../domain/maps';
import { onStoredElsewhere } from './otherTabs';
import { readStored, writeStored } from './storage';

export interface FilterState {
  mapId: MapId | null;
  hiddenCategories: string[];
  hiddenSubCategories: string[];
}

export interface StoredFilters {
  hiddenCategories: string[];
  hiddenSubCategories: string[];
}

const categoryIds = new Set(CATEGORIES.map((c) => c.id));
const subCategoryIds = new Set(SUBCATEGORIES.map((s) => s.id));

export const filters = proxy<FilterState>({ mapId: null, hiddenCategories: [], hiddenSubCategories: [] });

export function filtersKey(mapId: string): string {
  return `map:filters:${mapId}`;
}

/** Reads a stored filter value; anything malformed or unknown is dropped, never thrown. */
export function parseStoredFilters(raw: string | null): StoredFilters {
  const empty = { hiddenCategories: [], hiddenSubCategories: [] };
  if (!raw) return empty;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return empty;
  }
  if (!value || typeof value !== 'object') return empty;
  const pick = (list: unknown, known: Set<string>) =>
    Array.isArray(list) ? [...new Set(list.filter((id): id is string => typeof id === 'string' && known.has(id)))] : [];
  const v = value as Partial<StoredFilters>;
  return { hiddenCategories: pick(v.hiddenCategories, categoryIds), hiddenSubCategories: pick(v.hiddenSubCategories, subCategoryIds) };
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id, i) => id === b[i]);

/** Shows `stored`; a list that did not change is left as it is (no re-filtering for nothing). */
function show(stored: StoredFilters): void {
  if (!sameList(filters.hiddenCategories, stored.hiddenCategories)) filters.hiddenCategories = stored.hiddenCategories;
  if (!sameList(filters.hiddenSubCategories, stored.hiddenSubCategories)) filters.hiddenSubCategories = stored.hiddenSubCategories;
}

/**
 * Applies one change to the open map's filters as stored now — not to this tab's copy, which
 * another tab of the map may have made old — then stores and shows the result. Nothing stored
 * (a new map, or a blocked storage that keeps this page's filters in memory only): this tab's.
 */
function change(edit: (current: StoredFilters) => StoredFilters): void {
  const mapId = filters.mapId;
  const raw = mapId ? readStored(filtersKey(mapId)) : null;
  const next = edit(raw === null ? filterQuery() : parseStoredFilters(raw));
  if (mapId) writeStored(filtersKey(mapId), JSON.stringify(next));
  show(next);
}

export function loadFilters(mapId: MapId): void {
  filters.mapId = mapId;
  show(parseStoredFilters(readStored(filtersKey(mapId))));
}

/** Another tab changed the open map's filters: this tab shows them. Nothing is written back. */
export function syncFilters(): void {
  if (filters.mapId) loadFilters(filters.mapId);
}

onStoredElsewhere((key) => filters.mapId !== null && key === filtersKey(filters.mapId), syncFilters);

function setIn(list: string[], id: string, present: boolean): string[] {
  const has = list.includes(id);
  if (present === has) return list;
  return present ? [...list, id] : list.filter((x) => x !== id);
}

export function setCategoryHidden(category: string, hidden: boolean): void {
  if (!categoryIds.has(category)) return;
  change((current) => ({ ...current, hiddenCategories: setIn(current.hiddenCategories, category, hidden) }));
}

export function setSubCategoryHidden(subCategory: string, hidden: boolean): void {
  if (!subCategoryIds.has(subCategory)) return;
  change((current) => ({ ...current, hiddenSubCategories: setIn(current.hiddenSubCategories, subCategory, hidden) }));
}

export function toggleCategory(category: string): void {
  setCategoryHidden(category, !filters.hiddenCategories.includes(category));
}

export function toggleSubCategory(subCategory: string): void {
  setSubCategoryHidden(subCategory, !filters.hiddenSubCategories.includes(subCategory));
}

/**
 * Shows (or, `hidden`, hides again) these categories and subcategories in one change: one
 * stored value and one re-filtering for a quest's markers (ui/panels/questFiltersOn.ts).
 */
export function setFiltersHidden(ids: { categories: readonly string[]; subCategories: readonly string[] }, hidden: boolean): void {
  const categories = ids.categories.filter((id) => categoryIds.has(id));
  const subCategories = ids.subCategories.filter((id) => subCategoryIds.has(id));
  if (categories.length === 0 && subCategories.length === 0) return;
  change((current) => ({
    hiddenCategories: categories.reduce((list, id) => setIn(list, id, hidden), current.hiddenCategories),
    hiddenSubCategories: subCategories.reduce((list, id) => setIn(list, id, hidden), current.hiddenSubCategories),
  }));
}

export function showAllCategories(): void {
  change(() => ({ hiddenCategories: [], hiddenSubCategories: [] }));
}

/** The worker's filter query for the current filters. */
export function filterQuery(state: Pick<FilterState, 'hiddenCategories' | 'hiddenSubCategories'> = filters): StoredFilters {
  return { hiddenCategories: [...state.hiddenCategories], hiddenSubCategories: [...state.hiddenSubCategories] };
}
