/**
 * The poster in the map page's HTML (issue 11, "the first map tiles visible within 0.5 s"): the
 * first view's tiles as elements of the page itself, placed and shown by a stylesheet of the
 * map's tile version, so the page's first frame paints them before any of its script has run.
 *
 * - The head preloads each tile for the windows whose poster shows it (`posterPreloadLinks`):
 *   the browser asks for them while it parses the HTML.
 * - The markup (`posterMarkup`) is one empty element per tile of every window the HTML is
 *   written for (posterPreloads: pixel ratios 1, 1.25, 1.5 and 2, up to 2560 × 1600 CSS px).
 * - The stylesheet (`posterStylesheet`, served at `posterStylesheetPath`) gives each element its
 *   tile as a background image, its place from the window's centre and its floor's opacity,
 *   under the media query of the windows whose poster shows it. A browser fetches the
 *   background image of a shown element only: each window asks for its own tiles, the same
 *   ones the head's preloads asked for.
 * - No inline style and no inline script: the page's CSP is unchanged. The stylesheet is
 *   versioned with the tiles and cached as long as they are.
 *
 * The page's script adopts the element as its poster (src/ui/map/poster.ts) where it covers the
 * window, and draws its own elsewhere (another pixel ratio, a larger window).
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { MAPS, isMapId, type MapId } from '../../src/domain/maps';
import { HTML_POSTER_CLASS, POSTER_TIMING, type TileManifest } from '../../src/domain/tiles';
import { posterPreloads, type PosterPreload } from '../../src/engine/kernels/first-view';
import { sendError } from './errors';
import { negotiateEncoding } from './json-cache';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

type ManifestOf = (mapId: string) => Promise<TileManifest | undefined>;

/** Where the poster stylesheet of a map's tile version is served. */
export function posterStylesheetPath(manifest: Pick<TileManifest, 'map' | 'version'>): string {
  return `/tiles/${encodeURIComponent(manifest.map)}/${encodeURIComponent(manifest.version)}/poster.css`;
}

/** A CSS length in px, to a thousandth (the engine does not round; the poster need not be finer). */
const px = (value: number) => `${Number(value.toFixed(3))}px`;
const fromCentre = (value: number) => `calc(50% + ${px(value)})`;
/** A `url()` of a tile path (tilePath: map ids, versions and layer ids, digits): quoted, nothing to escape but a quote or backslash. */
const cssUrl = (path: string) => `url("${path.replace(/["\\\n]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `)}")`;

/** The poster's stylesheet: every tile's rule under the media query of the windows that show it. */
export function posterStylesheet(tiles: readonly PosterPreload[]): string {
  const scope = `.${HTML_POSTER_CLASS}`;
  const rulesByMedia = new Map<string, string[]>();
  tiles.forEach((t, i) => {
    const declarations = [
      'display:block',
      `left:${fromCentre(t.fromCentreLeft)}`,
      `top:${fromCentre(t.fromCentreTop)}`,
      `width:${px(t.width)}`,
      `height:${px(t.height)}`,
      `background-image:${cssUrl(t.path)}`,
      ...(t.opacity < 1 ? [`opacity:${Number(t.opacity.toFixed(3))}`] : []),
    ];
    const rules = rulesByMedia.get(t.media) ?? [];
    rules.push(`${scope}>.t${i}{${declarations.join(';')}}`);
    rulesByMedia.set(t.media, rules);
  });
  // The image a pixel larger than its box: the browser snaps the box to whole pixels but sizes
  // a background from the unsnapped size, so at 100 % a fractional tile leaves a seam of the
  // poster's dark background along its right and lower edges (seen at 1 dppx).
  const base = `${scope}>span{display:none;position:absolute;background-size:calc(100% + 1px) calc(100% + 1px);background-repeat:no-repeat}`;
  const blocks = [...rulesByMedia].map(([media, rules]) => `@media ${media}{${rules.join('')}}`);
  return `${[base, ...blocks].join('\n')}\n`;
}

const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * Preload links for the poster's tiles, each for the windows whose poster shows it: the browser
 * asks for them while it parses the HTML, before it has the stylesheet that shows them, and
 * about 300 ms before the page's script would (docs/PERFORMANCE.md, "Sixth session").
 */
export function posterPreloadLinks(tiles: readonly PosterPreload[]): string {
  return tiles.map(({ path, media }) => `<link rel="preload" as="image" href="${attribute(path)}" media="${attribute(media)}" fetchpriority="high">`).join('');
}

