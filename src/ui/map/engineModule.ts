/**
 * The engine (PixiJS) is loaded as its own chunk: the home page never pays for it, and the map
 * page starts fetching it at mount, in parallel with the tile manifest and the marker list.
 */
type EngineModule = typeof import('../../engine/index');

let pending: Promise<EngineModule> | null = null;

export function loadEngineModule(): Promise<EngineModule> {
  if (!pending) {
    pending = import('../../engine/index').catch((error: unknown) => {
      // A failed chunk load (network blip, new deploy) may succeed on "Try again".
      pending = null;
      throw error;
    });
  }
  return pending;
}
