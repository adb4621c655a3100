/**
 * Find a marker in the worker's store (`find`): by label, by the subcategories, quests and
 * categories the text names, whatever the filters; each hit with its place (nearest named
 * extraction); the same answer from a full list and a compact one.
 */
import { describe, expect, it } from 'vitest';
import { encodeCompactList } from '../src/domain/compact-markers';
import { type Language, type Marker, markerSchema } from '../src/domain/marker';
import { MarkerListError, createMarkerStore } from './markers';

const encode = (body: unknown) => new TextEncoder().encode(JSON.stringify(body)).buffer as ArrayBuffer;

function marker(uid: string, category: string, subCategory: string, name: string, x: number, y: number, over: Partial<Marker> = {}): Marker {
  return markerSchema.parse({
    uid,
    map: 'customs',
    category,
    subCategory,
    level: 1,
    geometry: { x, y },
    name,
    name_l10n: { ru: name ? `RU ${name}` : '' },
    ...over,
  });
}

const list = [
  marker('box-a', 'Loot', 'Weapon Box', 'Weapon box', 110, 100),
  marker('gate', 'Extractions', 'PMC Extraction', 'Gate 3', 100, 100),
  marker('box-b', 'Loot', 'Weapon Box', 'Weapon box', 1900, 500, { level: 2 }),
  marker('cross', 'Extractions', 'PMC Extraction', 'Crossroads', 2000, 500),
  marker('unnamed-exit', 'Extractions', 'Scav Extraction', '', 1000, 1000),
  marker('folder', 'Quests', 'Quest', 'Folder', 500, 500, { questUid: 'q-delivery' }),
  marker('exit-key', 'Keys', 'Key Spawn', 'Exit key', 300, 300),
];
const none = { subCategories: [], quests: [], categories: [] };

describe('marker store find', () => {
  it('finds by label first, then by the types and quests the text names, each with its nearest named extraction', () => {
    const store = createMarkerStore();
    store.load(encode({ markers: list }), 'customs', 'en');
    store.filter({ hiddenCategories: ['Loot', 'Extractions'], hiddenSubCategories: [] });
    const { hits, total } = store.find({ text: 'exit', limit: 8, ...none, categories: ['Extractions'] });
    expect(total).toBe(4);
    expect(hits.map((h) => [h.uid, h.by])).toEqual([
      ['exit-key', 'name'],
      ['cross', 'category'],
      ['gate', 'category'],
      ['unnamed-exit', 'category'], // labelled by its subcategory
    ]);
    expect(hits[0]).toMatchObject({ label: 'Exit key', subCategory: 'Key Spawn', category: 'Keys', level: 1, x: 300, y: 300, questUid: null });
    expect(hits[0].near).toEqual({ label: 'Gate 3', distance: Math.hypot(200, 200) });
    // An extraction's own name is its place.
    expect(hits[1].near).toBeNull();
  });

  it('tells identical names apart by place, and finds a quest by its markers', () => {
    const store = createMarkerStore();
    store.load(encode({ markers: list }), 'customs', 'en');
    const boxes = store.find({ text: 'weapon box', limit: 8, ...none }).hits;
    expect(boxes.map((h) => [h.uid, h.level, h.near?.label])).toEqual([
      ['box-a', 1, 'Gate 3'],
      ['box-b', 2, 'Crossroads'],
    ]);
    const quest = store.find({ text: 'delivery', limit: 8, ...none, quests: ['q-delivery'] });
    expect(quest.hits.map((h) => [h.uid, h.by, h.questUid])).toEqual([['folder', 'quest', 'q-delivery']]);
  });

  it('counts all the matches but answers at most the limit', () => {
    const store = createMarkerStore();
    store.load(encode({ markers: list }), 'customs', 'en');
    const { hits, total } = store.find({ text: 'zz', limit: 2, ...none, categories: ['Loot', 'Extractions', 'Quests', 'Keys'] });
    expect(total).toBe(7);
    expect(hits).toHaveLength(2);
  });

  it.each(['en', 'ru'] as Language[])('answers the same from a compact list as from the full one (%s)', (lang) => {
    const a = createMarkerStore();
    const b = createMarkerStore();
    a.load(encode({ markers: list }), 'customs', lang);
    b.load(encode(encodeCompactList(list, 'customs', lang)), 'customs', lang);
    for (const query of [
      { text: 'exit', limit: 8, ...none, categories: ['Extractions'] },
      { text: 'box', limit: 8, ...none, subCategories: ['Weapon Box'] },
      { text: 'delivery', limit: 8, ...none, quests: ['q-delivery'] },
    ]) {
      expect(b.find(query)).toEqual(a.find(query));
    }
    if (lang === 'ru') expect(b.find({ text: 'weapon', limit: 8, ...none, subCategories: ['Weapon Box'] }).hits[0].near?.label).toBe('RU Gate 3');
  });

  it('rejects a malformed query', () => {
    const store = createMarkerStore();
    expect(() => store.find({ text: 'x', limit: 8 } as never)).toThrow(MarkerListError);
    expect(() => store.find({ text: 1, limit: 8, ...none } as never)).toThrow(MarkerListError);
  });
});
