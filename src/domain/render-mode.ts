/**
 * Where a map page draws its map: `worker` (a render worker, the default, docs/ENGINE-WORKER.md)
 * or `main` (the page's main thread). `?render=main` or `?render=worker` in the page's address
 * chooses for that page; without it a stored choice (the page's `localStorage`, which the server
 * cannot see) chooses; else the worker. Pure: the page (src/ui/map/renderMode.ts) and the server
 * (which engine chunks a map page preloads) read the address alike.
 */
export type RenderMode = 'main' | 'worker';

function modeOf(value: string | null | undefined): RenderMode | null {
  return value === 'worker' || value === 'main' ? value : null;
}

/** The mode a page's query string asks for, else the stored one, else `worker`. */
export function renderModeOf(search: string, stored: string | null = null): RenderMode {
  return modeOf(new URLSearchParams(search).get('render')) ?? modeOf(stored) ?? 'worker';
}
