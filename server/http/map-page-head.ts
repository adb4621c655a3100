/**
 * What a map page's HTML carries in its head (issue 11, the first second): its tile manifest,
 * as a JSON data block, and the engine's chunks to preload (module-preloads.ts). The page then has the manifest as soon as its script runs, instead of
 * asking for it and waiting for the main thread to be free to read the answer; with it, the
 * first view's tiles are requested at once (src/ui/map/poster.ts) and the engine starts sooner.
 * A data block is not executed, so the page's CSP (no inline scripts) is unchanged.
 */
import { isMapId } from '../../src/domain/maps';
import type { TileManifest } from '../../src/domain/tiles';
import { INLINE_MANIFEST_ID } from '../../src/domain/tiles';

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

/**
 * The extra head of a page at `urlPath`: on a known map's page, the manifest block where the
 * manifest can be had now (`manifestOf`; none without tiles) and the engine's modulepreload links
 * (`preloads`, module-preloads.ts); '' on other pages (the page then fetches what it needs, as before).
 */
export function mapPageHead(manifestOf: ((mapId: string) => Promise<TileManifest | undefined>) | undefined, preloads: () => string = () => '') {
  return async (urlPath: string): Promise<string> => {
    const mapId = mapIdOfPage(urlPath);
    if (!mapId) return '';
    const manifest = manifestOf ? await manifestOf(mapId).catch(() => undefined) : undefined;
    const block = manifest ? `<script type="application/json" id="${INLINE_MANIFEST_ID}">${scriptSafeJson(manifest)}</script>` : '';
    return `${block}${preloads()}`;
  };
}
