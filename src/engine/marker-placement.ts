/**
 * Where markers are drawn, at a constant on-screen size at any zoom, without drawing them: the
 * placement hands a MarkerDrawList its sprites in draw order (MarkerSprites draws them with
 * PixiJS; this module imports no renderer, so it can run where the renderer does not: the hit
 * index's side of docs/ENGINE-WORKER.md). Markers are placed in "zoomed map" space (map pixels
 * × zoom) for the view plus a margin of CULL_MARGIN_CSS around it, and the list's offset carries
 * the translation: a pan that stays within the margin only moves the offset (no query, no sort,
 * no buffer upload).
 * A placement takes the markers on screen: below `fullStep` from the thinned per-step grids
 * (bounded by the screen's cells), beyond it from an rbush of the filtered markers (the view is
 * small there). Indices are rebuilt only when the markers, the filter, the level or the marker
 * size change.
 *
 * An edit of one marker (upsert, remove, a filter differing by a few markers) updates the
 * indices in place (thinning grids: one cell per step; rbush: one item) and patches the
 * placement (the draw list's sprites of the markers whose shown state changed) instead
 * of rebuilding: its cost does not grow with N. Slots are never renumbered: a removed marker
 * leaves an empty slot; a new one is appended (the columns grow with spare capacity).
 */
import RBush from 'rbush';
import { markerOpacity, type MapDefinition } from '../domain/maps';
import type { ViewportSize } from './kernels/camera';
import { containsPoint, cullRect, layoutOffset, padRect, placementCovers, type MapRect, type Placement } from './kernels/cull';
import { whenIdle } from './kernels/idle';
import {
  ICON_PRIORITY, buildThinning, makeAllThinnedGrids, queryThinned, stepForZoom, thinnedAt, thinningInsert, thinningRemove, type ThinningIndex, type ThinningRect,
} from './kernels/thinning';
import type { PlacedChange } from './hit-index';
import { NO_DRAW_LIST, type MarkerDrawList, type MarkerSprite } from './marker-draw-list';
import type { CameraView, MarkerColumns, MarkerRow } from './types';
import { writeMarkerRow } from '../domain/marker-columns';

/** On-screen icon size (CSS px) at marker scale 1. */
export const ICON_CSS = 28;
/** Thinning cell (CSS px) relative to the icon: one icon per cell, so neighbours may touch but not pile. */
const CELL_FACTOR = 1;
/** Importance ranks: the category priority, and other-level markers after all of the selected level. */
const OTHER_LEVEL_RANK = 8;
const MAX_RANK = 16;
const INDEX_SPAN = 2 ** 24;
/**
 * Screen margin (CSS px) placed around the view on every side: pans within it reuse the
 * placement. Larger margins place more off-screen markers at each zoom step.
 */
export const CULL_MARGIN_CSS = 160;
/**
 * A new filter differing from the current one by at most this many markers is applied in
 * place (per marker: O(steps × log N) plus a patch of the placement); beyond, rebuilt.
 */
export const INCREMENTAL_FILTER_MAX = 64;

/**
 * The thinning's exceptions: adds to a placement's `found` each marker of `always` (−1: none)
 * that passes the filter and lies in the placed rectangle but lost its thinning cell to a
 * neighbour. `always` holds the selected marker (its popup or edit form is open) and the one an
 * admin just placed, copied or moved (`setKept`): either vanishing under a neighbour would leave
 * the admin unable to tell where it went (docs/DECISIONS.md "Markers drawn whatever the
 * thinning"). Checks `found` once per exception (bounded by the screen), allocates nothing.
 */
export function addAlwaysDrawn(found: number[], always: ArrayLike<number>, passes: Uint8Array, x: ArrayLike<number>, y: ArrayLike<number>, rect: MapRect): void {
  for (let k = 0; k < always.length; k++) {
    const i = always[k];
    if (i < 0 || passes[i] !== 1 || !containsPoint(rect, x[i], y[i]) || found.includes(i)) continue;
    found.push(i);
  }
}

interface PointItem {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  i: number;
}

