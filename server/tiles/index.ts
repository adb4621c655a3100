/**
 * The tile pipeline: map SVGs (real ones from assets/maps/{map}/map.svg, else generated
 * samples) → one raster pyramid per layer → /tiles routes. See docs/TILES.md.
 */
import type { MapDefinition } from '../../src/domain/maps';
import type { TileManifest } from '../../src/domain/tiles';
import { getTileStore, type PrepareMapResult } from './store';
import type { TileLog } from './log';

export { tilesPlugin, TILE_CACHE_CONTROL, FALLBACK_CACHE_CONTROL, DEFAULT_TILE_RENDERS_PER_MINUTE, type TilesPluginOptions } from './plugin';
export { RenderLimiter, type RenderLimitOptions } from './render-limit';
export { consoleTileLog, type TileLog } from './log';
export { generateSampleSvg } from './sample-map';
/** The same as disposeRenderPool: normalising and rendering share the resvg child processes. */
export { disposeNormalizer } from './normalize';
/**
 * Stops the resvg child processes that normalise and render (idle ones keep nothing alive and
 * exit with the server; for tidy shutdowns and tests). The tiles plugin calls it on close.
 */
export { disposeRenderPool } from './render-pool';
export {
  getTileStore, TileStore, PIPELINE_VERSION, DEFAULT_TILE_CACHE_MAX_MB, versionOf, realSvgPath, mapArtPath,
  type TileStoreOptions, type ArtReport, type TileCacheOptions, type TileStoreStats,
} from './store';

export interface PrepareAllTilesOptions {
  assetsDir: string;
  tilesDir: string;
  maps: MapDefinition[];
  /**
   * Called after each layer of each map: done and total count layers; failed, the layers of
   * maps that failed (counted in done, as finished, though none of them was built).
   */
  onProgress?: (done: number, total: number, failed: number) => void;
  /** Stops the build between levels (on server shutdown); what is done stays done. */
  signal?: AbortSignal;
  /**
   * Maps built at once (default 1: a server in the background leaves the other core to
   * requests; the `npm run tiles` script uses 2).
   */
  concurrency?: number;
  /** Where the build's lines go (default: the store's, the console unless the tiles plugin set the server's logger). */
  log?: TileLog;
}

export interface PrepareAllTilesResult {
  maps: PrepareMapResult[];
  failed: { map: string; error: string }[];
  ms: number;
}

/**
 * Pre-builds levels 0..PREBUILT_MAX_Z of every layer of every map, skipping maps whose
 * current version is complete on disk. A map that fails (a broken SVG, resvg crashing on a
 * layer in its child process) is logged and reported; the others still build. Never rejects
 * for a single map's failure.
 */
export async function prepareAllTiles(opts: PrepareAllTilesOptions): Promise<PrepareAllTilesResult> {
  const store = getTileStore(opts);
  if (opts.log) store.useLog(opts.log);
  const log = store.log;
  const started = performance.now();
  const total = opts.maps.reduce((n, m) => n + m.layers.length, 0);
  let done = 0;
  let failed = 0;
  opts.onProgress?.(0, total, 0);
  const result: PrepareAllTilesResult = { maps: [], failed: [], ms: 0 };
  const buildOne = async (map: MapDefinition) => {
    if (opts.signal?.aborted) return;
    let layersDone = 0;
    let drawing: string | undefined;
    try {
      // An operator's drawing: its layers, placement, missing layers and unmatched groups, once;
      // a drawing or map.json that cannot be used is logged there, once per change of its files.
      const source = await store.checkedSource(map);
      if (source.kind === 'file') drawing = source.path;
      const built = await store.prepareMap(
        map,
        () => {
          layersDone++;
          opts.onProgress?.(++done, total, failed);
        },
        opts.signal,
      );
      result.maps.push(built);
      if (built.built) {
        log.info(
          `tiles: ${map.id}: built ${built.tilesWritten} tiles of ${map.layers.length} layers in ${(built.ms / 1000).toFixed(1)} s ` +
            `(${source.kind === 'file' ? source.path : 'sample map'}, version ${built.version})`,
        );
      }
    } catch (err) {
      if (opts.signal?.aborted) return;
      const message = (err as Error).message;
      // resvg refusing a layer names the layer and map only: the operator's file too.
      if (!store.hasLogged(err)) log.error(`tiles: ${map.id}: could not build tiles${drawing ? ` from ${drawing}` : ''}: ${message}`);
      result.failed.push({ map: map.id, error: message });
      done += map.layers.length - layersDone;
      failed += map.layers.length;
      opts.onProgress?.(done, total, failed);
    }
  };
  const queue = [...opts.maps];
  const workers = Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 1, queue.length)) }, async () => {
    for (let map = queue.shift(); map; map = queue.shift()) await buildOne(map);
  });
  await Promise.all(workers);
  // Report in the order the maps were given.
  result.maps.sort((a, b) => opts.maps.findIndex((m) => m.id === a.map) - opts.maps.findIndex((m) => m.id === b.map));
  result.ms = performance.now() - started;
  return result;
}

/** The manifest of a map's current tiles, or undefined for an unknown map. */
export function loadManifest(map: string, opts: { assetsDir: string; tilesDir: string }): Promise<TileManifest | undefined> {
  return getTileStore(opts).manifest(map);
}
