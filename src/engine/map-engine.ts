/**
 * The MapEngine facade: owns the camera, the input, the tools, the marker placement that the
 * hit index reads, and the frame loop, and implements the public API of types.ts. What it draws
 * goes to a scene driver (scene-driver.ts): drawn on the main thread (local-scene.ts) or in the
 * render worker (render-worker/). It knows nothing of React, state or the API client, and no
 * PixiJS: a worker-drawn map's main thread never loads it.
 */
import { SUBCATEGORIES } from '../domain/categories';
import type { MapDefinition } from '../domain/maps';
import type { LabelMode } from '../domain/settings';
import { hitHandle, hitShape, shapeHandles, type DrawnShape } from '../domain/shapes';
import { NO_EDITOR, RootState, StateNode, type EditHandle, type ToolContext, type ToolFactory, type ToolHost, type ToolShape } from './interaction';
import { Camera } from './camera';
import { Emitter } from './emitter';
import { FrameLoop } from './frame-loop';
import { HitIndex } from './hit-index';
import { DomInput } from './input';
import { FrameStatsRecorder } from './kernels/frame-stats';
import type { MarkerPlacement } from './marker-placement';
import { prefersReducedMotion } from './reduced-motion';
import { whenIdle } from './kernels/idle';
import type { SceneDriver, SceneHooks } from './scene-driver';
import type {
  CameraView, EngineEvents, EngineOptions, FlaggedSlot, FrameStats, MapEngineApi, MarkerColumns, MarkerFlag, MarkerRow, MarkerState, PlayerMarker,
  CoveredInsetsSource, ViewportInsets,
} from './types';

/** How near (CSS px) a press must be to a shape's stroke or a handle to hit it. */
const HIT_TOLERANCE_CSS = 8;

/** Where the engine draws: the canvas that takes input, and what the renderer is. */
export interface EngineSurface {
  /** The canvas in the page: input, cursor, size (drawn by the scene, here or in a worker). */
  canvas: HTMLCanvasElement;
  /** Device pixels per CSS pixel of the drawing buffer. */
  dpr: number;
  renderer: 'webgl' | 'webgpu' | 'canvas';
  /**
   * The scene places markers of its own (the render worker): this engine's placement, which only
   * hit tests and `markerStates` read, is not made in the frames before ready: it is made as
   * ready is told. A large set (EARLY_PLACEMENT_MIN_MARKERS or more) is placed in the page's first
   * idle moment after it arrives instead, while the worker starts (a 100,000-marker placement is
   * 300 ms here, which ready waited for), and again at ready only when the markers or the camera
   * changed since.
   */
  placesLate?: boolean;
}

/**
 * From this many markers a page that places late places in an idle moment before ready. Below
 * it, placing at ready costs less than the idle placement's competition with the worker's start
 * on a busy machine (docs/PERFORMANCE.md, "Twelfth session": at 10,000 markers ready 1.00–1.04
 * cold with it, at 100,000 0.94 cold and 0.90 opened again).
 */
export const EARLY_PLACEMENT_MIN_MARKERS = 50_000;

export class MapEngine implements MapEngineApi {
  readonly renderer: 'webgl' | 'webgpu' | 'canvas';
  private readonly events = new Emitter<EngineEvents>();
  private readonly camera_: Camera;
  /** What draws the scene (here or in the render worker). */
  private readonly scene: SceneDriver;
  private readonly hits: HitIndex;
  private readonly tools: RootState;
  private host: ToolHost = NO_EDITOR;
  private shapes: readonly ToolShape[] = [];
  /** Drawn like shapes, never hit or edited (the admin's saved points). */
  private guides: readonly ToolShape[] = [];
  private selectedShapeId: string | null = null;
  private handles: EditHandle[] = [];
  private context: ToolContext | null = null;
  private readonly input: DomInput;
  private readonly loop: FrameLoop;
  private readonly stats_ = new FrameStatsRecorder(600);
  private readonly resizeObserver: ResizeObserver | null;
  private readonly canvas: HTMLCanvasElement;
  private readonly map: MapDefinition;
  private readonly placesLate: boolean;
  /** Slot of each uid; made on first use (a 100,000-marker map: 50 ms it need not spend before its first frame). */
  private uidIndex_: Map<string, number> | null = null;
  private hovered = -1;
  private selected = -1;
  /** uid of the selected marker (kept while it is absent: a marker selected before it arrives). */
  private selectedUid: string | null = null;
  /** Slot and uid of the marker drawn whatever the thinning (keepDrawn), followed as the selection is. */
  private kept = -1;
  private keptUid: string | null = null;
  /** Badges by uid (kept while a uid is absent: an unsaved marker the list reload has not put back yet). */
  private flagsByUid = new Map<string, MarkerFlag>();
  /** The slots last sent to the scene, as `index:flag` joined (to send only changes). */
  private flagsSent = '';
  private zoomEnabled = true;
  private cameraDirty = true;
  private markersDirty = true;
  /** placesLate: the placement is current for the markers and the camera (made while the page was idle). */
  private placedBeforeReady = false;
  private earlyPlacementAsked = false;
  /** Main-thread time of this engine's own part of frames not yet reported by the scene (ms). */
  private placingMs = 0;
  private ready_ = false;
  /** Why the scene cannot draw, once it said so. */
  private failure: EngineEvents['failed'] | null = null;
  /** performance.now() of the first frame that drew a map tile (issue 11); null before. */
  private firstTileAt_: number | null = null;
  private disposed = false;
  private readonly unsubscribers: (() => void)[] = [];

