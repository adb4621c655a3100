/**
 * Markers as particles of one ParticleContainer sharing the icon atlas, at a constant on-screen
 * size at any zoom. Markers are placed in "zoomed map" space (map pixels × zoom) for the view
 * plus a margin of CULL_MARGIN_CSS around it, and the container carries the translation: a pan
 * that stays within the margin only moves the container (no query, no sort, no buffer upload).
 * A placement takes the markers on screen: below `fullStep` from the thinned per-step grids
 * (bounded by the screen's cells), beyond it from an rbush of the filtered markers (the view is
 * small there). Indices are rebuilt only when the markers, the filter, the level or the marker
 * size change.
 */
import { Particle, ParticleContainer } from 'pixi.js';
import RBush from 'rbush';
import { markerOpacity, type MapDefinition } from '../domain/maps';
import type { IconAtlas } from './icon-atlas';
import { ATLAS_CELL } from './icon-atlas';
import type { ViewportSize } from './kernels/camera';
import { containsPoint, cullRect, layoutOffset, padRect, placementCovers, type MapRect, type Placement } from './kernels/cull';
import { ICON_PRIORITY, buildThinning, queryThinned, stepForZoom, type ThinningIndex } from './kernels/thinning';
import type { CameraView, MarkerColumns } from './types';

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

interface PointItem {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  i: number;
}

export class MarkerLayer {
  readonly container: ParticleContainer<Particle>;
  private columns: MarkerColumns | null = null;
  private filter: Uint32Array | null = null;
  private level: number;
  private scale = 1;
  private selected = -1;
  private thinning: ThinningIndex | null = null;
  private tree = new RBush<PointItem>();
  private dirtyIndex = true;
  private readonly pool: Particle[] = [];
  /** Marker indices placed by the last placement (on screen and in the margin), bottom first. */
  drawn = new Uint32Array(0);
  drawnCount = 0;
  /** Position of each placed marker in zoomed-map space (map px × zoom), parallel to `drawn`. */
  layoutX = new Float32Array(0);
  layoutY = new Float32Array(0);
  /** Screen position of the zoomed-map origin: screen = layout + offset. */
  offsetX = 0;
  offsetY = 0;
  private drawnFlag = new Uint8Array(0);
  /** 1 for markers passing the filter (rebuilt with the indices). */
  private passFlag = new Uint8Array(0);
  private readonly scratch: number[] = [];
  /** The last placement, or null when the next update must place again. */
  private placement: Placement | null = null;
  /** Map rectangle of the markers that show in the current view (isDrawn). */
  private viewRect: MapRect = { minX: 0, minY: 0, maxX: -1, maxY: -1 };
  private keys = new Float64Array(0);

  constructor(private readonly map: MapDefinition, private readonly atlas: IconAtlas) {
    this.level = map.defaultLevel;
    this.container = new ParticleContainer<Particle>({
      label: 'markers',
      texture: atlas.texture,
      // All static: particle data is uploaded only when a placement changes it (container.update()).
      dynamicProperties: { position: false, vertex: false, rotation: false, uvs: false, color: false },
    });
  }

  get iconCss(): number {
    return ICON_CSS * this.scale;
  }

  get markers(): MarkerColumns | null {
    return this.columns;
  }

  setMarkers(columns: MarkerColumns): void {
    const n = columns.uids.length;
    for (const [name, arr] of [['x', columns.x], ['y', columns.y], ['level', columns.level], ['icon', columns.icon], ['alwaysLabel', columns.alwaysLabel]] as const) {
      if (arr.length !== n) throw new Error(`marker columns: ${name} has ${arr.length} rows, uids has ${n}`);
    }
    if (columns.labels.length !== n) throw new Error(`marker columns: labels has ${columns.labels.length} rows, uids has ${n}`);
    this.columns = columns;
    this.filter = null;
    this.selected = -1;
    this.drawnFlag = new Uint8Array(n);
    this.drawnCount = 0;
    this.dirtyIndex = true;
    this.placement = null;
  }

