/**
 * When a drawn tile that is not the real one is asked for again (tile-layer.ts): a **stand-in**
 * (the server sent an ancestor's pixels while its render limit refused the tile, docs/TILES.md)
 * or a tile of a **replaced version** (the map's drawing changed while the page was open).
 *
 * Stand-ins back off: REFRESH_FIRST_MS, doubling each time the answer is a stand-in again (or
 * fails), up to REFRESH_MAX_MS, each spread by ±25 % so that the tiles of one view do not all
 * come back in the same second; never sooner than the server's `Retry-After`. A tile is asked
 * for only while it is wanted (in view, on a shown floor); one that comes back into view after
 * its time is asked for at once. Pure: the layer keeps the state and the clock.
 */

/** The first wait after a stand-in, ms. */
export const REFRESH_FIRST_MS = 2_000;
/** The longest wait between two requests of one tile, ms. */
export const REFRESH_MAX_MS = 60_000;
/** The longest `Retry-After` heeded, ms (a server's mistake must not freeze a tile for hours). */
export const REFRESH_MAX_RETRY_AFTER_MS = 5 * 60_000;
/** ± this share of each wait, at random. */
export const REFRESH_JITTER = 0.25;

/** A drawn tile to be asked for again. */
export interface Refresh {
  /** Answers that were not the real tile since it was first drawn (0: none yet). */
  attempt: number;
  /** Not before this time (the layer's clock, ms). */
  dueAt: number;
}

/**
 * The wait before asking again for a tile after its `attempt`-th stand-in or failure (0 first),
 * ms: REFRESH_FIRST_MS · 2^attempt, capped, jittered, at least `retryAfterMs`.
 */
export function refreshDelayMs(attempt: number, retryAfterMs = 0, random: () => number = Math.random): number {
  const backoff = Math.min(REFRESH_MAX_MS, REFRESH_FIRST_MS * 2 ** Math.max(0, Math.min(attempt, 30)));
  const jittered = Math.min(REFRESH_MAX_MS, backoff * (1 - REFRESH_JITTER + 2 * REFRESH_JITTER * random()));
  return Math.round(Math.max(jittered, Math.min(Math.max(0, retryAfterMs), REFRESH_MAX_RETRY_AFTER_MS)));
}

/** The state after a tile's answer was not the real tile (a stand-in again, or an error) at `now`. */
export function nextRefresh(previous: Refresh | undefined, now: number, retryAfterMs = 0, random: () => number = Math.random): Refresh {
  const attempt = previous ? previous.attempt + 1 : 0;
  return { attempt, dueAt: now + refreshDelayMs(attempt, retryAfterMs, random) };
}

/**
 * The answer `status` to a request of one tile version (a tile, or a first-view bundle) says that
 * version is gone from the server: the map's drawing was replaced after the page read its
 * manifest (docs/TILES.md). The server answers 404 (`version "…" is not current: read
 * manifest.json`, server/tiles/plugin.ts, with nothing that names the current version); 410
 * would say the same. Every other request of that version will get the same answer, so the
 * first one ends them all: the bundle's tiles fail with it (tile-bundle-fetch.ts), the early
 * requests still waiting are cancelled (early-tiles.ts), and the layer reads the manifest and
 * switches to the new version (tile-layer.ts). Shared by the worker and main-thread engines.
 */
export function versionGone(status: number | undefined): boolean {
  return status === 404 || status === 410;
}
