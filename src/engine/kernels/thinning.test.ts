import { describe, expect, it } from 'vitest';
import { SUBCATEGORIES } from '../../domain/categories';
import RBush from 'rbush';
import {
  keepOrder,
  ICON_PRIORITY, buildThinning, cellSizeMap, queryThinned, stepForZoom, thinnedAt, thinningCellKey, thinningCellRect,
  thinningInsert, thinningRemove, thinnedGrid, makeAllThinnedGrids, type ThinningIndex, type ThinningInput,
} from './thinning';

function randomMarkers(n: number, width: number, height: number, seed = 7) {
  let s = seed;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const x = new Float32Array(n);
  const y = new Float32Array(n);
  const icon = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = rand() * width;
    y[i] = rand() * height;
    icon[i] = Math.floor(rand() * SUBCATEGORIES.length);
  }
  return { x, y, icon };
}

const W = 4400;
const H = 3200;

function input(n: number, cellCss = 24): ThinningInput & { icon: Uint8Array } {
  const { x, y, icon } = randomMarkers(n, W, H);
  return {
    x, y, icon,
    indices: Uint32Array.from({ length: n }, (_, i) => i),
    priority: (i) => ICON_PRIORITY[icon[i]],
    mapWidth: W, mapHeight: H, baseZoom: 0.12, maxZoom: 10, cellCss,
  };
}

const all = { minX: -1, minY: -1, maxX: W + 1, maxY: H + 1 };

describe('marker thinning', () => {
  it('ranks extractions above quests above spawns above keys above misc above loot', () => {
    const p = (id: string) => ICON_PRIORITY[SUBCATEGORIES.findIndex((s) => s.id === id)];
    expect(p('PMC Extraction')).toBeLessThan(p('Quest'));
    expect(p('Quest')).toBeLessThan(p('PMC Spawn'));
    expect(p('PMC Spawn')).toBeLessThan(p('Key Spawn'));
    expect(p('Key Spawn')).toBeLessThan(p('Lever'));
    expect(p('Lever')).toBeLessThan(p('Safe'));
  });

  it('keeps at most one marker per screen cell at each step', () => {
    const inp = input(20000);
    const index = buildThinning(inp);
    expect(index.fullStep).toBe(6); // 0.12 · 2^6 = 7.68 ≥ 10 / 2
    for (let step = 0; step < index.fullStep; step++) {
      const out: number[] = [];
      queryThinned(index, step, all, inp.x, inp.y, out);
      const cell = cellSizeMap(index, step);
      const cells = new Set(out.map((i) => `${Math.floor(inp.x[i] / cell)},${Math.floor(inp.y[i] / cell)}`));
      expect(cells.size).toBe(out.length);
      expect(out.length).toBeLessThanOrEqual(Math.ceil(W / cell) * Math.ceil(H / cell));
    }
  });

  it('bounds the markers drawn in a viewport by its screen cells, not by N', () => {
    const viewportCells = Math.ceil(1280 / 24 + 1) * Math.ceil(800 / 24 + 1);
    for (const n of [1000, 100000]) {
      const inp = input(n);
      const index = buildThinning(inp);
      const zoom = 0.6;
      const step = stepForZoom(index, zoom);
      const rect = { minX: 2200 - 640 / zoom, maxX: 2200 + 640 / zoom, minY: 1600 - 400 / zoom, maxY: 1600 + 400 / zoom };
      const out: number[] = [];
      queryThinned(index, step, rect, inp.x, inp.y, out);
      // Cells of step `step` are ≥ 24 CSS px on screen at this zoom.
      expect(out.length).toBeLessThanOrEqual(viewportCells);
      for (const i of out) {
        expect(inp.x[i]).toBeGreaterThanOrEqual(rect.minX);
        expect(inp.x[i]).toBeLessThanOrEqual(rect.maxX);
      }
    }
  });

  it('a marker shown at one step stays shown at every deeper step', () => {
    const inp = input(5000);
    const index = buildThinning(inp);
    let previous = new Set<number>();
    for (let step = 0; step < index.fullStep; step++) {
      const out: number[] = [];
      queryThinned(index, step, all, inp.x, inp.y, out);
      const now = new Set(out);
      for (const i of previous) expect(now.has(i)).toBe(true);
      previous = now;
    }
  });

  it('keeps the best marker of every cell (lowest priority, then lowest index)', () => {
    const inp = input(3000);
    const index = buildThinning(inp);
    for (let step = 0; step < index.fullStep; step++) {
      const best = new Map<number, number>();
      for (const i of inp.indices) {
        const key = thinningCellKey(index, step, inp.x[i], inp.y[i]);
        const b = best.get(key);
        if (b === undefined || inp.priority(i) < inp.priority(b) || (inp.priority(i) === inp.priority(b) && i < b)) best.set(key, i);
      }
      expect(thinnedGrid(index, step)).toEqual(best);
    }
  });

  it('in a crowded cell the highest-priority marker wins', () => {
    const x = Float32Array.from([100, 101, 102]);
    const y = Float32Array.from([100, 101, 102]);
    const prio = [5, 0, 3];
    const index = buildThinning({
      x, y, indices: Uint32Array.from([0, 1, 2]), priority: (i) => prio[i],
      mapWidth: W, mapHeight: H, baseZoom: 0.12, maxZoom: 10, cellCss: 24,
    });
    const out: number[] = [];
    queryThinned(index, 0, all, x, y, out);
    expect(out).toEqual([1]);
  });

  it('only considers the filtered indices', () => {
    const inp = input(1000);
    inp.indices = Uint32Array.from([3, 5, 8]);
    const index = buildThinning(inp);
    const out: number[] = [];
    queryThinned(index, index.fullStep - 1, all, inp.x, inp.y, out);
    expect(out.sort((a, b) => a - b)).toEqual([3, 5, 8]);
  });

  it('maps zoom to steps and rejects bad parameters', () => {
    const index = buildThinning(input(10));
    expect(stepForZoom(index, 0.12)).toBe(0);
    expect(stepForZoom(index, 0.24)).toBe(1);
    expect(stepForZoom(index, 0.47)).toBe(1);
    expect(stepForZoom(index, 10)).toBe(index.fullStep);
    expect(() => buildThinning({ ...input(10), baseZoom: 0 })).toThrow(RangeError);
    expect(() => queryThinned(index, index.fullStep, all, new Float32Array(), new Float32Array(), [])).toThrow(RangeError);
    expect(() => thinnedGrid(index, -1)).toThrow(RangeError);
    expect(thinnedAt(index, index.fullStep, 0, 0)).toBeUndefined();
  });

  it('makes a step\'s grid on its first use only, the same as if all were made at once', () => {
    const inp = input(3000);
    const index = buildThinning(inp);
    expect(index.fullStep).toBeGreaterThan(2);
    expect(index.grids.every((g) => g === undefined)).toBe(true);
    const out: number[] = [];
    queryThinned(index, 1, all, inp.x, inp.y, out);
    expect(index.grids.map((g) => g !== undefined)).toEqual(Array.from({ length: index.fullStep }, (_, step) => step === 1));
    expect(thinnedGrid(index, 1)).toBe(index.grids[1]);
    expect(index.pending).not.toBeNull();
    const grids = makeAllThinnedGrids(index);
    expect(index.pending).toBeNull();
    for (let step = 0; step < index.fullStep; step++) expect(grids[step].size).toBe(new Set(grids[step].values()).size);
    expect(out.sort((a, b) => a - b)).toEqual([...grids[1].values()].sort((a, b) => a - b));
  });
});

