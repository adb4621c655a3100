/**
 * Marker thinning: at low zoom, dense areas show at most one marker per screen cell of about
 * an icon's size, so the number of sprites drawn is bounded by the screen area, not by N.
 *
 * Thinning is precomputed per zoom step (step k = baseZoom · 2^k) when the marker list, filter,
 * level or marker size changes. Cells of step k+1 are exact halves of step k's, aligned at the
 * map origin, so a marker shown at one step stays shown at every deeper step (no popping while
 * zooming in). From `fullStep` on, every marker is shown. Per frame, a query walks only the
 * screen's cells: its cost does not depend on N.
 *
 * What the build computes is, per step, the best marker (lowest priority, then lowest index)
 * of every non-empty cell: the best of a cell is also the best of the half-size cell it lies
 * in. So one marker's edit touches one cell per step: `thinningInsert` and `thinningRemove`
 * keep the grids exactly as a fresh build would make them, in O(steps) and O(steps × the
 * markers of the emptied cells).
 *
 * A step's grid is made on its first use (`thinnedGrid`): each step's grid is the best marker of
 * each of its cells, which does not depend on the other steps, so the first view pays for the
 * one step it shows, not for all of them (issue 11: at 100,000 markers the build of every step
 * was about 100 ms of the first second). The first edit makes the steps not yet made, from the
 * markers as they were built, before it changes any.
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
  /**
   * Per thinned step: cell key → marker index (the best marker of that cell); undefined until
   * the step is first used. Read through `thinnedGrid`.
   */
  grids: (Map<number, number> | undefined)[];
  /** The build's markers in keep order, for the grids not yet made; null once all are made. */
  pending: PendingGrids | null;
}

interface PendingGrids {
  /** Marker indices, best first (lowest priority, then lowest index). */
  ordered: Uint32Array;
  x: Float32Array;
  y: Float32Array;
}

