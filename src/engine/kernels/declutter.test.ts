import { describe, expect, it } from 'vitest';
import { declutter, overlaps, type LabelCandidate } from './declutter';

const label = (id: number, priority: number, x: number, y: number, w = 60, h = 14): LabelCandidate => ({
  id, priority, minX: x, minY: y, maxX: x + w, maxY: y + h,
});

describe('declutter', () => {
  it('keeps non-overlapping labels', () => {
    expect(declutter([label(1, 0, 0, 0), label(2, 0, 100, 0), label(3, 0, 0, 100)]).sort()).toEqual([1, 2, 3]);
  });

  it('drops the lower-priority label of an overlapping pair, whatever the input order', () => {
    expect(declutter([label(1, 5, 0, 0), label(2, 1, 30, 5)])).toEqual([2]);
    expect(declutter([label(2, 1, 30, 5), label(1, 5, 0, 0)])).toEqual([2]);
  });

  it('edge-touching labels do not overlap', () => {
    expect(overlaps(label(1, 0, 0, 0), label(2, 0, 60, 0))).toBe(false);
    expect(declutter([label(1, 0, 0, 0), label(2, 0, 60, 0)])).toHaveLength(2);
  });

  it('a dense pile never yields overlapping kept labels, and higher priorities win', () => {
    let seed = 42;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pile = Array.from({ length: 2000 }, (_, i) => label(i, Math.floor(rand() * 4), rand() * 800, rand() * 600, 30 + rand() * 90, 14));
    const keptIds = declutter(pile);
    const kept = keptIds.map((id) => pile[id]);
    for (let i = 0; i < kept.length; i++) for (let j = i + 1; j < kept.length; j++) expect(overlaps(kept[i], kept[j])).toBe(false);
    expect(kept.length).toBeGreaterThan(50);
    expect(kept.length).toBeLessThan(800);
    // Any dropped label overlaps a kept one of equal or higher priority.
    const keptSet = new Set(keptIds);
    for (const c of pile) {
      if (keptSet.has(c.id)) continue;
      expect(kept.some((k) => overlaps(k, c) && (k.priority < c.priority || (k.priority === c.priority && k.id < c.id)))).toBe(true);
    }
  });
});
