/**
 * What a tile answer says beside its image (docs/TILES.md, "Budget and limits"):
 *
 * - **A stand-in** (`X-Tile-Fallback: z/x/y`, 200): the server may not render the tile now (its
 *   per-address render limit) and sent an ancestor's pixels, scaled, instead. The layer draws it
 *   at once and asks for the real tile again later (tile-layer.ts, `standInRetryMs`), after the
 *   answer's `Retry-After` at the soonest.
 * - **An HTTP error** (`TileHttpError`): its status (a 404 of a tile of the page's version tells
 *   the layer the map's drawing may have been replaced) and `Retry-After`.
 *
 * Fetchers resolve with the decoded `ImageBitmap` itself (a tile worker transfers it), so a
 * stand-in is marked beside it, in a WeakMap of this realm: `markStandIn` where the bitmap enters
 * the realm of the tile layer (fetchImageBitmap, WorkerTileFetcher), `standInOf` in the layer.
 * Only the realm matters: the tile worker reports it in its reply, and its page side marks it.
 */

/** A stand-in answer: the ancestor whose pixels it holds, and when to ask again at the soonest. */
export interface StandIn {
  /** `z/x/y` of the ancestor tile (the header's value). */
  from: string;
  /** The server's Retry-After, ms (absent: none sent). */
  retryAfterMs?: number;
}

/** A tile request that the server answered with an error status. */
export class TileHttpError extends Error {
  constructor(
    readonly url: string,
    readonly status: number,
    readonly retryAfterMs?: number,
  ) {
    super(`tile ${url}: HTTP ${status}`);
    this.name = 'TileHttpError';
  }
}

/** The answer's `Retry-After` (delta seconds, or an HTTP date) in ms; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null | undefined, now = Date.now()): number | undefined {
  if (header == null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

/** The stand-in a tile answer is, from its headers; undefined for the real tile. */
export function standInFromHeaders(headers: Pick<Headers, 'get'>): StandIn | undefined {
  const from = headers.get('x-tile-fallback');
  if (from === null) return undefined;
  const retry = retryAfterMs(headers.get('retry-after'));
  return retry === undefined ? { from } : { from, retryAfterMs: retry };
}

/** Throws a TileHttpError for an answer that is not OK. */
export function checkTileResponse(url: string, response: Response): void {
  if (!response.ok) throw new TileHttpError(url, response.status, retryAfterMs(response.headers.get('retry-after')));
}

const standIns = new WeakMap<object, StandIn>();

/** Marks `image` as a stand-in (nothing for undefined); returns it. */
export function markStandIn<T extends object>(image: T, standIn: StandIn | undefined): T {
  if (standIn) standIns.set(image, standIn);
  return image;
}

/** The stand-in `image` is, or undefined for a real tile. */
export function standInOf(image: object): StandIn | undefined {
  return standIns.get(image);
}

/** The HTTP status of a failed tile request, or undefined where it did not reach an answer. */
export function tileErrorStatus(error: unknown): number | undefined {
  return error instanceof TileHttpError ? error.status : undefined;
}
