import { describe, expect, it } from 'vitest';
import { SUBCATEGORIES } from './categories';
import { SUBCATEGORY_NAME_KEYS, subCategoryName } from './subcategory-names';

describe('subCategoryName', () => {
  it('names every subcategory of the spec in English and Russian', () => {
    for (const { id } of SUBCATEGORIES) {
      expect(SUBCATEGORY_NAME_KEYS[id], id).toBeDefined();
      expect(subCategoryName(id, 'en'), id).toBe(id);
      expect(subCategoryName(id, 'ru'), id).toMatch(/[А-Яа-яЁё]/);
    }
    expect(subCategoryName('Cache', 'ru')).toBe('Тайник');
    expect(subCategoryName("Shturman's Stash", 'en')).toBe("Shturman's Stash");
  });

  it('gives an id it does not know as it is', () => {
    expect(subCategoryName('Mystery Box', 'ru')).toBe('Mystery Box');
  });
});
