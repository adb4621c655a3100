/**
 * The compact marker list (issue 11) through the worker's store: it round-trips against the
 * full list (the same columns, filters and counts), full markers are fetched and kept (LRU),
 * edits and live changes replace them, and labels follow the language.
 */
import { describe, expect, it } from 'vitest';
import { CompactListError, decodeCompactList, encodeCompactList } from '../src/domain/compact-markers';
import { type Language, type Marker, markerSchema } from '../src/domain/marker';
import { FETCHED_CACHE_SIZE, MarkerListError, createMarkerStore } from './markers';

const encode = (body: unknown) => new TextEncoder().encode(JSON.stringify(body)).buffer as ArrayBuffer;

function marker(i: number, over: Partial<Marker> = {}): Marker {
  return markerSchema.parse({
    uid: `m${String(i).padStart(4, '0')}`,
    map: 'customs',
    category: i % 4 === 0 ? 'Extractions' : i % 4 === 1 ? 'Quests' : 'Loot',
    subCategory: i % 4 === 0 ? 'PMC Extraction' : i % 4 === 1 ? 'Quest' : i % 4 === 2 ? 'Safe' : 'Cache',
    level: (i % 3) - 1 || 2,
    geometry: { x: 10 + i * 1.1, y: 20 + i * 0.7 },
    name: i % 5 === 0 ? '' : `Name ${i}`,
    name_l10n: i % 2 === 0 ? { ru: `Имя ${i}` } : {},
    desc: `Desc ${i}`,
    questUid: i % 4 === 1 ? `q${i % 3}` : null,
    ...over,
  });
}

const full = Array.from({ length: 200 }, (_, i) => marker(i));
const compactBytes = (markers: Marker[], lang: Language) => encode(encodeCompactList(markers, 'customs', lang));

describe('compact list round trip', () => {
  it.each(['en', 'ru'] as Language[])('gives the same columns, counts and filters as the full list (%s)', (lang) => {
    const a = createMarkerStore();
    const b = createMarkerStore();
    const fromFull = a.load(encode({ markers: full }), 'customs', lang);
    const fromCompact = b.load(compactBytes(full, lang), 'customs', lang);
    expect(fromFull.format).toBe('full');
    expect(fromCompact.format).toBe('compact');
    expect(fromCompact.count).toBe(200);
    expect(fromCompact.issues).toBe(0);
    expect(fromCompact.columns).toEqual(fromFull.columns);
    expect(fromCompact.counts).toEqual(fromFull.counts);
    for (const query of [
      { hiddenCategories: [], hiddenSubCategories: [] },
      { hiddenCategories: ['Loot'], hiddenSubCategories: ['PMC Extraction'], levels: [2, -1] },
      { hiddenCategories: [], hiddenSubCategories: [], selectedQuests: ['q1'], knownQuests: ['q0', 'q1'], hiddenQuests: ['q0'] },
    ]) {
      expect(Array.from(b.filter(query))).toEqual(Array.from(a.filter(query)));
    }
    expect(b.relabel(lang)).toEqual(a.relabel(lang));
  });

  it('decodes what it encodes, and sends no text the map does not draw', () => {
    const list = encodeCompactList(full, 'customs', 'en');
    const text = JSON.stringify(list);
    expect(text).not.toContain('Desc ');
    expect(text.length).toBeLessThan(JSON.stringify({ markers: full }).length / 3);
    const decoded = decodeCompactList(JSON.parse(text));
    expect(decoded.issues).toEqual([]);
    expect(decoded.markers[1]).toEqual({ uid: 'm0001', category: 'Quests', subCategory: 'Quest', level: 2, questUid: 'q1', x: 11.1, y: 20.7, label: 'Name 1' });
    expect(decoded.markers[0].label).toBe('PMC Extraction'); // no name: the subCategory
  });

  it('refuses a list of the wrong shape with a clear error, and drops bad rows with a reason', () => {
    const good = encodeCompactList(full.slice(0, 3), 'customs', 'en');
    expect(() => decodeCompactList({ markers: [] })).toThrow(CompactListError);
    expect(() => decodeCompactList({ ...good, version: 2 })).toThrow(/version 2/);
    expect(() => decodeCompactList({ ...good, x: [1] })).toThrow(/"x" must be a list of 3/);
    expect(() => decodeCompactList({ ...good, count: -1 })).toThrow(/count/);
    expect(() => decodeCompactList({ ...good, kinds: [['Loot']] })).toThrow(/kinds/);
    expect(() => decodeCompactList({ ...good, quests: [5] })).toThrow(/quests/);
    const bad = {
      ...good,
      uid: ['', 'b', 'c'],
      x: [1, Number.NaN, 3],
      level: [1, 1, 1.5],
    };
    const decoded = decodeCompactList(JSON.parse(JSON.stringify(bad)));
    expect(decoded.markers).toEqual([]);
    expect(decoded.issues.map((i) => i.message)).toEqual([expect.stringMatching(/uid/), expect.stringMatching(/geometry/), expect.stringMatching(/level/)]);
    const wrongKind = decodeCompactList({ ...good, kinds: [['Loot', 'Unicorn'], ...good.kinds] });
    expect(wrongKind.issues.length).toBeGreaterThan(0);
    // Through the store: a bad shape is a MarkerListError, never a crash.
    expect(() => createMarkerStore().load(encode({ ...good, label: 'x' }), 'customs', 'en')).toThrow(MarkerListError);
  });

  it("keeps nothing of another map's compact list", () => {
    const result = createMarkerStore().load(compactBytes(full.slice(0, 5), 'en'), 'woods', 'en');
    expect(result.count).toBe(0);
    expect(result.otherMap).toBe(5);
  });
});

