/**
 * The first second (issue 11): on a `/map/{map}` address, what the map page needs is asked for
 * as soon as the app's script runs, before React's first render (a few hundred ms on a slow
 * machine): the engine chunk, the tile manifest, the compact marker list and the icon atlas. The map page takes
 * each request once (`takeEarly`); a page that does not take it (another map, another language)
 * fetches its own, and an early request nobody took is simply dropped.
 */
import { iconAtlasUrl } from '../../api/icons';
import { fetchCompactMarkers } from '../../api/markers';
import { fetchTileManifest, readInlineManifest } from '../../api/tiles';
import type { Language } from '../../domain/marker';
import { getMap } from '../../domain/maps';
import { parseOverlayParams } from '../../domain/overlay';
import type { TileManifest } from '../../domain/tiles';
import { loadEngineModule } from './engineModule';
import { showPoster } from './poster';

interface EarlyRequests {
  manifest: Map<string, Promise<TileManifest>>;
  compact: Map<string, Promise<ArrayBuffer>>;
}

const early: EarlyRequests = { manifest: new Map(), compact: new Map() };

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
  if (!map) return;
  const mapId = map.id;
  loadEngineModule().catch(() => undefined);
  const inline = readInlineManifest(mapId);
  early.manifest.set(mapId, inline ? Promise.resolve(inline) : quiet(fetchTileManifest(mapId)));
  if (inline && parseOverlayParams(search) === null) showPoster(map, inline);
  early.compact.set(`${mapId}:${lang}`, quiet(fetchCompactMarkers(mapId, lang)));
  preloadImage(iconAtlasUrl());
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
