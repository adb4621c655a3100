/**
 * Tile download queue: at most `concurrency` requests in flight, started in the order the
 * layer wants them (centre-out). Each `want()` replaces the wanted list: queued tiles that left
 * the view are dropped. In-flight tiles that left the view finish (a tile is small, and it
 * serves as a fallback later) unless `abortUnwanted` is set. A failed tile is not retried for
 * `retryMs`, or for as long as the answer's `Retry-After` says where that is longer (a 429).
 * `reset()` forgets everything pending (the layer's tile version changed: tile-layer.ts).
 */
import { REFRESH_MAX_RETRY_AFTER_MS } from './kernels/tile-refresh';
import { checkTileResponse, markStandIn, standInFromHeaders, TileHttpError } from './tile-response';

export interface TileRequest {
  key: string;
  url: string;
}

export type TileFetcher<T> = (url: string, signal: AbortSignal) => Promise<T>;

export interface TileLoaderOptions<T> {
  fetcher: TileFetcher<T>;
  onLoad: (key: string, value: T) => void;
  onError?: (key: string, error: unknown) => void;
  concurrency?: number;
  retryMs?: number;
  now?: () => number;
  /** Abort in-flight requests that are no longer wanted (default false: let them finish). */
  abortUnwanted?: boolean;
}

export class TileLoader<T> {
  private queue: TileRequest[] = [];
  private readonly inFlight = new Map<string, AbortController>();
  /** Failed tiles: when each may be asked for again. */
  private readonly retryAt = new Map<string, number>();
  private disposed = false;
  private concurrency: number;
  private readonly retryMs: number;
  private readonly now: () => number;

  constructor(private readonly options: TileLoaderOptions<T>) {
    this.concurrency = Math.max(1, options.concurrency ?? 6);
    this.retryMs = options.retryMs ?? 10_000;
    this.now = options.now ?? (() => performance.now());
  }

  /** Tiles wanted now, most important first; anything else pending is cancelled. */
  want(requests: readonly TileRequest[]): void {
    if (this.disposed) return;
    if (this.options.abortUnwanted) {
      const wanted = new Set(requests.map((r) => r.key));
      for (const [key, controller] of this.inFlight) {
        if (!wanted.has(key)) {
          controller.abort();
          this.inFlight.delete(key);
        }
      }
    }
    const t = this.now();
    this.queue = requests.filter((r) => {
      if (this.inFlight.has(r.key)) return false;
      const retry = this.retryAt.get(r.key);
      return retry === undefined || t >= retry;
    });
    this.pump();
  }

  /** Changes how many requests may be in flight; a raise starts queued ones now, a cut lets extra ones finish. */
  setConcurrency(concurrency: number): void {
    this.concurrency = Math.max(1, concurrency);
    this.pump();
  }

  isLoading(key: string): boolean {
    return this.inFlight.has(key);
  }

  hasFailed(key: string): boolean {
    const retry = this.retryAt.get(key);
    return retry !== undefined && this.now() < retry;
  }

  /** Ms until a failed tile may be asked for again (0: it has not failed, or may be asked now). */
  retryInMs(key: string): number {
    const retry = this.retryAt.get(key);
    return retry === undefined ? 0 : Math.max(0, Math.ceil(retry - this.now()));
  }

  /** How long after a failure a tile is asked for again at the soonest (a 429's Retry-After may make it longer). */
  get failureRetryMs(): number {
    return this.retryMs;
  }

  /**
   * Forgets every request: aborts those in flight (their answers are dropped), empties the queue
   * and forgets failures. For a layer whose tile URLs all changed (a new tile version).
   */
  reset(): void {
    for (const controller of this.inFlight.values()) controller.abort();
    this.inFlight.clear();
    this.queue = [];
    this.retryAt.clear();
  }

  get pending(): number {
    return this.queue.length + this.inFlight.size;
  }

  dispose(): void {
    this.disposed = true;
    for (const controller of this.inFlight.values()) controller.abort();
    this.inFlight.clear();
    this.queue = [];
  }

  private pump(): void {
    while (!this.disposed && this.inFlight.size < this.concurrency && this.queue.length > 0) {
      const request = this.queue.shift()!;
      this.start(request);
    }
  }

  private start(request: TileRequest): void {
    const controller = new AbortController();
    this.inFlight.set(request.key, controller);
    this.options
      .fetcher(request.url, controller.signal)
      .then(
        (value) => {
          if (this.inFlight.get(request.key) !== controller || this.disposed) {
            release(value);
            return;
          }
          this.inFlight.delete(request.key);
          this.retryAt.delete(request.key);
          this.options.onLoad(request.key, value);
        },
        (error: unknown) => {
          if (this.inFlight.get(request.key) !== controller) return;
          this.inFlight.delete(request.key);
          const serverSays = error instanceof TileHttpError ? (error.retryAfterMs ?? 0) : 0;
          this.retryAt.set(request.key, this.now() + Math.max(this.retryMs, Math.min(serverSays, REFRESH_MAX_RETRY_AFTER_MS)));
          this.options.onError?.(request.key, error);
        },
      )
      .finally(() => this.pump());
  }
}

/** Frees a value that arrived after its tile was cancelled (ImageBitmaps hold memory until closed). */
function release(value: unknown): void {
  if (value && typeof (value as { close?: unknown }).close === 'function') (value as { close: () => void }).close();
}

/**
 * Fetches an image and decodes it off the main thread. A stand-in answer (`X-Tile-Fallback`) is
 * marked as one (tile-response.ts); an error status rejects with a TileHttpError.
 */
export async function fetchImageBitmap(url: string, signal: AbortSignal): Promise<ImageBitmap> {
  const response = await fetch(url, { signal });
  checkTileResponse(url, response);
  const blob = await response.blob();
  return markStandIn(await createImageBitmap(blob, { premultiplyAlpha: 'premultiply' }), standInFromHeaders(response.headers));
}
