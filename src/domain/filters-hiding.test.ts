import { describe, expect, it } from 'vitest';
import { filtersHiding, joinFilters, namedFilters, noFilters, stillOn } from './filters-hiding';

const quest = { category: 'Quests', subCategory: 'Quest' };
const key = { category: 'Keys', subCategory: 'Key Spawn' };

describe('filtersHiding', () => {
  it('names the hidden categories and subcategories of the markers, each once', () => {
    const on = filtersHiding([quest, key, quest], { hiddenCategories: ['Quests', 'Loot'], hiddenSubCategories: ['Key Spawn', 'Safe'] });
    expect(on).toEqual({ categories: ['Quests'], subCategories: ['Key Spawn'] });
    expect(noFilters(on)).toBe(false);
  });

  it('is empty when nothing hides them', () => {
    const on = filtersHiding([quest], { hiddenCategories: ['Loot'], hiddenSubCategories: [] });
    expect(noFilters(on)).toBe(true);
  });
});

describe('stillOn', () => {
  const on = { categories: ['Quests'], subCategories: ['Key Spawn'] };
  it('holds until one of them is hidden again', () => {
    expect(stillOn(on, { hiddenCategories: ['Loot'], hiddenSubCategories: [] })).toBe(true);
    expect(stillOn(on, { hiddenCategories: ['Quests'], hiddenSubCategories: [] })).toBe(false);
    expect(stillOn(on, { hiddenCategories: [], hiddenSubCategories: ['Key Spawn'] })).toBe(false);
  });
});

describe('joinFilters and namedFilters', () => {
  it('joins two without repeats, and names a subcategory only outside its category', () => {
    const both = joinFilters({ categories: ['Quests'], subCategories: ['Quest'] }, { categories: ['Quests'], subCategories: ['Key Spawn'] });
    expect(both).toEqual({ categories: ['Quests'], subCategories: ['Quest', 'Key Spawn'] });
    expect(namedFilters(both)).toEqual({ categories: ['Quests'], subCategories: ['Key Spawn'] });
  });
});
