import { describe, expect, it } from 'vitest';
import { SUBCATEGORIES } from '../../domain/categories';
import { ICON_PRIORITY, buildThinning, cellSizeMap, queryThinned, stepForZoom, type ThinningInput } from './thinning';

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
    for (let slot = 0; slot < inp.indices.length; slot++) expect(index.minStep[slot]).toBeLessThanOrEqual(index.fullStep);
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
  });
});