export class MarkerPlacement {
  private columns: MarkerColumns | null = null;
  /** Slots in use (emptied ones included); the typed arrays may be longer (spare capacity). */
  private count = 0;
  /** The typed arrays' length: rows that fit before the columns must grow. */
  private capacity = 0;
  /** The columns are this layer's own copy (copied on the first edit, never the caller's arrays). */
  private owned = false;
  /** 1 for a slot emptied by remove(). */
  private emptyFlag = new Uint8Array(0);
  /** 1 for markers passing the filter. */
  private passFlag = new Uint8Array(0);
  /** Passing indices, ascending (null: derive from passFlag). */
  private filterList: Uint32Array | null = null;
  private level: number;
  private scale = 1;
  private selected = -1;
  /** The marker drawn whatever the thinning besides the selected one (an editor's last placed one), or −1. */
  private kept = -1;
  /** The selected and the kept marker, for addAlwaysDrawn (filled at each placement: no allocation). */
  private readonly always = new Int32Array(2);
  private thinning: ThinningIndex | null = null;
  private loadedTree = new RBush<PointItem>();
  /**
   * Markers of a rebuild whose R-tree is not loaded yet (their items are made when it is). The
   * first view of a big map places its markers through the thinning index alone; loading
   * 100,000 points into the tree (~100 ms and 100,000 objects on a slow laptop) waits for the
   * first query that needs it or, once the map is ready (`allowIdleWork`), an idle moment.
   */
  private pendingIndices: Uint32Array | null = null;
  /** Whether a pending tree may load when the page is idle (after the map is ready). */
  private idleWork = false;
  private disposed = false;
  /** The rbush item of each indexed marker, by index (for removal). */
  private items: (PointItem | undefined)[] = [];
  private dirtyIndex = true;
  /** Marker indices placed by the last placement (on screen and in the margin), bottom first. */
  drawn = new Uint32Array(0);
  drawnCount = 0;
  /** Position of each placed marker in zoomed-map space (map px × zoom), parallel to `drawn`. */
  layoutX = new Float32Array(0);
  layoutY = new Float32Array(0);
  /** Draw order key of each placed marker, ascending (parallel to `drawn`; stable under edits). */
  drawKeys = new Float64Array(0);
  /** Screen position of the zoomed-map origin: screen = layout + offset. */
  offsetX = 0;
  offsetY = 0;
  private drawnFlag = new Uint8Array(0);
  private readonly scratch: number[] = [];
  /** The last placement, or null when the next update must place again. */
  private placement: Placement | null = null;
  /** Thinning step of the last placement, or -1 when it took every marker (rbush). */
  private placedStep = -1;
  /** Map rectangle of the markers that show in the current view (isDrawn). */
  private viewRect: MapRect = { minX: 0, minY: 0, maxX: -1, maxY: -1 };
  private keys = new Float64Array(0);
  private mark = new Uint8Array(0);
  /**
   * For tests: full index rebuilds, full placements, patches and R-tree loads so far (an edit
   * does neither of the first two), and thinning indices whose every step was made at an idle moment.
   */
  readonly counters = { rebuilds: 0, placements: 0, patches: 0, treeLoads: 0, thinningsCompleted: 0 };
  private readonly candidates = (rect: ThinningRect): number[] => this.tree.search(rect).map((item) => item.i);
  private readonly rankOf = (i: number): number => this.rank(i);

  private readonly sprite: MarkerSprite = { icon: 0, layoutX: 0, layoutY: 0, size: 0, alpha: 1 };
  private readonly writeSprite = (k: number, out: MarkerSprite): void => {
    this.look(this.drawn[k], this.layoutX[k], this.layoutY[k], out);
  };

  /** `draw`: what draws the placed markers (NO_DRAW_LIST: nothing, for a placement alone); its owner disposes it. */
  constructor(private readonly map: MapDefinition, private readonly draw: MarkerDrawList = NO_DRAW_LIST) {
    this.level = map.defaultLevel;
  }

  get iconCss(): number {
    return ICON_CSS * this.scale;
  }

  /**
   * The markers' columns: rows 0 … size − 1 are the slots (an emptied slot has uid ''). After
   * an edit the typed arrays may be longer than `uids` (spare rows for appends).
   */
  get markers(): MarkerColumns | null {
    return this.columns;
  }

