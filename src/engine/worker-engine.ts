/**
 * `createMapEngine` for a map drawn in the render worker (docs/ENGINE-WORKER.md): the page keeps
 * the camera, input, tools and the placement the hit index reads (map-engine.ts), and hands the
 * canvas to a worker that runs PixiJS, fetches the tiles and draws (render-worker/). This chunk
 * has no PixiJS: the page's main thread neither loads nor starts it.
 *
 * The worker may have been started with the page (`options.earlyRender`, early-render.ts); else
 * it starts here. Where a browser has no OffscreenCanvas the map is drawn on the main thread as
 * before (index.ts); where the worker cannot start WebGL the engine's `failed` event says so, and
 * the tab's next map is drawn on the main thread.
 */
import { checkOptions } from './engine-options';
import { atlasWarning, drawSvgAtlasCanvas } from './icon-atlas-image';
import { MapEngine } from './map-engine';
import { MarkerPlacement } from './marker-placement';
import { rememberRenderWorkerFailed, renderWorkerSupported, startRender, type StartedRender } from './render-worker/early-render';
import { WorkerSceneDriver } from './render-worker/worker-scene';
import type { EngineOptions, MapEngineApi } from './types';

export type * from './types';
export { renderWorkerSupported };

async function mainThreadEngine(options: EngineOptions, reason: string): Promise<MapEngineApi> {
  console.warn(`raidmap: drawing the map on the main thread (${reason})`);
  const { createMapEngine } = await import('./index');
  return createMapEngine({ ...options, earlyRender: undefined });
}

/** The early worker when it is this map's, else a new one on the container's size. */
function renderFor(options: EngineOptions): StartedRender {
  const early = options.earlyRender;
  if (early && early.mapId === options.map.id) return early;
  early?.dispose();
  const { container } = options;
  return startRender({
    map: options.map,
    manifest: options.manifest,
    tileBase: options.tileBase ?? '',
    tileBudgetBytes: options.tileBudgetBytes,
    iconAtlasUrl: options.iconAtlasUrl,
    labelScale: options.labelScale,
    transparent: options.transparent,
    width: Math.max(1, Math.floor(container.clientWidth)),
    height: Math.max(1, Math.floor(container.clientHeight)),
    dpr: globalThis.devicePixelRatio || 1,
  });
}

export async function createMapEngine(options: EngineOptions): Promise<MapEngineApi> {
  checkOptions(options);
  if (!renderWorkerSupported()) return mainThreadEngine(options, 'no OffscreenCanvas in this browser, or a render worker failed in this tab');
  // The worker fetches and decodes its own tiles: the page's early requests are not needed.
  options.earlyTiles?.dispose();
  options = { ...options, earlyTiles: undefined };
  const { port, canvas, backlog } = renderFor(options).take();
  options.container.appendChild(canvas);
  const placement = new MarkerPlacement(options.map);
  // Returned at once, before the worker's renderer runs: the page gives it the markers and the
  // camera meanwhile, and the worker draws them as soon as it can. Should the worker fail, the
  // engine says so (its `failed` event) and this tab's next engine draws on the main thread.
  const surface = { canvas, dpr: globalThis.devicePixelRatio || 1, renderer: 'webgl' as const, placesLate: true };
  const engine = new MapEngine(surface, placement, options, (hooks) =>
    new WorkerSceneDriver(port, { ...hooks, failed: (message, cause) => {
      // A worker that failed draws on the main thread next time in this tab; a lost GPU
      // context is no fault of the worker's, and the next one gets a new context.
      if (cause === 'worker') rememberRenderWorkerFailed();
      hooks.failed(message, cause);
    } }, {
      canvas,
      backlog,
      drawAtlas: async () => {
        const { canvas: drawn, failed } = await drawSvgAtlasCanvas(options.iconUrl);
        return { bitmap: await createImageBitmap(drawn, { premultiplyAlpha: 'premultiply' }), failed };
      },
      onAtlasFallback: (reason) => {
        if (options.iconAtlasUrl) console.warn(atlasWarning(options.iconAtlasUrl, new Error(reason)));
      },
    }),
  );
  return engine;
}
