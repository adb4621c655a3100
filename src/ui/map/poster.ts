/**
 * The map's poster (issue 11, the first second): the tiles of the map's first view as plain
 * images, shown as soon as the page's script runs, while the engine's chunk, WebGL and the
 * markers start (about a second on a slow laptop). The browser fetches and decodes them off the
 * main thread. Its tiles are the engine's first view one pyramid level coarser, placed by the
 * engine's own camera and tile math (engine/kernels/first-view.ts), so the engine's frame
 * replaces it without a jump. It takes no input (the map under it does) and is hidden from
 * assistive technology (the canvas carries the map's name).
 *
 * The map page's HTML usually has it already (server/http/map-poster.ts): the same tiles as
 * elements that a stylesheet places, painted in the page's first frame, before any script has
 * run. `showPoster` adopts that one where it covers the window (htmlPosterCovers) and draws its
 * own elsewhere.
 *
 * Life: `showPoster` (earlyLoad, from the manifest in the page's head) puts it in the body; the
 * map page adopts it above its canvas and below its panels (`adoptPoster`); it fades out when the
 * engine is ready or the view first moves (`dismissPoster`), and goes at once when the page leaves.
 */
import { tileBase } from '../../api/tiles';
import type { MapDefinition } from '../../domain/maps';
import { HTML_POSTER_CLASS, POSTER_TIMING, tilePath, type TileManifest } from '../../domain/tiles';
import { htmlPosterCovers, posterTiles } from '../../engine/kernels/first-view';

export { POSTER_TIMING };

const FADE_MS = 150;

interface Painted {
  mapId: string;
  /** ms from navigation start when a poster tile was first painted, null until then. */
  at: number | null;
  observer: PerformanceObserver | null;
}

interface Poster {
  element: HTMLDivElement;
  painted: Painted;
}

let poster: Poster | null = null;
/** The last poster's paint record: kept after it is gone (the entries may come later), for `posterPaintedAt`. */
let painted: Painted | null = null;

interface ElementTiming extends PerformanceEntry {
  identifier: string;
  renderTime: number;
  loadTime: number;
}

/** Records when the first poster tile is painted (Element Timing; else decode + next frame). */
function watchPaint(p: Painted, images: HTMLImageElement[]): void {
  const supported = typeof PerformanceObserver === 'function' && (PerformanceObserver.supportedEntryTypes ?? []).includes('element');
  if (supported) {
    p.observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as ElementTiming[]) {
        if (entry.identifier !== POSTER_TIMING) continue;
        const at = entry.renderTime || entry.loadTime;
        if (at > 0 && (p.at === null || at < p.at)) p.at = at;
      }
    });
    p.observer.observe({ type: 'element', buffered: true });
    return;
  }
  // Without Element Timing: the frame after the image is decoded, near enough.
  const painted = () =>
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        const at = performance.now();
        if (p.at === null || at < p.at) p.at = at;
      }),
    );
  for (const img of images) {
    if (typeof img.decode === 'function') img.decode().then(painted, () => undefined);
    else img.addEventListener('load', painted, { once: true });
  }
}

function startWatching(mapId: string, element: HTMLDivElement, images: HTMLImageElement[]): void {
  painted?.observer?.disconnect();
  painted = { mapId, at: null, observer: null };
  poster = { element, painted };
  watchPaint(painted, images);
}

/** Removes the poster of the page's HTML, if it is there: the page shows none, or its own. */
export function discardHtmlPoster(doc: Document = document): void {
  doc.querySelector(`.${HTML_POSTER_CLASS}`)?.remove();
}

/**
 * Shows the poster of `map`'s first view on a viewport of the window's size: the one in the
 * page's HTML where it is of this map and covers the window, else one of its own. Does nothing
 * when one is already shown or the view has no tiles. Returns whether it showed one.
 */
export function showPoster(map: MapDefinition, manifest: TileManifest, doc: Document = document): boolean {
  if (poster || !doc.body) return false;
  const win = doc.defaultView ?? window;
  const viewport = { width: win.innerWidth, height: win.innerHeight };
  const dpr = win.devicePixelRatio || 1;
  const html = doc.querySelector<HTMLDivElement>(`.${HTML_POSTER_CLASS}`);
  if (html && html.dataset.map === map.id && html.childElementCount > 0 && htmlPosterCovers(viewport, dpr)) {
    startWatching(map.id, html, []);
    return true;
  }
  html?.remove();
  const tiles = posterTiles(map, manifest, viewport, dpr);
  if (tiles.length === 0) return false;
  const element = doc.createElement('div');
  element.className = 'map-poster';
  element.setAttribute('aria-hidden', 'true');
  element.dataset.map = map.id;
  const images: HTMLImageElement[] = [];
  for (const t of tiles) {
    const img = doc.createElement('img');
    img.alt = '';
    img.decoding = 'async';
    img.setAttribute('fetchpriority', 'high');
    img.setAttribute('elementtiming', POSTER_TIMING);
    img.draggable = false;
    img.style.left = `${t.left}px`;
    img.style.top = `${t.top}px`;
    img.style.width = `${t.width}px`;
    img.style.height = `${t.height}px`;
    if (t.opacity < 1) img.style.opacity = String(t.opacity);
    img.src = `${tileBase()}${tilePath(manifest, t.layer, t.z, t.x, t.y)}`;
    images.push(img);
    element.appendChild(img);
  }
  doc.body.appendChild(element);
  startWatching(map.id, element, images);
  return true;
}

/** Moves the poster of `mapId` into `slot` (the map page's layer above its canvas); false when there is none. */
export function adoptPoster(mapId: string, slot: HTMLElement): boolean {
  if (!poster || poster.painted.mapId !== mapId) return false;
  if (poster.element.parentElement !== slot) slot.appendChild(poster.element);
  return true;
}

/** Fades the poster out (or removes it at once): the engine's frame is there, or the page left. */
export function dismissPoster(options: { fade?: boolean } = {}): void {
  const p = poster;
  if (!p) return;
  poster = null;
  const remove = () => p.element.remove();
  if (!options.fade) return remove();
  p.element.classList.add('map-poster--gone');
  setTimeout(remove, FADE_MS + 50);
}

/** ms from navigation start when the poster of `mapId` was first painted; null when it was not (yet). */
export function posterPaintedAt(mapId: string): number | null {
  return painted?.mapId === mapId ? painted.at : null;
}

/** Whether a poster is up (tests). */
export function posterShown(): boolean {
  return poster !== null;
}