  /**
   * `markers`: where markers go (thinning, culling, draw order; no renderer), which the hit index
   * reads; `scene` makes the driver that draws, given the hooks it reports through.
   */
  constructor(
    surface: EngineSurface,
    private readonly markers: MarkerPlacement,
    private readonly options: EngineOptions,
    scene: (hooks: SceneHooks) => SceneDriver,
  ) {
    this.map = options.map;
    this.renderer = surface.renderer;
    this.canvas = surface.canvas;
    this.placesLate = surface.placesLate === true;
    const container = options.container;
    this.camera_ = new Camera(this.map, { width: Math.max(1, Math.floor(container.clientWidth)), height: Math.max(1, Math.floor(container.clientHeight)) });
    this.hits = new HitIndex(this.markers);
    this.loop = new FrameLoop((now) => this.frame(now));
    this.scene = scene({
      invalidate: () => this.loop.invalidate(),
      drawn: (updateMs, renderMs) => {
        this.stats_.record(updateMs + this.placingMs, renderMs);
        this.placingMs = 0;
      },
      firstTile: (at) => {
        this.firstTileAt_ ??= at;
      },
      ready: () => this.becomeReady(),
      failed: (message, cause) => {
        if (this.disposed) return;
        const failure = { message, cause };
        this.failure ??= failure;
        this.events.emit('failed', failure);
      },
    });
    this.unsubscribers.push(this.camera_.onChange(() => {
      this.cameraDirty = true;
      this.placedBeforeReady = false;
      this.loop.invalidate();
    }));
    const tools = options.tools && options.tools.length > 0 ? options.tools : [(ctx: ToolContext) => new InertPan(ctx)];
    this.tools = new RootState(this.toolContext(), tools);
    this.tools.enter();
    this.unsubscribers.push(this.tools.onChange(() => this.events.emit('toolchange', { path: this.tools.path() })));
    this.input = new DomInput(this.canvas, (event) => {
      this.tools.handle(event);
      if (event.type === 'pointer_move' && this.events.has('pointermove')) {
        const m = this.camera_.toMap(event.screenX, event.screenY);
        this.events.emit('pointermove', { mapX: m.x, mapY: m.y, screenX: event.screenX, screenY: event.screenY });
      } else if (event.type === 'pointer_leave') this.events.emit('pointerleave', undefined);
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
    this.scene.setMarkers(columns);
    this.scene.setSelected(this.selected);
    // The new columns start with none kept (MarkerPlacement.setMarkers): told again.
    this.kept = -1;
    this.followKept();
    this.sendFlags();
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
    this.scene.setFilter(indices);
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
    this.scene.upsertMarker(index, row, passes, oldLabel !== row.label);
    if (change) this.hits.apply(change);
    // The selection follows the uid: a slot given to another marker loses it, the selected uid arriving gains it.
    const selected = this.selectedUid === null ? -1 : (this.uidIndex.get(this.selectedUid) ?? -1);
    if (selected !== this.selected) {
      this.selected = selected;
      this.markers.setSelected(selected);
      this.scene.setSelected(selected);
    }
    this.followKept();
    this.sendFlags();
    this.markDirty();
  }

  setLabels(labels: readonly string[]): void {
    if (!this.markers.markers || labels.length !== this.markers.size) {
      console.warn(`raidmap: setLabels ignored: ${labels.length} labels for ${this.markers.size} markers`);
      return;
    }
    this.markers.setLabels(labels);
    this.scene.setLabels(labels);
    this.markDirty();
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
    this.scene.removeMarker(index);
    if (change) this.hits.apply(change);
    if (this.hovered === index) {
      this.hovered = -1;
      this.scene.setHovered(-1);
    }
    // The placement dropped its selection of the removed marker; the uid stays selected should it come back.
    if (this.selected === index) {
      this.selected = -1;
      this.scene.setSelected(-1);
    }
    // Likewise the kept one (both placements dropped it); drawn again should its uid come back (a redone placement).
    if (this.kept === index) this.kept = -1;
    this.sendFlags();
    this.markDirty();
  }

  setLevel(num: number): void {
    if (!this.map.levels.some((l) => l.num === num)) {
      // A stale level from another map must not break the page: say so and show the default.
      console.warn(`raidmap: map ${this.map.id} has no level ${num} (levels: ${this.map.levels.map((l) => l.num).join(', ')}); showing level ${this.map.defaultLevel}`);
      num = this.map.defaultLevel;
    }
    this.markers.setLevel(num);
    this.scene.setLevel(num);
    this.markDirty();
  }

  setPlayer(player: PlayerMarker | null, ping: boolean): void {
    if (player && (!Number.isFinite(player.mapX) || !Number.isFinite(player.mapY))) {
      throw new Error(`player position must be finite numbers, got (${player.mapX}, ${player.mapY})`);
    }
    // The view may be centred on the player even past the map's edge (a position the feed
    // accepts may lie there): the camera does not stop at the edge with the marker off-screen.
    this.camera_.setReach(player ? { x: player.mapX, y: player.mapY } : null);
    // Reduced motion: the position is drawn, without the growing ring (reduced-motion.ts).
    this.scene.setPlayer(player, ping && !(this.options.reducedMotion ?? prefersReducedMotion)());
    this.loop.invalidate();
  }

  setMarkerScale(scale: number): void {
    this.markers.setScale(scale);
    this.scene.setMarkerScale(scale);
    this.markDirty();
  }

  setLabelMode(mode: LabelMode): void {
    this.scene.setLabelMode(mode);
    this.loop.invalidate();
  }

  setSelected(uid: string | null): void {
    this.selectedUid = uid;
    this.selected = uid === null ? -1 : (this.uidIndex.get(uid) ?? -1);
    this.markers.setSelected(this.selected);
    this.scene.setSelected(this.selected);
    this.markDirty();
  }

  keepDrawn(uid: string | null): void {
    if (uid === this.keptUid) return;
    this.keptUid = uid;
    if (this.followKept()) this.markDirty();
  }

  /** Tells the placement and the scene the kept uid's slot, when it changed; true if it did. */
  private followKept(): boolean {
    const kept = this.keptUid === null || !this.markers.markers ? -1 : (this.uidIndex.get(this.keptUid) ?? -1);
    if (kept === this.kept) return false;
    this.kept = kept;
    this.markers.setKept(kept);
    this.scene.setKept(kept);
    return true;
  }

  setMarkerFlags(flags: Readonly<Record<string, MarkerFlag>>): void {
    this.flagsByUid = new Map(Object.entries(flags).filter(([, flag]) => flag === 'saving' || flag === 'failed'));
    this.sendFlags();
    this.loop.invalidate();
  }

  /** Tells the scene the slots of the flagged uids, when they changed (uids are re-resolved after every marker change). */
  private sendFlags(): void {
    const slots: FlaggedSlot[] = [];
    if (this.flagsByUid.size > 0 && this.markers.markers) {
      for (const [uid, flag] of this.flagsByUid) {
        const index = this.uidIndex.get(uid);
        if (index !== undefined) slots.push({ index, flag });
      }
      slots.sort((a, b) => a.index - b.index);
    }
    const key = slots.map((s) => `${s.index}:${s.flag}`).join(',');
    if (key === this.flagsSent) return;
    this.flagsSent = key;
    this.scene.setFlags(slots);
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

  setCoveredInsets(insets: ViewportInsets, source: CoveredInsetsSource = 'page'): void {
    this.camera_.setInsets(insets, source);
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
        flag: this.flagsByUid.get(cols.uids[i]) ?? null,
      });
    }
    return out;
  }

