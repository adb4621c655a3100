/**
 * `window.__map`: the page's automation surface for tests and embedders (docs/AUTOMATION.md).
 * It reads the engine through a handle that MapCanvas fills in, so it can be installed as soon
 * as the map page mounts, before the engine exists.
 */
import { findSubCategory } from '../../domain/categories';
import type { MapId } from '../../domain/maps';
import type { CameraView, FrameStats, MapEngineApi, PlayerMarker } from '../../engine/types';
import type { PlayerPosition } from '../../domain/position';
import { mapView } from '../../state/mapView';
import { popup } from '../../state/popup';
import { editor } from '../../state/editor';
import { currentPlayer } from '../../state/player';
import { pilot, type PilotStatus } from '../../state/pilot';
import { quests } from '../../state/quests';
import { posterPaintedAt } from './poster';

export interface AutomationMarker {
  uid: string;
  category: string;
  subCategory: string;
  level: number;
  /** Map pixels. */
  x: number;
  y: number;
  /** Current opacity (0.2 on other levels). */
  alpha: number;
  /** Inside the viewport and drawn. */
  visible: boolean;
  /** Its badge: an admin's change of it is `saving`, or `failed` (not saved, or in conflict); null without. */
  flag: 'saving' | 'failed' | null;
}

export interface MapAutomation {
  /** True once the first tiles and the markers are drawn. */
  readonly ready: boolean;
  readonly mapId: MapId;
  /** Map-pixel point at the centre of the canvas and the zoom (CSS px per map px); null before the engine starts. */
  camera(): CameraView | null;
  /** Map pixels → CSS pixels of the page (viewport: the map page never scrolls). */
  toScreen(mapX: number, mapY: number): { x: number; y: number } | null;
  /** CSS pixels of the page → map pixels. */
  toMap(screenX: number, screenY: number): { x: number; y: number } | null;
  /** Every marker that passes the current filters. */
  markers(): AutomationMarker[];
  /** 'webgl' (or what PixiJS fell back to); null before the engine starts. */
  readonly renderer: MapEngineApi['renderer'] | null;
  /** Per-frame timings of the engine's own work. */
  stats(): FrameStats | null;
  /** ms from navigation start to the first frame that drew a map tile; null before (or before the engine starts). */
  firstTileAt(): number | null;
  /**
   * ms from navigation start to the first paint of the poster of the first view (the map's tiles
   * as images while the engine starts, src/ui/map/poster.ts); null when there was none (yet).
   */
  posterAt(): number | null;
  /** The where-am-I position {x, y, z, look} in the spec's convention (docs/AUTOMATION.md), or null. */
  player(): PlayerPosition | null;
  /**
   * The look arrow on the where-am-I marker as handed to the engine: its screen angle in
   * degrees, or null when none is drawn (no position, no look, not pro, or the setting off).
   */
  playerArrow(): number | null;
  /** The selected level's number (1 is the main level). */
  level(): number;
  /** uids of the quests followed on the map. */
  selectedQuests(): string[];
  /** uid of the marker whose popup is open (in the page, so its keys work), or null. */
  popup(): string | null;
  /** The interaction state path, e.g. `pan.idle`, `draw.rect.drawing`, `move.dragging`. */
  toolPath(): string;
  /** The drawn shapes of this map (map pixels). */
  shapes(): AutomationShape[];
  /** The admin editor's state. */
  editor(): AutomationEditor;
  /** The live position feed the page follows, or null when it follows no code. */
  pilot(): AutomationPilot | null;
  /**
   * Loses the map's WebGL context as a GPU reset would, and lets the browser give it back after
   * `restoreAfterMs` (default 100; null: never, and the map shows its error after 5 s). False
   * before the engine starts.
   */
  loseContext(restoreAfterMs?: number | null): boolean;
}

export interface AutomationPilot {
  /** The followed code, canonical (10 characters, no dash). */
  code: string;
  status: PilotStatus;
  /** Server time (epoch ms) of the last position received, or null. */
  lastUpdateAt: number | null;
}

export interface AutomationShape {
  id: string;
  type: string;
  geometry: { x: number; y: number; x1?: number; y1?: number; points?: [number, number][]; width?: number };
  name: string;
}

export interface AutomationEditor {
  /** The root of the state path: pan, draw, edit or move. */
  state: string;
  /** Id of the selected shape, or null. */
  selectedShape: string | null;
  /** Type of the shape being drawn now, or null. */
  drawingShape: string | null;
  canUndo: boolean;
  canRedo: boolean;
}

