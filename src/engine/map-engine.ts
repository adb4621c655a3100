/**
 * The MapEngine facade: owns the Pixi application, the camera, the layers, the tools and the
 * frame loop, and implements the public API of types.ts. It knows nothing of React, state or
 * the API client.
 *
 * Stage, bottom to top: world (tiles per floor, in map pixels under the camera transform),
 * selection ring, markers, labels, player, tool overlay (all in screen CSS pixels).
 */
import { Container, Graphics } from 'pixi.js';
import { SUBCATEGORIES } from '../domain/categories';
import type { MapDefinition } from '../domain/maps';
import type { LabelMode } from '../domain/settings';
import { hitHandle, hitShape, shapeHandles, type DrawnShape } from '../domain/shapes';
import { NO_EDITOR, RootState, StateNode, type EditHandle, type ToolContext, type ToolFactory, type ToolHost, type ToolShape } from './interaction';
import { Camera } from './camera';
import { Emitter } from './emitter';
import { FrameLoop } from './frame-loop';
import { HitIndex } from './hit-index';
import type { IconAtlas } from './icon-atlas';
import { DomInput } from './input';
import type { ViewportSize } from './kernels/camera';
import { FrameStatsRecorder } from './kernels/frame-stats';
import { advanceSystemTicker, type EngineApp } from './renderer-host';
import { ICON_PRIORITY } from './kernels/thinning';
import { LabelLayer } from './label-layer';
import { MarkerPlacement } from './marker-placement';
import { MarkerSprites } from './marker-sprites';
import { PlayerLayer } from './player-layer';
import { ShapeLayer } from './shape-layer';
import { whenIdle } from './kernels/idle';
import { TileLayer } from './tile-layer';
import { createWorkerTileFetcher, type WorkerTileFetcher } from './tile-fetch-protocol';
import type {
  CameraView, EngineEvents, EngineOptions, FrameStats, MapEngineApi, MarkerColumns, MarkerRow, MarkerState, PlayerMarker,
} from './types';

export const DEFAULT_TILE_BUDGET = 192 * 1024 * 1024;
/** How near (CSS px) a press must be to a shape's stroke or a handle to hit it. */
const HIT_TOLERANCE_CSS = 8;

/** The tile side of an engine, started before its renderer (see startTiles). */
export interface StartedTiles {
  layer: TileLayer;
  /** Fetches and decodes tiles off the main thread (null: main-thread fallback). */
  fetcher: WorkerTileFetcher | null;
  /** Lets go of the early requests the first view did not take (once the map is ready). */
  releaseEarly: () => void;
}

/**
 * Starts the tile worker and requests the first view's tiles (the default level, the start
 * zoom, the container's size), so they download and decode while the renderer initialises.
 * Arrived tiles wait for the engine, which uploads and draws them from its first frame.
 */
export function startTiles(options: EngineOptions, viewport: ViewportSize, dpr: number): StartedTiles {
  // The page's early tile worker, already fetching this map's first view (early-tiles.ts).
  const early = options.earlyTiles?.mapId === options.map.id ? options.earlyTiles : undefined;
  if (options.earlyTiles && !early) options.earlyTiles.dispose();
  const fetcher = early ? early.fetcher : createWorkerTileFetcher();
  const layer = new TileLayer({
    fetcher: early ? early.fetch : fetcher?.fetch,
    map: options.map,
    manifest: options.manifest,
    tileBase: options.tileBase ?? '',
    budgetBytes: options.tileBudgetBytes ?? DEFAULT_TILE_BUDGET,
  });
  layer.setLevel(options.map.defaultLevel);
  layer.update(new Camera(options.map, viewport).state, viewport, dpr, performance.now());
  return { layer, fetcher, releaseEarly: () => early?.release() };
}

/** Stops what startTiles started, for an engine that never came to be. */
export function disposeStartedTiles(tiles: StartedTiles): void {
  tiles.releaseEarly();
  tiles.layer.dispose();
  tiles.fetcher?.dispose();
}

