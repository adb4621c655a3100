/**
 * Where the map is drawn: `worker` (a render worker, the default, docs/ENGINE-WORKER.md) or
 * `main` (the page's main thread). `?render=main` or `?render=worker` in the page's address
 * chooses for that page; without it, `localStorage['raidmap.render']` chooses for the browser
 * (a developer's or a tester's switch: the end-to-end suite runs both ways with it). A browser
 * that cannot draw in a worker, or a tab where a render worker failed, draws on the main thread
 * whatever this says (`renderWorkerSupported`).
 */
import { renderModeOf, type RenderMode } from '../../domain/render-mode';

const RENDER_MODE_KEY = 'raidmap.render';

/** How this page draws its map (`?render=`, else the browser's stored choice). */
export function pageRenderMode(): RenderMode {
  return renderModeOf(typeof location === 'undefined' ? '' : location.search, storedRenderMode());
}

function storedRenderMode(): string | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage.getItem(RENDER_MODE_KEY);
  } catch {
    return null; // storage blocked (a privacy setting): the default
  }
}
