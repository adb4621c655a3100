import { describe, expect, it } from 'vitest';
import { SUBCATEGORIES } from '../src/domain/categories';
import { MarkerListError, createMarkerStore, decodeMarkerList } from './markers';

function marker(uid: string, over: Record<string, unknown> = {}) {
  return {
    uid,
    map: 'customs',
    category: 'Loot',
    subCategory: 'Safe',
    level: 1,
    geometry: { x: 100, y: 200 },
    name: `Name ${uid}`,
    name_l10n: { en: `EN ${uid}`, ru: `RU ${uid}` },
    ...over,
  };
}

const encode = (body: unknown) => new TextEncoder().encode(JSON.stringify(body)).buffer as ArrayBuffer;

const sample = [
  marker('a'),
  marker('b', { category: 'Extractions', subCategory: 'PMC Extraction', level: -1, geometry: { x: 5, y: 6 } }),
  marker('c', { category: 'Keys', subCategory: 'Key Spawn', level: 2 }),
  marker('d', { category: 'Loot', subCategory: 'Cache', name: 'Plain', name_l10n: {} }),
  marker('e', { map: 'woods' }),
  marker('bad1', { level: 'one' }),
  marker('bad2', { geometry: { x: 'nope', y: 1 } }),
  marker('bad3', { subCategory: 'Unicorn' }),
];

describe('marker store load', () => {
  it('keeps valid markers of this map, reports bad ones and drops other maps', () => {
    const store = createMarkerStore();
    const result = store.load(encode({ markers: sample }), 'customs', 'en');
    expect(result.count).toBe(4);
    expect(result.issues).toBe(3);
    expect(result.otherMap).toBe(1);
    expect(result.sampleIssues.map((i) => i.uid)).toEqual(['bad1', 'bad2', 'bad3']);
    expect(result.sampleIssues[0].message).toMatch(/level/);
    expect(result.columns.uids).toEqual(['a', 'b', 'c', 'd']);
  });

  it('builds columns of the right lengths and values', () => {
    const { columns } = createMarkerStore().load(encode({ markers: sample }), 'customs', 'en');
    for (const col of [columns.uids, columns.x, columns.y, columns.level, columns.icon, columns.labels, columns.alwaysLabel]) {
      expect(col.length).toBe(4);
    }
    expect(Array.from(columns.x)).toEqual([100, 5, 100, 100]);
    expect(Array.from(columns.y)).toEqual([200, 6, 200, 200]);
    expect(Array.from(columns.level)).toEqual([1, -1, 2, 1]);
    expect(columns.icon[1]).toBe(SUBCATEGORIES.findIndex((s) => s.id === 'PMC Extraction'));
    expect(columns.icon[3]).toBe(SUBCATEGORIES.findIndex((s) => s.id === 'Cache'));
    // Extractions always show their label.
    expect(Array.from(columns.alwaysLabel)).toEqual([0, 1, 0, 0]);
  });

  it('counts markers per subcategory', () => {
    const { counts } = createMarkerStore().load(encode({ markers: sample }), 'customs', 'en');
    expect(counts).toEqual({ Safe: 1, 'PMC Extraction': 1, 'Key Spawn': 1, Cache: 1 });
  });

  it('accepts a bare list and an empty list', () => {
    const store = createMarkerStore();
    expect(store.load(encode([marker('x')]), 'customs', 'en').count).toBe(1);
    expect(store.load(encode({ markers: [] }), 'customs', 'en').count).toBe(0);
  });

  it('reports a list that is not a list as an issue, not a crash', () => {
    const result = createMarkerStore().load(encode({ markers: 42 }), 'customs', 'en');
    expect(result.count).toBe(0);
    expect(result.issues).toBe(1);
  });

  it('throws a clear error for bytes that are not JSON', () => {
    const store = createMarkerStore();
    expect(() => store.load(new TextEncoder().encode('<html>').buffer as ArrayBuffer, 'customs', 'en')).toThrow(MarkerListError);
    expect(() => decodeMarkerList(encode({ other: 1 }))).toThrow(/no "markers" field/);
    expect(() => decodeMarkerList(new Uint8Array([0xff, 0xfe, 0xfd]).buffer)).toThrow(/UTF-8/);
  });
});

describe('marker store labels', () => {
  it('labels in the requested language with a fallback to the plain name, then the subcategory', () => {
    const store = createMarkerStore();
    const en = store.load(encode({ markers: sample }), 'customs', 'en');
    expect(en.columns.labels).toEqual(['EN a', 'EN b', 'EN c', 'Plain']);
    expect(store.relabel('ru')).toEqual(['RU a', 'RU b', 'RU c', 'Plain']);
    store.load(encode({ markers: [marker('z', { name: '', name_l10n: {} })] }), 'customs', 'ru');
    expect(store.relabel('en')).toEqual(['Safe']);
  });
});

