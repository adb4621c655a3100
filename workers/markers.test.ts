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

describe('marker store edits', () => {
  const none = { hiddenCategories: [], hiddenSubCategories: [] };
  const loaded = () => {
    const store = createMarkerStore();
    store.load(encode({ markers: sample }), 'customs', 'en');
    return store;
  };

  it('replaces a known uid in its slot and returns its row and the counts after', () => {
    const store = loaded();
    const result = store.upsert(marker('c', { category: 'Loot', subCategory: 'Safe', geometry: { x: 7, y: 8 }, level: 3 }), 'ru');
    expect(result.index).toBe(2);
    expect(result.row).toEqual({ uid: 'c', x: 7, y: 8, level: 3, icon: SUBCATEGORIES.findIndex((s) => s.id === 'Safe'), label: 'RU c', alwaysLabel: 0 });
    expect(result.counts).toEqual({ Safe: 2, 'PMC Extraction': 1, Cache: 1 });
    expect(store.get('c')?.geometry).toEqual({ x: 7, y: 8 });
    expect(store.relabel('en')).toEqual(['EN a', 'EN b', 'EN c', 'Plain']);
  });

  it('appends a new uid as a new slot, which filters and gets like the others', () => {
    const store = loaded();
    const result = store.upsert(marker('new', { category: 'Extractions', subCategory: 'PMC Extraction' }), 'en');
    expect(result.index).toBe(4);
    expect(result.row.alwaysLabel).toBe(1);
    expect(result.counts['PMC Extraction']).toBe(2);
    expect(Array.from(store.filter(none))).toEqual([0, 1, 2, 3, 4]);
    expect(Array.from(store.filter({ ...none, hiddenCategories: ['Loot'] }))).toEqual([1, 2, 4]);
    expect(store.get('new')?.uid).toBe('new');
    expect(store.upsert(marker('new2'), 'en').index).toBe(5);
  });

  it('says whether the marker passes the last filter query (true before any)', () => {
    const store = loaded();
    expect(store.upsert(marker('p0'), 'en').passes).toBe(true);
    store.filter({ ...none, hiddenCategories: ['Loot'] });
    expect(store.upsert(marker('p1'), 'en').passes).toBe(false);
    expect(store.upsert(marker('p2', { category: 'Keys', subCategory: 'Key Spawn' }), 'en').passes).toBe(true);
    store.filter({ ...none, levels: [2] });
    expect(store.upsert(marker('p2', { category: 'Keys', subCategory: 'Key Spawn', level: 1 }), 'en').passes).toBe(false);
  });

  it('validates like load and rejects markers of another map with a clear error', () => {
    const store = loaded();
    expect(() => store.upsert(marker('x', { level: 'one' }), 'en')).toThrow(MarkerListError);
    expect(() => store.upsert(marker('x', { level: 'one' }), 'en')).toThrow(/marker x is not valid: level/);
    expect(() => store.upsert(marker('x', { subCategory: 'Unicorn' }), 'en')).toThrow(/subCategory/);
    expect(() => store.upsert(42, 'en')).toThrow(MarkerListError);
    expect(() => store.upsert(marker('x', { map: 'woods' }), 'en')).toThrow(/on map woods, not customs/);
    // Nothing changed.
    expect(store.get('x')).toBeNull();
    expect(Array.from(store.filter(none))).toEqual([0, 1, 2, 3]);
  });

  it('finds a uid listed twice at its last slot, and a new list forgets the old slots', () => {
    const store = createMarkerStore();
    store.load(encode({ markers: [marker('a'), marker('t', { level: 2 }), marker('t', { level: 3 })] }), 'customs', 'en');
    expect(store.get('t')?.level).toBe(3);
    expect(store.upsert(marker('t', { level: 4 }), 'en').index).toBe(2);
    expect(store.remove('t')?.index).toBe(2);
    expect(store.get('t')).toBeNull();
    store.load(encode({ markers: [marker('t')] }), 'customs', 'en');
    expect(store.get('t')?.uid).toBe('t');
    expect(store.get('a')).toBeNull();
    expect(store.upsert(marker('a'), 'en').index).toBe(1);
  });

  it('refuses edits before a list is loaded', () => {
    expect(() => createMarkerStore().upsert(marker('a'), 'en')).toThrow(/no marker list is loaded/);
  });

  it('keeps pass-through fields and defaults of the schema', () => {
    const store = loaded();
    store.upsert({ ...marker('v'), version: 3, extra: 'kept' }, 'en');
    expect(store.get('v')).toMatchObject({ version: 3, extra: 'kept', imgs: [], itemsUid: [] });
  });

  it('empties the slot of a removed marker: it never passes a filter, get is null, other indices stay', () => {
    const store = loaded();
    expect(store.remove('b')).toEqual({ index: 1, counts: { Safe: 1, 'Key Spawn': 1, Cache: 1 } });
    expect(store.get('b')).toBeNull();
    expect(Array.from(store.filter(none))).toEqual([0, 2, 3]);
    expect(Array.from(store.filter({ ...none, hiddenCategories: ['Loot'] }))).toEqual([2]);
    expect(store.relabel('ru')).toEqual(['RU a', '', 'RU c', 'Plain']);
    expect(store.get('c')?.uid).toBe('c');
    expect(store.upsert(marker('new'), 'en').index).toBe(4);
  });

  it('returns null for an unknown or already removed uid', () => {
    const store = loaded();
    expect(store.remove('missing')).toBeNull();
    expect(store.remove('e')).toBeNull(); // another map's marker was never kept
    store.remove('a');
    expect(store.remove('a')).toBeNull();
  });

  it('gives a removed uid its old slot back when it is put in again (undo of a delete)', () => {
    const store = loaded();
    store.remove('c');
    const again = store.upsert(marker('c', { category: 'Keys', subCategory: 'Key Spawn', level: 2 }), 'en');
    expect(again.index).toBe(2);
    expect(again.counts).toEqual({ Safe: 1, 'PMC Extraction': 1, 'Key Spawn': 1, Cache: 1 });
    expect(Array.from(store.filter(none))).toEqual([0, 1, 2, 3]);
  });

  it('drops a subcategory from the counts when its last marker goes', () => {
    const store = loaded();
    expect(store.remove('d')?.counts).toEqual({ Safe: 1, 'PMC Extraction': 1, 'Key Spawn': 1 });
    expect(store.upsert(marker('a', { category: 'Loot', subCategory: 'Cache' }), 'en').counts).toEqual({ 'PMC Extraction': 1, 'Key Spawn': 1, Cache: 1 });
  });

  it('starts over on a new load', () => {
    const store = loaded();
    store.remove('a');
    store.upsert(marker('new'), 'en');
    const result = store.load(encode({ markers: sample }), 'customs', 'en');
    expect(result.columns.uids).toEqual(['a', 'b', 'c', 'd']);
    expect(store.upsert(marker('a'), 'en').index).toBe(0);
    expect(store.upsert(marker('new'), 'en').index).toBe(4);
  });
});

