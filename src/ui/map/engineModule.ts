/**
 * The engine (PixiJS) and the interaction tools are loaded as their own chunks: the home page
 * never pays for them, and the map page starts fetching them at mount, in parallel with the
 * tile manifest and the marker list. (PixiJS's canvas probe, which read pixels back as the chunk
 * evaluated, waits for first use in a build: scripts/vite/pixi-lazy-canvas-probe.ts.)
 */

type EngineModule = typeof import('../../engine/index') & { tools: typeof import('../../tools/index') };

let pending: Promise<EngineModule> | null = null;

export function loadEngineModule(): Promise<EngineModule> {
  if (!pending) {
    pending = Promise.all([import('../../engine/index'), import('../../tools/index')])
      .then(([engine, tools]) => ({ ...engine, tools }))
      .catch((error: unknown) => {
        // A failed chunk load (network blip, new deploy) may succeed on "Try again".
        pending = null;
        throw error;
      });
  }
  return pending;
}
