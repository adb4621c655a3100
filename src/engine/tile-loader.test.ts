import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchImageBitmap, TileLoader } from './tile-loader';
import { standInOf, TileHttpError } from './tile-response';

interface Pending {
  url: string;
  signal: AbortSignal;
  resolve: (v: string) => void;
  reject: (e: unknown) => void;
}

function harness(concurrency = 2, abortUnwanted = false) {
  const pending: Pending[] = [];
  const loaded: string[] = [];
  const errors: string[] = [];
  let clock = 0;
  const loader = new TileLoader<string>({
    concurrency,
    retryMs: 1000,
    abortUnwanted,
    now: () => clock,
    fetcher: (url, signal) => new Promise((resolve, reject) => pending.push({ url, signal, resolve, reject })),
    onLoad: (key, value) => loaded.push(`${key}=${value}`),
    onError: (key) => errors.push(key),
  });
  return { loader, pending, loaded, errors, tick: (ms: number) => (clock += ms) };
}

const req = (key: string) => ({ key, url: `/t/${key}` });
const flush = () => new Promise((r) => setTimeout(r, 0));

describe('TileLoader', () => {
  it('starts at most `concurrency` requests, in the wanted order', async () => {
    const h = harness(2);
    h.loader.want([req('a'), req('b'), req('c')]);
    expect(h.pending.map((p) => p.url)).toEqual(['/t/a', '/t/b']);
    h.pending[0].resolve('A');
    await flush();
    expect(h.loaded).toEqual(['a=A']);
    expect(h.pending.map((p) => p.url)).toEqual(['/t/a', '/t/b', '/t/c']);
  });

  it('drops queued tiles; in-flight ones that left the view finish and are delivered', async () => {
    const h = harness(2);
    h.loader.want([req('a'), req('b'), req('c')]);
    h.loader.want([req('d')]);
    expect(h.pending.map((p) => p.signal.aborted)).toEqual([false, false]);
    expect(h.loader.isLoading('a')).toBe(true);
    h.pending[0].resolve('A');
    await flush();
    expect(h.loaded).toEqual(['a=A']);
    // The freed slot goes to the wanted tile, never to the dropped 'c'.
    expect(h.pending.map((p) => p.url)).toEqual(['/t/a', '/t/b', '/t/d']);
  });

  it('with abortUnwanted, aborts in-flight tiles that are no longer wanted', async () => {
    const h = harness(2, true);
    h.loader.want([req('a'), req('b'), req('c')]);
    h.loader.want([req('b'), req('d')]);
    expect(h.pending[0].signal.aborted).toBe(true);
    expect(h.pending[1].signal.aborted).toBe(false);
    expect(h.pending.map((p) => p.url)).toEqual(['/t/a', '/t/b', '/t/d']);
    h.pending[0].resolve('late');
    await flush();
    expect(h.loaded).toEqual([]);
  });

  it('does not retry a failed tile until retryMs has passed', async () => {
    const h = harness(1);
    h.loader.want([req('x')]);
    h.pending[0].reject(new Error('404'));
    await flush();
    expect(h.errors).toEqual(['x']);
    expect(h.loader.hasFailed('x')).toBe(true);
    h.loader.want([req('x')]);
    expect(h.pending).toHaveLength(1);
    h.tick(1000);
    h.loader.want([req('x')]);
    expect(h.pending).toHaveLength(2);
  });

  it('waits for a failed answer’s Retry-After where it is longer than retryMs', async () => {
    const h = harness(1);
    h.loader.want([req('x')]);
    h.pending[0].reject(new TileHttpError('/t/x', 429, 5_000));
    await flush();
    h.tick(1000);
    h.loader.want([req('x')]);
    expect(h.pending).toHaveLength(1);
    expect(h.loader.hasFailed('x')).toBe(true);
    h.tick(4000);
    h.loader.want([req('x')]);
    expect(h.pending).toHaveLength(2);
  });

  it('reset drops what is in flight and queued (later answers are ignored) and forgets failures', async () => {
    const h = harness(1);
    h.loader.want([req('f')]);
    h.pending[0].reject(new Error('404'));
    await flush();
    h.loader.want([req('a'), req('b')]);
    expect(h.pending.map((p) => p.url)).toEqual(['/t/f', '/t/a']);
    h.loader.reset();
    expect(h.pending[1].signal.aborted).toBe(true);
    h.pending[1].resolve('old A');
    await flush();
    expect(h.loaded).toEqual([]);
    expect(h.loader.pending).toBe(0);
    h.loader.want([req('f'), req('a')]);
    expect(h.pending.map((p) => p.url)).toEqual(['/t/f', '/t/a', '/t/f']);
  });

  it('aborts everything on dispose and ignores later results', async () => {
    const h = harness(3);
    h.loader.want([req('a'), req('b')]);
    h.loader.dispose();
    expect(h.pending.every((p) => p.signal.aborted)).toBe(true);
    h.pending[0].resolve('A');
    await flush();
    expect(h.loaded).toEqual([]);
    h.loader.want([req('c')]);
    expect(h.pending).toHaveLength(2);
  });

  it('starts queued tiles at once when the concurrency is raised, and lets extra ones finish when it is cut', async () => {
    const h = harness(1);
    h.loader.want([req('a'), req('b'), req('c'), req('d')]);
    expect(h.pending).toHaveLength(1);
    h.loader.setConcurrency(3);
    expect(h.pending.map((p) => p.url)).toEqual(['/t/a', '/t/b', '/t/c']);
    h.loader.setConcurrency(1);
    expect(h.pending.map((p) => p.signal.aborted)).toEqual([false, false, false]);
    h.pending[0].resolve('A');
    await flush();
    // Still two in flight (b, c): above the new limit, so d waits.
    expect(h.pending).toHaveLength(3);
    h.pending[1].resolve('B');
    h.pending[2].resolve('C');
    await flush();
    expect(h.loaded).toEqual(['a=A', 'b=B', 'c=C']);
    expect(h.pending.map((p) => p.url)).toEqual(['/t/a', '/t/b', '/t/c', '/t/d']);
  });
});

describe('fetchImageBitmap (the render worker’s own fetch)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('marks a stand-in answer, and rejects an error status with a TileHttpError', async () => {
    vi.stubGlobal('createImageBitmap', async (blob: Blob) => ({ label: await blob.text(), close() {} }));
    vi.stubGlobal('fetch', async (url: string) => {
      if (url.endsWith('/1.webp')) return new Response('parent', { headers: { 'x-tile-fallback': '3/0/0', 'retry-after': '4' } });
      if (url.endsWith('/2.webp')) return new Response('real');
      return new Response('{}', { status: 404 });
    });
    const signal = new AbortController().signal;
    const stand = await fetchImageBitmap('/tiles/customs/v3/main/6/0/1.webp', signal);
    expect(standInOf(stand)).toEqual({ from: '3/0/0', retryAfterMs: 4_000 });
    expect(standInOf(await fetchImageBitmap('/tiles/customs/v3/main/6/0/2.webp', signal))).toBeUndefined();
    await expect(fetchImageBitmap('/tiles/customs/v2/main/6/0/3.webp', signal)).rejects.toMatchObject({ name: 'TileHttpError', status: 404 });
  });
});