export class MapEngine implements MapEngineApi {
  readonly renderer: 'webgl' | 'webgpu' | 'canvas';
  private readonly events = new Emitter<EngineEvents>();
  private readonly camera_: Camera;
  /** A render group: the camera moves it as one transform, without re-packing its tiles. */
  private readonly world = new Container({ label: 'world', isRenderGroup: true });
  private readonly selectionRing = new Graphics();
  private readonly overlay = new Container({ label: 'tool-overlay' });
  private readonly tiles: TileLayer;
  /** Fetches and decodes tiles off the main thread (null: main-thread fallback). */
  private readonly tileFetcher: WorkerTileFetcher | null;
  /** Lets go of the early tile requests the first view did not take. */
  private readonly releaseEarlyTiles: () => void;
  /** Where markers go (thinning, culling, draw order; no renderer): the hit index reads it. */
  private readonly markers: MarkerPlacement;
  /** Draws what the placement places. */
  private readonly markerSprites: MarkerSprites;
  private readonly labels: LabelLayer;
  private readonly player = new PlayerLayer();
  private readonly hits: HitIndex;
  private readonly tools: RootState;
  private host: ToolHost = NO_EDITOR;
  private readonly shapeLayer = new ShapeLayer();
  private shapes: readonly ToolShape[] = [];
  /** Drawn like shapes, never hit or edited (the admin's saved points). */
  private guides: readonly ToolShape[] = [];
  private selectedShapeId: string | null = null;
  private handles: EditHandle[] = [];
  private shapesDirty = true;
  private context: ToolContext | null = null;
  private readonly input: DomInput;
  private readonly loop: FrameLoop;
  private readonly stats_ = new FrameStatsRecorder(600);
  private readonly resizeObserver: ResizeObserver | null;
  private readonly dpr: number;
  private readonly map: MapDefinition;
  /** Slot of each uid; made on first use (a 100,000-marker map: 50 ms it need not spend before its first frame). */
  private uidIndex_: Map<string, number> | null = null;
  private level: number;
  private hovered = -1;
  private selected = -1;
  /** uid of the selected marker (kept while it is absent: a marker selected before it arrives). */
  private selectedUid: string | null = null;
  private zoomEnabled = true;
  private markersSet = false;
  private cameraDirty = true;
  private markersDirty = true;
  private labelsDirty = true;
  /** Tiles need re-planning: camera, level, size or a tile arrival changed. */
  private tilesDirty = true;
  private lastTileState = { settled: false, drawn: 0, missing: 0, waiting: 0, recheckInMs: 0 };
  private ready_ = false;
  /** performance.now() of the first frame that drew a map tile (issue 11); null before. */
  private firstTileAt_: number | null = null;
  private recheckTimer: ReturnType<typeof setTimeout> | null = null;
  private disposed = false;
  private readonly unsubscribers: (() => void)[] = [];

  constructor(
    private readonly app: EngineApp,
    private readonly atlas: IconAtlas,
    private readonly options: EngineOptions,
    started: StartedTiles,
  ) {
    this.map = options.map;
    this.dpr = app.renderer.resolution;
    this.renderer = rendererName(app.renderer.name);
    this.level = this.map.defaultLevel;
    const container = options.container;
    this.camera_ = new Camera(this.map, { width: app.screen.width, height: app.screen.height });
    this.tileFetcher = started.fetcher;
    this.releaseEarlyTiles = started.releaseEarly;
    this.tiles = started.layer;
    this.tiles.setLevel(this.level);
    this.markerSprites = new MarkerSprites(atlas);
    this.markers = new MarkerPlacement(this.map, this.markerSprites);
    this.labels = new LabelLayer(this.dpr, undefined, options.labelScale);
    this.hits = new HitIndex(this.markers);
    this.world.addChild(this.tiles.container);
    this.selectionRing.circle(0, 0, 1).stroke({ color: 0xffd54a, width: 0.14 });
    this.selectionRing.visible = false;
    this.overlay.addChild(this.shapeLayer.container);
    app.stage.addChild(this.world, this.selectionRing, this.markerSprites.container, this.labels.container, this.player.container, this.overlay);
    app.stage.eventMode = 'none';

    this.loop = new FrameLoop((now) => this.frame(now));
    this.tiles.attach({
      onTile: () => {
        this.tilesDirty = true;
        this.loop.invalidate();
      },
      // Uploading when a tile is admitted (not at its first draw) puts the cost under the upload budget.
      upload: (texture) => app.renderer.texture.initSource(texture.source),
    });
    this.unsubscribers.push(this.camera_.onChange(() => {
      this.cameraDirty = true;
      this.loop.invalidate();
    }));
    const tools = options.tools && options.tools.length > 0 ? options.tools : [(ctx: ToolContext) => new InertPan(ctx)];
    this.tools = new RootState(this.toolContext(), tools);
    this.tools.enter();
    this.unsubscribers.push(this.tools.onChange(() => this.events.emit('toolchange', { path: this.tools.path() })));
    this.input = new DomInput(app.canvas, (event) => {
      this.tools.handle(event);
      if (event.type === 'pointer_move' && this.events.has('pointermove')) {
        const m = this.camera_.toMap(event.screenX, event.screenY);
        this.events.emit('pointermove', { mapX: m.x, mapY: m.y, screenX: event.screenX, screenY: event.screenY });
      }
    });
    this.resizeObserver = typeof ResizeObserver === 'function' ? new ResizeObserver(() => this.resize()) : null;
    this.resizeObserver?.observe(container);
    this.resize();
    this.loop.invalidate();
  }

