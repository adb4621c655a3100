// @vitest-environment jsdom
/**
 * The first view's tiles from one bundle: the same tiles as firstViewTileUrls lists, one request
 * for all of them, each decoded from its bytes; a tile the bundle lacks, a bundle that fails or
 * cannot be read, and other tiles are fetched alone; a bundle answered 404 fails its tiles as
 * their 404s would; a tile aborted or never asked for is closed.
 */
import { describe, expect, it, vi } from 'vitest';
import { MAPS } from '../domain/maps';
import { encodeTileBundle } from '../domain/tile-bundle';
import { firstViewBundle, firstViewTileUrls, type FirstViewBundle } from './early-tiles';
import { BundledTileFetcher, type BundleIo } from './tile-bundle-fetch';
import { TileHttpError } from './tile-response';
import { testTileManifest } from './testing/tile-manifest';

const manifest = testTileManifest;

interface FakeBitmap {
  label: string;
  closed: boolean;
  close(): void;
}
const bitmapOf = (bytes: Uint8Array): FakeBitmap => ({
  label: `decoded ${[...bytes].join(',')}`,
  closed: false,
  close() {
    this.closed = true;
  },
});
const fromFallback = (url: string): FakeBitmap => ({
  label: `fetched ${url}`,
  closed: false,
  close() {
    this.closed = true;
  },
});

const body = (tiles: (Uint8Array | null)[]) => {
  const bytes = encodeTileBundle(tiles);
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
};

/** A fetcher over a bundle of three tiles (the second missing), with the IO and the fallback recorded. */
function setup(load: () => Promise<ArrayBuffer> = () => Promise.resolve(body([Uint8Array.of(1), null, Uint8Array.of(3)]))) {
  const bundle: FirstViewBundle = { url: 'http://host/bundle.bin', entries: ['http://host/a.webp', 'http://host/b.webp', 'http://host/c.webp'] };
  const io: BundleIo = { load: vi.fn(load), decode: vi.fn(async (bytes: Uint8Array) => bitmapOf(bytes) as unknown as ImageBitmap) };
  const fallback = vi.fn(async (url: string) => fromFallback(url) as unknown as ImageBitmap);
  const fetcher = new BundledTileFetcher(bundle, fallback, io);
  const signal = () => new AbortController().signal;
  const label = async (p: Promise<ImageBitmap>) => ((await p) as unknown as FakeBitmap).label;
  return { fetcher, io, fallback, signal, label };
}

describe('firstViewBundle', () => {
  it.each([
    ['customs', { width: 1280, height: 800 }, 1],
    ['interchange', { width: 1920, height: 1080 }, 1],
    ['factory', { width: 800, height: 600 }, 1],
  ] as const)('holds exactly the tiles the first view asks for on %s at %o ×%d', (map, viewport, dpr) => {
    const bundle = firstViewBundle(MAPS[map], manifest(map), viewport, dpr, 'http://host')!;
    expect(bundle.url).toMatch(new RegExp(`^http://host/tiles/${map}/v3/bundle/[\\w,]+/\\d/\\d+-\\d+/\\d+-\\d+\\.bin$`));
    expect([...bundle.entries].sort()).toEqual([...firstViewTileUrls(MAPS[map], manifest(map), viewport, dpr, 'http://host')].sort());
  });

  it.each([
    ['customs', { width: 390, height: 844 }, 3],
    ['factory', { width: 800, height: 600 }, 2],
  ] as const)('is null where the first view is deeper than the prebuilt levels (%s at %o ×%d: the tiles go one by one)', (map, viewport, dpr) => {
    expect(firstViewTileUrls(MAPS[map], manifest(map), viewport, dpr, '').length).toBeGreaterThan(0);
    expect(firstViewBundle(MAPS[map], manifest(map), viewport, dpr, '')).toBeNull();
  });

  it('is null where the first view is empty, or its level is not prebuilt on this server', () => {
    expect(firstViewBundle(MAPS.customs, { ...manifest('customs'), prebuiltMaxZ: 1 }, { width: 1280, height: 800 }, 1, '')).toBeNull();
    expect(firstViewBundle(MAPS.customs, manifest('customs'), { width: 0, height: 800 }, 1, '')).toBeNull();
  });
});

