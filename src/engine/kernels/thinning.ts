/**
 * Marker thinning: at low zoom, dense areas show at most one marker per screen cell of about
 * an icon's size, so the number of sprites drawn is bounded by the screen area, not by N.
 *
 * Thinning is precomputed per zoom step (step k = baseZoom · 2^k) when the marker list, filter,
 * level or marker size changes. Cells of step k+1 are exact halves of step k's, aligned at the
 * map origin, so a marker shown at one step stays shown at every deeper step (no popping while
 * zooming in). From `fullStep` on, every marker is shown. Per frame, a query walks only the
 * screen's cells: its cost does not depend on N.
 */
import { SUBCATEGORIES } from '../../domain/categories';

/** Lower = kept first (spec/brief: extractions > quests > spawns > keys > misc > loot). */
export const CATEGORY_PRIORITY: Readonly<Record<string, number>> = {
  Extractions: 0,
  Quests: 1,
  Spawns: 2,
  Keys: 3,
  Miscellaneous: 4,
  Markers: 4,
  Loot: 5,
};

/** Priority of each icon (index into SUBCATEGORIES). */
export const ICON_PRIORITY: Uint8Array = Uint8Array.from(SUBCATEGORIES, (s) => CATEGORY_PRIORITY[s.category] ?? 6);

export interface ThinningInput {
  x: Float32Array;
  y: Float32Array;
  /** Markers to consider (filtered), as indices into x / y. */
  indices: Uint32Array;
  /** Priority per marker index (lower first); ties keep index order. */
  priority: (index: number) => number;
  mapWidth: number;
  mapHeight: number;
  /** Zoom of step 0 (the map's min zoom). */
  baseZoom: number;
  /** The map's max zoom: thinning ends one doubling below it. */
  maxZoom: number;
  /** Screen cell size (CSS px) holding at most one marker. */
  cellCss: number;
}

export interface ThinningIndex {
  baseZoom: number;
  cellCss: number;
  /** Steps ≥ fullStep show every marker. */
  fullStep: number;
  mapWidth: number;
  mapHeight: number;
  /** Per thinned step: cell key → marker index. */
  grids: Map<number, number>[];
  /** Per marker slot (position in `indices`): first step at which it shows. */
  minStep: Uint8Array;
}

export function cellSizeMap(index: Pick<ThinningIndex, 'cellCss' | 'baseZoom'>, step: number): number {
  return index.cellCss / (index.baseZoom * 2 ** step);
}

function gridCols(mapWidth: number, cell: number): number {
  return Math.max(1, Math.ceil(mapWidth / cell));
}

function cellKey(x: number, y: number, cell: number, cols: number, rows: number): number {
  const cx = Math.min(cols - 1, Math.max(0, Math.floor(x / cell)));
  const cy = Math.min(rows - 1, Math.max(0, Math.floor(y / cell)));
  return cy * cols + cx;
}

export function buildThinning(input: ThinningInput): ThinningIndex {
  const { x, y, indices, mapWidth, mapHeight, cellCss } = input;
  if (!(input.baseZoom > 0) || !(input.maxZoom >= input.baseZoom) || !(cellCss > 0)) {
    throw new RangeError(`thinning needs 0 < baseZoom ≤ maxZoom and cellCss > 0 (got ${input.baseZoom}, ${input.maxZoom}, ${cellCss})`);
  }
  const fullStep = Math.max(0, Math.ceil(Math.log2(input.maxZoom / 2 / input.baseZoom)));
  const n = indices.length;
  const order = Array.from({ length: n }, (_, slot) => slot);
  const prio = new Float64Array(n);
  for (let s = 0; s < n; s++) prio[s] = input.priority(indices[s]);
  order.sort((a, b) => prio[a] - prio[b] || indices[a] - indices[b]);
  const minStep = new Uint8Array(n).fill(255);
  const grids: Map<number, number>[] = [];
  const index: ThinningIndex = { baseZoom: input.baseZoom, cellCss, fullStep, mapWidth, mapHeight, grids, minStep };
  for (let step = 0; step < fullStep; step++) {
    const cell = cellSizeMap(index, step);
    const cols = gridCols(mapWidth, cell);
    const rows = gridCols(mapHeight, cell);
    const grid = new Map<number, number>();
    // Markers shown at coarser steps go first: nested cells guarantee they still fit.
    for (const slot of order) {
      if (minStep[slot] >= step) continue;
      const i = indices[slot];
      grid.set(cellKey(x[i], y[i], cell, cols, rows), i);
    }
    for (const slot of order) {
      if (minStep[slot] < step) continue;
      const i = indices[slot];
      const key = cellKey(x[i], y[i], cell, cols, rows);
      if (grid.has(key)) continue;
      grid.set(key, i);
      minStep[slot] = step;
    }
    grids.push(grid);
  }
  for (let s = 0; s < n; s++) if (minStep[s] === 255) minStep[s] = fullStep;
  return index;
}

/** The thinning step for a zoom (≥ fullStep: all markers). */
export function stepForZoom(index: Pick<ThinningIndex, 'baseZoom' | 'fullStep'>, zoom: number): number {
  if (!(zoom > 0)) return 0;
  const step = Math.floor(Math.log2(zoom / index.baseZoom) + 1e-9);
  return Math.max(0, Math.min(index.fullStep, step));
}

/**
 * Marker indices kept at `step` inside a map rectangle, appended to `out`. Only valid for
 * step < fullStep (use a spatial index of all markers beyond). Cost: the rectangle's cells
 * or the step's markers, whichever is fewer.
 */
export function queryThinned(
  index: ThinningIndex,
  step: number,
  rect: { minX: number; minY: number; maxX: number; maxY: number },
  x: Float32Array,
  y: Float32Array,
  out: number[],
): void {
  const grid = index.grids[step];
  if (!grid) throw new RangeError(`no thinned grid at step ${step} (fullStep ${index.fullStep})`);
  const cell = cellSizeMap(index, step);
  const cols = gridCols(index.mapWidth, cell);
  const rows = gridCols(index.mapHeight, cell);
  const x0 = Math.max(0, Math.floor(rect.minX / cell));
  const x1 = Math.min(cols - 1, Math.floor(rect.maxX / cell));
  const y0 = Math.max(0, Math.floor(rect.minY / cell));
  const y1 = Math.min(rows - 1, Math.floor(rect.maxY / cell));
  if (x1 < x0 || y1 < y0) return;
  const inRect = (i: number) => x[i] >= rect.minX && x[i] <= rect.maxX && y[i] >= rect.minY && y[i] <= rect.maxY;
  if ((x1 - x0 + 1) * (y1 - y0 + 1) > grid.size) {
    for (const i of grid.values()) if (inRect(i)) out.push(i);
    return;
  }
  for (let cy = y0; cy <= y1; cy++) {
    const rowBase = cy * cols;
    for (let cx = x0; cx <= x1; cx++) {
      const i = grid.get(rowBase + cx);
      if (i !== undefined && inRect(i)) out.push(i);
    }
  }
}