  get firstTileAt(): number | null {
    return this.firstTileAt_;
  }

  get ready(): boolean {
    return this.ready_;
  }

  setMarkers(columns: MarkerColumns): void {
    this.markers.setMarkers(columns);
    this.uidIndex_ = null;
    this.hovered = -1;
    this.selected = this.selectedUid === null ? -1 : (this.uidIndex.get(this.selectedUid) ?? -1);
    this.markers.setSelected(this.selected);
    this.labels.reset();
    this.markersSet = true;
    this.markDirty();
  }

  /** The slot of each uid of the markers set, made now if not yet. */
  private get uidIndex(): Map<string, number> {
    if (!this.uidIndex_) {
      const index = new Map<string, number>();
      const uids = this.markers.markers?.uids ?? [];
      for (let i = 0; i < uids.length; i++) if (uids[i] !== '') index.set(uids[i], i);
      this.uidIndex_ = index;
    }
    return this.uidIndex_;
  }

  setFilter(indices: Uint32Array): void {
    // A list that differs by a few markers (an edit) is applied in place: no rebuild.
    const change = this.markers.setFilter(indices);
    if (change) this.hits.apply(change);
    this.markDirty();
  }

  upsertMarker(index: number, row: MarkerRow, passes?: boolean): void {
    const cols = this.markers.markers;
    const size = this.markers.size;
    if (!cols || !Number.isInteger(index) || index < 0 || index > size || !Number.isFinite(row.x) || !Number.isFinite(row.y)) {
      console.warn(`raidmap: upsertMarker(${index}, ${row.uid}) ignored: ${cols ? `index out of 0…${size} or position not finite` : 'no markers set yet'}`);
      return;
    }
    const oldUid = index < size ? cols.uids[index] : '';
    const oldLabel = index < size ? cols.labels[index] : '';
    const change = this.markers.upsert(index, row, passes);
    if (oldUid !== '' && oldUid !== row.uid && this.uidIndex.get(oldUid) === index) this.uidIndex.delete(oldUid);
    this.uidIndex.set(row.uid, index);
    if (oldLabel !== row.label) this.labels.forget(index);
    if (change) this.hits.apply(change);
    // The selection follows the uid: a slot given to another marker loses it, the selected uid arriving gains it.
    const selected = this.selectedUid === null ? -1 : (this.uidIndex.get(this.selectedUid) ?? -1);
    if (selected !== this.selected) {
      this.selected = selected;
      this.markers.setSelected(selected);
    }
    this.markDirty();
  }

  setLabels(labels: readonly string[]): void {
    if (!this.markers.markers || labels.length !== this.markers.size) {
      console.warn(`raidmap: setLabels ignored: ${labels.length} labels for ${this.markers.size} markers`);
      return;
    }
    this.markers.setLabels(labels);
    this.labels.reset();
    this.labelsDirty = true;
    this.loop.invalidate();
  }

  removeMarker(index: number): void {
    const cols = this.markers.markers;
    if (!cols || !Number.isInteger(index) || index < 0 || index >= this.markers.size) {
      console.warn(`raidmap: removeMarker(${index}) ignored: ${cols ? `index out of 0…${this.markers.size - 1}` : 'no markers set yet'}`);
      return;
    }
    const uid = cols.uids[index];
    const change = this.markers.remove(index);
    if (uid !== '' && this.uidIndex.get(uid) === index) this.uidIndex.delete(uid);
    this.labels.forget(index);
    if (change) this.hits.apply(change);
    if (this.hovered === index) this.hovered = -1;
    // The layer dropped its selection of the removed marker; the uid stays selected should it come back.
    if (this.selected === index) this.selected = -1;
    this.markDirty();
  }

