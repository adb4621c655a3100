import { describe, expect, it } from 'vitest';
import {
  foldSearchText,
  labelTier,
  matchRank,
  MATCH_TIER,
  NAMED_NOTHING,
  namedIds,
  nearestLandmark,
  positionHint,
  searchLabels,
  searchMarkers,
  textNames,
  type SlotFacts,
} from './marker-search';

const labels = ['Dorm room 114 safe', 'Safe', 'Unsafe crate', 'Сейф в общаге', 'Ёлка', '', 'safe'];
const search = (text: string, limit = 8) => searchLabels(labels.length, (s) => labels[s], text, limit);

describe('marker search', () => {
  it('folds case and ё', () => {
    expect(foldSearchText('  ЁЛКА Safe ')).toBe('елка safe');
  });

  it('ranks a label that starts with the text, then a word start, then any match', () => {
    expect(matchRank('safe', 'safe')).toBe(0);
    expect(matchRank('dorm room 114 safe', 'safe')).toBe(1);
    expect(matchRank('unsafe crate', 'safe')).toBe(2);
    expect(matchRank('crate', 'safe')).toBe(-1);
  });

  it('finds labels containing the text case-insensitively, best first', () => {
    expect(search('SAFE')).toEqual([1, 6, 0, 2]);
  });

  it('matches Russian labels, е for ё', () => {
    expect(search('сейф')).toEqual([3]);
    expect(search('елк')).toEqual([4]);
  });

  it('answers at most the limit and nothing for blank text', () => {
    expect(search('safe', 2)).toEqual([1, 6]);
    expect(search('   ')).toEqual([]);
  });
});

describe('finding markers by name, type and quest', () => {
  type Row = [label: string, subCategory: string, category: string, quest: string | null];
  const rows: Row[] = [
    ['Weapon box', 'Weapon Box', 'Loot', null], // 0
    ['Gate 3', 'PMC Extraction', 'Extractions', null], // 1
    ['Exit stairs key', 'Key Spawn', 'Keys', null], // 2
    ['Crossroads', 'PMC Extraction', 'Extractions', null], // 3
    ['', 'Safe', 'Loot', null], // 4: an empty slot
    ['Smuggler\'s Boat', 'Transition', 'Extractions', null], // 5
    ['Folder', 'Quest', 'Quests', 'q-delivery'], // 6
    ['Weapon box', 'Weapon Box', 'Loot', null], // 7
    ['exit', 'Marker', 'Markers', null], // 8
  ];
  const facts: SlotFacts = {
    count: rows.length,
    label: (s) => rows[s][0],
    subCategory: (s) => rows[s][1],
    category: (s) => rows[s][2],
    quest: (s) => rows[s][3],
  };
  const find = (text: string, named = NAMED_NOTHING, limit = 20) => searchMarkers(facts, text, named, limit);

  it('tiers a label: exact, prefix, word start, anywhere', () => {
    expect(labelTier('exit', 'exit')).toBe(MATCH_TIER.exact);
    expect(labelTier('exit stairs key', 'exit')).toBe(MATCH_TIER.prefix);
    expect(labelTier('stairs exit', 'exit')).toBe(MATCH_TIER.word);
    expect(labelTier('nexit', 'exit')).toBe(MATCH_TIER.contains);
    expect(labelTier('gate', 'exit')).toBe(-1);
  });

  it('names a type by a word start of any of its names, from two letters on, case and ё folded', () => {
    expect(textNames('PMC Extraction', 'extr')).toBe(true);
    expect(textNames('PMC Extraction', 'pmc ex')).toBe(true);
    expect(textNames('Weapon Box', 'BOX')).toBe(true);
    expect(textNames('Safe', 'af')).toBe(false);
    expect(textNames('Extractions', 'e')).toBe(false);
    expect(textNames('Ёлочный ящик', 'елоч')).toBe(true);
    expect(namedIds([['Extractions', ['Extractions', 'exit', 'exfil']], ['Keys', ['Keys']], ['Loot', ['Loot']]], 'exit')).toEqual(['Extractions']);
    expect(namedIds([['PMC Extraction', ['PMC extraction']], ['Scav Extraction', ['Scav extraction']], ['Safe', ['Safe']]], 'Extraction')).toEqual(['PMC Extraction', 'Scav Extraction']);
  });

  it('puts label matches first (exact, prefix, word), then subcategory, quest and category matches', () => {
    const named = { subCategories: ['PMC Extraction'], quests: [], categories: ['Extractions'] };
    const { matches, total } = find('exit', named);
    expect(matches.map((m) => m.slot)).toEqual([8, 2, 3, 1, 5]);
    expect(matches.map((m) => m.by)).toEqual(['name', 'name', 'subCategory', 'subCategory', 'category']);
    expect(total).toBe(5);
  });

  it('finds the markers of a quest the text names, and finds nothing more without names', () => {
    expect(find('delivery', { ...NAMED_NOTHING, quests: ['q-delivery'] }).matches).toEqual([{ slot: 6, tier: MATCH_TIER.quest, by: 'quest' }]);
    expect(find('delivery').matches).toEqual([]);
  });

  it('keeps the best up to the limit in order and counts them all; identical labels go by slot', () => {
    const named = { subCategories: [], quests: [], categories: ['Loot', 'Extractions', 'Keys', 'Quests', 'Markers'] };
    const all = find('zz', named, 50);
    expect(all.total).toBe(8);
    expect(all.matches.map((m) => m.slot)).toEqual([3, 8, 2, 6, 1, 5, 0, 7]);
    const few = find('zz', named, 3);
    expect(few.total).toBe(8);
    expect(few.matches.map((m) => m.slot)).toEqual([3, 8, 2]);
    expect(find('weapon box').matches.map((m) => m.slot)).toEqual([0, 7]);
    expect(find('   ', named).total).toBe(0);
  });

  it('counts all of 100,000 markers of a named category and keeps only the best 20, in order', () => {
    const n = 100_000;
    const big: SlotFacts = {
      count: n,
      label: (s) => `Crate ${s % 997}`,
      subCategory: () => 'Wooden Crate',
      category: () => 'Loot',
      quest: () => null,
    };
    const { matches, total } = searchMarkers(big, 'loot', { subCategories: [], quests: [], categories: ['Loot'] }, 20);
    expect(total).toBe(n);
    // All by category; then by label ("Crate 0" first: slots 0, 997, 1994…), then by slot.
    expect(matches).toEqual(Array.from({ length: 20 }, (_, i) => ({ slot: i * 997, tier: MATCH_TIER.category, by: 'category' })));
  });

  it('finds the nearest landmark and says where a marker is', () => {
    const landmarks = [
      { label: 'Gate 3', x: 100, y: 100 },
      { label: 'Crossroads', x: 1000, y: 100 },
    ];
    expect(nearestLandmark(landmarks, 900, 300)).toEqual({ label: 'Crossroads', distance: Math.hypot(100, 200) });
    expect(nearestLandmark([], 0, 0)).toBeNull();
    // 4 px a metre: 40 px is 10 m (by it), 500 px is 125 m (130 m from it).
    expect(positionHint({ label: 'Gate 3', distance: 40 }, 4, { gameX: 0, gameZ: 0 })).toEqual({ kind: 'by', landmark: 'Gate 3' });
    expect(positionHint({ label: 'Gate 3', distance: 500 }, 4, { gameX: 0, gameZ: 0 })).toEqual({ kind: 'from', landmark: 'Gate 3', metres: 130 });
    expect(positionHint(null, 4, { gameX: 12.4, gameZ: -0.3 })).toEqual({ kind: 'coords', x: 12, z: 0 });
  });
});
