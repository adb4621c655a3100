/**
 * The engine's public surface: what the UI may call. The engine knows nothing of React,
 * valtio or the API client; the UI feeds it plain data and listens to its events.
 */
import type { MapDefinition } from '../domain/maps';
import type { LabelMode } from '../domain/settings';
import type { TileManifest } from '../domain/tiles';
import type { MarkerColumns, MarkerRow } from '../domain/marker-columns';
import type { ToolFactory, ToolHost, ToolShape, EditHandle } from './interaction';
import type { CameraView } from './kernels/camera-view';
import type { ViewportInsets } from './kernels/camera';
import type { EarlyTiles } from './early-tiles';
import type { StartedRender } from './render-worker/early-render';

/** Column-wise marker data (src/domain/marker-columns.ts), re-exported for engine code. */
export type { MarkerColumns, MarkerRow };

export type { CameraView, ViewportInsets };

/** Who says how far the map's canvas is covered: the page (bars, panels, dock) or the marker popup's room. */
export type CoveredInsetsSource = 'page' | 'popup';
export type { EditHandle, ToolFactory, ToolHost, ToolShape };

export interface PlayerMarker {
  mapX: number;
  mapY: number;
  /** Screen angle of the look arrow in degrees, or null for no arrow. */
  arrowAngle: number | null;
  /** A live position that stopped coming: drawn faded, never pinged (player-layer.ts). Default false. */
  stale?: boolean;
}

/**
 * What a marker's badge says: the page is still saving an admin's change of it (`saving`), or
 * the server did not take it, or another admin's change conflicts with it (`failed`).
 */
export type MarkerFlag = 'saving' | 'failed';

/** A flagged marker by its slot (what the scene draws). */
export interface FlaggedSlot {
  index: number;
  flag: MarkerFlag;
}

export interface MarkerState {
  uid: string;
  subCategory: string;
  level: number;
  x: number;
  y: number;
  alpha: number;
  /** Inside the viewport and drawn. */
  visible: boolean;
  /** Its badge (an admin's unsaved change), or null. */
  flag: MarkerFlag | null;
}

export interface FrameStats {
  frames: number;
  /** The engine's own work per frame (ms): update (camera, culling, tile picking) and render. */
  updateMs: { p50: number; p95: number };
  renderMs: { p50: number; p95: number };
  totalMs: { p50: number; p95: number };
  /** Recent per-frame totals (ms), newest last. */
  recent: number[];
}

export interface EngineEvents {
  /** First tiles and markers drawn. */
  ready: void;
  /** A marker was clicked (mouse-down to mouse-up under 300 ms, no drag). */
  markerclick: { uid: string };
  /** Click on empty map. */
  mapclick: { mapX: number; mapY: number };
  /** Camera moved or zoomed (throttled to one per frame). */
  camerachange: CameraView;
  /** Alt + wheel: the UI steps the level. */
  levelstep: { direction: 1 | -1 };
  /** Pointer moved over the map (map pixels), for the admin status bar. */
  pointermove: { mapX: number; mapY: number; screenX: number; screenY: number };
  /** The pointer left the map (the status bar's cursor, and a paste at the pointer, have none). */
  pointerleave: void;
  /** The interaction state path changed, e.g. `pan.dragging` (admin status bar). */
  toolchange: { path: string };
  /**
   * The engine cannot draw any more: its render worker failed to start or died (`cause`
   * 'worker'; this page's next engine draws on the main thread), or its WebGL context did not
   * come back ('context'; the next engine makes a new one). The page starts another: at once for
   * a worker that failed before the map was ready, else after saying so ("Try again").
   */
  failed: { message: string; cause: 'worker' | 'context' };
}

export interface EngineOptions {
  container: HTMLElement;
  map: MapDefinition;
  manifest: TileManifest;
  /** Prefix for tile URLs (default ''): tiles load from `${tileBase}${tilePath(...)}`. */
  tileBase?: string;
  /** URL of a subcategory's icon SVG, by slug (the icons are drawn from these when there is no atlas). */
  iconUrl: (slug: string) => string;
  /** URL of the server's icon atlas PNG (src/domain/icon-atlas.ts): one image for every icon. */
  iconAtlasUrl?: string;
  /** Texture memory budget for tiles, in bytes (default 192 MiB). */
  tileBudgetBytes?: number;
  /**
   * The tile worker and the first view's requests, started with the page (early-tiles.ts); the
   * engine takes them over (and the worker's disposal). Ignored when for another map.
   */
  earlyTiles?: EarlyTiles;
  /**
   * The render worker started with the page on this map's canvas (render-worker/early-render.ts);
   * a worker-drawn engine takes it (and its disposal). Ignored when for another map, and by the
   * main-thread engine, which disposes it.
   */
  earlyRender?: StartedRender;
  /**
   * The interaction tools (src/tools/): at least `pan`. The engine hosts the state tree and
   * never imports a concrete tool. Default: none but a pan that does nothing (a bare scene).
   */
  tools?: readonly ToolFactory[];
  /** A see-through canvas (the stream overlay): no background colour behind the tiles. */
  transparent?: boolean;
  /** Size of marker labels, 1 = normal (the stream overlay draws them larger); 0.5 … 4. */
  labelScale?: number;
  /**
   * Whether the page asks for reduced motion, read at each `setPlayer` (a change applies to the
   * next position): then no ping. Default: the page's `prefers-reduced-motion` (reduced-motion.ts).
   */
  reducedMotion?: () => boolean;
}