describe('BundledTileFetcher', () => {
  it('loads the bundle once and hands each tile its own bytes, decoded', async () => {
    const { fetcher, io, fallback, signal, label } = setup();
    expect(await label(fetcher.fetch('http://host/a.webp', signal()))).toBe('decoded 1');
    expect(await label(fetcher.fetch('http://host/c.webp', signal()))).toBe('decoded 3');
    expect(io.load).toHaveBeenCalledTimes(1);
    expect(io.load).toHaveBeenCalledWith('http://host/bundle.bin');
    expect(fallback).not.toHaveBeenCalled();
  });

  it('fetches alone a tile the bundle lacks, a tile asked for twice, and a tile not in it', async () => {
    const { fetcher, fallback, signal, label } = setup();
    expect(await label(fetcher.fetch('http://host/b.webp', signal()))).toBe('fetched http://host/b.webp');
    await fetcher.fetch('http://host/a.webp', signal());
    expect(await label(fetcher.fetch('http://host/a.webp', signal()))).toBe('fetched http://host/a.webp');
    expect(await label(fetcher.fetch('http://host/z.webp', signal()))).toBe('fetched http://host/z.webp');
    expect(fallback).toHaveBeenCalledTimes(3);
  });

  it.each([
    ['fails', () => Promise.reject(new Error('HTTP 500'))],
    ['answers another HTTP error', () => Promise.reject(new TileHttpError('http://host/bundle.bin', 503))],
    ['is not a bundle', () => Promise.resolve(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]).buffer)],
    ['holds another number of tiles', () => Promise.resolve(body([Uint8Array.of(1)]))],
  ])('fetches every tile alone when the bundle %s', async (_, load) => {
    const { fetcher, fallback, signal, label } = setup(load);
    expect(await label(fetcher.fetch('http://host/a.webp', signal()))).toBe('fetched http://host/a.webp');
    expect(await label(fetcher.fetch('http://host/c.webp', signal()))).toBe('fetched http://host/c.webp');
    expect(fallback).toHaveBeenCalledTimes(2);
  });

  it("fails every tile of a bundle answered 404 as the tile's own 404 would, fetching none alone (its version is gone)", async () => {
    const { fetcher, fallback, signal } = setup(() => Promise.reject(new TileHttpError('http://host/bundle.bin', 404)));
    for (const url of ['http://host/a.webp', 'http://host/c.webp']) {
      const failure = await fetcher.fetch(url, signal()).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(TileHttpError);
      expect(failure).toMatchObject({ url, status: 404 });
    }
    expect(fallback).not.toHaveBeenCalled();
    // A tile not in the bundle is still fetched alone.
    await fetcher.fetch('http://host/z.webp', signal());
    expect(fallback).toHaveBeenCalledTimes(1);
  });

  it('fetches alone a tile whose bytes do not decode', async () => {
    const { fetcher, io, signal, label } = setup();
    vi.mocked(io.decode).mockRejectedValueOnce(new Error('not an image'));
    expect(await label(fetcher.fetch('http://host/a.webp', signal()))).toBe('fetched http://host/a.webp');
  });

  it('closes a tile aborted before it came, and rejects with an AbortError', async () => {
    const { fetcher, io } = setup();
    const controller = new AbortController();
    const request = fetcher.fetch('http://host/a.webp', controller.signal);
    controller.abort();
    await expect(request).rejects.toMatchObject({ name: 'AbortError' });
    const decoded = (await vi.mocked(io.decode).mock.results[0].value) as FakeBitmap;
    expect(decoded.closed).toBe(true);
  });

  it('closes the tiles nobody asked for once disposed', async () => {
    const { fetcher, io, signal } = setup();
    await fetcher.fetch('http://host/a.webp', signal());
    fetcher.dispose();
    await vi.waitFor(() => expect(io.decode).toHaveBeenCalledTimes(2));
    const [taken, left] = (await Promise.all(vi.mocked(io.decode).mock.results.map((r) => r.value))) as FakeBitmap[];
    await Promise.resolve();
    expect(taken.closed).toBe(false);
    expect(left.closed).toBe(true);
  });
});
