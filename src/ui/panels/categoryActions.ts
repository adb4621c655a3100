/**
 * What the category checkboxes show and do, on top of the filter slice (src/state/filters.ts):
 * a subcategory shows when neither it nor its category is hidden; a category row is checked
 * when all its subcategories show, mixed when some do.
 */
import { CATEGORIES, type CategoryDef } from '../../domain/categories';
import { filters, setCategoryHidden, setSubCategoryHidden } from '../../state/filters';

interface Hidden {
  readonly hiddenCategories: readonly string[];
  readonly hiddenSubCategories: readonly string[];
}

export type CategoryCheck = 'all' | 'some' | 'none';

export function subCategoryShown(state: Hidden, category: string, subCategory: string): boolean {
  return !state.hiddenCategories.includes(category) && !state.hiddenSubCategories.includes(subCategory);
}

export function categoryCheck(state: Hidden, category: CategoryDef): CategoryCheck {
  const shown = category.subCategories.filter((s) => subCategoryShown(state, category.id, s.id)).length;
  return shown === category.subCategories.length ? 'all' : shown === 0 ? 'none' : 'some';
}

/** A checked row hides the whole category; a mixed or empty one shows all of its subcategories. */
export function toggleCategoryRow(category: CategoryDef): void {
  if (categoryCheck(filters, category) === 'all') {
    setCategoryHidden(category.id, true);
    return;
  }
  setCategoryHidden(category.id, false);
  for (const sub of category.subCategories) setSubCategoryHidden(sub.id, false);
}

/** Shows or hides one subcategory; in a hidden category, showing one shows only that one. */
export function toggleSubCategoryRow(category: CategoryDef, subCategory: string): void {
  if (subCategoryShown(filters, category.id, subCategory)) {
    setSubCategoryHidden(subCategory, true);
    return;
  }
  if (filters.hiddenCategories.includes(category.id)) {
    setCategoryHidden(category.id, false);
    for (const sub of category.subCategories) setSubCategoryHidden(sub.id, sub.id !== subCategory);
    return;
  }
  setSubCategoryHidden(subCategory, false);
}

/**
 * Hide all: every category hidden, its subcategories' own choices cleared, so that ticking one
 * category afterwards brings all of it back and nothing else (a player who wants one category
 * clicks twice instead of unticking the other six). Saved per map like every filter change.
 */
export function hideAllCategories(): void {
  for (const category of CATEGORIES) {
    setCategoryHidden(category.id, true);
    for (const sub of category.subCategories) setSubCategoryHidden(sub.id, false);
  }
}
