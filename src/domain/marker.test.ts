import { describe, expect, it } from 'vitest';
import { localized, validateMarkers } from './marker';
import { CATEGORIES, SUBCATEGORIES, findSubCategory, isKnownCategory, slug } from './categories';

const good = {
  uid: 'm1', map: 'customs', category: 'Loot', subCategory: 'Safe', level: 1,
  geometry: { x: 10, y: 20 }, name: 'Safe', desc: 'A safe',
  name_l10n: { en: 'Safe', ru: 'Сейф' }, desc_l10n: { en: 'A safe', ru: 'Сейф в офисе' },
  imgs: [{ img: '/uploads/a.webp', name: 'a', desc: '' }], questUid: 'q1', itemsUid: ['i1'],
};

describe('marker validation', () => {
  it('keeps good markers and passes unknown fields through', () => {
    const { markers, issues } = validateMarkers([{ ...good, extraField: 42 }]);
    expect(issues).toEqual([]);
    expect(markers[0]).toMatchObject({ ...good, extraField: 42 });
  });

  it('reports a marker with a bad field without dropping the rest of the list', () => {
    const list = [good, { ...good, uid: 'm2', level: 'two' }, { ...good, uid: 'm3', geometry: { x: NaN, y: 1 } }, { ...good, uid: 'm4' }];
    const { markers, issues } = validateMarkers(list);
    expect(markers.map((m) => m.uid)).toEqual(['m1', 'm4']);
    expect(issues.map((i) => [i.index, i.uid])).toEqual([[1, 'm2'], [2, 'm3']]);
    expect(issues[0].message).toMatch(/level/);
    expect(issues[1].message).toMatch(/geometry/);
  });

  it('rejects unknown category pairs, unknown maps and non-objects', () => {
    const { markers, issues } = validateMarkers([
      { ...good, subCategory: 'PMC Spawn' },
      { ...good, map: 'atlantis' },
      null,
      'marker',
    ]);
    expect(markers).toEqual([]);
    expect(issues).toHaveLength(4);
    expect(issues[0].message).toMatch(/subCategory/);
  });

  it('reports a list that is not an array', () => {
    expect(validateMarkers({ markers: [] }).issues[0].message).toMatch(/not a list/);
  });

  it('fills defaults for optional fields', () => {
    const { markers } = validateMarkers([{ uid: 'x', map: 'dev', category: 'Keys', subCategory: 'Unlock', level: -1, geometry: { x: 0, y: 0 } }]);
    expect(markers[0]).toMatchObject({ name: '', desc: '', imgs: [], itemsUid: [], name_l10n: {}, desc_l10n: {} });
  });

  it('picks the text of the language, falling back to the plain field', () => {
    const [m] = validateMarkers([good]).markers;
    expect(localized(m, 'name', 'ru')).toBe('Сейф');
    expect(localized({ ...m, name_l10n: {} }, 'name', 'ru')).toBe('Safe');
  });
});

describe('categories', () => {
  it('lists every spec subcategory once, under its category', () => {
    expect(CATEGORIES.map((c) => c.id)).toEqual(['Markers', 'Extractions', 'Keys', 'Miscellaneous', 'Quests', 'Loot', 'Spawns']);
    expect(SUBCATEGORIES).toHaveLength(1 + 4 + 2 + 1 + 1 + 20 + 7);
    expect(new Set(SUBCATEGORIES.map((s) => s.id)).size).toBe(SUBCATEGORIES.length);
    expect(isKnownCategory('Loot', 'Jacket')).toBe(true);
    expect(isKnownCategory('Keys', 'Jacket')).toBe(false);
  });

  it('colours extraction and spawn icons by faction', () => {
    expect(findSubCategory('PMC Extraction')?.faction).toBe('pmc');
    expect(findSubCategory('Scav Spawn')?.faction).toBe('scav');
    expect(findSubCategory('Boss Spawn')?.faction).toBe('boss');
    expect(findSubCategory('Safe')?.faction).toBeUndefined();
  });

  it('makes file-safe unique slugs', () => {
    expect(slug("Shturman's Stash")).toBe('shturmans-stash');
    expect(slug('Co-Op Extraction')).toBe('co-op-extraction');
    expect(new Set(SUBCATEGORIES.map((s) => slug(s.id))).size).toBe(SUBCATEGORIES.length);
  });
});
