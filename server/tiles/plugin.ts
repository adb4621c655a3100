/**
 * HTTP routes for tiles:
 *   GET /tiles/:map/manifest.json                          → TileManifest (Cache-Control: no-cache)
 *   GET /tiles/:map/:version/:layer/:z/:x/:y.:format        → the tile (immutable for a year)
 *   GET /tiles/:map/:version/bundle/:layers/:z/:x0-:x1/:y0-:y1.bin → the tiles of a rectangle of a
 *       prebuilt level, for one or more floors, in one body (src/domain/tile-bundle.ts; immutable
 *       when it holds every tile, else `no-store`: a tile it lacks is an empty entry, which the
 *       page then asks for on its own)
 * A tile not on disk yet is rendered on the spot and cached, so none is ever missing while
 * the background build runs. Errors are JSON `{ error, message }`: 400 for a malformed
 * address, 404 for an unknown map, layer, version or a tile outside the pyramid, 500 when a
 * tile could not be made (resvg crashed preparing or rendering it: the server goes on) or the
 * map's drawing or map.json cannot be used. A 500 says why in a few words, never a path: the
 * log has the whole reason (a drawing's, once per change of its files: store.ts).
 * Closing the app stops the resvg child processes (render-pool.ts).
 *
 * Renders are limited per client address (render-limit.ts, TILE_RENDERS_PER_MINUTE): a request
 * over the limit for a tile not on disk gets the nearest cached parent tile, cut and scaled to
 * the tile (200, `Cache-Control: no-store`, `X-Tile-Fallback: z/x/y`, `Retry-After`), or when
 * none is on disk a 429 JSON with Retry-After. The stand-in is never stored under the real
 * tile's URL (by the browser or a proxy): the page asks for that URL again later
 * (src/engine/tile-layer.ts) and must then get the real tile. The on-demand levels are a cache with a size budget
 * (TILE_CACHE_MAX_MB, store.ts).
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { RenderLimiter } from './render-limit';
import { DEFAULT_TILE_RENDERS_PER_MINUTE } from './settings';
import { disposeRenderPool } from './render-pool';
import { getTileStore, publicSourceProblem, TILE_FORMAT, type TileCacheOptions } from './store';
import { bundleEntries, bundleSize, encodeTileBundle, MAX_BUNDLE_TILES, type TileRect } from '../../src/domain/tile-bundle';
import { tileGrid } from '../../src/domain/tiles';

export { DEFAULT_TILE_RENDERS_PER_MINUTE } from './settings';


export interface TilesPluginOptions {
  assetsDir: string;
  tilesDir: string;
  /** The on-demand cache's budget (default DEFAULT_TILE_CACHE_MAX_MB). */
  cache?: Partial<TileCacheOptions>;
  /**
   * Uncached renders per address: a limiter (tests inject one with a clock), or its settings
   * (default DEFAULT_TILE_RENDERS_PER_MINUTE a minute, bursts of as many).
   */
  renderLimit?: RenderLimiter | { perMinute: number; burst?: number };
}

export const TILE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/**
 * A stand-in from a parent tile: not stored at all. Its URL is the real tile's, which the page
 * asks for again (after Retry-After) and which is then cached for a year: a stand-in kept by a
 * cache would be served in its place.
 */
export const FALLBACK_CACHE_CONTROL = 'no-store';

const INTEGER = /^(0|[1-9]\d{0,5})$/;

function fail(reply: FastifyReply, status: 400 | 404 | 500, message: string) {
  const error = status === 400 ? 'Bad Request' : status === 404 ? 'Not Found' : 'Internal Server Error';
  return reply.code(status).header('cache-control', 'no-store').send({ error, message });
}

const SPAN = /^(0|[1-9]\d{0,5})-(0|[1-9]\d{0,5})$/;

interface BundleParams {
  map: string;
  version: string;
  layers: string;
  z: string;
  xs: string;
  file: string;
}

interface TileParams {
  map: string;
  version: string;
  layer: string;
  z: string;
  x: string;
  file: string;
}

