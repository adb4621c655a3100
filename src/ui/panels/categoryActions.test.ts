import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../domain/categories';
import { filterQuery, filters, filtersKey, loadFilters, parseStoredFilters, showAllCategories } from '../../state/filters';
import { memoryStorage, readStored, setStorageBackend } from '../../state/storage';
import { categoryCheck, hideAllCategories, subCategoryShown, toggleCategoryRow, toggleSubCategoryRow } from './categoryActions';

const extractions = CATEGORIES.find((c) => c.id === 'Extractions')!;

beforeEach(() => {
  setStorageBackend(memoryStorage());
  loadFilters('customs');
});
afterEach(() => setStorageBackend(null));

describe('category checkboxes', () => {
  it('start all shown', () => {
    for (const c of CATEGORIES) expect(categoryCheck(filters, c)).toBe('all');
  });

  it('a checked category row hides the category, and shows all of it again', () => {
    toggleCategoryRow(extractions);
    expect(filterQuery()).toEqual({ hiddenCategories: ['Extractions'], hiddenSubCategories: [] });
    expect(categoryCheck(filters, extractions)).toBe('none');
    expect(subCategoryShown(filters, 'Extractions', 'Transition')).toBe(false);
    toggleCategoryRow(extractions);
    expect(filterQuery()).toEqual({ hiddenCategories: [], hiddenSubCategories: [] });
  });

  it('a subcategory hides alone; the row is then mixed and a click shows all', () => {
    toggleSubCategoryRow(extractions, 'Transition');
    expect(categoryCheck(filters, extractions)).toBe('some');
    expect(filterQuery().hiddenSubCategories).toEqual(['Transition']);
    toggleCategoryRow(extractions);
    expect(categoryCheck(filters, extractions)).toBe('all');
    expect(filterQuery()).toEqual({ hiddenCategories: [], hiddenSubCategories: [] });
  });

  it('hiding every subcategory leaves the row unchecked', () => {
    for (const s of extractions.subCategories) toggleSubCategoryRow(extractions, s.id);
    expect(categoryCheck(filters, extractions)).toBe('none');
    toggleCategoryRow(extractions);
    expect(categoryCheck(filters, extractions)).toBe('all');
  });

  it('showing one subcategory of a hidden category shows only that one', () => {
    toggleCategoryRow(extractions);
    toggleSubCategoryRow(extractions, 'Scav Extraction');
    expect(filters.hiddenCategories).toEqual([]);
    expect(extractions.subCategories.filter((s) => subCategoryShown(filters, 'Extractions', s.id)).map((s) => s.id)).toEqual(['Scav Extraction']);
    expect(categoryCheck(filters, extractions)).toBe('some');
  });
});

describe('Hide all', () => {
  const shownCategories = () => CATEGORIES.filter((c) => categoryCheck(filters, c) !== 'none').map((c) => c.id);

  it('hides every category and is saved for the map like any filter change', () => {
    hideAllCategories();
    expect(shownCategories()).toEqual([]);
    expect(parseStoredFilters(readStored(filtersKey('customs'))).hiddenCategories).toEqual(CATEGORIES.map((c) => c.id));
    loadFilters('customs');
    expect(shownCategories()).toEqual([]);
  });

  it('then one click on a category shows that category whole, and nothing else', () => {
    toggleSubCategoryRow(extractions, 'Transition');
    hideAllCategories();
    toggleCategoryRow(extractions);
    expect(shownCategories()).toEqual(['Extractions']);
    expect(categoryCheck(filters, extractions)).toBe('all');
  });

  it('then one click on a subcategory shows only that subcategory', () => {
    hideAllCategories();
    toggleSubCategoryRow(extractions, 'Scav Extraction');
    expect(shownCategories()).toEqual(['Extractions']);
    expect(extractions.subCategories.filter((s) => subCategoryShown(filters, 'Extractions', s.id)).map((s) => s.id)).toEqual(['Scav Extraction']);
  });

  it('is undone by Show all', () => {
    hideAllCategories();
    showAllCategories();
    expect(filterQuery()).toEqual({ hiddenCategories: [], hiddenSubCategories: [] });
  });
});
