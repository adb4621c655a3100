/**
 * The tile fetch worker's protocol and logic, kept free of worker globals so it can be tested
 * in Node, plus the main-thread side (`WorkerTileFetcher`) that plugs into TileLoader.
 */
import type { TileFetcher } from './tile-loader';
import { markStandIn, retryAfterMs, standInFromHeaders, TileHttpError, type StandIn } from './tile-response';

export type TileWorkerRequest = { type: 'load'; id: number; url: string } | { type: 'cancel'; id: number };

export type TileWorkerResponse =
  /** `standIn`: the server sent an ancestor's pixels for now (tile-response.ts). */
  | { type: 'loaded'; id: number; bitmap: ImageBitmap; standIn?: StandIn }
  /** `status` (and `retryAfterMs`): the server's answer, where the request got one that was not OK. */
  | { type: 'failed'; id: number; message: string; aborted: boolean; status?: number; retryAfterMs?: number };

/** Worker side: one message in, at most one response out per load. */
export async function handleTileMessage(
  msg: TileWorkerRequest,
  controllers: Map<number, AbortController>,
  fetchFn: typeof fetch,
  decode: (blob: Blob) => Promise<ImageBitmap>,
  reply: (response: TileWorkerResponse) => void,
): Promise<void> {
  if (!msg || typeof msg !== 'object' || typeof msg.id !== 'number') return;
  if (msg.type === 'cancel') {
    controllers.get(msg.id)?.abort();
    controllers.delete(msg.id);
    return;
  }
  if (msg.type !== 'load' || typeof msg.url !== 'string') {
    reply({ type: 'failed', id: msg.id, message: 'bad tile request', aborted: false });
    return;
  }
  const controller = new AbortController();
  controllers.set(msg.id, controller);
  try {
    const response = await fetchFn(msg.url, { signal: controller.signal });
    if (!response.ok) {
      const retry = retryAfterMs(response.headers.get('retry-after'));
      const failed: TileWorkerResponse = { type: 'failed', id: msg.id, message: `tile ${msg.url}: HTTP ${response.status}`, aborted: false, status: response.status };
      reply(retry === undefined ? failed : { ...failed, retryAfterMs: retry });
      return;
    }
    const bitmap = await decode(await response.blob());
    if (controller.signal.aborted) {
      bitmap.close();
      reply({ type: 'failed', id: msg.id, message: 'aborted', aborted: true });
      return;
    }
    const standIn = standInFromHeaders(response.headers);
    reply(standIn ? { type: 'loaded', id: msg.id, bitmap, standIn } : { type: 'loaded', id: msg.id, bitmap });
  } catch (error) {
    reply({ type: 'failed', id: msg.id, message: error instanceof Error ? error.message : String(error), aborted: controller.signal.aborted });
  } finally {
    controllers.delete(msg.id);
  }
}

interface Pending {
  /** The URL as the layer asked for it. */
  url: string;
  resolve: (bitmap: ImageBitmap) => void;
  reject: (error: Error) => void;
}

export interface TilePort {
  postMessage(message: TileWorkerRequest): void;
  onmessage: ((event: MessageEvent<TileWorkerResponse>) => void) | null;
  terminate?(): void;
}

/** Main-thread side: a TileFetcher that runs fetch + decode in the worker. */
export class WorkerTileFetcher {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly origin: string;

  constructor(private readonly port: TilePort, private readonly baseUrl: string) {
    port.onmessage = (event) => this.receive(event.data);
    this.origin = new URL(baseUrl).origin;
  }

  /** Absolute URL for the worker (its own base differs); cheap for the usual `/tiles/...`. */
  private absolute(url: string): string {
    if (url.startsWith('/') && !url.startsWith('//')) return this.origin + url;
    return new URL(url, this.baseUrl).href;
  }

  readonly fetch: TileFetcher<ImageBitmap> = (url, signal) =>
    new Promise<ImageBitmap>((resolve, reject) => {
      if (signal.aborted) {
        reject(abortError());
        return;
      }
      const id = this.nextId++;
      this.pending.set(id, { url, resolve, reject });
      signal.addEventListener(
        'abort',
        () => {
          if (!this.pending.delete(id)) return;
          this.port.postMessage({ type: 'cancel', id });
          reject(abortError());
        },
        { once: true },
      );
      this.port.postMessage({ type: 'load', id, url: this.absolute(url) });
    });

  dispose(): void {
    for (const p of this.pending.values()) p.reject(abortError());
    this.pending.clear();
    this.port.onmessage = null;
    this.port.terminate?.();
  }

  private receive(msg: TileWorkerResponse): void {
    const p = this.pending.get(msg?.id);
    if (!p) {
      if (msg?.type === 'loaded') msg.bitmap.close();
      return;
    }
    this.pending.delete(msg.id);
    if (msg.type === 'loaded') p.resolve(markStandIn(msg.bitmap, msg.standIn));
    else if (msg.aborted) p.reject(abortError());
    else if (msg.status !== undefined) p.reject(new TileHttpError(p.url, msg.status, msg.retryAfterMs));
    else p.reject(new Error(msg.message));
  }
}

function abortError(): Error {
  const error = new Error('tile request aborted');
  error.name = 'AbortError';
  return error;
}

/** A worker-backed fetcher, or null where workers are unavailable (the caller falls back). */
export function createWorkerTileFetcher(): WorkerTileFetcher | null {
  if (typeof Worker !== 'function' || typeof createImageBitmap !== 'function') return null;
  try {
    const worker = new Worker(new URL('./tile-fetch.worker.ts', import.meta.url), { type: 'module', name: 'raidmap-tiles' });
    return new WorkerTileFetcher(worker as unknown as TilePort, document.baseURI);
  } catch (error) {
    console.warn('raidmap: tile worker unavailable, decoding tiles on the main thread:', error);
    return null;
  }
}
