/**
 * The page's side of a worker-drawn scene: the engine's driver calls become ops, queued and
 * sent once per animation frame with the camera; what the worker drew comes back as the
 * engine's hooks. No PixiJS.
 */
import type { MarkerColumns, MarkerRow } from '../../domain/marker-columns';
import type { LabelMode } from '../../domain/settings';
import type { DrawnShape, Handle } from '../../domain/shapes';
import type { ViewportSize } from '../kernels/camera';
import type { CameraView } from '../kernels/camera-view';
import type { SceneDriver, SceneHooks } from '../scene-driver';
import type { FlaggedSlot, PlayerMarker } from '../types';
import { coalesce, type FromRenderWorker, type SceneOp, type ToRenderWorker } from './protocol';

/** What the driver needs of a Worker (a test gives a fake). */
export interface RenderPort {
  postMessage(message: ToRenderWorker, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent<FromRenderWorker>) => void) | null;
  onerror?: ((event: ErrorEvent) => void) | null;
  terminate(): void;
}

export interface WorkerSceneOptions {
  /** The canvas element whose control went to the worker: its CSS size follows the map's. */
  canvas: { style: { width: string; height: string }; remove(): void };
  /** The worker could not use the atlas PNG: draw the icons here (ImageBitmap) and send them. */
  drawAtlas: () => Promise<{ bitmap: ImageBitmap; failed: string[] }>;
  /** The worker said why it could not use the atlas PNG (before asking for the page's drawing). */
  onAtlasFallback?: (reason: string) => void;
  /** The worker's renderer runs. */
  onStarted?: () => void;
  /** What the worker said before this driver listened (an early render worker's messages). */
  backlog?: readonly FromRenderWorker[];
}

export class WorkerSceneDriver implements SceneDriver {
  private queue: SceneOp[] = [];
  private disposed = false;
  private failed = false;

  constructor(
    private readonly port: RenderPort,
    private readonly hooks: SceneHooks,
    private readonly options: WorkerSceneOptions,
  ) {
    port.onmessage = (event) => this.receive(event.data);
    port.onerror = (event) => {
      event.preventDefault?.();
      this.fail(`the render worker failed: ${event.message || 'its script did not load'}`);
    };
    for (const message of options.backlog ?? []) this.receive(message);
  }

  /** Ops waiting for the next frame (tests). */
  get pending(): readonly SceneOp[] {
    return this.queue;
  }

  setMarkers(columns: MarkerColumns): void {
    this.push({ op: 'markers', columns });
  }

  setFilter(indices: Uint32Array): void {
    this.push({ op: 'filter', indices });
  }

  upsertMarker(index: number, row: MarkerRow, passes: boolean | undefined, labelChanged: boolean): void {
    this.push({ op: 'upsert', index, row: { ...row }, passes, labelChanged });
  }

  removeMarker(index: number): void {
    this.push({ op: 'remove', index });
  }

  setLabels(labels: readonly string[]): void {
    this.push({ op: 'labels', labels });
  }

  setLevel(num: number): void {
    this.push({ op: 'level', num });
  }

  setMarkerScale(scale: number): void {
    this.push({ op: 'scale', scale });
  }

  setPlayer(player: PlayerMarker | null, ping: boolean): void {
    this.push({ op: 'player', player: player ? { ...player } : null, ping });
  }

  setLabelMode(mode: LabelMode): void {
    this.push({ op: 'labelMode', mode });
  }

  setSelected(index: number): void {
    this.push({ op: 'selected', index });
  }

  setKept(index: number): void {
    this.push({ op: 'kept', index });
  }

  setHovered(index: number): void {
    this.push({ op: 'hovered', index });
  }

  setFlags(flags: readonly FlaggedSlot[]): void {
    this.push({ op: 'flags', flags: flags.map((f) => ({ ...f })) });
  }

  setShapes(shapes: readonly DrawnShape[], selectedId: string | null, handles: readonly Handle[]): void {
    this.push({ op: 'shapes', shapes, selectedId, handles });
  }

  setPreview(shape: DrawnShape | null): void {
    this.push({ op: 'preview', shape });
  }

  simulateContextLoss(restoreAfterMs: number | null): void {
    if (!this.disposed) this.port.postMessage({ type: 'lose-context', restoreAfterMs });
  }

  resize(width: number, height: number): void {
    this.options.canvas.style.width = `${width}px`;
    this.options.canvas.style.height = `${height}px`;
    this.push({ op: 'resize', width, height });
  }

  frame(_now: number, view: CameraView, viewport: ViewportSize, cameraChanged: boolean, _placed?: boolean): boolean {
    if (this.disposed) return false;
    const ops = this.queue;
    this.queue = [];
    try {
      this.port.postMessage({ type: 'frame', ops, view, viewport, cameraChanged });
    } catch (error) {
      // Something in an op that cannot be cloned (a function in a shape): say so, keep the page.
      this.fail(`a frame could not be sent to the render worker: ${error instanceof Error ? error.message : String(error)}`);
    }
    return false;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.port.onmessage = null;
    this.port.postMessage({ type: 'dispose' });
    // Terminating frees the worker's GPU context whether or not it got to the message.
    this.port.terminate();
    this.options.canvas.remove();
  }

  /** The scene cannot draw: the console and the engine hear why (once). */
  private fail(message: string, cause: 'worker' | 'context' = 'worker'): void {
    if (this.failed || this.disposed) return;
    this.failed = true;
    console.error(`raidmap: ${message}`);
    this.hooks.failed(message, cause);
  }

  private push(op: SceneOp): void {
    if (!this.disposed) coalesce(this.queue, op);
  }

  private receive(message: FromRenderWorker): void {
    if (this.disposed) return;
    switch (message.type) {
      case 'drawn':
        this.hooks.drawn(message.updateMs, message.renderMs);
        if (message.firstTileAt !== null) this.hooks.firstTile(message.firstTileAt - performance.timeOrigin);
        if (message.readyAt !== null) this.hooks.ready();
        break;
      case 'need-atlas':
        this.options.onAtlasFallback?.(message.reason);
        this.options
          .drawAtlas()
          .then(({ bitmap, failed }) => {
            if (this.disposed) bitmap.close();
            else this.port.postMessage({ type: 'atlas', bitmap, failed }, [bitmap]);
          })
          .catch((error: unknown) => this.fail(`the icons could not be drawn: ${error instanceof Error ? error.message : String(error)}`));
        break;
      case 'error':
        this.fail(message.message, message.cause);
        break;
      case 'started':
        this.options.onStarted?.();
        break;
      case 'mark':
        markRenderStep(message.name, message.at - performance.timeOrigin);
        break;
    }
  }
}

/** The worker's step on the page's User Timing, where it has one (DevTools shows it with the page's own marks). */
function markRenderStep(name: string, startTime: number): void {
  try {
    performance.mark(`raidmap:render-${name}`, { startTime: Math.max(0, startTime) });
  } catch {
    // no User Timing Level 3 (an old browser): nothing to show
  }
}
