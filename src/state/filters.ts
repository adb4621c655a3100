/**
 * Category filters of the open map: which categories and subcategories are hidden.
 * Remembered per map in localStorage `map:filters:{map}`. The engine honours them through
 * the wiring module (filters → worker → engine.setFilter).
 */
import { proxy } from 'valtio';
import { CATEGORIES, SUBCATEGORIES } from '../domain/categories';
import type { MapId } from '../domain/maps';
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

function persist(): void {
  if (!filters.mapId) return;
  const stored: StoredFilters = { hiddenCategories: [...filters.hiddenCategories], hiddenSubCategories: [...filters.hiddenSubCategories] };
  writeStored(filtersKey(filters.mapId), JSON.stringify(stored));
}

export function loadFilters(mapId: MapId): void {
  const stored = parseStoredFilters(readStored(filtersKey(mapId)));
  filters.mapId = mapId;
  filters.hiddenCategories = stored.hiddenCategories;
  filters.hiddenSubCategories = stored.hiddenSubCategories;
}

function setIn(list: string[], id: string, present: boolean): string[] {
  const has = list.includes(id);
  if (present === has) return list;
  return present ? [...list, id] : list.filter((x) => x !== id);
}

export function setCategoryHidden(category: string, hidden: boolean): void {
  if (!categoryIds.has(category)) return;
  filters.hiddenCategories = setIn(filters.hiddenCategories, category, hidden);
  persist();
}

export function setSubCategoryHidden(subCategory: string, hidden: boolean): void {
  if (!subCategoryIds.has(subCategory)) return;
  filters.hiddenSubCategories = setIn(filters.hiddenSubCategories, subCategory, hidden);
  persist();
}

export function toggleCategory(category: string): void {
  setCategoryHidden(category, !filters.hiddenCategories.includes(category));
}

export function toggleSubCategory(subCategory: string): void {
  setSubCategoryHidden(subCategory, !filters.hiddenSubCategories.includes(subCategory));
}

export function showAllCategories(): void {
  filters.hiddenCategories = [];
  filters.hiddenSubCategories = [];
  persist();
}

/** The worker's filter query for the current filters. */
export function filterQuery(state: Pick<FilterState, 'hiddenCategories' | 'hiddenSubCategories'> = filters): StoredFilters {
  return { hiddenCategories: [...state.hiddenCategories], hiddenSubCategories: [...state.hiddenSubCategories] };
}