  setLevel(num: number): void {
    if (!this.map.levels.some((l) => l.num === num)) {
      // A stale level from another map must not break the page: say so and show the default.
      console.warn(`raidmap: map ${this.map.id} has no level ${num} (levels: ${this.map.levels.map((l) => l.num).join(', ')}); showing level ${this.map.defaultLevel}`);
      num = this.map.defaultLevel;
    }
    this.level = num;
    this.tiles.setLevel(num);
    this.tilesDirty = true;
    this.markers.setLevel(num);
    this.markDirty();
  }

  setPlayer(player: PlayerMarker | null, ping: boolean): void {
    this.player.set(player, ping, performance.now());
    this.loop.invalidate();
  }

  setMarkerScale(scale: number): void {
    this.markers.setScale(scale);
    this.markDirty();
  }

  setLabelMode(mode: LabelMode): void {
    if (!this.labels.setMode(mode)) return;
    this.labelsDirty = true;
    this.loop.invalidate();
  }

  setSelected(uid: string | null): void {
    this.selectedUid = uid;
    this.selected = uid === null ? -1 : (this.uidIndex.get(uid) ?? -1);
    this.markers.setSelected(this.selected);
    this.markDirty();
  }

  setZoomEnabled(enabled: boolean): void {
    this.zoomEnabled = enabled;
  }

  camera(): CameraView {
    return this.camera_.state;
  }

  setView(view: Partial<CameraView>): void {
    this.camera_.set(view);
  }

  toScreen(mapX: number, mapY: number): { x: number; y: number } {
    return this.camera_.toScreen(mapX, mapY);
  }

  toMap(screenX: number, screenY: number): { x: number; y: number } {
    return this.camera_.toMap(screenX, screenY);
  }

  markerStates(): MarkerState[] {
    const cols = this.markers.markers;
    if (!cols) return [];
    const out: MarkerState[] = [];
    for (const i of this.markers.filtered()) {
      out.push({
        uid: cols.uids[i],
        subCategory: SUBCATEGORIES[cols.icon[i]]?.id ?? 'unknown',
        level: cols.level[i],
        x: cols.x[i],
        y: cols.y[i],
        alpha: this.markers.alphaOf(i),
        visible: this.markers.isDrawn(i),
      });
    }
    return out;
  }

  stats(): FrameStats {
    return this.stats_.snapshot();
  }

  on<K extends keyof EngineEvents>(event: K, listener: (payload: EngineEvents[K]) => void): () => void {
    return this.events.on(event, listener);
  }

  resize(): void {
    if (this.disposed) return;
    const el = this.options.container;
    const width = Math.max(1, Math.floor(el.clientWidth));
    const height = Math.max(1, Math.floor(el.clientHeight));
    if (width !== this.app.screen.width || height !== this.app.screen.height) this.app.renderer.resize(width, height);
    this.camera_.setViewport({ width, height });
    this.input?.invalidateBounds();
    this.cameraDirty = true;
    this.loop.invalidate();
  }

  toolPath(): string {
    return this.tools.path();
  }

  setTool(id: string, info?: unknown): void {
    this.tools.setTool(id, info);
  }

  registerTool(factory: ToolFactory): void {
    this.tools.register(factory);
  }

  unregisterTool(id: string): void {
    this.tools.unregister(id);
  }

  toggleEdit(): void {
    this.tools.toggleEdit();
  }

  toggleMove(): void {
    this.tools.toggleMove();
  }

  setToolHost(host: ToolHost): void {
    this.host = host;
  }

  setShapes(shapes: readonly ToolShape[]): void {
    this.shapes = shapes;
    this.refreshHandles();
  }

  setGuides(shapes: readonly ToolShape[]): void {
    this.guides = shapes;
    this.refreshHandles();
  }

