import { describe, expect, it } from 'vitest';
import { DIFF_VALUE_MAX, markerDiff } from './markerDiff';

const base = {
  name: 'Office safe',
  desc: 'Behind the desk',
  name_l10n: { en: 'Office safe', ru: 'Сейф' },
  desc_l10n: {},
  category: 'Loot',
  subCategory: 'Safe',
  level: 1,
  geometry: { x: 10, y: 20 },
  questUid: null,
  itemsUid: ['i-key'],
  imgs: [{ img: '/a.webp', name: 'Door', desc: '' }],
};

describe('markerDiff', () => {
  it('lists only the fields that differ, as short text', () => {
    const after = { ...base, name_l10n: { en: 'Office safe', ru: 'Сейф в офисе' }, level: 2, itemsUid: ['i-key', 'i-gpu'], questUid: 'q-1' };
    expect(markerDiff(base, after)).toEqual([
      { field: 'nameRu', before: 'Сейф', after: 'Сейф в офисе' },
      { field: 'level', before: '1', after: '2' },
      { field: 'quest', before: '', after: 'q-1' },
      { field: 'items', before: 'i-key', after: 'i-key, i-gpu' },
    ]);
    expect(markerDiff(base, { ...base })).toEqual([]);
  });

  it('treats a missing side as empty (an add or a delete) and cuts long text', () => {
    const long = 'x'.repeat(200);
    const added = markerDiff(null, { ...base, desc: long });
    expect(added.map((c) => c.field)).toContain('name');
    const desc = added.find((c) => c.field === 'desc')!;
    expect(desc.after).toHaveLength(DIFF_VALUE_MAX);
    expect(desc.after.endsWith('…')).toBe(true);
    expect(markerDiff(base, null).every((c) => c.after === '')).toBe(true);
  });

  it('sees image order, position and image text changes', () => {
    const two = { ...base, imgs: [{ img: '/a.webp', name: 'Door', desc: '' }, { img: '/b.webp', name: '', desc: 'Inside' }] };
    const swapped = { ...two, imgs: [two.imgs[1], two.imgs[0]], geometry: { x: 11, y: 20 } };
    expect(markerDiff(two, swapped).map((c) => c.field)).toEqual(['position', 'images']);
  });
});