  setFilter(indices: Uint32Array): void {
    const n = this.columns?.uids.length ?? 0;
    const valid = indices.filter((i) => i < n);
    if (valid.length !== indices.length) console.warn(`raidmap: ${indices.length - valid.length} filter indices out of range ignored`);
    this.filter = valid;
    this.dirtyIndex = true;
    this.placement = null;
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

  /** Indices of the markers passing the filter. */
  filtered(): Uint32Array {
    if (this.filter) return this.filter;
    const n = this.columns?.uids.length ?? 0;
    return Uint32Array.from({ length: n }, (_, i) => i);
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
   * Follows the camera: moves the container, and places the markers again only when the zoom
   * changed, the view left the placed area or the markers / filter / level / size / selection
   * changed. Returns true when it placed again (the drawn list and layout positions changed).
   */
  update(view: CameraView, viewport: ViewportSize): boolean {
    const cols = this.columns;
    if (!cols) return false;
    const offset = layoutOffset(view, viewport);
    this.offsetX = offset.x;
    this.offsetY = offset.y;
    this.container.position.set(offset.x, offset.y);
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
    const sel = this.selected;
    if (sel >= 0 && this.passes(sel) && !found.includes(sel) && containsPoint(rect, cols.x[sel], cols.y[sel])) found.push(sel);
    const n = found.length;
    // Bottom-first draw order: least important first, the selected marker last (on top).
    if (this.keys.length < n) this.keys = new Float64Array(Math.max(n, this.keys.length * 2));
    const keys = this.keys.subarray(0, n);
    for (let k = 0; k < n; k++) {
      const i = found[k];
      const rank = i === sel ? -1 : this.rank(i);
      keys[k] = (MAX_RANK - rank) * INDEX_SPAN + i;
    }
    keys.sort();
    for (let k = 0; k < this.drawnCount; k++) this.drawnFlag[this.drawn[k]] = 0;
    if (this.drawn.length < n) {
      const size = Math.max(n, this.drawn.length * 2, 64);
      this.drawn = new Uint32Array(size);
      this.layoutX = new Float32Array(size);
      this.layoutY = new Float32Array(size);
    }
    const scale = this.iconCss / ATLAS_CELL;
    const children = this.container.particleChildren;
    for (let k = 0; k < n; k++) {
      const i = keys[k] % INDEX_SPAN;
      this.drawn[k] = i;
      this.drawnFlag[i] = 1;
      const lx = cols.x[i] * zoom;
      const ly = cols.y[i] * zoom;
      this.layoutX[k] = lx;
      this.layoutY[k] = ly;
      let p = this.pool[k];
      if (!p) {
        p = new Particle({ texture: this.atlas.frames[0], anchorX: 0.5, anchorY: 0.5 });
        this.pool.push(p);
      }
      p.texture = this.atlas.frames[cols.icon[i]] ?? this.atlas.frames[0];
      p.x = lx;
      p.y = ly;
      p.scaleX = p.scaleY = i === sel ? scale * 1.25 : scale;
      p.alpha = markerOpacity(cols.level[i], this.level);
      children[k] = p;
    }
    children.length = n;
    this.drawnCount = n;
    this.placement = { zoom, rect };
    this.container.update();
  }

  dispose(): void {
    this.container.destroy({ children: true });
    this.pool.length = 0;
    this.tree.clear();
  }

  private passes(index: number): boolean {
    return this.passFlag[index] === 1;
  }

  private rank(i: number): number {
    const cols = this.columns!;
    return (cols.level[i] === this.level ? 0 : OTHER_LEVEL_RANK) + (ICON_PRIORITY[cols.icon[i]] ?? 7);
  }

  private rebuild(): void {
    const cols = this.columns!;
    const indices = this.filtered();
    this.passFlag = new Uint8Array(cols.uids.length);
    for (const i of indices) this.passFlag[i] = 1;
    this.thinning = buildThinning({
      x: cols.x,
      y: cols.y,
      indices,
      priority: (i) => this.rank(i),
      mapWidth: this.map.size.width,
      mapHeight: this.map.size.height,
      baseZoom: this.map.minZoom,
      maxZoom: this.map.maxZoom,
      cellCss: this.iconCss * CELL_FACTOR,
    });
    const items: PointItem[] = new Array(indices.length);
    for (let k = 0; k < indices.length; k++) {
      const i = indices[k];
      items[k] = { minX: cols.x[i], minY: cols.y[i], maxX: cols.x[i], maxY: cols.y[i], i };
    }
    this.tree = new RBush<PointItem>().load(items);
    this.dirtyIndex = false;
  }
}