describe('full markers behind a compact list', () => {
  it("asks for a fetch, keeps what was fetched, and prefers an edit's copy", () => {
    const store = createMarkerStore();
    store.load(compactBytes(full, 'en'), 'customs', 'en');
    expect(store.lookup('m0003')).toBe('fetch');
    expect(store.get('m0003')).toBeNull();
    expect(store.lookup('nope')).toBeNull();
    expect(store.remember(full[3])).toEqual(full[3]);
    expect(store.lookup('m0003')).toEqual(full[3]);
    // Not on this map any more, not valid, or unknown: nothing kept.
    expect(store.remember({ ...full[3], uid: 'nope' })).toBeNull();
    expect(store.remember({ ...full[4], level: 'x' })).toBeNull();
    expect(store.remember(null)).toBeNull();
    // An edit replaces the fetched copy; a late fetch answer does not overwrite it.
    const edited = { ...full[5], desc: 'Edited' };
    store.upsert(edited, 'en');
    expect(store.remember(full[5])).toMatchObject({ desc: 'Edited' });
    expect(store.lookup('m0005')).toMatchObject({ desc: 'Edited' });
    // A removed marker is gone, fetched copy included.
    store.remove('m0003');
    expect(store.lookup('m0003')).toBeNull();
    expect(store.remember(full[3])).toBeNull();
  });

  it(`keeps at most ${FETCHED_CACHE_SIZE} fetched markers, dropping the least recently read`, () => {
    const many = Array.from({ length: FETCHED_CACHE_SIZE + 10 }, (_, i) => marker(i));
    const store = createMarkerStore();
    store.load(compactBytes(many, 'en'), 'customs', 'en');
    store.remember(many[0]);
    for (let i = 1; i < FETCHED_CACHE_SIZE; i += 1) store.remember(many[i]);
    expect(store.lookup(many[0].uid)).toEqual(many[0]); // read: now the most recent
    store.remember(many[FETCHED_CACHE_SIZE]);
    expect(store.lookup(many[1].uid)).toBe('fetch'); // the least recently read went
    expect(store.lookup(many[0].uid)).toEqual(many[0]);
  });

  it("relabels from the other language's compact list, and from fetched or edited markers", () => {
    const store = createMarkerStore();
    const result = store.load(compactBytes(full, 'en'), 'customs', 'en');
    expect(result.columns.labels[2]).toBe('Name 2');
    const ru = store.relabel('ru', compactBytes(full, 'ru'));
    expect(ru[2]).toBe('Имя 2');
    expect(ru[1]).toBe('Name 1');
    // Without the list, compact records keep their labels; fetched markers are relabelled.
    store.remember(full[4]);
    const en = store.relabel('en');
    expect(en[2]).toBe('Имя 2');
    expect(en[4]).toBe('Name 4');
    store.upsert({ ...full[6], name_l10n: { ru: 'Новое' } }, 'en');
    expect(store.relabel('ru')[6]).toBe('Новое');
  });
});

describe('the label of a marker with no name', () => {
  it("is its subcategory's name in the page's language, from the compact list, the full list and an edit", () => {
    const unnamed = [marker(0), marker(5, { subCategory: 'Cache', category: 'Loot', questUid: null })];
    expect(unnamed.map((m) => m.name)).toEqual(['', '']);
    const store = createMarkerStore();
    expect(store.load(compactBytes(unnamed, 'ru'), 'customs', 'ru').columns.labels.slice(0, 2)).toEqual(['Имя 0', 'Тайник']);
    expect(store.relabel('en', compactBytes(unnamed, 'en')).slice(0, 2)).toEqual(['PMC Extraction', 'Cache']);
    const full = createMarkerStore();
    expect(full.load(encode({ markers: unnamed }), 'customs', 'ru').columns.labels.slice(0, 2)).toEqual(['Имя 0', 'Тайник']);
    full.upsert({ ...unnamed[1], subCategory: 'Safe' }, 'ru');
    expect(full.relabel('ru')[1]).toBe('Сейф');
  });
});

describe('compact list search', () => {
  it('finds the same markers as the full list, labels and levels included', () => {
    const a = createMarkerStore();
    const b = createMarkerStore();
    a.load(encode({ markers: full }), 'customs', 'ru');
    b.load(compactBytes(full, 'ru'), 'customs', 'ru');
    const hits = b.search('имя 1', 8);
    expect(hits).toEqual(a.search('имя 1', 8));
    expect(hits[0]).toEqual({ uid: 'm0010', label: 'Имя 10', subCategory: 'Safe', level: 2 });
  });
});

describe('a compact list loaded with changes put back on top (src/domain/list-replay.ts)', () => {
  it('applies the moves, adds and removals after the list, before its columns and counts are made; skips an invalid one', () => {
    const store = createMarkerStore();
    const list = full.slice(0, 10);
    const result = store.load(compactBytes(list, 'en'), 'customs', 'en', [
      { uid: 'm0002', marker: { ...list[2], geometry: { x: 999, y: 998 }, version: 7 } },
      { uid: 'm0003', marker: null },
      { uid: 'new', marker: marker(50, { uid: 'new' }) },
      { uid: 'bad', marker: { uid: 'bad', map: 'customs' } },
    ]);
    expect(result.count).toBe(11);
    expect(result.columns.x[2]).toBe(999);
    expect(result.columns.uids[3]).toBe('');
    expect(result.columns.uids[10]).toBe('new');
    expect(store.get('m0002')?.version).toBe(7);
    expect(store.lookup('m0003')).toBeNull();
    expect(store.get('bad')).toBeNull();
    const all = store.filter({ hiddenCategories: [], hiddenSubCategories: [] });
    expect(all).toHaveLength(10);
    expect(Object.values(result.counts).reduce((a, b) => a + b, 0)).toBe(10);
  });
});