/** What the automation surface reads; MapCanvas and the wiring fill it in. */
export interface EngineHandle {
  engine: MapEngineApi | null;
  /** The element the engine draws into (its canvas fills it). */
  host: HTMLElement | null;
  /** uids of the markers that pass the filters, or null before markers are loaded. */
  passing: (() => ReadonlySet<string> | null) | null;
  /** The where-am-I marker last handed to the engine, or null. */
  playerMarker: PlayerMarker | null;
}

declare global {
  interface Window {
    __map?: MapAutomation;
  }
}

export function createEngineHandle(): EngineHandle {
  return { engine: null, host: null, passing: null, playerMarker: null };
}

function finite(name: string, a: number, b: number): void {
  if (!Number.isFinite(a) || !Number.isFinite(b)) {
    throw new TypeError(`__map.${name} needs two finite numbers, got (${String(a)}, ${String(b)})`);
  }
}

function origin(handle: EngineHandle): { left: number; top: number } {
  const el = handle.host?.querySelector('canvas') ?? handle.host;
  if (!el) return { left: 0, top: 0 };
  const rect = el.getBoundingClientRect();
  return { left: rect.left + window.scrollX, top: rect.top + window.scrollY };
}

export function createMapAutomation(mapId: MapId, handle: EngineHandle): MapAutomation {
  return {
    get ready() {
      return mapView.mapId === mapId && mapView.ready && handle.engine !== null;
    },
    mapId,
    camera() {
      const view = handle.engine?.camera();
      return view ? { x: view.x, y: view.y, zoom: view.zoom } : null;
    },
    toScreen(mapX, mapY) {
      finite('toScreen', mapX, mapY);
      if (!handle.engine) return null;
      const p = handle.engine.toScreen(mapX, mapY);
      const o = origin(handle);
      return { x: p.x + o.left, y: p.y + o.top };
    },
    toMap(screenX, screenY) {
      finite('toMap', screenX, screenY);
      if (!handle.engine) return null;
      const o = origin(handle);
      return handle.engine.toMap(screenX - o.left, screenY - o.top);
    },
    markers() {
      const engine = handle.engine;
      const passing = handle.passing?.();
      if (!engine || !passing) return [];
      return engine
        .markerStates()
        .filter((m) => passing.has(m.uid))
        .map((m) => ({
          uid: m.uid,
          category: findSubCategory(m.subCategory)?.category ?? '',
          subCategory: m.subCategory,
          level: m.level,
          x: m.x,
          y: m.y,
          alpha: m.alpha,
          visible: m.visible,
          flag: m.flag,
        }));
    },
    get renderer() {
      return handle.engine?.renderer ?? null;
    },
    loseContext(restoreAfterMs: number | null = 100) {
      const engine = handle.engine;
      if (!engine?.simulateContextLoss) return false;
      engine.simulateContextLoss(restoreAfterMs);
      return true;
    },
    firstTileAt() {
      return handle.engine?.firstTileAt ?? null;
    },
    posterAt() {
      return posterPaintedAt(mapId);
    },
    stats() {
      return handle.engine?.stats() ?? null;
    },
    player() {
      return mapView.mapId === mapId ? currentPlayer() : null;
    },
    playerArrow() {
      return handle.playerMarker?.arrowAngle ?? null;
    },
    level() {
      return mapView.level;
    },
    selectedQuests() {
      return [...quests.selected];
    },
    popup() {
      if (mapView.mapId !== mapId || mapView.selectedUid === null || popup.uid !== mapView.selectedUid) return null;
      // Open once it is in the page (its keys work from then on), not as soon as its marker is read.
      const uid = popup.uid;
      const shown = [...document.querySelectorAll<HTMLElement>('.marker-popup')].some((element) => element.dataset.uid === uid);
      return shown ? uid : null;
    },
    toolPath() {
      return handle.engine?.toolPath() ?? 'pan.idle';
    },
    shapes() {
      // Plain copies: the slice's objects are valtio proxies.
      return editor.shapes.map((s) => JSON.parse(JSON.stringify({ id: s.id, type: s.type, geometry: s.geometry, name: s.name })) as AutomationShape);
    },
    editor() {
      const path = handle.engine?.toolPath() ?? 'pan.idle';
      return {
        state: path.split('.')[0],
        selectedShape: editor.selectedShape,
        drawingShape: editor.drawingShape,
        canUndo: editor.canUndo,
        canRedo: editor.canRedo,
      };
    },
    pilot() {
      return pilot.code === null ? null : { code: pilot.code, status: pilot.status, lastUpdateAt: pilot.lastUpdateAt };
    },
  };
}

/** Installs `window.__map` for this map; the returned function removes it (only if still ours). */
export function installMapAutomation(mapId: MapId, handle: EngineHandle): () => void {
  const automation = createMapAutomation(mapId, handle);
  window.__map = automation;
  return () => {
    if (window.__map === automation) delete window.__map;
  };
}