describe('incremental thinning', () => {
  interface Item { minX: number; minY: number; maxX: number; maxY: number; i: number }

  /** A built index over a subset, with an rbush of the same markers as the candidates' source. */
  function setup(n: number, kept: (i: number) => boolean) {
    const inp = input(n);
    const members = new Set<number>();
    for (let i = 0; i < n; i++) if (kept(i)) members.add(i);
    const index = buildThinning({ ...inp, indices: Uint32Array.from(members) });
    const tree = new RBush<Item>();
    const items = new Map<number, Item>();
    const add = (i: number) => {
      const item = { minX: inp.x[i], minY: inp.y[i], maxX: inp.x[i], maxY: inp.y[i], i };
      items.set(i, item);
      tree.insert(item);
    };
    members.forEach(add);
    const candidates = (rect: Parameters<RBush<Item>['search']>[0]) => tree.search(rect).map((it) => it.i);
    return {
      inp, index, members,
      insert(i: number) {
        add(i);
        members.add(i);
        thinningInsert(index, i, inp.x, inp.y, inp.priority);
      },
      remove(i: number) {
        tree.remove(items.get(i)!);
        items.delete(i);
        members.delete(i);
        thinningRemove(index, i, inp.x, inp.y, inp.priority, candidates);
      },
      fresh: (): ThinningIndex => buildThinning({ ...inp, indices: Uint32Array.from([...members].sort((a, b) => a - b)) }),
    };
  }

  it('an insert gives the grids of a fresh build with the marker', () => {
    const t = setup(4000, (i) => i % 3 !== 0);
    for (let i = 0; i < 4000; i += 3) t.insert(i);
    expect(makeAllThinnedGrids(t.index)).toEqual(makeAllThinnedGrids(t.fresh()));
  });

  it('a remove gives the grids of a fresh build without the marker, refilling its cells', () => {
    const t = setup(4000, () => true);
    for (let i = 0; i < 4000; i += 2) t.remove(i);
    expect(makeAllThinnedGrids(t.index)).toEqual(makeAllThinnedGrids(t.fresh()));
    for (let i = 1; i < 4000; i += 2) t.remove(i);
    expect(makeAllThinnedGrids(t.index).every((g) => g.size === 0)).toBe(true);
  });

  it('an edit after only some steps were used still matches a fresh build at every step', () => {
    const t = setup(3000, (i) => i % 4 !== 0);
    thinnedGrid(t.index, 2);
    t.remove(5);
    t.inp.x[5] = 10;
    t.inp.y[5] = 10;
    t.insert(5);
    t.insert(8);
    expect(makeAllThinnedGrids(t.index)).toEqual(makeAllThinnedGrids(t.fresh()));
  });

  it('a move (remove, new position, insert) and a priority change match a fresh build', () => {
    const t = setup(3000, () => true);
    const prio = Uint8Array.from({ length: 3000 }, (_, i) => t.inp.priority(i));
    t.inp.priority = (i) => prio[i];
    let s = 11;
    const rand = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let n = 0; n < 500; n++) {
      const i = Math.floor(rand() * 3000);
      t.remove(i);
      t.inp.x[i] = rand() * W;
      t.inp.y[i] = rand() * H;
      prio[i] = Math.floor(rand() * 7);
      t.insert(i);
    }
    expect(makeAllThinnedGrids(t.index)).toEqual(makeAllThinnedGrids(t.fresh()));
  });

  it('handles markers off the map (clamped into border cells) and on cell edges', () => {
    const t = setup(200, () => true);
    const { inp, index } = t;
    const cell0 = cellSizeMap(index, 0);
    const spots: [number, number][] = [[-50, -50], [W + 80, 10], [10, H + 5], [W + 1, H + 1], [cell0, cell0], [2 * cell0, 0]];
    spots.forEach(([x, y], k) => {
      t.remove(k);
      inp.x[k] = x;
      inp.y[k] = y;
      t.insert(k);
    });
    expect(makeAllThinnedGrids(index)).toEqual(makeAllThinnedGrids(t.fresh()));
    spots.forEach((_, k) => t.remove(k));
    expect(makeAllThinnedGrids(index)).toEqual(makeAllThinnedGrids(t.fresh()));
  });

  it('finds the marker kept in a point\'s cell, and cell rectangles hold their keys', () => {
    const t = setup(500, () => true);
    const { inp, index } = t;
    for (let step = 0; step < index.fullStep; step++) {
      for (const [key, i] of thinnedGrid(index, step)) {
        expect(thinnedAt(index, step, inp.x[i], inp.y[i])).toBe(i);
        const r = thinningCellRect(index, step, key);
        expect(inp.x[i] >= r.minX && inp.x[i] <= r.maxX && inp.y[i] >= r.minY && inp.y[i] <= r.maxY).toBe(true);
      }
    }
    expect(thinningCellRect(index, 0, 0).minX).toBe(-Infinity);
  });
});

