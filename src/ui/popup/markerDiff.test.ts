import { describe, expect, it } from 'vitest';
import { DIFF_VALUE_MAX, historyDiff, markerDiff } from './markerDiff';

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

describe('historyDiff: images item by item', () => {
  const door = { img: '/uploads/markers/m-0-aaa.png?v=1795950559202', name: 'Door', desc: '' };
  const inside = { img: '/uploads/markers/m-1-bbb.png?v=1795950559203', name: '', desc: 'Inside' };
  const shelf = { img: '/uploads/markers/m-2-ccc.png?v=1795950559209', name: 'Shelf', desc: '' };

  it('an image added says which, not a joined list cut to one line', () => {
    const changes = historyDiff({ ...base, imgs: [door, inside] }, { ...base, imgs: [door, inside, shelf] });
    expect(changes).toEqual([{ field: 'images', kind: 'added', index: 3, name: 'Shelf' }]);
  });

  it('an image removed, by its name or else its file name', () => {
    expect(historyDiff({ ...base, imgs: [door, inside] }, { ...base, imgs: [door] })).toEqual([{ field: 'images', kind: 'removed', index: 2, name: 'm-1-bbb.png' }]);
  });

  it('images reordered, once, with the order before and after', () => {
    expect(historyDiff({ ...base, imgs: [door, inside, shelf] }, { ...base, imgs: [shelf, door, inside] })).toEqual([
      { field: 'images', kind: 'reordered', before: 'Door, m-1-bbb.png, Shelf', after: 'Shelf, Door, m-1-bbb.png' },
    ]);
  });

  it('a new file at the same place (an upload) is one image changed; name and description changes per image', () => {
    const uploaded = { ...door, img: '/uploads/markers/m-0-ddd.png?v=1795950559999' };
    expect(historyDiff({ ...base, imgs: [door, inside] }, { ...base, imgs: [uploaded, { ...inside, desc: 'From inside', name: 'Inside' }] })).toEqual([
      { field: 'images', kind: 'file', index: 1, name: 'Door', before: 'm-0-aaa.png', after: 'm-0-ddd.png' },
      { field: 'images', kind: 'name', index: 2, name: 'Inside', before: '', after: 'Inside' },
      { field: 'images', kind: 'desc', index: 2, name: 'Inside', before: 'Inside', after: 'From inside' },
    ]);
  });

  it('keeps the other fields as markerDiff has them; a created marker lists each image added', () => {
    const changes = historyDiff(null, { ...base, imgs: [door, inside] });
    expect(changes.filter((c) => c.field !== 'images')).toEqual(markerDiff(null, { ...base, imgs: [] }));
    expect(changes.filter((c) => c.field === 'images')).toEqual([
      { field: 'images', kind: 'added', index: 1, name: 'Door' },
      { field: 'images', kind: 'added', index: 2, name: 'm-1-bbb.png' },
    ]);
    expect(historyDiff({ ...base, imgs: [door] }, { ...base, imgs: [door] })).toEqual([]);
  });

  it('a reorder names each image by its name now, even when it was renamed in the same change; upload file names are cut to their end', () => {
    const upload = { img: '/uploads/markers/5cbdd4ac-e5da-496b-a982-fb8336e83ca6-0-c1ad52dea3fce5b2.webp?v=1', name: '', desc: '' };
    const other = { img: '/uploads/markers/b.webp', name: '', desc: '' };
    expect(historyDiff({ ...base, imgs: [upload, other] }, { ...base, imgs: [{ ...other, name: 'Inside' }, { ...upload, name: 'Door' }] })).toEqual([
      { field: 'images', kind: 'name', index: 1, name: 'Inside', before: '', after: 'Inside' },
      { field: 'images', kind: 'name', index: 2, name: 'Door', before: '', after: 'Door' },
      { field: 'images', kind: 'reordered', before: 'Door, Inside', after: 'Inside, Door' },
    ]);
    expect(historyDiff({ ...base, imgs: [] }, { ...base, imgs: [upload] })).toEqual([{ field: 'images', kind: 'added', index: 1, name: '…0-c1ad52dea3fce5b2.webp' }]);
  });
});
