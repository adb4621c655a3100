import { describe, expect, it } from 'vitest';
import { TileCacheIndex } from './cache-index';

describe('TileCacheIndex', () => {
  it('keeps the total and names the least recently used files first', () => {
    const index = new TileCacheIndex();
    index.touch('a', 10);
    index.touch('b', 20);
    index.touch('c', 30);
    expect([index.files, index.bytes]).toEqual([3, 60]);
    // Using a again makes b the oldest.
    index.touch('a', 10);
    expect(index.victims(35)).toEqual(['b', 'c']);
    expect(index.victims(60)).toEqual([]);
    expect(index.victims(0)).toEqual(['b', 'c', 'a']);
    // A file written again with another size counts its new size once.
    index.touch('b', 5);
    expect(index.bytes).toBe(45);
    expect(index.victims(40)).toEqual(['c']);
  });

  it('forgets files, one folder at a time, and only if not used since the stamp', () => {
    const index = new TileCacheIndex();
    index.touch('/t/m/v1/a', 1);
    index.touch('/t/m/v1/b', 2);
    index.touch('/t/m/v2/a', 4);
    const stamp = index.stampOf('/t/m/v2/a');
    index.touch('/t/m/v2/a', 4);
    index.remove('/t/m/v2/a', stamp);
    expect(index.has('/t/m/v2/a')).toBe(true);
    index.removeUnder('/t/m/v1/');
    expect([index.files, index.bytes]).toEqual([1, 4]);
    index.remove('/t/m/v2/a');
    expect([index.files, index.bytes, index.sizeOf('/t/m/v2/a')]).toEqual([0, 0, undefined]);
    index.remove('never');
  });

  it('adds the files found at start-up as older than those used since', () => {
    const index = new TileCacheIndex();
    index.touch('new', 1);
    index.touch('both', 2);
    index.addOlder([{ file: 'old1', bytes: 10 }, { file: 'both', bytes: 99 }, { file: 'old2', bytes: 20 }]);
    expect([index.files, index.bytes]).toEqual([4, 33]);
    expect(index.victims(0)).toEqual(['old1', 'old2', 'new', 'both']);
  });
});
