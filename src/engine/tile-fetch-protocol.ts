/**
 * The tile fetch worker's protocol and logic, kept free of worker globals so it can be tested
 * in Node, plus the main-thread side (`WorkerTileFetcher`) that plugs into TileLoader.
 */
import type { TileFetcher } from './tile-loader';

export type TileWorkerRequest = { type: 'load'; id: number; url: string } | { type: 'cancel'; id: number };

export type TileWorkerResponse =
  | { type: 'loaded'; id: number; bitmap: ImageBitmap }
  | { type: 'failed'; id: number; message: string; aborted: boolean };

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
    if (!response.ok) throw new Error(`tile ${msg.url}: HTTP ${response.status}`);
    const bitmap = await decode(await response.blob());
    if (controller.signal.aborted) {
      bitmap.close();
      reply({ type: 'failed', id: msg.id, message: 'aborted', aborted: true });
      return;
    }
    reply({ type: 'loaded', id: msg.id, bitmap });
  } catch (error) {
    reply({ type: 'failed', id: msg.id, message: error instanceof Error ? error.message : String(error), aborted: controller.signal.aborted });
  } finally {
    controllers.delete(msg.id);
  }
}

interface Pending {
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
      this.pending.set(id, { resolve, reject });
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
    if (msg.type === 'loaded') p.resolve(msg.bitmap);
    else p.reject(msg.aborted ? abortError() : new Error(msg.message));
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