describe('marker store search', () => {
  it('finds markers by their label in the language loaded, case-insensitively, whatever the filters', () => {
    const store = createMarkerStore();
    store.load(encode({ markers: sample }), 'customs', 'en');
    store.filter({ hiddenCategories: ['Keys'], hiddenSubCategories: [] });
    expect(store.search('en C', 8)).toEqual([{ uid: 'c', label: 'EN c', subCategory: 'Key Spawn', level: 2 }]);
    expect(store.search('plain', 8)).toEqual([{ uid: 'd', label: 'Plain', subCategory: 'Cache', level: 1 }]);
    expect(store.search('en', 2).map((h) => h.uid)).toEqual(['a', 'b']);
  });

  it('follows the language of a relabel and the edits', () => {
    const store = createMarkerStore();
    store.load(encode({ markers: sample }), 'customs', 'en');
    store.relabel('ru');
    expect(store.search('ru a', 8).map((h) => h.label)).toEqual(['RU a']);
    store.upsert(marker('z', { name_l10n: { ru: 'Сейф у ворот' } }), 'ru');
    expect(store.search('СЕЙФ', 8).map((h) => h.uid)).toEqual(['z']);
    store.remove('a');
    expect(store.search('ru a', 8)).toEqual([]);
  });

  it('rejects a malformed query', () => {
    const store = createMarkerStore();
    expect(() => store.search(42 as never, 8)).toThrow(MarkerListError);
  });
});
