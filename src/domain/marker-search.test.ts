import { describe, expect, it } from 'vitest';
import { foldSearchText, matchRank, searchLabels } from './marker-search';

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
