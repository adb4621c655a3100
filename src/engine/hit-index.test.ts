import { describe, expect, it } from 'vitest';
import { HitIndex, type DrawnMarkers } from './hit-index';

function drawnSet(points: [index: number, x: number, y: number][]): DrawnMarkers {
  return {
    drawn: Uint32Array.from(points.map((p) => p[0])),
    drawnCount: points.length,
    layoutX: Float32Array.from(points.map((p) => p[1])),
    layoutY: Float32Array.from(points.map((p) => p[2])),
    offsetX: 0,
    offsetY: 0,
    iconCss: 28,
  };
}

describe('HitIndex', () => {
  it('finds the drawn marker under the pointer and misses empty space', () => {
    const source = drawnSet([[10, 100, 100], [11, 300, 300]]);
    const hits = new HitIndex(source);
    expect(hits.hit(105, 95)).toBe(10);
    expect(hits.hit(300, 310)).toBe(11);
    expect(hits.hit(200, 200)).toBe(-1);
    expect(hits.hit(Number.NaN, 0)).toBe(-1);
  });

  it('prefers the top-most of two stacked markers', () => {
    const hits = new HitIndex(drawnSet([[1, 50, 50], [2, 50, 50]]));
    expect(hits.hit(50, 50)).toBe(2);
  });

  it('follows the drawn set only after invalidate()', () => {
    const source = drawnSet([[7, 100, 100]]);
    const hits = new HitIndex(source);
    expect(hits.hit(100, 100)).toBe(7);
    source.layoutX[0] = 500;
    expect(hits.hit(100, 100)).toBe(7);
    hits.invalidate();
    expect(hits.hit(100, 100)).toBe(-1);
    expect(hits.hit(500, 100)).toBe(7);
  });

  it('follows a pan (a new layout offset) without a rebuild', () => {
    const source = drawnSet([[3, 100, 100]]);
    const hits = new HitIndex(source);
    expect(hits.hit(100, 100)).toBe(3);
    source.offsetX = -40;
    source.offsetY = 25;
    expect(hits.hit(100, 100)).toBe(-1);
    expect(hits.hit(60, 125)).toBe(3);
  });
});

describe('HitIndex edits', () => {
  it('applies a removed and an added marker without a rebuild', () => {
    const source = drawnSet([[1, 100, 100], [2, 300, 300]]);
    const hits = new HitIndex(source);
    expect(hits.hit(100, 100)).toBe(1);
    expect(hits.rebuilds).toBe(1);
    hits.apply({ removed: [1], added: [{ index: 5, layoutX: 500, layoutY: 500, order: 9 }] });
    expect(hits.hit(100, 100)).toBe(-1);
    expect(hits.hit(505, 498)).toBe(5);
    expect(hits.hit(300, 300)).toBe(2);
    expect(hits.rebuilds).toBe(1);
  });

  it('moves a marker that is added again (its old box goes)', () => {
    const hits = new HitIndex(drawnSet([[1, 100, 100]]));
    hits.hit(0, 0);
    hits.apply({ removed: [], added: [{ index: 1, layoutX: 200, layoutY: 100, order: 1 }] });
    expect(hits.hit(100, 100)).toBe(-1);
    expect(hits.hit(200, 100)).toBe(1);
  });

  it('breaks ties by draw key, so an edit need not renumber the others', () => {
    const source = { ...drawnSet([[1, 50, 50], [2, 50, 50]]), drawKeys: Float64Array.from([10, 30]) };
    const hits = new HitIndex(source);
    expect(hits.hit(50, 50)).toBe(2);
    hits.apply({ removed: [], added: [{ index: 3, layoutX: 50, layoutY: 50, order: 20 }] });
    expect(hits.hit(50, 50)).toBe(2);
    hits.apply({ removed: [2], added: [] });
    expect(hits.hit(50, 50)).toBe(3);
  });

  it('ignores edits while stale: the next query rebuilds from the placed set', () => {
    const source = drawnSet([[1, 100, 100]]);
    const hits = new HitIndex(source);
    hits.apply({ removed: [1], added: [] });
    expect(hits.hit(100, 100)).toBe(1);
  });
});
