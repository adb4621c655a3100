import { describe, expect, it } from 'vitest';
import { planEviction, textureBytes, type CacheEntry } from './lru';

const entry = (key: string, lastUsed: number, pinned = false, bytes = 100): CacheEntry => ({ key, bytes, lastUsed, pinned });

describe('planEviction', () => {
  it('evicts nothing under budget', () => {
    expect(planEviction([entry('a', 1), entry('b', 2)], 200)).toEqual([]);
  });

  it('evicts least recently used first until the total fits', () => {
    const entries = [entry('new', 9), entry('old', 1), entry('mid', 5), entry('older', 0)];
    expect(planEviction(entries, 200)).toEqual(['older', 'old']);
  });

  it('never evicts pinned (drawn) entries, even over budget', () => {
    const entries = [entry('drawn1', 0, true), entry('drawn2', 0, true), entry('spare', 5)];
    expect(planEviction(entries, 100)).toEqual(['spare']);
  });

  it('leaves the total within budget whenever unpinned entries allow it', () => {
    const entries = Array.from({ length: 50 }, (_, i) => entry(`t${i}`, (i * 37) % 50, i % 7 === 0, 64 + i));
    const budget = 1500;
    const evicted = new Set(planEviction(entries, budget));
    const remaining = entries.filter((e) => !evicted.has(e.key));
    expect(remaining.reduce((s, e) => s + e.bytes, 0)).toBeLessThanOrEqual(budget);
    for (const e of entries) if (e.pinned) expect(evicted.has(e.key)).toBe(false);
    // Every kept unpinned entry is newer than every evicted one.
    const newestEvicted = Math.max(...entries.filter((e) => evicted.has(e.key)).map((e) => e.lastUsed));
    for (const e of remaining) if (!e.pinned) expect(e.lastUsed).toBeGreaterThan(newestEvicted);
  });

  it('computes RGBA bytes', () => {
    expect(textureBytes(256, 256)).toBe(262144);
    expect(textureBytes(-1, 5)).toBe(0);
  });
});
