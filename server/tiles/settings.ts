/**
 * Defaults of the tile settings (docs/SERVER.md), in a module without heavy imports so that
 * server/config.ts can read them.
 */

/** Default budget of the on-demand tile cache, in MiB (TILE_CACHE_MAX_MB). */
export const DEFAULT_TILE_CACHE_MAX_MB = 2048;
/** Default of TILE_RENDERS_PER_MINUTE: uncached metatile renders one address may start a minute. */
export const DEFAULT_TILE_RENDERS_PER_MINUTE = 60;
/** Default budget of the hot tiles each process keeps in memory, in MiB (TILE_MEMORY_MB; 0: none). */
export const DEFAULT_TILE_MEMORY_MB = 64;
