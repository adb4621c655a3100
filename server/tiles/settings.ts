/**
 * Defaults of the tile settings (docs/SERVER.md), in a module without heavy imports so that
 * server/config.ts can read them.
 */

/** Default budget of the on-demand tile cache, in MiB (TILE_CACHE_MAX_MB). */
export const DEFAULT_TILE_CACHE_MAX_MB = 2048;
/** Default of TILE_RENDERS_PER_MINUTE: uncached metatile renders one address may start a minute. */
export const DEFAULT_TILE_RENDERS_PER_MINUTE = 60;
