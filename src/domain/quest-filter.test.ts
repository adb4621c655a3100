import { describe, expect, it } from 'vitest';
import { filterQuests, filterWords } from './quest-filter';

const quests = [
  { uid: 'a', name: 'Acquaintance', ruName: 'Знакомство', trader: 'Jaeger' },
  { uid: 'b', name: 'Bad Rep Evidence', ruName: 'Улики', trader: 'Prapor' },
  { uid: 'c', name: 'Checking', ruName: 'Проверка', trader: 'Therapist' },
  { uid: 'd', name: 'The Tarkov Shooter - Part 1', ruName: 'Стрелок. Часть 1', trader: 'Jaeger' },
  { uid: 'e', name: 'Hot Delivery', ruName: 'Горячая доставка ёлки', trader: 'Skier' },
];
const TRADERS: Record<string, string[]> = { Jaeger: ['Егерь'], Prapor: ['Прапор'], Therapist: ['Терапевт'], Skier: ['Лыжник'] };
const names = (text: string) => filterQuests(quests, text, (trader) => TRADERS[trader] ?? []).map((q) => q.uid);

describe('filterQuests', () => {
  it('keeps every quest, in order, for blank text', () => {
    expect(names('')).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(names('   ')).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('matches the English or the Russian name, whatever the case, anywhere in it', () => {
    expect(names('evidence')).toEqual(['b']);
    expect(names('CHECK')).toEqual(['c']);
    expect(names('улик')).toEqual(['b']);
    expect(names('ПРОВЕРКА')).toEqual(['c']);
  });

  it('ignores ё against е in either direction', () => {
    expect(names('елки')).toEqual(['e']);
    expect(names('ёлки')).toEqual(['e']);
    expect(names('ёгерь')).toEqual(['a', 'd']);
  });

  it("matches the trader by its id or its name in another language", () => {
    expect(names('prapor')).toEqual(['b']);
    expect(names('егерь')).toEqual(['a', 'd']);
    expect(names('jaeger')).toEqual(['a', 'd']);
    // Without the names of the traders, only their ids.
    expect(filterQuests(quests, 'prap').map((q) => q.uid)).toEqual(['b']);
    expect(filterQuests(quests, 'прапор')).toEqual([]);
  });

  it('needs every word somewhere in the names or the trader', () => {
    expect(names('jaeger shooter')).toEqual(['d']);
    expect(names('егерь часть')).toEqual(['d']);
    expect(names('prapor shooter')).toEqual([]);
  });

  it('finds nothing for text that no quest has', () => {
    expect(names('zzz')).toEqual([]);
  });
});

describe('filterWords', () => {
  it('folds and splits', () => {
    expect(filterWords('  Ёлка  Prapor ')).toEqual(['елка', 'prapor']);
    expect(filterWords('')).toEqual([]);
  });
});
