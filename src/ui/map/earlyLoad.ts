/**
 * The first second (issue 11): on a `/map/{map}` address, what the map page needs is asked for
 * as soon as the app's script runs, before React's first render (a few hundred ms on a slow
 * machine): the engine chunk, the tile manifest, the compact marker list and the icon atlas. The
 * markers worker starts too, and parses the list as soon as it arrives, and so does the tile
 * worker, with the first view's tiles (engine/early-tiles.ts), so they overlap React's first
 * render and the engine chunk instead of following them. The map page takes each request once (`takeEarly`); a
 * page that does not take it (another map, another language) fetches its own, and an early
 * request nobody took is simply dropped.
 */
import { iconAtlasUrl } from '../../api/icons';
import { fetchCompactMarkers } from '../../api/markers';
import { fetchTileManifest, readInlineManifest, tileBase } from '../../api/tiles';
import type { Language } from '../../domain/marker';
import { getMap, type MapDefinition } from '../../domain/maps';
import { parseOverlayParams } from '../../domain/overlay';
import type { TileManifest } from '../../domain/tiles';
import type { MarkerLoadResult } from '../../../workers/markers';
import { startEarlyTiles, type EarlyTiles } from '../../engine/early-tiles';
import { renderWorkerSupported, startRender, type StartedRender } from '../../engine/render-worker/early-render';
import { loadEngineModule } from './engineModule';
import { pageRenderMode } from './renderMode';
import { createMarkerSource, type MarkerSource } from './markerSource';
import { discardHtmlPoster, showPoster } from './poster';
import { markStartup } from './startupMarks';

/** The markers worker, started early, and its load of the early compact list. */
export interface EarlyMarkers {
  source: MarkerSource;
  loaded: Promise<MarkerLoadResult>;
}

interface EarlyRequests {
  manifest: Map<string, Promise<TileManifest>>;
  compact: Map<string, Promise<ArrayBuffer>>;
  markers: Map<string, EarlyMarkers>;
  tiles: Map<string, EarlyTiles>;
  render: Map<string, StartedRender>;
}

/** How long an early markers worker waits to be taken before it is closed. */
const UNTAKEN_MS = 60_000;

const early: EarlyRequests = { manifest: new Map(), compact: new Map(), markers: new Map(), tiles: new Map(), render: new Map() };

const quiet = <T>(p: Promise<T>): Promise<T> => {
  p.catch(() => undefined); // observed by whoever takes it; never an unhandled rejection
  return p;
};

/**
 * Starts the map page's requests for `pathname` when it is a map's address; does nothing
 * otherwise. With the manifest in the page's head, the poster of the first view shows at once
 * (not on the stream overlay, whose canvas is see-through).
 */
export function startEarlyMapLoad(pathname: string, lang: Language, search = ''): void {
  const match = /^\/map\/([^/]+)\/?$/.exec(pathname);
  const map = match ? getMap(match[1]) : undefined;
  if (!map) return discardHtmlPoster();
  const mapId = map.id;
  loadEngineModule().then(() => markStartup('engine-loaded')).catch(() => undefined);
  const inline = readInlineManifest(mapId);
  early.manifest.set(mapId, inline ? Promise.resolve(inline) : quiet(fetchTileManifest(mapId)));
  if (inline && parseOverlayParams(search) === null) {
    showPoster(map, inline);
    // The stream overlay opens on the player, not on the first view: no early tiles there. A
    // map drawn in the render worker has that worker, started now, fetch and decode its tiles.
    const render = pageRenderMode() === 'worker' ? startFirstViewRender(map, inline) : null;
    if (render) {
      early.render.set(mapId, render);
      setTimeout(() => takeEarlyRender(mapId)?.dispose(), UNTAKEN_MS);
    }
    const tiles = render ? null : startFirstViewTiles(map, inline);
    if (tiles) {
      early.tiles.set(mapId, tiles);
      setTimeout(() => takeEarlyTiles(mapId)?.dispose(), UNTAKEN_MS);
    }
  } else {
    discardHtmlPoster();
  }
  const key = `${mapId}:${lang}`;
  const compact = quiet(fetchCompactMarkers(mapId, lang));
  const source = startMarkerSource();
  if (source) {
    early.markers.set(key, { source, loaded: quiet(compact.then((buffer) => source.load(buffer, mapId, lang))) });
    // Not taken (the page chose another language): the worker goes rather than idling on.
    setTimeout(() => takeEarlyMarkers(mapId, lang)?.source.dispose(), UNTAKEN_MS);
  } else {
    early.compact.set(key, compact);
  }
  preloadImage(iconAtlasUrl());
}

/** The tile worker with the first view's requests, on the window's viewport (as the poster); null where none can start. */
function startFirstViewTiles(map: MapDefinition, manifest: TileManifest): EarlyTiles | null {
  if (typeof window === 'undefined') return null;
  try {
    return startEarlyTiles(map, manifest, { width: window.innerWidth, height: window.innerHeight }, window.devicePixelRatio || 1, tileBase());
  } catch {
    return null;
  }
}

/** The render worker on the map's canvas, sized for the window (as the poster); null where none can start. */
function startFirstViewRender(map: MapDefinition, manifest: TileManifest): StartedRender | null {
  if (typeof window === 'undefined' || !renderWorkerSupported()) return null;
  try {
    return startRender({
      map,
      manifest,
      tileBase: tileBase(),
      iconAtlasUrl: iconAtlasUrl(),
      width: Math.max(1, window.innerWidth),
      height: Math.max(1, window.innerHeight),
      dpr: window.devicePixelRatio || 1,
    });
  } catch {
    return null;
  }
}

/** The markers worker, or undefined where none can start (the page then makes its own and says why). */
function startMarkerSource(): MarkerSource | undefined {
  try {
    return createMarkerSource();
  } catch {
    return undefined;
  }
}

/** Starts an image's download and decode; the engine's and the panels' later loads find it in the memory cache. */
function preloadImage(url: string): void {
  if (typeof Image === 'undefined') return;
  const img = new Image();
  img.decoding = 'async';
  img.src = url;
}

/** The early manifest request of a map, once (undefined when none was started or it was taken). */
export function takeEarlyManifest(mapId: string): Promise<TileManifest> | undefined {
  const p = early.manifest.get(mapId);
  early.manifest.delete(mapId);
  return p;
}

/** The early compact-list request of a map in a language, once. */
export function takeEarlyCompact(mapId: string, lang: Language): Promise<ArrayBuffer> | undefined {
  const key = `${mapId}:${lang}`;
  const p = early.compact.get(key);
  early.compact.delete(key);
  return p;
}

/**
 * The markers worker started early for a map in a language, with its load of the early compact
 * list, once (undefined when none was started or it was taken). The taker owns the source (and
 * disposes of it).
 */
export function takeEarlyMarkers(mapId: string, lang: Language): EarlyMarkers | undefined {
  const key = `${mapId}:${lang}`;
  const taken = early.markers.get(key);
  early.markers.delete(key);
  return taken;
}

/** The tile worker started early for a map, with its first-view requests, once (undefined when none was started or it was taken). The taker owns it. */
export function takeEarlyTiles(mapId: string): EarlyTiles | undefined {
  const taken = early.tiles.get(mapId);
  early.tiles.delete(mapId);
  return taken;
}

/** The render worker started early on a map's canvas, once (undefined when none was started or it was taken). The taker owns it. */
export function takeEarlyRender(mapId: string): StartedRender | undefined {
  const taken = early.render.get(mapId);
  early.render.delete(mapId);
  return taken;
}
