/**
 * What the engine tells whatever draws its scene, and what it hears back. The engine
 * (map-engine.ts: camera, input, tools, the placement the hit index reads) calls a driver; the
 * local driver draws on the main thread (local-scene.ts), the worker driver sends the same calls
 * to the render worker (render-worker/). No PixiJS here: the main thread's side of a worker-drawn
 * map never loads it.
 */
import type { DrawnShape, Handle } from '../domain/shapes';
import type { LabelMode } from '../domain/settings';
import type { MarkerColumns, MarkerRow } from '../domain/marker-columns';
import type { ViewportSize } from './kernels/camera';
import type { CameraView } from './kernels/camera-view';
import type { FlaggedSlot, PlayerMarker } from './types';

/** What the scene reports to the engine. Times are `performance.now()` of the engine's thread. */
export interface SceneHooks {
  /** The scene needs a frame (a tile arrived, a recheck is due). */
  invalidate(): void;
  /** A frame was drawn: its update and render time (ms). */
  drawn(updateMs: number, renderMs: number): void;
  /** The first frame that drew a map tile. */
  firstTile(at: number): void;
  /** The first view's tiles and the markers are drawn. */
  ready(): void;
  /**
   * The scene cannot draw any more: why. `cause` 'context': its WebGL context was lost and did
   * not come back (a new scene may work, wherever it draws); 'worker': its worker failed.
   */
  failed(message: string, cause: 'worker' | 'context'): void;
}

/**
 * The scene's inputs. Marker calls come after the engine's own placement made the same change
 * (both sides place with the same kernels from the same calls, so slots and order agree).
 */
export interface SceneDriver {
  setMarkers(columns: MarkerColumns): void;
  setFilter(indices: Uint32Array): void;
  upsertMarker(index: number, row: MarkerRow, passes: boolean | undefined, labelChanged: boolean): void;
  removeMarker(index: number): void;
  setLabels(labels: readonly string[]): void;
  setLevel(num: number): void;
  setMarkerScale(scale: number): void;
  setPlayer(player: PlayerMarker | null, ping: boolean): void;
  setLabelMode(mode: LabelMode): void;
  setSelected(index: number): void;
  /** The marker drawn whatever the thinning (MarkerPlacement.setKept), or -1. */
  setKept(index: number): void;
  setHovered(index: number): void;
  /** The badges of flagged markers, by slot (replaces the previous set). */
  setFlags(flags: readonly FlaggedSlot[]): void;
  setShapes(shapes: readonly DrawnShape[], selectedId: string | null, handles: readonly Handle[]): void;
  setPreview(shape: DrawnShape | null): void;
  resize(width: number, height: number): void;
  /** Loses the WebGL context, restored after `restoreAfterMs` (never for null): tests and support. */
  simulateContextLoss(restoreAfterMs: number | null): void;
  /**
   * Draws (or has drawn) `view`. `cameraChanged`: it moved since the last frame; `placed`: the
   * placement changed since. True: the engine runs another frame.
   */
  frame(now: number, view: CameraView, viewport: ViewportSize, cameraChanged: boolean, placed: boolean): boolean;
  dispose(): void;
}