  stats(): FrameStats {
    return this.stats_.snapshot();
  }

  on<K extends keyof EngineEvents>(event: K, listener: (payload: EngineEvents[K]) => void): () => void {
    const off = this.events.on(event, listener);
    // A scene that failed before anyone listened (a worker whose script did not load) is still heard.
    const failure = this.failure;
    if (event !== 'failed' || failure === null) return off;
    let listening = true;
    queueMicrotask(() => {
      if (listening && !this.disposed) (listener as (payload: EngineEvents['failed']) => void)(failure);
    });
    return () => {
      listening = false;
      off();
    };
  }

  resize(): void {
    if (this.disposed) return;
    const el = this.options.container;
    const width = Math.max(1, Math.floor(el.clientWidth));
    const height = Math.max(1, Math.floor(el.clientHeight));
    this.scene.resize(width, height);
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
    // The kept marker is the editor's: with it gone, the map is thinned as for every visitor.
    if (host === NO_EDITOR) this.keepDrawn(null);
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

  simulateContextLoss(restoreAfterMs: number | null): void {
    if (!this.disposed) this.scene.simulateContextLoss(restoreAfterMs);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.loop.dispose();
    this.input.dispose();
    this.resizeObserver?.disconnect();
    for (const u of this.unsubscribers.splice(0)) u();
    this.tools.exit();
    this.events.clear();
    this.scene.dispose();
    this.markers.dispose();
  }

  private markDirty(): void {
    this.markersDirty = true;
    this.placedBeforeReady = false;
    this.loop.invalidate();
    if (this.placesLate && !this.ready_ && this.markers.size >= EARLY_PLACEMENT_MIN_MARKERS) this.placeWhenIdle();
  }

  /** Places the markers in the page's next idle moment, before ready (see EngineSurface.placesLate). */
  private placeWhenIdle(): void {
    if (this.earlyPlacementAsked) return;
    this.earlyPlacementAsked = true;
    whenIdle(() => {
      this.earlyPlacementAsked = false;
      if (this.disposed || this.ready_ || this.placedBeforeReady) return;
      this.placeNow();
      this.placedBeforeReady = true;
    });
  }

  /** The placement for the camera now (the hit index follows). */
  private placeNow(): void {
    if (this.markers.update(this.camera_.state, this.camera_.viewport)) this.hits.invalidate();
    this.markersDirty = false;
  }

  private frame(now: number): boolean {
    const t0 = performance.now();
    const view = this.camera_.state;
    const viewport = this.camera_.viewport;
    const cameraChanged = this.cameraDirty;
    this.cameraDirty = false;
    let placed = false;
    if ((cameraChanged || this.markersDirty) && (this.ready_ || !this.placesLate)) {
      // A pan within the placed margin only moves the markers' container: the hit index (in
      // layout space) stays valid. Labels follow the screen (edges, markers entering the view).
      this.placeNow();
      placed = true;
    }
    this.placingMs += performance.now() - t0;
    const again = this.scene.frame(now, view, viewport, cameraChanged, placed);
    if (cameraChanged) this.events.emit('camerachange', view);
    return again;
  }

  /** The scene drew the first view's tiles and the markers. */
  private becomeReady(): void {
    if (this.ready_ || this.disposed) return;
    this.ready_ = true;
    if (this.placesLate && !this.placedBeforeReady) {
      // The hit index's placement, unless an idle moment made it for these markers and this
      // camera (see EngineSurface.placesLate), before anyone hears of ready: from then on a
      // click hits what is drawn.
      this.placeNow();
    }
    // What the first frame could do without waits for the page's idle moments from now on.
    this.markers.allowIdleWork();
    whenIdle(() => {
      if (!this.disposed) void this.uidIndex;
    });
    this.events.emit('ready', undefined);
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
        this.scene.setHovered(i);
        this.loop.invalidate();
      },
      setCursor: (cursor) => {
        this.canvas.style.cursor = cursor;
      },
      setPreview: (shape) => {
        this.scene.setPreview(shape as DrawnShape | null);
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
    const drawn = (this.guides.length > 0 ? [...this.guides, ...this.shapes] : this.shapes) as readonly DrawnShape[];
    this.scene.setShapes(drawn, selected ? selected.id : null, this.handles);
    this.loop.invalidate();
  }

  /** Draws a marker at another point without touching the worker or the server (a drag preview). */
  private moveMarkerTo(uid: string, mapX: number, mapY: number): void {
    const i = this.uidIndex.get(uid);
    const cols = this.markers.markers;
    if (i === undefined || !cols) return;
    // The marker dragged stays drawn over the markers it passes (and after, until the next one).
    this.keepDrawn(uid);
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

