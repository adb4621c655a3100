import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { filters, filtersKey, loadFilters, setFiltersHidden } from './filters';
import { memoryStorage, setStorageBackend } from './storage';

let storage: ReturnType<typeof memoryStorage>;
beforeEach(() => {
  storage = memoryStorage();
  setStorageBackend(storage);
});
afterEach(() => setStorageBackend(null));

describe('setFiltersHidden', () => {
  it('shows several categories and subcategories in one stored change, and hides them again', () => {
    storage.setItem(filtersKey('customs'), JSON.stringify({ hiddenCategories: ['Quests', 'Loot'], hiddenSubCategories: ['Key Spawn', 'Safe'] }));
    loadFilters('customs');
    const on = { categories: ['Quests', 'Unicorns'], subCategories: ['Key Spawn'] };
    setFiltersHidden(on, false);
    expect(filters.hiddenCategories).toEqual(['Loot']);
    expect(filters.hiddenSubCategories).toEqual(['Safe']);
    expect(JSON.parse(storage.getItem(filtersKey('customs'))!)).toEqual({ hiddenCategories: ['Loot'], hiddenSubCategories: ['Safe'] });
    setFiltersHidden(on, true);
    expect(filters.hiddenCategories).toEqual(['Loot', 'Quests']);
    expect(filters.hiddenSubCategories).toEqual(['Safe', 'Key Spawn']);
  });
});
