// @vitest-environment jsdom
/**
 * TileLayer and tiles that are drawn but are not the real ones:
 * - a stand-in (`X-Tile-Fallback`) is drawn at once, asked for again after a growing wait (never
 *   sooner than Retry-After), only while it is wanted, and the real tile replaces it in place;
 * - a 404 of a tile of the layer's version reads the manifest; a new version of the same pyramid
 *   is switched to (old requests dropped, drawn tiles kept until their new ones arrive), the same
 *   version changes nothing (and the manifest is not read again at once), another pyramid stops
 *   the requests.
 */
import type { Sprite } from 'pixi.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAPS } from '../domain/maps';
import type { TileManifest } from '../domain/tiles';
import type { ViewportSize } from './kernels/camera';
import { REFRESH_FIRST_MS } from './kernels/tile-refresh';
import { FAILED_RETRY_MS, LEVEL_SETTLE_MS, TileLayer, VERSION_CHECK_MS, VERSION_HOLD_MS } from './tile-layer';
import { markStandIn, TileHttpError } from './tile-response';
import { testTileManifest } from './testing/tile-manifest';
import type { CameraView } from './types';

const map = MAPS.customs;

interface FakeBitmap {
  width: number;
  height: number;
  closed: boolean;
  label: string;
  close(): void;
}
const bitmap = (label: string): FakeBitmap => ({
  width: 256,
  height: 256,
  closed: false,
  label,
  close() {
    this.closed = true;
  },
});

interface Asked {
  url: string;
  signal: AbortSignal;
  resolve: (b: ImageBitmap) => void;
  reject: (e: unknown) => void;
}

const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

function harness(options: { manifest?: TileManifest; fetchManifest?: () => Promise<unknown> } = {}) {
  let clock = 10_000;
  const asked: Asked[] = [];
  const fetchManifest = vi.fn(options.fetchManifest ?? (() => Promise.resolve(options.manifest ?? testTileManifest('customs'))));
  const layer = new TileLayer({
    map,
    manifest: options.manifest ?? testTileManifest('customs'),
    tileBase: 'http://host',
    budgetBytes: 1 << 30,
    now: () => clock,
    random: () => 0.5, // no spread: waits are exactly the schedule's
    fetchManifest,
    fetcher: (url, signal) => new Promise<ImageBitmap>((resolve, reject) => asked.push({ url, signal, resolve, reject })),
  });
  layer.setLevel(1); // only the base floor (main): one request per tile
  const viewport: ViewportSize = { width: 300, height: 300 };
  let view: CameraView = { x: 1000, y: 1000, zoom: 4 };
  const h = {
    layer,
    asked,
    fetchManifest,
    tick: (ms: number) => (clock += ms),
    now: () => clock,
    update: () => layer.update(view, viewport, 1, clock),
    look: (v: CameraView) => (view = v),
    /** Requests not answered yet, by URL. */
    open: () => asked.filter((a) => !a.signal.aborted && !(a as { done?: boolean }).done),
    answer: async (a: Asked, value: FakeBitmap | Error) => {
      (a as { done?: boolean }).done = true;
      if (value instanceof Error) a.reject(value);
      else a.resolve(value as unknown as ImageBitmap);
      await flush();
    },
    /** Every tile sprite of every floor. */
    sprites: () => layer.container.children.flatMap((floor) => (floor.children as unknown as { children: Sprite[] }[]).flatMap((level) => level.children)),
  };
  return h;
}

afterEach(() => vi.restoreAllMocks());

