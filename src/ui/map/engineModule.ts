/**
 * The engine (PixiJS) and the interaction tools are loaded as their own chunks: the home page
 * never pays for them, and the map page starts fetching them at mount, in parallel with the
 * tile manifest and the marker list. (PixiJS's canvas probe, which read pixels back as the chunk
 * evaluated, waits for first use in a build: scripts/vite/pixi-lazy-canvas-probe.ts.)
 *
 * By default the map is drawn in a render worker (renderMode.ts, docs/ENGINE-WORKER.md): the
 * page then loads the engine's chunk without PixiJS, and the worker loads PixiJS. A browser that
 * cannot (no OffscreenCanvas, or a render worker failed in this tab) or `?render=main` loads the
 * main-thread engine straight away.
 */
import { renderWorkerSupported } from '../../engine/render-worker/early-render';
import { pageRenderMode } from './renderMode';

type EngineModule = Pick<typeof import('../../engine/index'), 'createMapEngine'> & { tools: typeof import('../../tools/index') };

/**
 * Each engine's import on its own: the build preloads a dynamic import's chunks before it runs
 * (Vite's preload helper, which waits for them), and one `import()` per expression keeps the
 * worker engine's list free of the main-thread engine and PixiJS. Written as one conditional
 * expression, the build gave both imports the union of their chunks, and a worker-drawn page
 * fetched and compiled the main-thread engine (616 KB of script) and waited for it before its
 * engine started (docs/PERFORMANCE.md, "Thirteenth session").
 */
const ENGINE_IMPORTS = {
  worker: () => import('../../engine/worker-engine'),
  main: () => import('../../engine/index'),
} satisfies Record<'worker' | 'main', () => Promise<Pick<EngineModule, 'createMapEngine'>>>;

/** One load per engine: a tab whose render worker failed loads the main-thread engine next, not the worker's again. */
const pending = new Map<'worker' | 'main', Promise<EngineModule>>();

export function loadEngineModule(): Promise<EngineModule> {
  const mode = pageRenderMode() === 'worker' && renderWorkerSupported() ? 'worker' : 'main';
  let load = pending.get(mode);
  if (!load) {
    load = Promise.all([ENGINE_IMPORTS[mode](), import('../../tools/index')])
      .then(([{ createMapEngine }, tools]) => ({ createMapEngine, tools }))
      .catch((error: unknown) => {
        // A failed chunk load (network blip, new deploy) may succeed on "Try again".
        pending.delete(mode);
        throw error;
      });
    pending.set(mode, load);
  }
  return load;
}
