/**
 * What a map page's HTML carries in its head (issue 11, the first second): its tile manifest,
 * as a JSON data block, and the engine's chunks to preload (module-preloads.ts). The page then has the manifest as soon as its script runs, instead of
 * asking for it and waiting for the main thread to be free to read the answer; with it, the
 * first view's tiles are requested at once (src/ui/map/poster.ts) and the engine starts sooner.
 * A data block is not executed, so the page's CSP (no inline scripts) is unchanged.
 */
import { MAPS, isMapId, type MapId } from '../../src/domain/maps';
import { parseOverlayParams } from '../../src/domain/overlay';
import type { TileManifest } from '../../src/domain/tiles';
import { INLINE_MANIFEST_ID } from '../../src/domain/tiles';
import { posterPreloads } from '../../src/engine/kernels/first-view';

/** JSON that cannot end the `<script>` element it sits in, nor start a comment there. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** The map id of a map page's path (`/map/customs`, `/map/customs/`), or null. */
export function mapIdOfPage(urlPath: string): string | null {
  const match = /^\/map\/([^/]+)\/?$/.exec(urlPath);
  if (!match) return null;
  let id: string;
  try {
    id = decodeURIComponent(match[1]);
  } catch {
    return null;
  }
  return isMapId(id) ? id : null;
}

const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * Preload links for the poster's tiles (src/engine/kernels/first-view.ts posterPreloads), each
 * for the windows whose poster shows it: the browser asks for them while it parses the HTML,
 * about 300 ms before the page's script would (docs/PERFORMANCE.md, "Sixth session"). The
 * image the poster then makes finds its tile in the browser's memory cache.
 */
export function posterPreloadLinks(mapId: MapId, manifest: TileManifest): string {
  return posterPreloads(MAPS[mapId], manifest)
    .map(({ path, media }) => `<link rel="preload" as="image" href="${attribute(path)}" media="${attribute(media)}" fetchpriority="high">`)
    .join('');
}

/**
 * The extra head of a page at `urlPath` (`search`: its query): on a known map's page, the
 * manifest block where the manifest can be had now (`manifestOf`; none without tiles), the
 * poster's tile preloads (not on the stream overlay, which shows no poster) and the engine's
 * modulepreload links (`preloads`, module-preloads.ts); '' on other pages (the page then fetches
 * what it needs, as before).
 */
export function mapPageHead(manifestOf: ((mapId: string) => Promise<TileManifest | undefined>) | undefined, preloads: () => string = () => '') {
  // One set of poster links per map and tile version: the same for every request until the art changes.
  const posterLinks = new Map<string, string>();
  return async (urlPath: string, search = ''): Promise<string> => {
    const mapId = mapIdOfPage(urlPath) as MapId | null;
    if (!mapId) return '';
    const manifest = manifestOf ? await manifestOf(mapId).catch(() => undefined) : undefined;
    if (!manifest) return preloads();
    const block = `<script type="application/json" id="${INLINE_MANIFEST_ID}">${scriptSafeJson(manifest)}</script>`;
    let links = '';
    if (parseOverlayParams(search) === null) {
      const key = `${mapId}:${manifest.version}`;
      links = posterLinks.get(key) ?? posterPreloadLinks(mapId, manifest);
      posterLinks.set(key, links);
    }
    return `${block}${links}${preloads()}`;
  };
}