describe('TileLayer: stand-in tiles', () => {
  it('draws a stand-in at once, asks for the real tile after a growing wait, and swaps it in place', async () => {
    const h = harness();
    h.update();
    const first = h.open();
    expect(first.length).toBeGreaterThan(0);
    const url = first[0].url;
    // Every tile arrives; the first one as a stand-in (the server refused its render).
    await h.answer(first[0], markStandIn(bitmap('stand-in'), { from: '3/1/1' }));
    for (const a of first.slice(1)) await h.answer(a, bitmap('real'));
    h.tick(LEVEL_SETTLE_MS);
    const drawn = h.update();
    expect(drawn.missing).toBe(0);
    expect(drawn.settled).toBe(true);
    expect(h.layer.refreshing).toBe(1);
    // Not asked for again before its time, and the engine is told when to look again.
    expect(drawn.recheckInMs).toBeGreaterThan(0);
    expect(drawn.recheckInMs).toBeLessThanOrEqual(REFRESH_FIRST_MS);
    expect(h.open()).toEqual([]);
    const sprite = h.sprites().find((s) => (s.texture.source.resource as unknown as FakeBitmap).label === 'stand-in')!;
    expect(sprite.visible).toBe(true);

    // Due: asked for again (the same URL), once, and a stand-in again waits twice as long.
    h.tick(REFRESH_FIRST_MS);
    h.update();
    expect(h.open().map((a) => a.url)).toEqual([url]);
    h.update();
    expect(h.open()).toHaveLength(1);
    await h.answer(h.open()[0], markStandIn(bitmap('stand-in 2'), { from: '4/2/2' }));
    const again = h.update();
    expect(again.recheckInMs).toBe(2 * REFRESH_FIRST_MS);
    h.tick(2 * REFRESH_FIRST_MS - 1);
    h.update();
    expect(h.open()).toEqual([]);
    h.tick(1);
    h.update();
    expect(h.open().map((a) => a.url)).toEqual([url]);

    // The real tile: same sprite, new texture, nothing left to ask for.
    await h.answer(h.open()[0], bitmap('real at last'));
    const done = h.update();
    expect(h.layer.refreshing).toBe(0);
    expect(done.recheckInMs).toBe(0);
    expect((sprite.texture.source.resource as unknown as FakeBitmap).label).toBe('real at last');
    expect(sprite.visible).toBe(true);
    expect(sprite.destroyed).toBe(false);
    h.tick(120_000);
    h.update();
    expect(h.open()).toEqual([]);
    h.layer.dispose();
  });

  it('asks for a stand-in again only while it is wanted, and at once when it comes back into view after its time', async () => {
    const h = harness();
    h.update();
    const first = h.open();
    const url = first[0].url;
    await h.answer(first[0], markStandIn(bitmap('stand-in'), { from: '3/1/1' }));
    for (const a of first.slice(1)) await h.answer(a, bitmap('real'));
    h.tick(LEVEL_SETTLE_MS);
    h.update();
    // Away (another part of the map, same level) past its time: not asked for.
    h.look({ x: 3500, y: 2500, zoom: 4 });
    h.update();
    for (const a of h.open()) await h.answer(a, bitmap('elsewhere'));
    h.tick(5 * REFRESH_FIRST_MS);
    h.update();
    expect(h.asked.filter((a) => a.url === url)).toHaveLength(1);
    // Back: asked for at once.
    h.look({ x: 1000, y: 1000, zoom: 4 });
    h.update();
    expect(h.open().map((a) => a.url)).toEqual([url]);
    h.layer.dispose();
  });

  it('waits for the server’s Retry-After when it is longer, and backs off after a failed retry', async () => {
    const h = harness();
    h.update();
    const first = h.open();
    const url = first[0].url;
    h.tick(LEVEL_SETTLE_MS);
    await h.answer(first[0], markStandIn(bitmap('stand-in'), { from: '3/1/1', retryAfterMs: 30_000 }));
    for (const a of first.slice(1)) await h.answer(a, bitmap('real'));
    expect(h.update().recheckInMs).toBe(30_000);
    h.tick(29_999);
    h.update();
    expect(h.open()).toEqual([]);
    h.tick(1);
    h.update();
    expect(h.open().map((a) => a.url)).toEqual([url]);
    // The retry fails (the server is away): the stand-in stays drawn, the next try waits longer.
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await h.answer(h.open()[0], new TileHttpError(url, 503));
    const after = h.update();
    expect(h.layer.refreshing).toBe(1);
    expect(after.recheckInMs).toBeGreaterThanOrEqual(FAILED_RETRY_MS);
    expect(h.sprites().some((s) => s.visible && (s.texture.source.resource as unknown as FakeBitmap).label === 'stand-in')).toBe(true);
    h.layer.dispose();
  });
});

describe('TileLayer: tiles that failed while the map stands still', () => {
  it('says when to look again for a wanted tile that failed, wakes the engine on the failure, and asks again then', async () => {
    const h = harness();
    const woken = vi.fn();
    h.layer.attach({ onTile: woken, upload: () => undefined });
    h.update();
    h.tick(LEVEL_SETTLE_MS);
    h.update();
    const asked = h.open();
    expect(asked.length).toBeGreaterThan(1);
    // The server is away: every tile fails. Each failure wakes the engine to plan again.
    for (const a of asked) await h.answer(a, new TileHttpError(a.url, 503));
    expect(woken).toHaveBeenCalled();
    const failed = h.update();
    expect(failed.missing).toBeGreaterThan(0);
    expect(h.open()).toEqual([]);
    // The camera does not move, yet the engine is told to look again when the retries are due.
    expect(failed.recheckInMs).toBeGreaterThan(0);
    expect(failed.recheckInMs).toBeLessThanOrEqual(FAILED_RETRY_MS);
    h.tick(failed.recheckInMs);
    h.update();
    expect(h.open().map((a) => a.url).sort()).toEqual(asked.map((a) => a.url).sort());
  });
});

