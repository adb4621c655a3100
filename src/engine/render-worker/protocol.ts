/**
 * The render worker's messages (docs/ENGINE-WORKER.md). The page sends the scene's inputs as
 * ops, queued as the engine calls its driver and sent once per animation frame with the camera
 * (`coalesce` keeps one op where later ones replace earlier ones); the worker answers with what
 * it drew. Plain data only: everything here is structured-cloned, bitmaps and the canvas are
 * transferred. No PixiJS.
 */
import type { MapDefinition } from '../../domain/maps';
import type { MarkerColumns, MarkerRow } from '../../domain/marker-columns';
import type { LabelMode } from '../../domain/settings';
import type { DrawnShape, Handle } from '../../domain/shapes';
import type { TileManifest } from '../../domain/tiles';
import type { ViewportSize } from '../kernels/camera';
import type { CameraView } from '../kernels/camera-view';
import type { FlaggedSlot, PlayerMarker } from '../types';

/** One call of the scene driver (scene-driver.ts), in the order the engine made it. */
export type SceneOp =
  | { op: 'markers'; columns: MarkerColumns }
  | { op: 'filter'; indices: Uint32Array }
  | { op: 'upsert'; index: number; row: MarkerRow; passes: boolean | undefined; labelChanged: boolean }
  | { op: 'remove'; index: number }
  | { op: 'labels'; labels: readonly string[] }
  | { op: 'level'; num: number }
  | { op: 'scale'; scale: number }
  | { op: 'player'; player: PlayerMarker | null; ping: boolean }
  | { op: 'labelMode'; mode: LabelMode }
  | { op: 'selected'; index: number }
  | { op: 'kept'; index: number }
  | { op: 'hovered'; index: number }
  | { op: 'flags'; flags: readonly FlaggedSlot[] }
  | { op: 'shapes'; shapes: readonly DrawnShape[]; selectedId: string | null; handles: readonly Handle[] }
  | { op: 'preview'; shape: DrawnShape | null }
  | { op: 'resize'; width: number; height: number };

/** What the scene starts with (sent once, with the transferred canvas). */
export interface RenderStart {
  type: 'start';
  canvas: OffscreenCanvas;
  map: MapDefinition;
  manifest: TileManifest;
  /** Absolute prefix of tile URLs (the worker's own URL is not the page's). */
  tileBase: string;
  tileBudgetBytes?: number;
  /** Absolute URL of the server's icon atlas PNG; without it (or when it fails) the page sends one. */
  iconAtlasUrl?: string;
  labelScale?: number;
  transparent: boolean;
  width: number;
  height: number;
  dpr: number;
}

/** A frame's worth of inputs: the ops since the last message, and the camera when it moved. */
export interface RenderFrame {
  type: 'frame';
  ops: SceneOp[];
  view: CameraView;
  viewport: ViewportSize;
  cameraChanged: boolean;
}

export type ToRenderWorker =
  | RenderStart
  | RenderFrame
  /** The icons drawn by the page (the atlas PNG could not be used in the worker). */
  | { type: 'atlas'; bitmap: ImageBitmap; failed: string[] }
  /** Lose the WebGL context, restored after `restoreAfterMs` (never for null): tests and support. */
  | { type: 'lose-context'; restoreAfterMs: number | null }
  | { type: 'dispose' };

export type FromRenderWorker =
  /** The renderer runs (its name as the engine reports it). */
  | { type: 'started'; renderer: 'webgl' | 'webgpu' | 'canvas' }
  /** The atlas PNG could not be used: the page draws the icons and sends them. */
  | { type: 'need-atlas'; reason: string }
  /**
   * A frame was drawn. Times are epoch ms (performance.timeOrigin + now) so the page can put
   * them on its own clock.
   */
  | { type: 'drawn'; updateMs: number; renderMs: number; firstTileAt: number | null; readyAt: number | null }
  /** The worker cannot draw; `cause` 'context': its WebGL context was lost for good (a new worker may draw). */
  | { type: 'error'; message: string; cause?: 'context' }
  /** A step of the worker's start (epoch ms), for the page's User Timing (`raidmap:render-*`). */
  | { type: 'mark'; name: RenderMark; at: number };

/**
 * The steps of the render worker's start that it marks: its script evaluated, the page's start
 * received, the WebGL context made, the renderer started (shaders compiled), the icons in, the
 * scene made, the first markers, the first frame, ready.
 */
export type RenderMark = 'script' | 'start' | 'context' | 'renderer' | 'atlas' | 'scene' | 'markers' | 'first-frame' | 'ready';

/**
 * Adds `op` to `queue`, replacing the last op where the new one makes it moot: the same
 * marker's upsert again (a drag: its label change and filter state are kept), a new preview, hover, shape set or
 * size. Only the queue's last op is replaced, so ops keep their order relative to others.
 */
export function coalesce(queue: SceneOp[], op: SceneOp): void {
  const last = queue[queue.length - 1];
  if (last && last.op === op.op) {
    switch (op.op) {
      case 'upsert': {
        const prev = last as Extract<SceneOp, { op: 'upsert' }>;
        if (prev.index === op.index && prev.row.uid === op.row.uid) {
          queue[queue.length - 1] = { ...op, passes: op.passes ?? prev.passes, labelChanged: op.labelChanged || prev.labelChanged };
          return;
        }
        break;
      }
      case 'preview':
      case 'hovered':
      case 'flags':
      case 'shapes':
      case 'resize':
      case 'labelMode':
        queue[queue.length - 1] = op;
        return;
      case 'player': {
        // A ping asked for is kept when the next update is not a ping.
        const prev = last as Extract<SceneOp, { op: 'player' }>;
        queue[queue.length - 1] = { ...op, ping: op.ping || prev.ping };
        return;
      }
      default:
        break;
    }
  }
  queue.push(op);
}