  setSelectedShape(id: string | null): void {
    this.selectedShapeId = id;
    this.refreshHandles();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.loop.dispose();
    if (this.recheckTimer !== null) clearTimeout(this.recheckTimer);
    this.input.dispose();
    this.resizeObserver?.disconnect();
    for (const u of this.unsubscribers.splice(0)) u();
    this.tools.exit();
    this.shapeLayer.dispose();
    this.events.clear();
    // The renderer goes first, so no texture is destroyed while still bound for drawing.
    this.app.destroy({ removeView: true }, { children: true, texture: false });
    this.tiles.dispose();
    this.releaseEarlyTiles();
    this.tileFetcher?.dispose();
    this.markers.dispose();
    this.markerSprites.dispose();
    this.labels.dispose();
    this.player.dispose();
    this.atlas.destroy();
  }

  private markDirty(): void {
    this.markersDirty = true;
    this.labelsDirty = true;
    this.loop.invalidate();
  }

  private frame(now: number): boolean {
    const t0 = performance.now();
    const view = this.camera_.state;
    const viewport = this.camera_.viewport;
    const cameraChanged = this.cameraDirty;
    this.cameraDirty = false;
    this.world.scale.set(view.zoom);
    this.world.position.set(viewport.width / 2 - view.x * view.zoom, viewport.height / 2 - view.y * view.zoom);
    if (cameraChanged || this.tilesDirty) {
      this.tilesDirty = false;
      this.lastTileState = this.tiles.update(view, viewport, this.dpr, now);
      // Tiles waiting for an upload slot need the next frame too.
      if (this.lastTileState.waiting > 0) this.tilesDirty = true;
    }
    const tileState = this.lastTileState;
    if (tileState.recheckInMs > 0 && this.recheckTimer === null) {
      this.recheckTimer = setTimeout(() => {
        this.recheckTimer = null;
        this.tilesDirty = true;
        this.loop.invalidate();
      }, tileState.recheckInMs);
    }
    if (cameraChanged || this.markersDirty) {
      // A pan within the placed margin only moves the markers' container: the hit index (in
      // layout space) stays valid. Labels follow the screen (edges, markers entering the view).
      if (this.markers.update(view, viewport)) this.hits.invalidate();
      this.markersDirty = false;
      this.labelsDirty = true;
    }
    const cols = this.markers.markers;
    if (this.labelsDirty && cols) {
      this.labelsDirty = false;
      const markers = this.markers;
      const again = this.labels.update(
        {
          drawn: markers.drawn,
          drawnCount: markers.drawnCount,
          layoutX: markers.layoutX,
          layoutY: markers.layoutY,
          offsetX: markers.offsetX,
          offsetY: markers.offsetY,
          inView: (k) => markers.inView(k),
          iconCss: markers.iconCss,
          viewportWidth: viewport.width,
          labels: cols.labels,
          alwaysLabel: cols.alwaysLabel,
          priority: (i) => (cols.level[i] === this.level ? 0 : 8) + (ICON_PRIORITY[cols.icon[i]] ?? 7),
          alpha: (i) => this.markers.alphaOf(i),
        },
        this.hovered,
        this.selected,
      );
      if (again) {
        this.labelsDirty = true;
        this.loop.invalidate();
      }
    }
    if (cameraChanged || this.shapesDirty) {
      this.shapesDirty = false;
      this.shapeLayer.update((x, y) => this.camera_.toScreen(x, y), view.zoom);
    }
    this.placeSelectionRing();
    const animating = this.player.update((x, y) => this.camera_.toScreen(x, y), now);
    // PixiJS's scheduled GC runs in the frames the engine draws, not in a frame loop of its own.
    advanceSystemTicker(now);
    const t1 = performance.now();
    this.app.renderer.render(this.app.stage);
    const t2 = performance.now();
    this.stats_.record(t1 - t0, t2 - t1);
    if (this.firstTileAt_ === null && tileState.drawn > 0) this.firstTileAt_ = t2;
    if (cameraChanged) this.events.emit('camerachange', view);
    if (!this.ready_ && this.markersSet && tileState.settled) {
      this.ready_ = true;
      this.tiles.endStartup();
      this.releaseEarlyTiles();
      // What the first frame could do without waits for the page's idle moments from now on.
      this.markers.allowIdleWork();
      whenIdle(() => {
        if (!this.disposed) void this.uidIndex;
      });
      this.events.emit('ready', undefined);
    }
    return animating || tileState.waiting > 0;
  }