  /** Slots (the next appended marker's index). */
  get size(): number {
    return this.count;
  }

  setMarkers(columns: MarkerColumns): void {
    const n = columns.uids.length;
    for (const [name, arr] of [['x', columns.x], ['y', columns.y], ['level', columns.level], ['icon', columns.icon], ['alwaysLabel', columns.alwaysLabel]] as const) {
      if (arr.length !== n) throw new Error(`marker columns: ${name} has ${arr.length} rows, uids has ${n}`);
    }
    if (columns.labels.length !== n) throw new Error(`marker columns: labels has ${columns.labels.length} rows, uids has ${n}`);
    this.columns = columns;
    this.count = n;
    this.capacity = n;
    this.owned = false;
    this.emptyFlag = new Uint8Array(n);
    this.passFlag = new Uint8Array(n);
    // No filter yet: every marker passes (a slot without a uid is empty).
    for (let i = 0; i < n; i++) {
      if (columns.uids[i] === '') this.emptyFlag[i] = 1;
      else this.passFlag[i] = 1;
    }
    this.filterList = null;
    this.selected = -1;
    this.kept = -1;
    this.drawnFlag = new Uint8Array(n);
    this.drawnCount = 0;
    this.items = [];
    this.dirtyIndex = true;
    this.placement = null;
  }

  /**
   * The markers passing the filter. A list differing from the current one by at most
   * INCREMENTAL_FILTER_MAX markers is applied in place (no rebuild, a patched placement);
   * returns what that changed among the placed markers, or null (nothing placed changed, or
   * a full placement is due).
   */
  setFilter(indices: Uint32Array): PlacedChange | null {
    const n = this.count;
    if (this.mark.length < n) this.mark = new Uint8Array(this.capacity);
    const mark = this.mark;
    mark.fill(0, 0, n);
    let outOfRange = 0;
    for (const i of indices) {
      if (i >= n) outOfRange++;
      else if (this.emptyFlag[i] !== 1) mark[i] = 1;
    }
    if (outOfRange > 0) console.warn(`raidmap: ${outOfRange} filter indices out of range ignored`);
    if (this.dirtyIndex) {
      this.passFlag.set(mark.subarray(0, n));
      this.filterList = null;
      return null;
    }
    const added: number[] = [];
    const removed: number[] = [];
    for (let i = 0; i < n; i++) {
      if (mark[i] === this.passFlag[i]) continue;
      (mark[i] === 1 ? added : removed).push(i);
      if (added.length + removed.length > INCREMENTAL_FILTER_MAX) break;
    }
    if (added.length + removed.length > INCREMENTAL_FILTER_MAX) {
      this.passFlag.set(mark.subarray(0, n));
      this.filterList = null;
      this.dirtyIndex = true;
      this.placement = null;
      return null;
    }
    if (added.length + removed.length === 0) return null;
    const touched: number[] = [];
    for (const i of removed) {
      this.unindex(i, touched);
      this.passFlag[i] = 0;
      touched.push(i);
    }
    for (const i of added) {
      this.passFlag[i] = 1;
      this.index(i, touched);
      touched.push(i);
    }
    this.filterList = null;
    return this.patch(touched, -1);
  }

  /**
   * Puts one marker in: index === size appends a slot, index < size replaces that slot's
   * marker. `passes` (whether it passes the current filter) defaults to the slot's state, or
   * true for a new or emptied slot. Updates the indices in place and patches the placement;
   * returns what that changed among the placed markers (null: nothing, or a full placement is due).
   */
  upsert(index: number, row: MarkerRow, passes?: boolean): PlacedChange | null {
    if (!this.columns) throw new Error('marker layer: upsert before setMarkers');
    if (!Number.isInteger(index) || index < 0 || index > this.count) throw new RangeError(`marker layer: upsert index ${index} out of 0…${this.count}`);
    const fresh = index === this.count || this.emptyFlag[index] === 1;
    const wasPassing = !fresh && this.passFlag[index] === 1;
    const pass = passes ?? (fresh ? true : wasPassing);
    this.own(index + 1);
    const touched: number[] = [];
    if (wasPassing) this.unindex(index, touched);
    const cols = this.columns;
    if (index === this.count) this.count++;
    writeMarkerRow(cols, index, row);
    this.emptyFlag[index] = 0;
    this.passFlag[index] = pass ? 1 : 0;
    this.filterList = null;
    if (pass) this.index(index, touched);
    touched.push(index);
    // The marker's own particle changes even when its shown state does not.
    return this.patch(touched, index);
  }

