// @vitest-environment jsdom
/**
 * Early tiles: the URLs asked for before the engine starts are the ones the engine's tile layer
 * asks for first (same camera, same tile math, same floors); the layer takes each early request
 * once; a taken request is the layer's to cancel; the untaken ones are cancelled in the worker,
 * or closed when they arrive, once released.
 */
import { describe, expect, it } from 'vitest';
import { MAPS } from '../domain/maps';
import { EarlyTiles, firstViewTileUrls } from './early-tiles';
import { Camera } from './camera';
import { TileLayer } from './tile-layer';
import { WorkerTileFetcher, type TileWorkerRequest } from './tile-fetch-protocol';
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
    const port = fakeTilePort();
    const early = new EarlyTiles(new WorkerTileFetcher(port, 'http://host/'), 'customs', ['/tiles/a', '/tiles/b', '/tiles/a']);
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
    const port = fakeTilePort();
    const early = new EarlyTiles(new WorkerTileFetcher(port, 'http://host/'), 'customs', ['/tiles/a']);
    const controller = new AbortController();
    const a = early.fetch('/tiles/a', controller.signal);
    controller.abort();
    await expect(a).rejects.toMatchObject({ name: 'AbortError' });
    expect(cancels(port)).toEqual([loads(port)[0].id]);
  });

  it('on release, cancels the untaken requests still in the worker and closes those that arrived', async () => {
    const port = fakeTilePort();
    const early = new EarlyTiles(new WorkerTileFetcher(port, 'http://host/'), 'customs', ['/tiles/a', '/tiles/b', '/tiles/c']);
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
    const port = fakeTilePort();
    const early = new EarlyTiles(new WorkerTileFetcher(port, 'http://host/'), 'customs', ['/tiles/a']);
    early.dispose();
    expect(port.terminated).toBe(true);
    expect(cancels(port)).toHaveLength(1);
  });
});
