/**
 * HTTP routes for tiles:
 *   GET /tiles/:map/manifest.json                          → TileManifest (Cache-Control: no-cache)
 *   GET /tiles/:map/:version/:layer/:z/:x/:y.:format        → the tile (immutable for a year)
 * A tile not on disk yet is rendered on the spot and cached, so none is ever missing while
 * the background build runs. Errors are JSON `{ error, message }`: 400 for a malformed
 * address, 404 for an unknown map, layer, version or a tile outside the pyramid, 500 when a
 * tile could not be made (resvg crashed preparing or rendering it: the server goes on).
 * Closing the app stops the resvg child processes (render-pool.ts).
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { disposeRenderPool } from './render-pool';
import { getTileStore, TILE_FORMAT } from './store';

export interface TilesPluginOptions {
  assetsDir: string;
  tilesDir: string;
}

export const TILE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

const INTEGER = /^(0|[1-9]\d{0,5})$/;

function fail(reply: FastifyReply, status: 400 | 404 | 500, message: string) {
  const error = status === 400 ? 'Bad Request' : status === 404 ? 'Not Found' : 'Internal Server Error';
  return reply.code(status).header('cache-control', 'no-store').send({ error, message });
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
  const store = getTileStore(opts);
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
      req.log.error({ err }, 'tile manifest failed');
      return fail(reply, 500, `the map source of "${req.params.map}" could not be read: ${(err as Error).message}`);
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
      const found = await store.tile(map, version, layer, { z: Number(z), x: Number(x), y: Number(y) });
      if (found.status === 404) return fail(reply, 404, found.message);
      return reply.header('content-type', `image/${TILE_FORMAT}`).header('cache-control', TILE_CACHE_CONTROL).send(found.body);
    } catch (err) {
      req.log.error({ err }, 'tile render failed');
      return fail(reply, 500, `tile ${map}/${layer}/${z}/${x}/${y} could not be rendered: ${(err as Error).message}`);
    }
  });
};