export const tilesPlugin: FastifyPluginAsync<TilesPluginOptions> = async (app, opts) => {
  if (!opts?.assetsDir || !opts?.tilesDir) throw new Error('tilesPlugin needs { assetsDir, tilesDir }');
  const store = getTileStore({ assetsDir: opts.assetsDir, tilesDir: opts.tilesDir, cache: opts.cache ?? {} });
  // The store's lines (art reports, a drawing that cannot be used, the background build) as JSON, at LOG_LEVEL.
  store.useLog(app.log);
  const limiter = opts.renderLimit instanceof RenderLimiter ? opts.renderLimit : new RenderLimiter(opts.renderLimit ?? { perMinute: DEFAULT_TILE_RENDERS_PER_MINUTE });
  // The pool is process-wide; the next job after this starts new children.
  app.addHook('onClose', async () => {
    await disposeRenderPool();
  });

  app.get<{ Params: { map: string } }>('/tiles/:map/manifest.json', async (req, reply) => {
    try {
      const manifest = await store.manifest(req.params.map);
      if (!manifest) return fail(reply, 404, `unknown map "${req.params.map}"`);
      return reply.header('cache-control', 'no-cache').send(manifest);
    } catch (err) {
      // A drawing that cannot be used is logged by the store, whole, once per change of its files.
      if (!store.hasLogged(err)) req.log.error({ err }, 'tile manifest failed');
      return fail(reply, 500, publicSourceProblem(req.params.map, err));
    }
  });

  app.get<{ Params: BundleParams }>('/tiles/:map/:version/bundle/:layers/:z/:xs/:file', async (req, reply) => {
    const { map, version, layers: layerList, z, xs, file } = req.params;
    const ys = file.endsWith('.bin') ? file.slice(0, -'.bin'.length) : null;
    if (ys === null) return fail(reply, 404, `tile bundles are .bin, not "${file}"`);
    if (!INTEGER.test(z)) return fail(reply, 400, `bundle z must be a non-negative integer, got "${z}"`);
    const xSpan = SPAN.exec(xs);
    const ySpan = SPAN.exec(ys);
    if (!xSpan || !ySpan) return fail(reply, 400, `a bundle's columns and rows are "first-last" (e.g. 4-9), got "${xs}" and "${ys}"`);
    const range: TileRect = { z: Number(z), minX: Number(xSpan[1]), maxX: Number(xSpan[2]), minY: Number(ySpan[1]), maxY: Number(ySpan[2]) };
    if (range.minX > range.maxX || range.minY > range.maxY) return fail(reply, 400, `a bundle's first column and row come before its last, got "${xs}" and "${ys}"`);
    const layers = layerList.split(',');
    if (layers.some((l) => l === '') || new Set(layers).size !== layers.length) return fail(reply, 400, `a bundle's layers are distinct names joined by commas, got "${layerList}"`);
    const size = bundleSize(layers, range);
    if (size > MAX_BUNDLE_TILES) return fail(reply, 400, `a bundle holds at most ${MAX_BUNDLE_TILES} tiles, this one ${size}`);
    try {
      const manifest = await store.manifest(map);
      if (!manifest) return fail(reply, 404, `unknown map "${map}"`);
      if (version !== manifest.version) return fail(reply, 404, `version "${version}" of "${map}" is not current: read manifest.json`);
      const unknown = layers.find((l) => !manifest.layers.includes(l));
      if (unknown !== undefined) return fail(reply, 404, `map "${map}" has no layer "${unknown}"`);
      if (range.z < manifest.minZ || range.z > manifest.prebuiltMaxZ) {
        return fail(reply, 400, `bundles hold the prebuilt levels ${manifest.minZ}–${manifest.prebuiltMaxZ} only, not ${range.z}: ask for deeper tiles one by one`);
      }
      const grid = tileGrid(manifest.width, manifest.height, range.z);
      if (range.maxX >= grid.cols || range.maxY >= grid.rows) {
        return fail(reply, 404, `bundle ${xs}/${ys} reaches outside level ${range.z} of "${map}" (${grid.cols} columns, ${grid.rows} rows)`);
      }
      const tiles = await Promise.all(
        bundleEntries(layers, range).map(async (t) => {
          try {
            const found = await store.tile(map, version, t.layer, t, { mayRender: () => limiter.take(req.ip) });
            return found.status === 200 ? found.body : null;
          } catch (err) {
            req.log.error({ err }, `tile ${map}/${t.layer}/${t.z}/${t.x}/${t.y} of a bundle could not be rendered`);
            return null;
          }
        }),
      );
      const whole = tiles.every((t) => t !== null);
      return reply
        .header('content-type', 'application/octet-stream')
        .header('cache-control', whole ? TILE_CACHE_CONTROL : 'no-store')
        .send(Buffer.from(encodeTileBundle(tiles).buffer));
    } catch (err) {
      if (store.hasLogged(err)) return fail(reply, 500, publicSourceProblem(map, err));
      req.log.error({ err }, 'tile bundle failed');
      return fail(reply, 500, `the tile bundle of "${map}" could not be made (the server's log says why)`);
    }
  });

  app.get<{ Params: TileParams }>('/tiles/:map/:version/:layer/:z/:x/:file', async (req, reply) => {
    const { map, version, layer, z, x, file } = req.params;
    const dot = file.lastIndexOf('.');
    const y = dot >= 0 ? file.slice(0, dot) : file;
    const format = dot >= 0 ? file.slice(dot + 1) : '';
    for (const [name, value] of [['z', z], ['x', x], ['y', y]] as const) {
      if (!INTEGER.test(value)) return fail(reply, 400, `tile ${name} must be a non-negative integer, got "${value}"`);
    }
    if (format !== TILE_FORMAT) return fail(reply, 404, `tiles are .${TILE_FORMAT}, not "${format || '(none)'}"`);
    try {
      const address = { z: Number(z), x: Number(x), y: Number(y) };
      const found = await store.tile(map, version, layer, address, { mayRender: () => limiter.take(req.ip) });
      if (found.status === 404) return fail(reply, 404, found.message);
      if (found.status === 429) {
        const stand = await store.fallbackTile(map, version, layer, address);
        if (stand) {
          return reply
            .header('content-type', `image/${TILE_FORMAT}`)
            .header('cache-control', FALLBACK_CACHE_CONTROL)
            .header('x-tile-fallback', `${stand.from.z}/${stand.from.x}/${stand.from.y}`)
            .header('retry-after', String(found.retryAfterS))
            .send(stand.body);
        }
        return reply
          .code(429)
          .header('cache-control', 'no-store')
          .header('retry-after', String(found.retryAfterS))
          .send({ error: 'Too Many Requests', message: `too many new tiles asked for from your address: try tile ${map}/${layer}/${z}/${x}/${y} again in ${found.retryAfterS} s` });
      }
      return reply.header('content-type', `image/${TILE_FORMAT}`).header('cache-control', TILE_CACHE_CONTROL).send(found.body);
    } catch (err) {
      if (store.hasLogged(err)) return fail(reply, 500, publicSourceProblem(map, err));
      req.log.error({ err }, 'tile render failed');
      return fail(reply, 500, `tile ${map}/${layer}/${z}/${x}/${y} could not be rendered (the server's log says why)`);
    }
  });
};