describe('TileLayer: a replaced drawing (404 of the layer’s version)', () => {
  const v4 = { ...testTileManifest('customs'), version: 'v4' };

  async function drawnThen404(h: ReturnType<typeof harness>) {
    h.update();
    const first = h.open();
    // All but the last tile arrive; the last is gone (404) with its version.
    for (const a of first.slice(0, -1)) await h.answer(a, bitmap('v3'));
    await h.answer(first.at(-1)!, new TileHttpError(first.at(-1)!.url, 404));
    return first;
  }

  it('reads the manifest, switches to the new version and asks for every wanted tile of it, keeping the old ones drawn meanwhile', async () => {
    const h = harness({ fetchManifest: () => Promise.resolve(v4) });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
    h.update();
    const first = h.open();
    expect(first.every((a) => a.url.includes('/customs/v3/'))).toBe(true);
    // Half arrive, one is gone, the rest are still on their way when the version changes.
    const half = Math.floor(first.length / 2);
    for (const a of first.slice(0, half)) await h.answer(a, bitmap('v3'));
    await h.answer(first[half], new TileHttpError(first[half].url, 404));
    expect(h.fetchManifest).toHaveBeenCalledTimes(1);
    expect(h.layer.manifest.version).toBe('v4');
    // The old version's requests are dropped.
    expect(first.slice(half + 1).every((a) => a.signal.aborted)).toBe(true);
    h.tick(LEVEL_SETTLE_MS);
    const state = h.update();
    expect(state.drawn).toBeGreaterThanOrEqual(half);
    const next = h.open();
    expect(next.length).toBe(first.length);
    expect(next.every((a) => a.url.includes('/customs/v4/'))).toBe(true);
    expect(new Set(next.map((a) => a.url.replace('/v4/', '/v3/')))).toEqual(new Set(first.map((a) => a.url)));
    // The old tiles are drawn until their new ones come, then replaced in place.
    const before = h.sprites().filter((s) => s.visible).length;
    expect(before).toBe(half);
    for (const a of next) await h.answer(a, bitmap('v4'));
    h.update();
    expect(h.layer.refreshing).toBe(0);
    const visible = h.sprites().filter((s) => s.visible);
    expect(visible.length).toBe(first.length);
    expect(visible.every((s) => (s.texture.source.resource as unknown as FakeBitmap).label === 'v4')).toBe(true);
    h.layer.dispose();
  });

  it('starts no request of its version while the manifest is read for a 404 (they would be 404s too), then asks for the new one', async () => {
    let answerManifest: (m: unknown) => void = () => undefined;
    const h = harness({ fetchManifest: () => new Promise((resolve) => (answerManifest = resolve)) });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
    h.layer.endStartup(); // a few requests at a time: the rest wait in the loader's queue
    h.update();
    const first = h.open();
    expect(first.length).toBeGreaterThan(0);
    // The first is gone; the others on their way are gone too.
    for (const a of first) await h.answer(a, new TileHttpError(a.url, 404));
    expect(h.fetchManifest).toHaveBeenCalledTimes(1);
    const held = h.update();
    expect(h.asked.filter((a) => a.url.includes('/v3/')), 'requests of the gone version').toHaveLength(first.length);
    expect(held.recheckInMs).toBeGreaterThan(0);
    answerManifest(v4);
    await flush();
    h.tick(LEVEL_SETTLE_MS);
    h.update();
    expect(h.open().length).toBeGreaterThan(0);
    expect(h.open().every((a) => a.url.includes('/v4/'))).toBe(true);
    expect(h.asked.filter((a) => a.url.includes('/v3/'))).toHaveLength(first.length);
    h.layer.dispose();
  });

  it('asks again when the manifest does not come within VERSION_HOLD_MS', async () => {
    const h = harness({ fetchManifest: () => new Promise(() => undefined) });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    h.layer.endStartup();
    h.update();
    const first = h.open();
    await h.answer(first[0], new TileHttpError(first[0].url, 404));
    const asked = h.asked.length;
    const held = h.update();
    expect(held.recheckInMs).toBeGreaterThan(0);
    expect(held.recheckInMs).toBeLessThanOrEqual(VERSION_HOLD_MS);
    expect(h.asked.length).toBe(asked);
    h.tick(VERSION_HOLD_MS);
    h.update();
    expect(h.asked.length).toBeGreaterThan(asked);
    h.layer.dispose();
  });

  it('keeps its version when the manifest has the same one, and reads it again only after a while', async () => {
    const h = harness();
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const first = await drawnThen404(h);
    expect(h.fetchManifest).toHaveBeenCalledTimes(1);
    expect(h.layer.manifest.version).toBe('v3');
    // The tile is asked for again after the usual wait, and its next 404 does not read the manifest yet.
    h.tick(FAILED_RETRY_MS);
    h.update();
    const retry = h.open();
    expect(retry.map((a) => a.url)).toEqual([first.at(-1)!.url]);
    await h.answer(retry[0], new TileHttpError(retry[0].url, 404));
    expect(h.fetchManifest).toHaveBeenCalledTimes(1);
    h.tick(VERSION_CHECK_MS);
    h.update();
    await h.answer(h.open()[0], new TileHttpError(retry[0].url, 404));
    expect(h.fetchManifest).toHaveBeenCalledTimes(2);
    h.layer.dispose();
  });

  it('stops asking for tiles when the new manifest is of another pyramid (a new build: the page needs a reload)', async () => {
    const h = harness({ fetchManifest: () => Promise.resolve({ ...v4, layers: ['main'] }) });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await drawnThen404(h);
    expect(h.layer.outdated).toBe(true);
    expect(h.layer.manifest.version).toBe('v3');
    h.tick(FAILED_RETRY_MS);
    h.look({ x: 3000, y: 2000, zoom: 4 });
    h.update();
    expect(h.open()).toEqual([]);
    h.layer.dispose();
  });

  it('ignores a manifest that cannot be read, or is malformed', async () => {
    const h = harness({ fetchManifest: () => Promise.resolve({ map: 'customs', version: 'v9' }) });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await drawnThen404(h);
    expect(h.layer.manifest.version).toBe('v3');
    expect(h.layer.outdated).toBe(false);
    expect(warn.mock.calls.some((c) => String(c[0]).includes('manifest'))).toBe(true);
    h.layer.dispose();
  });
});

