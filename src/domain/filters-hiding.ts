/**
 * Which of the category filters keep some markers off the map, and what names them: showing a
 * quest's markers (the quest list's Show, the Quests page's map link) turns those filters back
 * on, as Find a marker does for the marker chosen (docs/DECISIONS.md "Showing a quest's markers
 * the filters hide"). Pure: the filters as stored (state/filters.ts), the markers' kinds.
 */
import { findSubCategory } from './categories';

export interface MarkerKind {
  category: string;
  subCategory: string;
}

export interface HiddenFilters {
  hiddenCategories: readonly string[];
  hiddenSubCategories: readonly string[];
}

/** Categories and subcategories turned back on (each once, in the order the markers met them). */
export interface FiltersOn {
  readonly categories: readonly string[];
  readonly subCategories: readonly string[];
}

/** The hidden categories and subcategories that keep some of `kinds` off the map; none: empty lists. */
export function filtersHiding(kinds: readonly MarkerKind[], filters: HiddenFilters): FiltersOn {
  const categories: string[] = [];
  const subCategories: string[] = [];
  for (const { category, subCategory } of kinds) {
    if (filters.hiddenCategories.includes(category) && !categories.includes(category)) categories.push(category);
    if (filters.hiddenSubCategories.includes(subCategory) && !subCategories.includes(subCategory)) subCategories.push(subCategory);
  }
  return { categories, subCategories };
}

export function noFilters(on: FiltersOn): boolean {
  return on.categories.length === 0 && on.subCategories.length === 0;
}

/** Both, each once (a second Show adds to the first's note). */
export function joinFilters(a: FiltersOn, b: FiltersOn): FiltersOn {
  return { categories: [...new Set([...a.categories, ...b.categories])], subCategories: [...new Set([...a.subCategories, ...b.subCategories])] };
}

/** Still as turned on: none of them hidden again since (by the category panel, another tab). */
export function stillOn(on: FiltersOn, filters: HiddenFilters): boolean {
  return on.categories.every((id) => !filters.hiddenCategories.includes(id)) && on.subCategories.every((id) => !filters.hiddenSubCategories.includes(id));
}

/**
 * What a note names: the categories, and the subcategories outside them ("Quests", not
 * "Quests, Quest", when both the category and its only subcategory were off).
 */
export function namedFilters(on: FiltersOn): FiltersOn {
  return { categories: [...on.categories], subCategories: on.subCategories.filter((id) => !on.categories.includes(findSubCategory(id)?.category ?? '')) };
}