/** The poster's markup: one element per tile, in the stylesheet's order (floors bottom first). */
export function posterMarkup(mapId: MapId, tiles: readonly PosterPreload[]): string {
  const spans = tiles.map((_, i) => `<span class="t${i}" elementtiming="${POSTER_TIMING}"></span>`).join('');
  return `<div class="map-poster ${HTML_POSTER_CLASS}" aria-hidden="true" data-map="${mapId}">${spans}</div>`;
}

/** The poster of a map's tile version: what the page's head and body carry, and its stylesheet; made once per version. */
export interface HtmlPoster {
  /** For the page's head: the tiles' preloads and the stylesheet's link. */
  head: string;
  stylesheetPath: string;
  stylesheet: string;
  /** The stylesheet compressed, once per encoding on first request (it blocks the page's first paint: ~70 KB as text, a few KB compressed). */
  encoded: (encoding: 'br' | 'gzip') => Promise<Buffer>;
  markup: string;
}

export function htmlPoster(mapId: MapId, manifest: TileManifest): HtmlPoster {
  const tiles = posterPreloads(MAPS[mapId], manifest);
  const stylesheet = posterStylesheet(tiles);
  const encoded = new Map<'br' | 'gzip', Promise<Buffer>>();
  const stylesheetPath = posterStylesheetPath(manifest);
  return {
    head: `${posterPreloadLinks(tiles)}<link rel="stylesheet" href="${attribute(stylesheetPath)}">`,
    stylesheetPath,
    stylesheet,
    encoded: (encoding) => {
      let body = encoded.get(encoding);
      if (!body) {
        body = encoding === 'br' ? brotli(stylesheet, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }) : gzip(stylesheet, { level: 9 });
        encoded.set(encoding, body);
      }
      return body;
    },
    markup: posterMarkup(mapId, tiles),
  };
}

/** The HTML poster of a map's current tiles, made once per map and tile version, kept for the current version only. */
export type HtmlPosters = (mapId: MapId) => Promise<(HtmlPoster & { manifest: TileManifest }) | undefined>;

export function htmlPosters(manifestOf: ManifestOf): HtmlPosters {
  // One per map: its current tile version's (a new version replaces the old one's).
  const made = new Map<MapId, { version: string; poster: HtmlPoster }>();
  return async (mapId) => {
    const manifest = await manifestOf(mapId).catch(() => undefined);
    if (!manifest) return undefined;
    let entry = made.get(mapId);
    if (entry?.version !== manifest.version) {
      entry = { version: manifest.version, poster: htmlPoster(mapId, manifest) };
      made.set(mapId, entry);
    }
    return { ...entry.poster, manifest };
  };
}

/** What a tile version looks like (server/tiles/store.ts versionOf: 12 hex digits of a SHA-256). */
const TILE_VERSION = /^[0-9a-f]{12}$/;

/**
 * `GET /tiles/{map}/{version}/poster.css`: the poster stylesheet of the map's current tile
 * version, public and immutable like the tiles, in the encoding the client accepts.
 *
 * Another version (the drawing was replaced after the page's HTML was written: a page served
 * just before, or one a browser shows again from its cache) is redirected to the current
 * version's stylesheet, `no-store`: that page's poster then paints the new drawing's first view
 * (the same places: one pyramid), where a 404 left it blank until the engine's first frame,
 * which switches to the new version by itself (docs/TILES.md). 404 for an unknown map, a string
 * that is no version, or a map whose tiles cannot be had.
 */
export function registerPosterStylesheet(app: FastifyInstance, posterOf: HtmlPosters): void {
  app.get<{ Params: { map: string; version: string } }>('/tiles/:map/:version/poster.css', async (req, reply) => {
    const { map, version } = req.params;
    if (!isMapId(map)) return sendError(reply, 404, `unknown map ${JSON.stringify(map.slice(0, 64))}`);
    const poster = await posterOf(map);
    if (!poster) return sendError(reply, 404, `no tiles for ${map}`);
    if (poster.manifest.version !== version) {
      if (!TILE_VERSION.test(version)) return sendError(reply, 404, `${map}'s tiles are not version ${JSON.stringify(version.slice(0, 64))}`);
      return reply.code(302).header('location', poster.stylesheetPath).header('cache-control', 'no-store').send();
    }
    const encoding = negotiateEncoding(req.headers['accept-encoding']);
    reply.header('content-type', 'text/css; charset=utf-8').header('cache-control', 'public, max-age=31536000, immutable').header('vary', 'Accept-Encoding');
    if (encoding === 'identity') return reply.send(poster.stylesheet);
    return reply.header('content-encoding', encoding).send(await poster.encoded(encoding));
  });
}