describe('marker store filter', () => {
  const store = createMarkerStore();
  store.load(encode({ markers: sample }), 'customs', 'en');
  const none = { hiddenCategories: [], hiddenSubCategories: [] };

  it('returns every index with no filter', () => {
    expect(Array.from(store.filter(none))).toEqual([0, 1, 2, 3]);
  });

  it('hides whole categories', () => {
    expect(Array.from(store.filter({ ...none, hiddenCategories: ['Loot'] }))).toEqual([1, 2]);
  });

  it('hides single subcategories', () => {
    expect(Array.from(store.filter({ ...none, hiddenSubCategories: ['Safe', 'Key Spawn'] }))).toEqual([1, 3]);
  });

  it('keeps only the given levels', () => {
    expect(Array.from(store.filter({ ...none, levels: [1] }))).toEqual([0, 3]);
    expect(Array.from(store.filter({ ...none, levels: [-1, 2] }))).toEqual([1, 2]);
    expect(Array.from(store.filter({ ...none, hiddenCategories: ['Keys'], levels: [-1, 2] }))).toEqual([1]);
  });

  it('returns a compact Uint32Array', () => {
    const result = store.filter({ ...none, hiddenCategories: ['Loot'] });
    expect(result).toBeInstanceOf(Uint32Array);
    expect(result.buffer.byteLength).toBe(2 * 4);
  });

  it('rejects a malformed query with a clear error', () => {
    expect(() => store.filter({ hiddenCategories: 'Loot' } as never)).toThrow(MarkerListError);
    expect(() => store.filter({ ...none, levels: ['x'] } as never)).toThrow(/levels/);
  });

  it('gets a full marker by uid', () => {
    expect(store.get('b')?.subCategory).toBe('PMC Extraction');
    expect(store.get('e')).toBeNull();
    expect(store.get('missing')).toBeNull();
  });
});

describe('marker store quest filter', () => {
  const store = createMarkerStore();
  const list = [
    marker('plain'),
    marker('q1a', { category: 'Quests', subCategory: 'Quest', questUid: 'q1' }),
    marker('q1b', { category: 'Quests', subCategory: 'Quest', questUid: 'q1', level: 2 }),
    marker('q2', { category: 'Quests', subCategory: 'Quest', questUid: 'q2' }),
    marker('gone', { category: 'Quests', subCategory: 'Quest', questUid: 'retired' }),
    marker('unlinked', { category: 'Quests', subCategory: 'Quest', questUid: null }),
  ];
  store.load(encode({ markers: list }), 'customs', 'en');
  const none = { hiddenCategories: [], hiddenSubCategories: [] };
  const uids = (indices: Uint32Array) => Array.from(indices, (i) => list[i].uid);

  it('draws quest-linked markers only while their quest is selected', () => {
    expect(uids(store.filter({ ...none, selectedQuests: [] }))).toEqual(['plain', 'unlinked']);
    expect(uids(store.filter({ ...none, selectedQuests: ['q1'] }))).toEqual(['plain', 'q1a', 'q1b', 'unlinked']);
    expect(uids(store.filter({ ...none, selectedQuests: ['q1', 'q2'] }))).toEqual(['plain', 'q1a', 'q1b', 'q2', 'unlinked']);
  });

  it('drops markers of quests that are not in the quest list, even when selected', () => {
    const known = ['q1', 'q2'];
    expect(uids(store.filter({ ...none, knownQuests: known }))).toEqual(['plain', 'q1a', 'q1b', 'q2', 'unlinked']);
    expect(uids(store.filter({ ...none, knownQuests: known, selectedQuests: ['q2', 'retired'] }))).toEqual(['plain', 'q2', 'unlinked']);
    expect(uids(store.filter({ ...none, knownQuests: [], selectedQuests: ['q1'] }))).toEqual(['plain', 'unlinked']);
  });

  it('leaves quest markers unrestricted when neither list is sent', () => {
    expect(uids(store.filter(none))).toEqual(list.map((m) => m.uid));
  });

  it('still applies categories and levels to a selected quest', () => {
    const selected = { ...none, selectedQuests: ['q1'], knownQuests: ['q1'] };
    expect(uids(store.filter({ ...selected, levels: [2] }))).toEqual(['q1b']);
    expect(uids(store.filter({ ...selected, hiddenCategories: ['Quests'] }))).toEqual(['plain']);
  });

  it('drops the markers of done and hidden quests (own progress), even when followed', () => {
    expect(uids(store.filter({ ...none, hiddenQuests: ['q1'] }))).toEqual(['plain', 'q2', 'gone', 'unlinked']);
    expect(uids(store.filter({ ...none, selectedQuests: ['q1', 'q2'], hiddenQuests: ['q2'] }))).toEqual(['plain', 'q1a', 'q1b', 'unlinked']);
    expect(uids(store.filter({ ...none, selectedQuests: ['q1', 'q2'], knownQuests: ['q1', 'q2'], hiddenQuests: ['q1', 'q2'] }))).toEqual(['plain', 'unlinked']);
    // An empty list hides nothing; markers without a quest are never touched.
    expect(uids(store.filter({ ...none, hiddenQuests: [] }))).toEqual(list.map((m) => m.uid));
  });

  it('rejects quest lists that are not string lists, naming every field', () => {
    expect(() => store.filter({ ...none, selectedQuests: 'q1' } as never)).toThrow(/selectedQuests/);
    expect(() => store.filter({ ...none, knownQuests: [1] } as never)).toThrow(MarkerListError);
    expect(() => store.filter({ ...none, hiddenQuests: 'q1' } as never)).toThrow(MarkerListError);
    expect(() => store.filter({ ...none, hiddenQuests: [null] } as never)).toThrow(/hiddenCategories.*levels.*selectedQuests, knownQuests, hiddenQuests/);
  });
});
