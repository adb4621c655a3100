// @vitest-environment jsdom
/**
 * Early tiles: the URLs asked for before the engine starts are the ones the engine's tile layer
 * asks for first (same camera, same tile math, same floors); the layer takes each early request
 * once; a taken request is the layer's to cancel; the untaken ones are cancelled in the worker,
 * or closed when they arrive, once released. A page that starts on a replaced drawing's tile
 * version loses one request to it (the bundle's, or the first single tile's), and the engine
 * then asks for the first view at the new version.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAPS } from '../domain/maps';
import { EarlyTiles, firstViewBundle, firstViewTileUrls, startEarlyTiles, withFirstViewBundle } from './early-tiles';
import { Camera } from './camera';
import { TileLayer } from './tile-layer';
import { WorkerTileFetcher, type TilePort, type TileWorkerRequest } from './tile-fetch-protocol';
import { TileHttpError } from './tile-response';
import { fakeTilePort, type FakeTilePort } from './testing/fake-tile-port';
import { testTileManifest } from './testing/tile-manifest';

const manifest = testTileManifest;

interface FakeBitmap {
  width: number;
  height: number;
  closed: boolean;
  close(): void;
}
const bitmap = (): FakeBitmap => ({
  width: 256,
  height: 256,
  closed: false,
  close() {
    this.closed = true;
  },
});

/** The URLs the engine's tile layer asks for on its first update (startTiles does just this). */
async function layerFirstRequests(map: keyof typeof MAPS, viewport: { width: number; height: number }, dpr: number): Promise<string[]> {
  const asked: string[] = [];
  const layer = new TileLayer({
    map: MAPS[map],
    manifest: manifest(map),
    tileBase: 'http://host',
    budgetBytes: 1 << 30,
    fetcher: (url) => {
      asked.push(url);
      return Promise.resolve(bitmap() as unknown as ImageBitmap);
    },
  });
  layer.setLevel(MAPS[map].defaultLevel);
  layer.update(new Camera(MAPS[map], viewport).state, viewport, dpr, performance.now());
  for (let i = 0; i < 20; i += 1) await Promise.resolve();
  layer.dispose();
  return asked;
}

const loads = (port: FakeTilePort) => port.sent.filter((m) => m.type === 'load') as Extract<TileWorkerRequest, { type: 'load' }>[];
const cancels = (port: FakeTilePort) => port.sent.filter((m) => m.type === 'cancel').map((m) => m.id);

/** Early tiles of customs asked for `urls`, through a fake tile worker's port. */
function earlyTiles(urls: string[]) {
  const port = fakeTilePort();
  return { port, early: new EarlyTiles(new WorkerTileFetcher(port, 'http://host/'), 'customs', urls) };
}

describe('firstViewTileUrls', () => {
  it.each([
    ['customs', { width: 1280, height: 800 }, 1],
    ['customs', { width: 390, height: 844 }, 3],
    ['interchange', { width: 1920, height: 1080 }, 1],
    ['factory', { width: 800, height: 600 }, 2],
  ] as const)('are the tiles the engine asks for first on %s at %o ×%d', async (map, viewport, dpr) => {
    const urls = firstViewTileUrls(MAPS[map], manifest(map), viewport, dpr, 'http://host');
    expect(urls.length).toBeGreaterThan(0);
    expect(new Set(urls).size).toBe(urls.length);
    expect([...urls].sort()).toEqual([...(await layerFirstRequests(map, viewport, dpr))].sort());
  });

  it('are none for an empty viewport', () => {
    expect(firstViewTileUrls(MAPS.customs, manifest('customs'), { width: 0, height: 800 }, 1, '')).toEqual([]);
  });
});