  /** New label texts for every slot (a language change); positions and placement stay. */
  setLabels(labels: readonly string[]): void {
    if (!this.columns) return;
    if (labels.length !== this.count) throw new Error(`marker layer: ${labels.length} labels for ${this.count} slots`);
    this.own(this.count);
    const cols = this.columns;
    for (let i = 0; i < this.count; i++) cols.labels[i] = labels[i];
  }

  /**
   * Empties one slot: the marker leaves the indices and the placement, and never passes a
   * filter until a marker is put in the slot again. Other indices stay.
   */
  remove(index: number): PlacedChange | null {
    if (!this.columns || !Number.isInteger(index) || index < 0 || index >= this.count || this.emptyFlag[index] === 1) return null;
    this.own(this.count);
    const touched: number[] = [];
    if (this.passFlag[index] === 1) this.unindex(index, touched);
    this.passFlag[index] = 0;
    this.emptyFlag[index] = 1;
    this.filterList = null;
    this.columns.uids[index] = '';
    this.columns.labels[index] = '';
    // The selected marker is gone: nothing to keep drawn (no new placement needed).
    if (this.selected === index) this.selected = -1;
    if (this.kept === index) this.kept = -1;
    touched.push(index);
    return this.patch(touched, -1);
  }

  setLevel(level: number): void {
    if (level === this.level) return;
    this.level = level;
    this.dirtyIndex = true;
    this.placement = null;
  }

  setScale(scale: number): void {
    const s = Number.isFinite(scale) ? Math.min(4, Math.max(0.25, scale)) : 1;
    if (s === this.scale) return;
    this.scale = s;
    this.dirtyIndex = true;
    this.placement = null;
  }

  /** Marker index to highlight and always draw, or -1. */
  setSelected(index: number): void {
    if (index === this.selected) return;
    this.selected = index;
    this.placement = null;
  }

  /**
   * Marker index drawn whatever the thinning (the marker an admin just placed, copied or moved),
   * or -1: drawn over its neighbours, below the selected marker, at its usual size. Its draw order
   * changes, so the markers are placed again (once, as for a selection).
   */
  setKept(index: number): void {
    if (index === this.kept) return;
    this.kept = index;
    this.placement = null;
  }

  /** Indices of the markers passing the filter, ascending. */
  filtered(): Uint32Array {
    if (this.filterList) return this.filterList;
    const n = this.count;
    const flags = this.passFlag;
    let m = 0;
    for (let i = 0; i < n; i++) m += flags[i];
    const out = new Uint32Array(m);
    for (let i = 0, k = 0; i < n; i++) if (flags[i] === 1) out[k++] = i;
    this.filterList = out;
    return out;
  }

  /** Placed and inside the current view (markers placed in the margin do not count). */
  isDrawn(index: number): boolean {
    const cols = this.columns;
    return this.drawnFlag[index] === 1 && cols !== null && containsPoint(this.viewRect, cols.x[index], cols.y[index]);
  }

  /** Placed marker k (0 ≤ k < drawnCount) is inside the current view. */
  inView(k: number): boolean {
    const cols = this.columns!;
    const i = this.drawn[k];
    return containsPoint(this.viewRect, cols.x[i], cols.y[i]);
  }

  alphaOf(index: number): number {
    return this.columns ? markerOpacity(this.columns.level[index], this.level) : 0;
  }