export type { LabelMode };

export interface MapEngineApi {
  readonly renderer: 'webgl' | 'webgpu' | 'canvas';
  readonly ready: boolean;
  /**
   * performance.now() (ms since the page's navigation start) of the first frame that drew a map
   * tile; null before. Optional so test fakes need not have it.
   */
  readonly firstTileAt?: number | null;
  setMarkers(columns: MarkerColumns): void;
  /** Indices (into the columns) of markers that pass the filters; others are not drawn. */
  setFilter(indices: Uint32Array): void;
  /**
   * Adds (index === marker count) or replaces (index < count) one marker without a full
   * rebuild. `passes`: whether it passes the current filter (the worker's upsert says);
   * omitted, a replaced marker keeps its filter state and a new (or emptied) slot passes.
   */
  upsertMarker(index: number, row: MarkerRow, passes?: boolean): void;
  /** Empties one marker's slot (indices of the others stay): it is no longer drawn or filtered in. */
  removeMarker(index: number): void;
  /** New label texts for every marker slot (a language change), in slot order. */
  setLabels(labels: readonly string[]): void;
  setLevel(num: number): void;
  setPlayer(player: PlayerMarker | null, ping: boolean): void;
  setMarkerScale(scale: number): void;
  /** Which labels show: `auto` (hover, always for extractions), `all` (every drawn marker, decluttered), `hover`. */
  setLabelMode(mode: LabelMode): void;
  /** Highlight a marker (open popup) or none. */
  setSelected(uid: string | null): void;
  /**
   * A marker drawn whatever the thinning (over its neighbours, at its usual size), or none: the
   * one an admin just placed, copied or moved, which would otherwise vanish under a neighbour
   * that wins its screen cell (docs/DECISIONS.md "Markers drawn whatever the thinning"). It
   * follows its uid, and goes when the editor's tool host does (`setToolHost(NO_EDITOR)`).
   * Optional so test fakes need not have it.
   */
  keepDrawn?(uid: string | null): void;
  /**
   * Badges on markers, by uid (an admin's changes still saving, or not saved): they follow the
   * uid across list reloads and live changes. Replaces the previous set.
   */
  setMarkerFlags(flags: Readonly<Record<string, MarkerFlag>>): void;
  /** Stop or allow wheel zoom (while the pointer is over a popup). */
  setZoomEnabled(enabled: boolean): void;
  camera(): CameraView;
  setView(view: Partial<CameraView>): void;
  /**
   * How far (CSS px) the page covers the map's canvas in from each edge (top bar, side panels,
   * admin dock): the camera lets the map's edges be panned in that far, so what lies at the map's
   * edge can be brought out from under them. Default all 0. Optional so test fakes need not have it.
   * `source` 'popup': the marker popup's room on a phone, while it is open (ui/popup/wirePopup.ts);
   * each source replaces only its own insets, and the map's edge may come in as far as either lets it.
   */
  setCoveredInsets?(insets: ViewportInsets, source?: CoveredInsetsSource): void;
  toScreen(mapX: number, mapY: number): { x: number; y: number };
  toMap(screenX: number, screenY: number): { x: number; y: number };
  markerStates(): MarkerState[];
  stats(): FrameStats;
  on<K extends keyof EngineEvents>(event: K, listener: (payload: EngineEvents[K]) => void): () => void;
  resize(): void;
  /** Current interaction state path without the root, e.g. `pan.idle`, `draw.rect.drawing`. */
  toolPath(): string;
  /** Switches the interaction tool; `info` goes to its enter hook (e.g. `{ shape: 'rect' }` for draw). */
  setTool(id: string, info?: unknown): void;
  /** Adds (or replaces) an interaction tool (admin draw / edit / move) without changing the engine. */
  registerTool(factory: ToolFactory): void;
  /** Removes a tool (leaving it first when it is current); `pan` stays. */
  unregisterTool(id: string): void;
  /** The edit toggle and key m as transitions of the state tree (spec §4). */
  toggleEdit(): void;
  toggleMove(): void;
  /** The page's editor commands that the tools call (default: a host that does nothing). */
  setToolHost(host: ToolHost): void;
  /** The drawn shapes (map pixels), the selected one and its edit handles. */
  setShapes(shapes: readonly ToolShape[]): void;
  setSelectedShape(id: string | null): void;
  /** Shapes drawn under the others that are never hit or edited (the admin's saved points). */
  setGuides(shapes: readonly ToolShape[]): void;
  /**
   * Loses the WebGL context as a GPU reset would and gives it back after `restoreAfterMs` (never
   * for null), for tests and support: the map must draw again, or say it cannot. Optional so
   * test fakes need not have it.
   */
  simulateContextLoss?(restoreAfterMs: number | null): void;
  dispose(): void;
}