describe('EarlyTiles', () => {
  it('asks the worker for each URL once, and hands each request over once', async () => {
    const { port, early } = earlyTiles(['/tiles/a', '/tiles/b', '/tiles/a']);
    expect(loads(port).map((m) => m.url)).toEqual(['http://host/tiles/a', 'http://host/tiles/b']);
    const a = early.fetch('/tiles/a', new AbortController().signal);
    const done = bitmap();
    port.reply({ type: 'loaded', id: loads(port)[0].id, bitmap: done as unknown as ImageBitmap });
    await expect(a).resolves.toBe(done);
    expect(early.untaken).toBe(1);
    // Asked again (a tile evicted and wanted back): a new request.
    void early.fetch('/tiles/a', new AbortController().signal).catch(() => undefined);
    expect(loads(port)).toHaveLength(3);
  });

  it('cancels a taken request in the worker when the layer aborts it', async () => {
    const { port, early } = earlyTiles(['/tiles/a']);
    const controller = new AbortController();
    const a = early.fetch('/tiles/a', controller.signal);
    controller.abort();
    await expect(a).rejects.toMatchObject({ name: 'AbortError' });
    expect(cancels(port)).toEqual([loads(port)[0].id]);
  });

  it('on release, cancels the untaken requests still in the worker and closes those that arrived', async () => {
    const { port, early } = earlyTiles(['/tiles/a', '/tiles/b', '/tiles/c']);
    const [a, b] = loads(port);
    const arrived = bitmap();
    port.reply({ type: 'loaded', id: b.id, bitmap: arrived as unknown as ImageBitmap });
    const taken = early.fetch('/tiles/c', new AbortController().signal);
    early.release();
    await Promise.resolve();
    await Promise.resolve();
    expect(cancels(port)).toEqual([a.id]);
    expect(arrived.closed).toBe(true);
    expect(early.untaken).toBe(0);
    // The taken one is still the layer's.
    const mine = bitmap();
    port.reply({ type: 'loaded', id: loads(port)[2].id, bitmap: mine as unknown as ImageBitmap });
    await expect(taken).resolves.toBe(mine);
    expect(mine.closed).toBe(false);
  });

  it('stops the worker when disposed (early tiles no engine took)', () => {
    const { port, early } = earlyTiles(['/tiles/a']);
    early.dispose();
    expect(port.terminated).toBe(true);
    expect(cancels(port)).toHaveLength(1);
  });
});

/**
 * A tile server seen through the tile worker: it answers the loads one at a time, in the order
 * they were sent (as a browser's few connections do), 404 for a tile of a version it no longer
 * has; a load cancelled before its turn never reaches it. Records what reached it.
 */
function fakeServer(port: FakeTilePort, current: string) {
  const served: { url: string; status: number }[] = [];
  let next = 0;
  return {
    served,
    /** Answers the loads sent so far, one per task (the page's promises run in between). */
    async drain(): Promise<void> {
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        const all = loads(port);
        if (next >= all.length) return;
        const load = all[next++];
        if (cancels(port).includes(load.id)) continue;
        if (load.url.includes(`/${current}/`)) {
          served.push({ url: load.url, status: 200 });
          port.reply({ type: 'loaded', id: load.id, bitmap: bitmap() as unknown as ImageBitmap });
        } else {
          served.push({ url: load.url, status: 404 });
          port.reply({ type: 'failed', id: load.id, message: 'HTTP 404', aborted: false, status: 404 });
        }
      }
    },
  };
}

/**
 * The engine's tile layer on early tiles of version v3 while the server has v4 (startTiles, with
 * the manifest read again): its first view asked for and answered, the new version taken up,
 * then the first view asked for and answered again.
 */
async function replacedDrawing(early: EarlyTiles, viewport: { width: number; height: number }, server: ReturnType<typeof fakeServer>) {
  const v4 = { ...manifest('customs'), version: 'v4' };
  const fetchManifest = vi.fn(() => Promise.resolve(v4));
  const layer = new TileLayer({ map: MAPS.customs, manifest: manifest('customs'), tileBase: 'http://host', budgetBytes: 1 << 30, fetcher: early.fetch, fetchManifest });
  layer.setLevel(MAPS.customs.defaultLevel);
  const update = () => layer.update(new Camera(MAPS.customs, viewport).state, viewport, 1, performance.now());
  update();
  await server.drain();
  expect(layer.manifest.version).toBe('v4');
  update();
  await server.drain();
  return { layer, fetchManifest };
}