  private placeSelectionRing(): void {
    const sel = this.selected;
    const cols = this.markers.markers;
    if (sel < 0 || !cols || !this.markers.isDrawn(sel)) {
      this.selectionRing.visible = false;
      return;
    }
    const s = this.camera_.toScreen(cols.x[sel], cols.y[sel]);
    this.selectionRing.visible = true;
    this.selectionRing.position.set(s.x, s.y);
    this.selectionRing.scale.set(this.markers.iconCss * 0.72);
  }

  private toolContext(): ToolContext {
    if (this.context) return this.context;
    // Screen tolerance of shape and handle hits (CSS px), in map pixels at the current zoom.
    const tolerance = () => HIT_TOLERANCE_CSS / this.camera_.state.zoom;
    const currentHost = () => this.host;
    this.context = {
      panBy: (dx, dy) => this.camera_.panBy(dx, dy),
      zoomAt: (factor, x, y) => this.camera_.zoomAt(factor, x, y),
      isZoomEnabled: () => this.zoomEnabled,
      zoom: () => this.camera_.state.zoom,
      toMap: (x, y) => this.camera_.toMap(x, y),
      toScreen: (x, y) => this.camera_.toScreen(x, y),
      hitTest: (x, y) => {
        const i = this.hits.hit(x, y);
        return i >= 0 ? (this.markers.markers?.uids[i] ?? null) : null;
      },
      hitShape: (x, y) => hitShape(this.shapes as readonly DrawnShape[], this.camera_.toMap(x, y), tolerance()),
      hitHandle: (x, y) => (this.handles.length === 0 ? null : hitHandle(this.handles, this.camera_.toMap(x, y), tolerance())),
      markerPosition: (uid) => {
        const i = this.uidIndex.get(uid);
        const cols = this.markers.markers;
        return i === undefined || !cols ? null : { x: cols.x[i], y: cols.y[i] };
      },
      setHover: (uid) => {
        const i = uid === null ? -1 : (this.uidIndex.get(uid) ?? -1);
        if (i === this.hovered) return;
        this.hovered = i;
        this.labelsDirty = true;
        this.loop.invalidate();
      },
      setCursor: (cursor) => {
        this.app.canvas.style.cursor = cursor;
      },
      setPreview: (shape) => {
        this.shapeLayer.setPreview(shape as DrawnShape | null);
        this.shapesDirty = true;
        this.loop.invalidate();
      },
      previewMarkerAt: (uid, mapX, mapY) => this.moveMarkerTo(uid, mapX, mapY),
      markerClick: (uid) => this.events.emit('markerclick', { uid }),
      mapClick: (mapX, mapY) => this.events.emit('mapclick', { mapX, mapY }),
      levelStep: (direction) => this.events.emit('levelstep', { direction }),
      get host() {
        return currentHost();
      },
    };
    return this.context;
  }

  /** The selected shape's edit handles (control points and midpoints), for hits and drawing. */
  private refreshHandles(): void {
    const selected = this.selectedShapeId === null ? undefined : this.shapes.find((s) => s.id === this.selectedShapeId);
    this.handles = selected ? shapeHandles(selected as DrawnShape) : [];
    this.shapeLayer.setShapes((this.guides.length > 0 ? [...this.guides, ...this.shapes] : this.shapes) as readonly DrawnShape[]);
    this.shapeLayer.setSelected(selected ? selected.id : null);
    this.shapeLayer.setHandles(this.handles, -1);
    this.shapesDirty = true;
    this.loop.invalidate();
  }

  /** Draws a marker at another point without touching the worker or the server (a drag preview). */
  private moveMarkerTo(uid: string, mapX: number, mapY: number): void {
    const i = this.uidIndex.get(uid);
    const cols = this.markers.markers;
    if (i === undefined || !cols) return;
    this.upsertMarker(i, {
      uid,
      x: mapX,
      y: mapY,
      level: cols.level[i],
      icon: cols.icon[i],
      label: cols.labels[i],
      alwaysLabel: cols.alwaysLabel[i] ? 1 : 0,
    });
  }
}

/** The pan tool of a bare engine (no tools given): the map neither pans nor clicks. */
class InertPan extends StateNode {
  readonly id = 'pan';
}

function rendererName(name: string): 'webgl' | 'webgpu' | 'canvas' {
  return name === 'webgpu' ? 'webgpu' : name === 'webgl' ? 'webgl' : 'canvas';
}