/** A map rectangle (inclusive bounds). */
export interface ThinningRect {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
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

type GridShape = Pick<ThinningIndex, 'cellCss' | 'baseZoom' | 'mapWidth' | 'mapHeight'>;

/** Cell key of a map point at a thinned step (points off the map fall in the border cells). */
export function thinningCellKey(index: GridShape, step: number, x: number, y: number): number {
  const cell = cellSizeMap(index, step);
  return cellKey(x, y, cell, gridCols(index.mapWidth, cell), gridCols(index.mapHeight, cell));
}

/**
 * The map rectangle of a cell, holding every point whose key is `key` (border cells reach
 * to infinity, as points off the map are clamped into them). Bounds are inclusive, so a
 * point on an edge may belong to the neighbour: check its key.
 */
export function thinningCellRect(index: GridShape, step: number, key: number): ThinningRect {
  const cell = cellSizeMap(index, step);
  const cols = gridCols(index.mapWidth, cell);
  const rows = gridCols(index.mapHeight, cell);
  const cx = key % cols;
  const cy = Math.floor(key / cols);
  return {
    minX: cx === 0 ? -Infinity : cx * cell,
    minY: cy === 0 ? -Infinity : cy * cell,
    maxX: cx === cols - 1 ? Infinity : (cx + 1) * cell,
    maxY: cy === rows - 1 ? Infinity : (cy + 1) * cell,
  };
}

/** The marker kept at `step` in the cell of point (x, y), if any (step < fullStep). */
export function thinnedAt(index: ThinningIndex, step: number, x: number, y: number): number | undefined {
  if (!(step >= 0 && step < index.fullStep)) return undefined;
  return thinnedGrid(index, step).get(thinningCellKey(index, step, x, y));
}

/**
 * The grid of a thinned step (0 ≤ step < fullStep), made now if it is the step's first use:
 * the first marker in keep order of each cell.
 */
export function thinnedGrid(index: ThinningIndex, step: number): Map<number, number> {
  const made = index.grids[step];
  if (made) return made;
  if (!(Number.isInteger(step) && step >= 0 && step < index.fullStep) || !index.pending) {
    throw new RangeError(`no thinned grid at step ${step} (fullStep ${index.fullStep})`);
  }
  const { ordered, x, y } = index.pending;
  const cell = cellSizeMap(index, step);
  const cols = gridCols(index.mapWidth, cell);
  const rows = gridCols(index.mapHeight, cell);
  const grid = new Map<number, number>();
  for (let k = 0; k < ordered.length; k++) {
    const i = ordered[k];
    const key = cellKey(x[i], y[i], cell, cols, rows);
    if (!grid.has(key)) grid.set(key, i);
  }
  index.grids[step] = grid;
  if (index.grids.every(Boolean)) index.pending = null;
  return grid;
}

/** Makes every step's grid not made yet (before an edit changes the markers they were built from). */
export function makeAllThinnedGrids(index: ThinningIndex): Map<number, number>[] {
  const grids: Map<number, number>[] = [];
  for (let step = 0; step < index.fullStep; step++) grids.push(thinnedGrid(index, step));
  return grids;
}

export function buildThinning(input: ThinningInput): ThinningIndex {
  const { x, y, indices, mapWidth, mapHeight, cellCss } = input;
  if (!(input.baseZoom > 0) || !(input.maxZoom >= input.baseZoom) || !(cellCss > 0)) {
    throw new RangeError(`thinning needs 0 < baseZoom ≤ maxZoom and cellCss > 0 (got ${input.baseZoom}, ${input.maxZoom}, ${cellCss})`);
  }
  const fullStep = Math.max(0, Math.ceil(Math.log2(input.maxZoom / 2 / input.baseZoom)));
  const n = indices.length;
  const prio = new Float64Array(n);
  for (let s = 0; s < n; s++) prio[s] = input.priority(indices[s]);
  const order = keepOrder(prio, indices);
  const ordered = new Uint32Array(n);
  for (let k = 0; k < n; k++) ordered[k] = indices[order[k]];
  return {
    baseZoom: input.baseZoom,
    cellCss,
    fullStep,
    mapWidth,
    mapHeight,
    grids: Array.from({ length: fullStep }, () => undefined),
    pending: fullStep > 0 ? { ordered, x, y } : null,
  };
}

/** Priorities a counting sort takes: whole numbers from 0 to this. */
const SMALL_PRIORITY = 255;

/**
 * The slots of `indices` in the order markers are kept: lower priority first, then lower index.
 * The map's priorities are small whole numbers and the filtered indices ascend, so a counting
 * sort gives that order in O(n) (100,000 markers: about 1 ms, against 18 for a comparison
 * sort); other inputs take the comparison sort.
 */
export function keepOrder(prio: Float64Array, indices: Uint32Array): Uint32Array {
  const n = indices.length;
  let small = true;
  let maxPrio = 0;
  for (let s = 0; s < n && small; s++) {
    const p = prio[s];
    if (!(p >= 0 && p <= SMALL_PRIORITY && Number.isInteger(p)) || (s > 0 && indices[s] <= indices[s - 1])) small = false;
    else if (p > maxPrio) maxPrio = p;
  }
  if (!small) {
    const order = Array.from({ length: n }, (_, slot) => slot);
    order.sort((a, b) => prio[a] - prio[b] || indices[a] - indices[b]);
    return Uint32Array.from(order);
  }
  const starts = new Uint32Array(maxPrio + 2);
  for (let s = 0; s < n; s++) starts[prio[s] + 1]++;
  for (let p = 1; p < starts.length; p++) starts[p] += starts[p - 1];
  const order = new Uint32Array(n);
  for (let s = 0; s < n; s++) order[starts[prio[s]]++] = s;
  return order;
}

/** True when marker a is kept before marker b: lower priority, then lower index (as the build orders them). */
function before(a: number, b: number, priority: (index: number) => number): boolean {
  const pa = priority(a);
  const pb = priority(b);
  return pa < pb || (pa === pb && a < b);
}

/**
 * Adds marker `i` (at x[i], y[i], with its current priority) to a built index: at each step
 * it takes its cell when it beats the marker there. Equal to a fresh build with `i` added.
 * `i` must not be in the index already (remove it first to move it or change its priority).
 */
export function thinningInsert(index: ThinningIndex, i: number, x: Float32Array, y: Float32Array, priority: (index: number) => number): void {
  const grids = makeAllThinnedGrids(index);
  for (let step = 0; step < index.fullStep; step++) {
    const grid = grids[step];
    const key = thinningCellKey(index, step, x[i], y[i]);
    const current = grid.get(key);
    if (current === undefined || before(i, current, priority)) grid.set(key, i);
  }
}

/**
 * Removes marker `i` from a built index, with x[i], y[i] and its priority as they were when
 * it was added. Where it held a cell, the cell goes to the best of `candidates(cellRect)`
 * (the markers still in the index inside that rectangle, e.g. from a spatial index; `i` and
 * markers of other cells among them are skipped) or is emptied. Equal to a fresh build
 * without `i`.
 */
export function thinningRemove(
  index: ThinningIndex,
  i: number,
  x: Float32Array,
  y: Float32Array,
  priority: (index: number) => number,
  candidates: (rect: ThinningRect) => Iterable<number>,
): void {
  const grids = makeAllThinnedGrids(index);
  for (let step = 0; step < index.fullStep; step++) {
    const grid = grids[step];
    const key = thinningCellKey(index, step, x[i], y[i]);
    if (grid.get(key) !== i) continue;
    let best = -1;
    for (const c of candidates(thinningCellRect(index, step, key))) {
      if (c === i || thinningCellKey(index, step, x[c], y[c]) !== key) continue;
      if (best < 0 || before(c, best, priority)) best = c;
    }
    if (best < 0) grid.delete(key);
    else grid.set(key, best);
  }
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
  const grid = thinnedGrid(index, step);
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