  /**
   * Follows the camera: moves the draw list's offset, and places the markers again only when the zoom
   * changed, the view left the placed area or the markers / filter / level / size / selection
   * changed. Returns true when it placed again (the drawn list and layout positions changed).
   */
  update(view: CameraView, viewport: ViewportSize): boolean {
    const cols = this.columns;
    if (!cols) return false;
    const offset = layoutOffset(view, viewport);
    this.offsetX = offset.x;
    this.offsetY = offset.y;
    this.draw.setOffset(offset.x, offset.y);
    this.viewRect = cullRect(view, viewport, this.iconCss / 2);
    if (placementCovers(this.placement, view.zoom, this.viewRect)) return false;
    this.place(cols, view.zoom, padRect(this.viewRect, view.zoom, CULL_MARGIN_CSS));
    return true;
  }

  private place(cols: MarkerColumns, zoom: number, rect: MapRect): void {
    if (this.dirtyIndex) this.rebuild();
    const thinning = this.thinning!;
    const found = this.scratch;
    found.length = 0;
    const step = stepForZoom(thinning, zoom);
    if (step < thinning.fullStep) queryThinned(thinning, step, rect, cols.x, cols.y, found);
    else for (const item of this.tree.search(rect)) found.push(item.i);
    this.always[0] = this.selected;
    this.always[1] = this.kept;
    addAlwaysDrawn(found, this.always, this.passFlag, cols.x, cols.y, rect);
    const n = found.length;
    // Bottom-first draw order: least important first, the kept one, then the selected marker last (on top).
    if (this.keys.length < n) this.keys = new Float64Array(Math.max(n, this.keys.length * 2));
    const keys = this.keys.subarray(0, n);
    for (let k = 0; k < n; k++) keys[k] = this.drawKey(found[k]);
    keys.sort();
    for (let k = 0; k < this.drawnCount; k++) this.drawnFlag[this.drawn[k]] = 0;
    this.reserveDrawn(n);
    for (let k = 0; k < n; k++) {
      const i = keys[k] % INDEX_SPAN;
      this.drawn[k] = i;
      this.drawKeys[k] = keys[k];
      this.drawnFlag[i] = 1;
      this.layoutX[k] = cols.x[i] * zoom;
      this.layoutY[k] = cols.y[i] * zoom;
    }
    this.drawnCount = n;
    this.placement = { zoom, rect };
    this.placedStep = step < thinning.fullStep ? step : -1;
    this.counters.placements++;
    this.draw.replace(n, this.writeSprite);
    this.draw.commit();
  }

  dispose(): void {
    this.disposed = true;
    this.pendingIndices = null;
    this.loadedTree.clear();
  }

  /**
   * The map is ready: from now on what a rebuild left for later is done at the page's next idle
   * moments (before, idle moments are spent on the first view: tiles and their uploads).
   */
  allowIdleWork(): void {
    if (this.idleWork) return;
    this.idleWork = true;
    this.finishIndicesWhenIdle();
  }

  /**
   * At idle moments: the R-tree's load, then the thinning steps not used yet (made on first use
   * otherwise, which would be in the frame of the zoom that first shows the step).
   */
  private finishIndicesWhenIdle(): void {
    if (!this.idleWork) return;
    if (this.pendingIndices) {
      whenIdle(() => {
        if (!this.disposed) void this.tree;
      });
    }
    const thinning = this.thinning;
    if (thinning?.pending) {
      whenIdle(() => {
        if (this.disposed || this.thinning !== thinning || !thinning.pending) return;
        makeAllThinnedGrids(thinning);
        this.counters.thinningsCompleted++;
      });
    }
  }

  /** The R-tree of the passing markers, loaded now if the last rebuild left it for later. */
  private get tree(): RBush<PointItem> {
    const indices = this.pendingIndices;
    if (indices) {
      this.pendingIndices = null;
      const cols = this.columns!;
      const items: PointItem[] = new Array(indices.length);
      for (let k = 0; k < indices.length; k++) {
        const i = indices[k];
        const item = { minX: cols.x[i], minY: cols.y[i], maxX: cols.x[i], maxY: cols.y[i], i };
        items[k] = item;
        this.items[i] = item;
      }
      this.loadedTree = new RBush<PointItem>().load(items);
      this.counters.treeLoads++;
    }
    return this.loadedTree;
  }

  private rank(i: number): number {
    const cols = this.columns!;
    return (cols.level[i] === this.level ? 0 : OTHER_LEVEL_RANK) + (ICON_PRIORITY[cols.icon[i]] ?? 7);
  }

