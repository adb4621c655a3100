import { describe, expect, it } from 'vitest';
import {
  IMAGE_NO_FILE, KNOWN_MARKER_FIELDS, addImage, imageIndexAfterRemove, moveImage, parseLevel, pickKnownFields,
  prepareMarkerForSave, removeImage, searchItems, searchQuests, type MarkerDraft,
} from './marker-edit';
import type { Item, Quest } from './quests';

const draft = (over: Partial<MarkerDraft> = {}): MarkerDraft => ({
  uid: 'm1', map: 'customs', category: 'Loot', subCategory: 'Safe', level: 1,
  geometry: { x: 10, y: 20 }, name: 'Safe', desc: 'A safe', imgs: [],
  name_l10n: { en: 'Safe', ru: 'Сейф' }, desc_l10n: {}, questUid: null, itemsUid: [], version: 3,
  ...over,
});

function saved(over: Partial<MarkerDraft> = {}) {
  const result = prepareMarkerForSave(draft(over));
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.errors)}`);
  return result.marker;
}

function errors(over: Partial<MarkerDraft> = {}) {
  const result = prepareMarkerForSave(draft(over));
  if (result.ok) throw new Error('expected errors');
  return result.errors;
}

describe('prepareMarkerForSave', () => {
  it('trims the name, its translations and image texts; keeps the description as typed', () => {
    const m = saved({
      name: '  Office safe ',
      name_l10n: { en: ' Office safe ', ru: '  ' },
      desc: '  line one\n  indented  \n',
      desc_l10n: { en: '  as typed ' },
      imgs: [{ img: ' /uploads/a.webp ', name: ' front ', desc: ' door \n' }],
    });
    expect(m.name).toBe('Office safe');
    expect(m.name_l10n).toEqual({ en: 'Office safe' });
    expect(m.desc).toBe('  line one\n  indented  \n');
    expect(m.desc_l10n).toEqual({ en: '  as typed ' });
    expect(m.imgs).toEqual([{ img: '/uploads/a.webp', name: 'front', desc: 'door' }]);
  });

  it('reads the level as a whole number', () => {
    expect(saved({ level: ' -1 ' }).level).toBe(-1);
    expect(saved({ level: '2' }).level).toBe(2);
    expect(saved({ level: 3 }).level).toBe(3);
    expect(saved({ level: '2.0' }).level).toBe(2);
    expect(errors({ level: 'two' })).toEqual({ level: 'Level must be a number' });
    expect(errors({ level: '' })).toEqual({ level: 'Level must be a number' });
    expect(errors({ level: undefined })).toEqual({ level: 'Level must be a number' });
    expect(errors({ level: '1.5' })).toEqual({ level: 'Level must be a whole number' });
    expect(errors({ level: Infinity }).level).toBeDefined();
    expect(parseLevel('-0')).toEqual({ ok: true, level: 0 });
  });

  it('refuses a level outside the bounds every marker keeps (-5 to 10), naming them', () => {
    expect(parseLevel('10')).toEqual({ ok: true, level: 10 });
    expect(parseLevel('-5')).toEqual({ ok: true, level: -5 });
    expect(parseLevel('11')).toEqual({ ok: false, error: 'Level must be a whole number from -5 to 10' });
    expect(parseLevel(-6)).toEqual({ ok: false, error: 'Level must be a whole number from -5 to 10' });
    expect(errors({ level: '99' })).toEqual({ level: 'Level must be a whole number from -5 to 10' });
  });

  it('drops empty image slots and reports an image without a file', () => {
    expect(saved({ imgs: [{ img: '', name: ' ', desc: '' }, { img: 'b.webp', name: '', desc: '' }] }).imgs).toEqual([{ img: 'b.webp', name: '', desc: '' }]);
    expect(errors({ imgs: [{ img: 'a.webp', name: '', desc: '' }, { img: ' ', name: 'side', desc: '' }] })).toEqual({ 'imgs.1.img': expect.stringMatching(/no file/) });
  });

  it('reports a bad image URL, or a field beyond its bound, with the domain\'s message at the draft\'s own index', () => {
    // Slot 0 is empty and dropped: the bad URL is still image 1 of the draft.
    const e = errors({ imgs: [{ img: '', name: '', desc: '' }, { img: 'javascript:alert(1)', name: '', desc: '' }] });
    expect(e).toEqual({ 'imgs.1.img': expect.stringMatching(/http\(s\) URL or a path on this site/) });
    expect(e['imgs.1.img']).not.toBe(IMAGE_NO_FILE);
    expect(errors({ imgs: [{ img: '', name: 'x', desc: '' }] })).toEqual({ 'imgs.0.img': IMAGE_NO_FILE });
    expect(errors({ name: 'n'.repeat(201) })).toEqual({ name: 'must be at most 200 characters' });
    expect(errors({ level: 11 })).toEqual({ level: 'Level must be a whole number from -5 to 10' });
    expect(errors({ geometry: { x: 1e6, y: 0 } })).toEqual({ 'geometry.x': expect.stringMatching(/^must be from -\d+ to \d+ on map customs/) });
  });

  it('says each objection as data too: the field, the kind of rule and its limit, first per field', () => {
    const result = prepareMarkerForSave(
      draft({
        desc_l10n: { ru: 'ж'.repeat(5000) },
        name_l10n: { en: 'Safe\u0000' },
        subCategory: 'PMC Spawn',
        imgs: [{ img: '', name: '', desc: '' }, { img: '/uploads/a.webp', name: 'n'.repeat(201), desc: '' }, { img: '/u/' + 'x'.repeat(2048), name: '', desc: 'a\ud800' }],
        itemsUid: Array.from({ length: 101 }, (_, i) => `i${i}`),
      }),
    );
    if (result.ok) throw new Error('expected errors');
    expect(result.problems).toEqual(expect.arrayContaining([
      { field: 'desc_l10n.ru', kind: 'tooLong', limit: 4000 },
      { field: 'name_l10n.en', kind: 'badCharacters' },
      { field: 'subCategory', kind: 'unknownCategory' },
      { field: 'imgs.1.name', kind: 'tooLong', limit: 200 },
      { field: 'imgs.2.img', kind: 'tooLong', limit: 2048 },
      { field: 'imgs.2.desc', kind: 'badCharacters' },
      { field: 'itemsUid', kind: 'tooMany', limit: 100 },
    ]));
    expect(result.problems.map((p) => p.field).sort()).toEqual(Object.keys(result.errors).sort());
    expect(result.errors['name_l10n.en']).toMatch(/U\+0000/);
  });

  it('counts more than 20 images as too many, and an image with no file as such', () => {
    const imgs = Array.from({ length: 21 }, (_, i) => ({ img: `/uploads/${i}.webp`, name: '', desc: '' }));
    const result = prepareMarkerForSave(draft({ imgs: [...imgs, { img: '', name: 'x', desc: '' }] }));
    if (result.ok) throw new Error('expected errors');
    expect(result.problems).toEqual([{ field: 'imgs.21.img', kind: 'noFile' }, { field: 'imgs', kind: 'tooMany', limit: 20 }]);
  });

  it('cleans the quest link and items', () => {
    expect(saved({ questUid: '  ' }).questUid).toBeNull();
    expect(saved({ questUid: ' q1 ' }).questUid).toBe('q1');
    expect(saved({ itemsUid: [' i1', '', 'i2', 'i1 '] }).itemsUid).toEqual(['i1', 'i2']);
  });

  it('reports schema errors by field, with several fields at once', () => {
    const e = errors({ subCategory: 'PMC Spawn', level: 'x', geometry: { x: NaN, y: 1 } });
    expect(Object.keys(e).sort()).toEqual(['geometry.x', 'level', 'subCategory']);
    expect(e.level).toBe('Level must be a number');
  });

  it('keeps pass-through fields and the version, and does not change the draft', () => {
    const d = draft({ name: ' x ', extra: { keep: true } });
    const result = prepareMarkerForSave(d);
    expect(result.ok && result.marker).toMatchObject({ name: 'x', extra: { keep: true }, version: 3 });
    expect(d.name).toBe(' x ');
  });
});

describe('known fields', () => {
  it('lists the spec fields and the version', () => {
    expect([...KNOWN_MARKER_FIELDS].sort()).toEqual(
      ['uid', 'map', 'category', 'subCategory', 'level', 'geometry', 'name', 'desc', 'imgs', 'name_l10n', 'desc_l10n', 'questUid', 'itemsUid', 'version'].sort(),
    );
  });

  it('picks only known fields that are set', () => {
    expect(pickKnownFields({ uid: 'a', level: 1, extra: 2, desc: undefined, serverField: 'x' })).toEqual({ uid: 'a', level: 1 });
    expect(pickKnownFields({ ...draft(), createdAt: 'now' })).toEqual(draft());
  });
});

describe('search', () => {
  const quest = (uid: string, name: string, ruName: string): Quest => ({
    uid, name, ruName, trader: 'Prapor', requiredForKappa: false, requiredForLightkeeper: false, wikiUrl: '',
  });
  const quests = [
    quest('5936d90786f7742b1420ba5b', 'Debut', 'Дебют'),
    quest('q2', 'Shortage', 'Дефицит'),
    quest('q3', 'debut', 'Бой'),
    quest('Debut', 'Odd uid', 'Странный'),
  ];

  it('finds quests by exact uid or exact name in English or Russian, case-insensitively', () => {
    expect(searchQuests(quests, '5936d90786f7742b1420ba5b').map((q) => q.uid)).toEqual(['5936d90786f7742b1420ba5b']);
    expect(searchQuests(quests, ' SHORTAGE ').map((q) => q.uid)).toEqual(['q2']);
    expect(searchQuests(quests, 'дефицит').map((q) => q.uid)).toEqual(['q2']);
    expect(searchQuests(quests, 'Short')).toEqual([]);
    expect(searchQuests(quests, '')).toEqual([]);
  });

  it('puts uid matches before name matches and sorts name matches by language', () => {
    expect(searchQuests(quests, 'debut').map((q) => q.uid)).toEqual(['Debut', '5936d90786f7742b1420ba5b', 'q3']);
    expect(searchQuests(quests, 'debut', 'ru').map((q) => q.uid)).toEqual(['Debut', 'q3', '5936d90786f7742b1420ba5b']);
  });

  const items: Item[] = [
    { uid: 'i1', name: 'Factory exit key', ruName: 'Ключ от выхода с Завода' },
    { uid: 'i2', name: 'Key tool', ruName: 'Ключница' },
    { uid: 'i3', name: 'Dorm room 314 marked key', ruName: 'Ключ от комнаты 314 общежития' },
    { uid: 'key', name: 'Salewa', ruName: 'Салева' },
    { uid: 'i5', name: 'Key', ruName: 'Ключ' },
  ];

  it('finds items by exact uid or a substring of the name in English or Russian, case-insensitively', () => {
    expect(searchItems(items, 'i3').map((i) => i.uid)).toEqual(['i3']);
    expect(searchItems(items, 'ROOM 314').map((i) => i.uid)).toEqual(['i3']);
    expect(searchItems(items, 'общежития').map((i) => i.uid)).toEqual(['i3']);
    expect(searchItems(items, 'zzz')).toEqual([]);
    expect(searchItems(items, '  ')).toEqual([]);
  });

  it('ranks uid, exact name, name prefix, then other substrings, and honours the limit', () => {
    expect(searchItems(items, 'key').map((i) => i.uid)).toEqual(['key', 'i5', 'i2', 'i1', 'i3']);
    expect(searchItems(items, 'ключ').map((i) => i.uid)).toEqual(['i5', 'i1', 'i2', 'i3']);
    expect(searchItems(items, 'key', 2).map((i) => i.uid)).toEqual(['key', 'i5']);
    expect(searchItems(new Map(items.map((i) => [i.uid, i])).values(), 'salewa').map((i) => i.uid)).toEqual(['key']);
  });
});

describe('images', () => {
  const imgs = ['a', 'b', 'c', 'd'];

  it('moves an image to another position', () => {
    expect(moveImage(imgs, 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveImage(imgs, 3, 0)).toEqual(['d', 'a', 'b', 'c']);
    expect(moveImage(imgs, 1, 1)).toEqual(imgs);
    expect(moveImage(imgs, 1, 4)).toEqual(imgs);
    expect(moveImage(imgs, -1, 0)).toEqual(imgs);
    expect(imgs).toEqual(['a', 'b', 'c', 'd']);
  });

  it('removes an image', () => {
    expect(removeImage(imgs, 1)).toEqual(['a', 'c', 'd']);
    expect(removeImage(imgs, 9)).toEqual(imgs);
    expect(removeImage(imgs, 9)).not.toBe(imgs);
  });

  it('adds an empty slot or a given image', () => {
    expect(addImage([])).toEqual([{ img: '', name: '', desc: '' }]);
    const one = [{ img: 'a', name: '', desc: '' }];
    expect(addImage(one, { img: 'b', name: 'n', desc: 'd' })).toEqual([...one, { img: 'b', name: 'n', desc: 'd' }]);
    expect(one).toHaveLength(1);
  });

  it('keeps a sensible image index after a remove', () => {
    expect(imageIndexAfterRemove(2, 0, 3)).toBe(1);
    expect(imageIndexAfterRemove(2, 2, 2)).toBe(1);
    expect(imageIndexAfterRemove(0, 1, 2)).toBe(0);
    expect(imageIndexAfterRemove(0, 0, 0)).toBe(0);
  });
});
