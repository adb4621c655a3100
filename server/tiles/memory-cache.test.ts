import { describe, expect, it } from 'vitest';
import { TileMemoryCache } from './memory-cache';

const bytes = (n: number, fill = 1) => Buffer.alloc(n, fill);

describe('TileMemoryCache', () => {
  it('answers what it keeps, and counts the hits', () => {
    const cache = new TileMemoryCache(1000);
    cache.set('/t/a.webp', bytes(10, 7));
    expect(cache.get('/t/a.webp')).toEqual(bytes(10, 7));
    expect(cache.get('/t/b.webp')).toBeUndefined();
    expect(cache.hits).toBe(1);
    expect([cache.files, cache.bytes]).toEqual([1, 10]);
  });

  it('drops the least recently used past its budget, a read counting as a use', () => {
    const cache = new TileMemoryCache(300);
    cache.set('a', bytes(30));
    cache.set('b', bytes(30));
    cache.set('c', bytes(30));
    cache.get('a');
    for (let i = 0; i < 8; i++) cache.set(`x${i}`, bytes(30)); // 330 bytes wanted: one must go
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.bytes).toBe(300);
  });

  it('does not keep a tile larger than an eighth of its budget, and keeps nothing with a budget of 0', () => {
    const cache = new TileMemoryCache(800);
    cache.set('big', bytes(101));
    cache.set('small', bytes(100));
    expect([cache.get('big'), cache.get('small')?.length]).toEqual([undefined, 100]);
    const off = new TileMemoryCache(0);
    off.set('a', bytes(1));
    expect(off.files).toBe(0);
  });

  it('replaces a tile set again without counting it twice', () => {
    const cache = new TileMemoryCache(1000);
    cache.set('a', bytes(10));
    cache.set('a', bytes(20));
    expect([cache.files, cache.bytes]).toEqual([1, 20]);
  });

  it('drops a removed tile version\'s folder, and only it', () => {
    const cache = new TileMemoryCache(1000);
    cache.set('/tiles/customs/v1/main/3/1/1.webp', bytes(10));
    cache.set('/tiles/customs/v1/main/3/1/2.webp', bytes(10));
    cache.set('/tiles/customs/v2/main/3/1/1.webp', bytes(10));
    cache.deleteUnder('/tiles/customs/v1/');
    expect([cache.files, cache.bytes]).toEqual([1, 10]);
    expect(cache.get('/tiles/customs/v2/main/3/1/1.webp')).toBeDefined();
  });

  it('shrinks to a smaller budget at once, and refuses a budget that is not a number of bytes', () => {
    const cache = new TileMemoryCache(1000);
    for (let i = 0; i < 10; i++) cache.set(`t${i}`, bytes(20));
    cache.resize(160);
    expect([cache.files, cache.bytes]).toEqual([8, 160]);
    expect(cache.get('t0')).toBeUndefined(); // the oldest go first
    expect(cache.get('t9')).toBeDefined();
    cache.resize(80); // 20 bytes is now over an eighth of the budget: nothing is kept
    expect(cache.files).toBe(0);
    expect(() => cache.resize(-1)).toThrow(/≥ 0/);
    expect(() => new TileMemoryCache(Number.NaN)).toThrow(/≥ 0/);
    expect(() => new TileMemoryCache(Infinity)).toThrow(/finite/);
  });
});
