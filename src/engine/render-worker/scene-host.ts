/**
 * The render worker's side (docs/ENGINE-WORKER.md): PixiJS on the page's transferred canvas,
 * the tiles (fetched and decoded here), a marker placement of its own fed by the same calls as
 * the page's (so the sprites drawn here are the markers the page hit-tests), labels, shapes and
 * the player. It draws the last camera the page sent, on its own animation frames.
 *
 * Tiles are asked for as soon as the page says which map; the renderer starts meanwhile; the
 * scene is made once the icons are in, and the page's calls that came before are applied then.
 */
import { EarlyTiles, firstViewBundle, firstViewTileUrls } from '../early-tiles';
import { BundledTileFetcher, browserBundleIo } from '../tile-bundle-fetch';
import type { IconAtlas } from '../icon-atlas';
import { fetchImageBitmap } from '../tile-loader';
import { fetchIconAtlas, iconAtlasFromBitmap } from '../icon-atlas';
import type { ViewportSize } from '../kernels/camera';
import type { CameraView } from '../kernels/camera-view';
import { FrameLoop } from '../frame-loop';
import { MapScene } from '../map-scene';
import { MarkerPlacement } from '../marker-placement';
import { MarkerSprites } from '../marker-sprites';
import { startOffscreenRenderer, type EngineApp } from '../renderer-host';
import { tuneBatching, warmUp } from '../renderer-tuning';
import { disposeStartedTiles, startTiles, type StartedTiles } from '../started-tiles';
import { applySceneOp } from './apply-op';
import type { FromRenderWorker, RenderFrame, RenderMark, RenderStart, SceneOp, ToRenderWorker } from './protocol';

export type Post = (message: FromRenderWorker) => void;

/** Epoch ms of this thread's `performance.now()` value `t`. */
function epoch(t: number): number {
  return performance.timeOrigin + t;
}

export class RenderSceneHost {
  private tiles: StartedTiles | null = null;
  private app: EngineApp | null = null;
  private placement: MarkerPlacement | null = null;
  private scene: MapScene | null = null;
  /** The page's frames that came before the scene existed, in order. */
  private readonly early: RenderFrame[] = [];
  private view: CameraView | null = null;
  private viewport: ViewportSize = { width: 1, height: 1 };
  private cameraChanged = true;
  private markersDirty = true;
  private readonly loop = new FrameLoop((now) => this.frame(now));
  private pageAtlas: ((atlas: IconAtlas) => void) | null = null;
  private disposed = false;

  private framesDrawn = 0;
  private markersMarked = false;

  constructor(private readonly post: Post) {}

  /** A step of the start, on the page's timeline. */
  mark(name: RenderMark): void {
    this.post({ type: 'mark', name, at: epoch(performance.now()) });
  }

  receive(message: ToRenderWorker): void {
    if (this.disposed) return;
    switch (message.type) {
      case 'start':
        this.mark('start');
        this.start(message).catch((error: unknown) => {
          this.post({ type: 'error', message: `the render worker could not start: ${error instanceof Error ? error.message : String(error)}` });
        });
        break;
      case 'frame':
        if (!this.scene) this.early.push(message);
        else this.take(message);
        break;
      case 'atlas':
        this.pageAtlas?.(iconAtlasFromBitmap(message.bitmap, message.failed, 'svg'));
        this.pageAtlas = null;
        break;
      case 'lose-context':
        this.scene?.simulateContextLoss(message.restoreAfterMs);
        break;
      case 'dispose':
        this.dispose();
        break;
    }
  }