describe('keepOrder', () => {
  /** The order by definition: lower priority first, then lower index. */
  const byComparison = (prio: Float64Array, indices: Uint32Array) =>
    Array.from({ length: prio.length }, (_, s) => s).sort((a, b) => prio[a] - prio[b] || indices[a] - indices[b]);

  it('orders by priority, then index, as a comparison sort does (small whole priorities: the counting sort)', () => {
    let seed = 3;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const indices = Uint32Array.from({ length: 5000 }, (_, k) => k * 3 + (k % 2));
    const prio = Float64Array.from({ length: 5000 }, () => Math.floor(rnd() * 15));
    expect([...keepOrder(prio, indices)]).toEqual(byComparison(prio, indices));
    expect([...keepOrder(new Float64Array(0), new Uint32Array(0))]).toEqual([]);
  });

  it('falls back to the comparison sort for fractional, negative or large priorities and for indices out of order', () => {
    const cases: [number[], number[]][] = [
      [[2, 0.5, 1, 0.5], [0, 1, 2, 3]],
      [[1, -1, 0, -1], [0, 1, 2, 3]],
      [[300, 2, 256, 2], [0, 1, 2, 3]],
      [[1, 1, 0, 1], [9, 4, 7, 2]],
    ];
    for (const [p, i] of cases) {
      const prio = Float64Array.from(p);
      const indices = Uint32Array.from(i);
      expect([...keepOrder(prio, indices)]).toEqual(byComparison(prio, indices));
    }
  });
});