  /** Draw order: least important first, then the kept marker, the selected marker last (on top); ties by index. */
  private drawKey(i: number): number {
    const rank = i === this.selected ? -2 : i === this.kept ? -1 : this.rank(i);
    return (MAX_RANK - rank) * INDEX_SPAN + i;
  }

  /** How marker i is drawn at a layout position: the selected one a quarter larger. */
  private look(i: number, lx: number, ly: number, out: MarkerSprite): MarkerSprite {
    const cols = this.columns!;
    out.icon = cols.icon[i];
    out.layoutX = lx;
    out.layoutY = ly;
    out.size = i === this.selected ? this.iconCss * 1.25 : this.iconCss;
    out.alpha = markerOpacity(cols.level[i], this.level);
    return out;
  }

  private reserveDrawn(n: number): void {
    if (this.drawn.length >= n) return;
    const size = Math.max(n, this.drawn.length * 2, 64);
    const grow = <T extends Uint32Array | Float32Array | Float64Array>(old: T, make: (size: number) => T): T => {
      const next = make(size);
      next.set(old.subarray(0, this.drawnCount));
      return next;
    };
    this.drawn = grow(this.drawn, (s) => new Uint32Array(s));
    this.layoutX = grow(this.layoutX, (s) => new Float32Array(s));
    this.layoutY = grow(this.layoutY, (s) => new Float32Array(s));
    this.drawKeys = grow(this.drawKeys, (s) => new Float64Array(s));
  }

  /**
   * Makes the columns this layer's own with room for `rows` rows: the caller's arrays are
   * copied once (on the first edit), then grown by doubling, so appends are amortised O(1).
   */
  private own(rows: number): void {
    const cols = this.columns!;
    if (this.owned && rows <= this.capacity) return;
    const capacity = rows <= this.capacity ? this.capacity : Math.max(rows, this.capacity * 2, 16);
    const n = this.count;
    const copy = <T extends Float32Array | Int16Array | Uint8Array>(old: T, make: (size: number) => T): T => {
      const next = make(capacity);
      next.set(old.subarray(0, n));
      return next;
    };
    this.columns = {
      uids: this.owned ? cols.uids : cols.uids.slice(0, n),
      labels: this.owned ? cols.labels : cols.labels.slice(0, n),
      x: copy(cols.x, (s) => new Float32Array(s)),
      y: copy(cols.y, (s) => new Float32Array(s)),
      level: copy(cols.level, (s) => new Int16Array(s)),
      icon: copy(cols.icon, (s) => new Uint8Array(s)),
      alwaysLabel: copy(cols.alwaysLabel, (s) => new Uint8Array(s)),
    };
    this.emptyFlag = copy(this.emptyFlag, (s) => new Uint8Array(s));
    this.passFlag = copy(this.passFlag, (s) => new Uint8Array(s));
    this.drawnFlag = copy(this.drawnFlag, (s) => new Uint8Array(s));
    this.capacity = capacity;
    this.owned = true;
  }

  /** The marker kept in i's cell at the placed step (undefined: none, or no thinned placement). */
  private occupant(i: number): number | undefined {
    if (!this.placement || this.placedStep < 0 || !this.thinning) return undefined;
    return thinnedAt(this.thinning, this.placedStep, this.columns!.x[i], this.columns!.y[i]);
  }

  /** Takes a passing marker out of the indices (at its current position and rank); notes the markers whose shown state may change. */
  private unindex(i: number, touched: number[]): void {
    if (this.dirtyIndex) return;
    const tree = this.tree; // loads a pending tree first: its items are made then
    const item = this.items[i];
    if (item) {
      tree.remove(item);
      this.items[i] = undefined;
    }
    const before = this.occupant(i);
    thinningRemove(this.thinning!, i, this.columns!.x, this.columns!.y, this.rankOf, this.candidates);
    const after = this.occupant(i);
    if (before !== undefined) touched.push(before);
    if (after !== undefined) touched.push(after);
  }

