import { afterEach, describe, expect, it } from 'vitest';
import { CATEGORIES, SUBCATEGORIES } from '../../domain/categories';
import { MAP_IDS, MAPS } from '../../domain/maps';
import { i18n, setLanguage } from '../../i18n';
import { TRADERS } from '../../../server/seed/quests';
import { CATEGORY_KEYS, SUBCATEGORY_KEYS, TRADER_KEYS, categoryLabel, levelLabel, subCategoryLabel, traderLabel } from './labels';

afterEach(() => setLanguage('en'));

describe('panel labels', () => {
  it('name every category, subcategory, level and trader in both languages', async () => {
    for (const lang of ['en', 'ru'] as const) {
      await setLanguage(lang);
      const t = i18n.t.bind(i18n);
      for (const c of CATEGORIES) expect(i18n.exists(CATEGORY_KEYS[c.id]), c.id).toBe(true);
      for (const s of SUBCATEGORIES) expect(i18n.exists(SUBCATEGORY_KEYS[s.id]), s.id).toBe(true);
      for (const trader of TRADERS) expect(i18n.exists(TRADER_KEYS[trader]), trader).toBe(true);
      for (const id of MAP_IDS) {
        for (const level of MAPS[id].levels) expect(levelLabel(t, level), `${id} ${level.name}`).not.toMatch(/levelNames/);
      }
    }
  });

  it('translates names, with the English id as the fallback', async () => {
    const t = i18n.t.bind(i18n);
    expect(categoryLabel(t, 'Loot')).toBe('Loot');
    expect(subCategoryLabel(t, "Shturman's Stash")).toBe("Shturman's Stash");
    expect(levelLabel(t, { num: 3, name: 'Level 3' })).toBe('Level 3');
    await setLanguage('ru');
    expect(categoryLabel(t, 'Loot')).toBe('Лут');
    expect(subCategoryLabel(t, "Shturman's Stash")).toBe('Заначка Штурмана');
    expect(levelLabel(t, { num: 3, name: 'Level 3' })).toBe('3-й этаж');
    expect(levelLabel(t, MAPS.factory.levels.find((l) => l.num === -1)!)).toBe('Подвал');
    expect(traderLabel(t, 'Prapor')).toBe('Прапор');
    expect(traderLabel(t, 'Somebody')).toBe('Somebody');
    expect(subCategoryLabel(t, 'Unicorn')).toBe('Unicorn');
  });
});
