/**
 * What a map page's HTML carries (issue 11, the first second): in its head, its tile manifest
 * as a JSON data block, the icon atlas's version, the poster's tile preloads and stylesheet, and the engine's chunks to
 * preload for the page's render mode (module-preloads.ts); in its body, the poster (map-poster.ts). The page then has the manifest as soon as its script runs, instead of
 * asking for it and waiting for the main thread to be free to read the answer; with it, the
 * first view's tiles are requested at once (src/ui/map/poster.ts) and the engine starts sooner.
 * A data block is not executed, so the page's CSP (no inline scripts) is unchanged.
 */
import { isMapId, type MapId } from '../../src/domain/maps';
import { OVERLAY_DOCUMENT_CLASS, parseOverlayParams } from '../../src/domain/overlay';
import { renderModeOf, type RenderMode } from '../../src/domain/render-mode';
import { INLINE_MANIFEST_ID } from '../../src/domain/tiles';
import type { HtmlPosters } from './map-poster';
import type { PageExtras } from './static-site';

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
 * The extras of a page at `urlPath` (`search`: its query). On a known map's page: in the head,
 * the manifest block where the manifest can be had now (`posterOf`, map-poster.ts; none without tiles), the
 * icon atlas's version (`iconAtlasHead`, icon-atlas.ts: a `<meta>`, so the page asks for the
 * atlas under a URL of that version, cached for good; none until the atlas is drawn), the
 * poster's tile preloads and stylesheet, and the engine's modulepreload links (`preloads`,
 * module-preloads.ts); at the start of the body, the poster (map-poster.ts). The stream
 * overlay shows no poster: it gets neither, and `<html>` gets its see-through class. Other pages get nothing (they fetch what they need).
 */
export function mapPageExtras(
  posterOf: HtmlPosters | undefined,
  preloadsFor: (mode: RenderMode) => string = () => '',
  iconAtlasHead: () => Promise<string> = async () => '',
) {
  const none: PageExtras = { head: '', body: '' };
  return async (urlPath: string, search = ''): Promise<PageExtras> => {
    const mapId = mapIdOfPage(urlPath) as MapId | null;
    if (!mapId) return none;
    // The engine the page will load for its address (a choice stored in the browser is not seen here).
    const preloads = preloadsFor(renderModeOf(search));
    const overlay = parseOverlayParams(search) !== null;
    // The overlay is see-through from its first paint (OBS would show the page's dark background
    // until the app marks it): the class is in the HTML, no script needed.
    const htmlClass = overlay ? OVERLAY_DOCUMENT_CLASS : undefined;
    const [poster, atlas] = await Promise.all([posterOf ? posterOf(mapId) : undefined, iconAtlasHead().catch(() => '')]);
    if (!poster) return { head: `${atlas}${preloads}`, body: '', htmlClass };
    const { manifest } = poster;
    const block = `<script type="application/json" id="${INLINE_MANIFEST_ID}">${scriptSafeJson(manifest)}</script>`;
    if (overlay) return { head: `${block}${atlas}${preloads}`, body: '', htmlClass };
    return { head: `${block}${atlas}${poster.head}${preloads}`, body: poster.markup };
  };
}