  /** Puts a passing marker in the indices; notes the markers whose shown state may change. */
  private index(i: number, touched: number[]): void {
    if (this.dirtyIndex) return;
    const cols = this.columns!;
    const item = { minX: cols.x[i], minY: cols.y[i], maxX: cols.x[i], maxY: cols.y[i], i };
    this.tree.insert(item);
    this.items[i] = item;
    const before = this.occupant(i);
    thinningInsert(this.thinning!, i, cols.x, cols.y, this.rankOf);
    if (before !== undefined) touched.push(before);
  }

  /** Whether a fresh placement (same zoom and rectangle) would place marker i. */
  private shouldPlace(i: number): boolean {
    const placement = this.placement!;
    const cols = this.columns!;
    if (this.emptyFlag[i] === 1 || this.passFlag[i] !== 1 || !containsPoint(placement.rect, cols.x[i], cols.y[i])) return false;
    if (i === this.selected || i === this.kept || this.placedStep < 0) return true;
    return thinnedAt(this.thinning!, this.placedStep, cols.x[i], cols.y[i]) === i;
  }

  /**
   * Brings the placement up to date for the touched markers only: each one placed or not as
   * a fresh placement would, in draw order; `changed` (its data changed) is placed anew. The
   * particle data of the placed markers is uploaded again (bounded by the screen, not by N).
   */
  private patch(touched: readonly number[], changed: number): PlacedChange | null {
    if (!this.placement) return null;
    const change: PlacedChange = { removed: [], added: [] };
    const seen = new Set<number>();
    for (const i of touched) {
      if (seen.has(i)) continue;
      seen.add(i);
      const placed = this.drawnFlag[i] === 1;
      const want = this.shouldPlace(i);
      if (placed && (!want || i === changed)) {
        this.unplace(i);
        change.removed.push(i);
      }
      if (want && (!placed || i === changed)) {
        const k = this.placeOne(i);
        change.added.push({ index: i, layoutX: this.layoutX[k], layoutY: this.layoutY[k], order: this.drawKeys[k] });
      }
    }
    if (change.removed.length === 0 && change.added.length === 0) return null;
    this.counters.patches++;
    this.draw.commit();
    return change;
  }

  private unplace(i: number): void {
    const n = this.drawnCount;
    let k = 0;
    while (k < n && this.drawn[k] !== i) k++;
    if (k === n) return;
    this.drawn.copyWithin(k, k + 1, n);
    this.layoutX.copyWithin(k, k + 1, n);
    this.layoutY.copyWithin(k, k + 1, n);
    this.drawKeys.copyWithin(k, k + 1, n);
    this.draw.remove(k);
    this.drawnCount = n - 1;
    this.drawnFlag[i] = 0;
  }

  /** Places marker i at its draw-order position; returns that position. */
  private placeOne(i: number): number {
    const n = this.drawnCount;
    const key = this.drawKey(i);
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.drawKeys[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    const k = lo;
    this.reserveDrawn(n + 1);
    this.drawn.copyWithin(k + 1, k, n);
    this.layoutX.copyWithin(k + 1, k, n);
    this.layoutY.copyWithin(k + 1, k, n);
    this.drawKeys.copyWithin(k + 1, k, n);
    const zoom = this.placement!.zoom;
    const cols = this.columns!;
    this.drawn[k] = i;
    this.drawKeys[k] = key;
    this.layoutX[k] = cols.x[i] * zoom;
    this.layoutY[k] = cols.y[i] * zoom;
    this.draw.insert(k, this.look(i, this.layoutX[k], this.layoutY[k], this.sprite));
    this.drawnCount = n + 1;
    this.drawnFlag[i] = 1;
    return k;
  }

  private rebuild(): void {
    const cols = this.columns!;
    const indices = this.filtered();
    this.thinning = buildThinning({
      x: cols.x,
      y: cols.y,
      indices,
      priority: this.rankOf,
      mapWidth: this.map.size.width,
      mapHeight: this.map.size.height,
      baseZoom: this.map.minZoom,
      maxZoom: this.map.maxZoom,
      cellCss: this.iconCss * CELL_FACTOR,
    });
    this.items = [];
    this.pendingIndices = indices;
    this.loadedTree = new RBush<PointItem>();
    this.finishIndicesWhenIdle();
    this.dirtyIndex = false;
    this.counters.rebuilds++;
  }
}