describe('TileLayer: the coarsest level stands in after a jump', () => {
  const isBase = (url: string) => /\/main\/0\/\d+\/\d+\.webp$/.test(url);

  it('once ready, loads the base level of the shown floor last, keeps it, and draws it where a jump lands before its tiles arrive', async () => {
    const h = harness();
    h.update();
    // Starting up: only the view's tiles (zoom 4, level 5 here), no base.
    expect(h.open().some((a) => isBase(a.url))).toBe(false);
    for (const a of h.open()) await h.answer(a, bitmap('view'));
    h.layer.endStartup();
    h.tick(LEVEL_SETTLE_MS);
    h.update();
    const base = h.open();
    // customs at z 0: 4400 × 3200 / 8 → 3 × 2 tiles, of the main floor only (the others are hidden).
    expect(base.map((a) => a.url).filter(isBase)).toHaveLength(6);
    expect(base.every((a) => isBase(a.url))).toBe(true);
    for (const a of base) await h.answer(a, bitmap('base'));
    // A jump across the map: its tiles are asked for, the base is drawn under them meanwhile.
    h.look({ x: 4000, y: 3000, zoom: 4 });
    h.tick(LEVEL_SETTLE_MS);
    const after = h.update();
    expect(after.missing).toBeGreaterThan(0);
    expect(h.open().length).toBeGreaterThan(0);
    expect(h.open().some((a) => isBase(a.url))).toBe(false);
    const drawnBase = h.sprites().filter((s) => s.visible && (s.texture.source.resource as unknown as FakeBitmap).label === 'base');
    expect(drawnBase.length).toBeGreaterThan(0);
  });

  it('does not load a base for floors drawn faint (other levels) and never asks for a failed base tile in a loop', async () => {
    const h = harness();
    h.update();
    for (const a of h.open()) await h.answer(a, bitmap('view'));
    h.layer.endStartup();
    h.tick(LEVEL_SETTLE_MS);
    h.update();
    const base = h.open();
    expect(base.every((a) => /\/main\//.test(a.url))).toBe(true);
    for (const a of base) await h.answer(a, new TileHttpError(a.url, 500));
    h.update();
    expect(h.open()).toEqual([]);
  });
});