describe('EarlyTiles on a replaced drawing (the page read the old tile version)', () => {
  const viewport = { width: 1280, height: 800 };
  const oldUrls = () => firstViewTileUrls(MAPS.customs, manifest('customs'), viewport, 1, 'http://host');
  const newUrls = () => firstViewTileUrls(MAPS.customs, { ...manifest('customs'), version: 'v4' }, viewport, 1, 'http://host');

  it('one by one: the first 404 cancels the early requests still waiting, and the layer asks for the first view at the new version', async () => {
    const { port, early } = earlyTiles(oldUrls());
    const server = fakeServer(port, 'v4');
    expect(loads(port)).toHaveLength(oldUrls().length);
    const { layer, fetchManifest } = await replacedDrawing(early, viewport, server);

    const gone = server.served.filter((s) => s.status === 404);
    expect(gone, 'requests of the old version that reached the server').toHaveLength(1);
    expect(cancels(port)).toHaveLength(oldUrls().length - 1);
    expect(fetchManifest).toHaveBeenCalledTimes(1);
    expect(server.served.filter((s) => s.status === 200).map((s) => s.url).sort()).toEqual([...newUrls()].sort());
    layer.dispose();
    early.dispose();
  });

  it("fails every waiting request with the first one's status (the layer's own aborts stay aborts)", async () => {
    const { port, early } = earlyTiles(['/tiles/a', '/tiles/b', '/tiles/c']);
    const [a] = loads(port);
    const aborted = new AbortController();
    const b = early.fetch('/tiles/b', aborted.signal);
    aborted.abort();
    const c = early.fetch('/tiles/c', new AbortController().signal);
    port.reply({ type: 'failed', id: a.id, message: 'HTTP 410', aborted: false, status: 410 });
    await expect(b).rejects.toMatchObject({ name: 'AbortError' });
    await expect(c).rejects.toMatchObject({ name: 'TileHttpError', url: '/tiles/c', status: 410 });
    await expect(early.fetch('/tiles/a', new AbortController().signal)).rejects.toMatchObject({ status: 410 });
  });

  it('another failure (500, 429, no answer) cancels nothing', async () => {
    const { port, early } = earlyTiles(['/tiles/a', '/tiles/b']);
    const [a, b] = loads(port);
    port.reply({ type: 'failed', id: a.id, message: 'HTTP 500', aborted: false, status: 500 });
    await Promise.resolve();
    await Promise.resolve();
    expect(cancels(port)).toEqual([]);
    const done = bitmap();
    port.reply({ type: 'loaded', id: b.id, bitmap: done as unknown as ImageBitmap });
    await expect(early.fetch('/tiles/b', new AbortController().signal)).resolves.toBe(done);
  });

  it('in one bundle (its level prebuilt): one request of the old version, none of its tiles alone, then the new version', async () => {
    const port = fakeTilePort();
    const server = fakeServer(port, 'v4');
    const bundle = firstViewBundle(MAPS.customs, manifest('customs'), viewport, 1, 'http://host')!;
    const load = vi.fn((url: string) => Promise.reject(new TileHttpError(url, 404)));
    const worker = new WorkerTileFetcher(port, 'http://host/');
    const early = new EarlyTiles(withFirstViewBundle(bundle, worker, { load, decode: vi.fn() }), 'customs', oldUrls());
    const { layer, fetchManifest } = await replacedDrawing(early, viewport, server);

    expect(load).toHaveBeenCalledTimes(1);
    expect(server.served.filter((s) => s.status === 404)).toEqual([]);
    expect(fetchManifest).toHaveBeenCalledTimes(1);
    expect(server.served.map((s) => s.url).sort()).toEqual([...newUrls()].sort());
    layer.dispose();
    early.dispose();
    expect(port.terminated).toBe(true);
  });
});

describe('startEarlyTiles', () => {
  afterEach(() => vi.unstubAllGlobals());

  /** A browser with a tile worker (a fake port) and a fetch that answers 404 to everything. */
  function browserStubs() {
    const ports: FakeTilePort[] = [];
    vi.stubGlobal('Worker', function FakeWorker(this: TilePort) {
      const port = fakeTilePort();
      ports.push(port);
      return port;
    });
    vi.stubGlobal('createImageBitmap', vi.fn());
    const fetch = vi.fn(async () => new Response('{"error":"Not Found"}', { status: 404 }));
    vi.stubGlobal('fetch', fetch);
    return { ports, fetch };
  }

  it("asks for a prebuilt first view in one bundle, which a replaced version's 404 ends at one request", async () => {
    const { ports, fetch } = browserStubs();
    const early = startEarlyTiles(MAPS.customs, manifest('customs'), { width: 1280, height: 800 }, 1, 'http://host')!;
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(String((fetch.mock.calls[0] as unknown[])[0])).toMatch(/^http:\/\/host\/tiles\/customs\/v3\/bundle\//);
    expect(loads(ports[0])).toEqual([]);
    const urls = firstViewTileUrls(MAPS.customs, manifest('customs'), { width: 1280, height: 800 }, 1, 'http://host');
    for (const url of urls) await expect(early.fetch(url, new AbortController().signal)).rejects.toMatchObject({ status: 404 });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(loads(ports[0])).toEqual([]);
    early.dispose();
    expect(ports[0].terminated).toBe(true);
  });

  it('asks the tile worker for each tile of a first view deeper than the prebuilt levels', () => {
    const { ports, fetch } = browserStubs();
    const viewport = { width: 390, height: 844 };
    const early = startEarlyTiles(MAPS.customs, manifest('customs'), viewport, 3, '')!;
    expect(fetch).not.toHaveBeenCalled();
    expect(loads(ports[0])).toHaveLength(firstViewTileUrls(MAPS.customs, manifest('customs'), viewport, 3, '').length);
    early.dispose();
  });
});
