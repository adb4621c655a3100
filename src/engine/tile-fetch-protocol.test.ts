import { describe, expect, it } from 'vitest';
import { WorkerTileFetcher, handleTileMessage, type TileWorkerRequest, type TileWorkerResponse } from './tile-fetch-protocol';
import { fakeTilePort } from './testing/fake-tile-port';
import { standInOf, TileHttpError } from './tile-response';

const fakeBitmap = (label: string) => {
  const b = { label, closed: false, close() { b.closed = true; } };
  return b as unknown as ImageBitmap & { label: string; closed: boolean };
};

describe('tile worker logic', () => {
  it('fetches, decodes and replies with the bitmap', async () => {
    const replies: TileWorkerResponse[] = [];
    const fetchFn = (async (url: string) => new Response(`png of ${url}`)) as unknown as typeof fetch;
    await handleTileMessage({ type: 'load', id: 1, url: 'http://x/t.png' }, new Map(), fetchFn, async (blob) => fakeBitmap(await blob.text()), (r) => replies.push(r));
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ type: 'loaded', id: 1 });
    expect((replies[0] as unknown as { bitmap: { label: string } }).bitmap.label).toBe('png of http://x/t.png');
  });

  it('reports HTTP errors and bad requests', async () => {
    const replies: TileWorkerResponse[] = [];
    const fetchFn = (async () => new Response('nope', { status: 404 })) as unknown as typeof fetch;
    await handleTileMessage({ type: 'load', id: 2, url: 'http://x/missing.png' }, new Map(), fetchFn, async () => fakeBitmap('x'), (r) => replies.push(r));
    await handleTileMessage({ type: 'load', id: 3 } as unknown as TileWorkerRequest, new Map(), fetchFn, async () => fakeBitmap('x'), (r) => replies.push(r));
    expect(replies).toEqual([
      { type: 'failed', id: 2, message: 'tile http://x/missing.png: HTTP 404', aborted: false, status: 404 },
      { type: 'failed', id: 3, message: 'bad tile request', aborted: false },
    ]);
  });

  it('reports a stand-in answer (X-Tile-Fallback) and a 429’s Retry-After', async () => {
    const replies: TileWorkerResponse[] = [];
    const fetchFn = (async (url: string) =>
      url.endsWith('stand.webp')
        ? new Response('parent pixels', { headers: { 'x-tile-fallback': '3/1/1', 'retry-after': '20', 'cache-control': 'no-store' } })
        : new Response('{}', { status: 429, headers: { 'retry-after': '30' } })) as unknown as typeof fetch;
    await handleTileMessage({ type: 'load', id: 5, url: 'http://x/stand.webp' }, new Map(), fetchFn, async () => fakeBitmap('s'), (r) => replies.push(r));
    await handleTileMessage({ type: 'load', id: 6, url: 'http://x/busy.webp' }, new Map(), fetchFn, async () => fakeBitmap('b'), (r) => replies.push(r));
    expect(replies[0]).toMatchObject({ type: 'loaded', id: 5, standIn: { from: '3/1/1', retryAfterMs: 20_000 } });
    expect(replies[1]).toEqual({ type: 'failed', id: 6, message: 'tile http://x/busy.webp: HTTP 429', aborted: false, status: 429, retryAfterMs: 30_000 });
  });

  it('a cancel aborts the fetch and a late bitmap is closed', async () => {
    const replies: TileWorkerResponse[] = [];
    const controllers = new Map<number, AbortController>();
    let release: () => void = () => {};
    const fetchFn = ((_url: string, init: RequestInit) => new Promise<Response>((resolve) => {
      release = () => resolve(new Response('late'));
      expect(init.signal).toBeDefined();
    })) as unknown as typeof fetch;
    const bitmap = fakeBitmap('late');
    const done = handleTileMessage({ type: 'load', id: 4, url: 'http://x/a.png' }, controllers, fetchFn, async () => bitmap, (r) => replies.push(r));
    await handleTileMessage({ type: 'cancel', id: 4 }, controllers, fetchFn, async () => bitmap, (r) => replies.push(r));
    release();
    await done;
    expect(bitmap.closed).toBe(true);
    expect(replies).toEqual([{ type: 'failed', id: 4, message: 'aborted', aborted: true }]);
  });
});

describe('WorkerTileFetcher', () => {
  it('resolves relative URLs, sends a load and resolves with the transferred bitmap', async () => {
    const port = fakeTilePort();
    const fetcher = new WorkerTileFetcher(port, 'http://host:8080/map/customs');
    const p = fetcher.fetch('/tiles/a.png', new AbortController().signal);
    expect(port.sent).toEqual([{ type: 'load', id: 1, url: 'http://host:8080/tiles/a.png' }]);
    const bitmap = fakeBitmap('a');
    port.reply({ type: 'loaded', id: 1, bitmap });
    await expect(p).resolves.toBe(bitmap);
  });

  it('rejects with an Error on failure, with AbortError on abort (and tells the worker)', async () => {
    const port = fakeTilePort();
    const fetcher = new WorkerTileFetcher(port, 'http://host/');
    const failing = fetcher.fetch('/x.png', new AbortController().signal);
    port.reply({ type: 'failed', id: 1, message: 'HTTP 500', aborted: false });
    await expect(failing).rejects.toThrow('HTTP 500');
    const controller = new AbortController();
    const aborted = fetcher.fetch('/y.png', controller.signal);
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    expect(port.sent.at(-1)).toEqual({ type: 'cancel', id: 2 });
    const late = fakeBitmap('late');
    port.reply({ type: 'loaded', id: 2, bitmap: late });
    expect(late.closed).toBe(true);
  });

  it('marks a stand-in on this side and rejects an HTTP error with its status', async () => {
    const port = fakeTilePort();
    const fetcher = new WorkerTileFetcher(port, 'http://host/');
    const stand = fetcher.fetch('/tiles/customs/v3/main/6/1/1.webp', new AbortController().signal);
    const real = fetcher.fetch('/tiles/customs/v3/main/6/1/2.webp', new AbortController().signal);
    const gone = fetcher.fetch('/tiles/customs/v2/main/6/1/3.webp', new AbortController().signal);
    port.reply({ type: 'loaded', id: 1, bitmap: fakeBitmap('stand'), standIn: { from: '3/0/0', retryAfterMs: 5_000 } });
    port.reply({ type: 'loaded', id: 2, bitmap: fakeBitmap('real') });
    port.reply({ type: 'failed', id: 3, message: 'tile …: HTTP 404', aborted: false, status: 404 });
    expect(standInOf(await stand)).toEqual({ from: '3/0/0', retryAfterMs: 5_000 });
    expect(standInOf(await real)).toBeUndefined();
    const error = await gone.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TileHttpError);
    expect(error).toMatchObject({ status: 404, url: '/tiles/customs/v2/main/6/1/3.webp' });
  });

  it('dispose rejects pending loads and terminates the worker', async () => {
    const port = fakeTilePort();
    const fetcher = new WorkerTileFetcher(port, 'http://host/');
    const p = fetcher.fetch('/z.png', new AbortController().signal);
    fetcher.dispose();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(port.terminated).toBe(true);
  });
});