  private async start(start: RenderStart): Promise<void> {
    const { map, width, height, dpr } = start;
    // Every tile of the first view is asked for at once, as the page's early tile worker does:
    // the browser fetches them while this thread starts WebGL (the loader, kept to a few
    // requests at a time, would start the next ones only between this thread's tasks). One
    // bundle where the server has one for it: fifty fetch() calls cost this thread about 100 ms
    // before its context (docs/PERFORMANCE.md, "Fourteenth session").
    const firstView = firstViewTileUrls(map, start.manifest, { width, height }, dpr, start.tileBase);
    const bundle = firstViewBundle(map, start.manifest, { width, height }, dpr, start.tileBase);
    const fetcher = bundle ? new BundledTileFetcher(bundle, fetchImageBitmap, browserBundleIo(start.manifest.format)) : { fetch: fetchImageBitmap, dispose: () => undefined };
    const early = new EarlyTiles(fetcher, map.id, firstView);
    this.tiles = startTiles({ map, manifest: start.manifest, tileBase: start.tileBase, tileBudgetBytes: start.tileBudgetBytes, earlyTiles: early, fetchWorker: false }, { width, height }, dpr);
    const atlas = this.loadAtlas(start.iconAtlasUrl);
    atlas.catch(() => undefined);
    const app = await startOffscreenRenderer(start.canvas, {
      antialias: false,
      resolution: dpr,
      width,
      height,
      backgroundColor: 0x161a1f,
      backgroundAlpha: start.transparent ? 0 : 1,
      skipExtensionImports: true,
    }, () => this.mark('context'));
    if (this.disposed) {
      app.destroy({ removeView: true }, { children: true });
      return;
    }
    this.app = app;
    tuneBatching(app);
    warmUp(app);
    this.mark('renderer');
    this.post({ type: 'started', renderer: 'webgl' });
    const icons = await atlas;
    this.mark('atlas');
    if (this.disposed) {
      icons.destroy();
      return;
    }
    const sprites = new MarkerSprites(icons);
    this.placement = new MarkerPlacement(map, sprites);
    this.scene = new MapScene(app, icons, this.placement, sprites, this.tiles, {
      map,
      labelScale: start.labelScale,
      invalidate: () => this.loop.invalidate(),
      failed: (message) => this.post({ type: 'error', message, cause: 'context' }),
    });
    this.mark('scene');
    for (const frame of this.early.splice(0)) this.take(frame);
    this.loop.invalidate();
  }

  /** The server's atlas PNG, else the page's drawing of the icons (asked for here). */
  private async loadAtlas(url: string | undefined): Promise<IconAtlas> {
    if (url) {
      try {
        return await fetchIconAtlas(url);
      } catch (error) {
        this.post({ type: 'need-atlas', reason: error instanceof Error ? error.message : String(error) });
      }
    } else {
      this.post({ type: 'need-atlas', reason: 'no atlas URL' });
    }
    return new Promise<IconAtlas>((resolve) => {
      this.pageAtlas = resolve;
    });
  }

  private take(frame: RenderFrame): void {
    for (const op of frame.ops) this.apply(op);
    this.view = frame.view;
    this.viewport = frame.viewport;
    if (frame.cameraChanged) this.cameraChanged = true;
    this.loop.invalidate();
  }

  private apply(op: SceneOp): void {
    const effect = applySceneOp(op, this.placement!, this.scene!);
    if (op.op === 'markers' && !this.markersMarked) {
      this.markersMarked = true;
      this.mark('markers');
    }
    if (effect === 'placement') this.markersDirty = true;
    else if (effect === 'size') this.cameraChanged = true;
  }

  private frame(now: number): boolean {
    const scene = this.scene;
    const placement = this.placement;
    const view = this.view;
    if (!scene || !placement || !view) return false;
    const t0 = performance.now();
    const cameraChanged = this.cameraChanged;
    this.cameraChanged = false;
    let placed = false;
    if (cameraChanged || this.markersDirty) {
      placement.update(view, this.viewport);
      this.markersDirty = false;
      placed = true;
    }
    const placing = performance.now() - t0;
    const drawn = scene.frame(now, view, this.viewport, cameraChanged, placed);
    if (this.framesDrawn++ === 0) this.mark('first-frame');
    if (drawn.ready) {
      placement.allowIdleWork();
      this.mark('ready');
    }
    const at = performance.now();
    this.post({
      type: 'drawn',
      updateMs: placing + drawn.updateMs,
      renderMs: drawn.renderMs,
      firstTileAt: drawn.firstTile ? epoch(at) : null,
      readyAt: drawn.ready ? epoch(at) : null,
    });
    return drawn.again;
  }

  private dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.loop.dispose();
    if (this.scene) {
      this.scene.dispose();
    } else {
      if (this.tiles) disposeStartedTiles(this.tiles);
      this.app?.destroy({ removeView: true }, { children: true });
    }
    this.placement?.dispose();
  }
}
