/**
 * The on-demand tile cache's budget and the per-address render limit (issue 9, defect 3),
 * through the /tiles routes on the real sample map of factory.
 */
import { promises as fs, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAPS } from '../../src/domain/maps';
import { buildServer } from '../app';
import { migrateToLatest } from '../db';
import { testBackends } from '../testing/databases';
import { PREBUILT_MAX_Z, type TileManifest } from '../../src/domain/tiles';
import { disposeNormalizer } from './normalize';
import { FALLBACK_CACHE_CONTROL, TILE_CACHE_CONTROL, tilesPlugin } from './plugin';
import { RenderLimiter } from './render-limit';
import { TileStore, getTileStore } from './store';
import { tilePixelRect } from './tile-math';

let root: string;
const apps: FastifyInstance[] = [];

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'raidmap-tile-cache-'));
});

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

afterAll(async () => {
  await disposeNormalizer();
  rmSync(root, { recursive: true, force: true });
});

/** A tiles app on its own folders; `limiter` and `maxBytes` as given. */
async function tilesApp(name: string, options: { limiter?: RenderLimiter; maxBytes?: number; memoryBytes?: number } = {}) {
  const dirs = { assetsDir: path.join(root, name, 'assets'), tilesDir: path.join(root, name, 'tiles') };
  const app = Fastify();
  apps.push(app);
  await app.register(tilesPlugin, {
    ...dirs,
    cache: options.maxBytes !== undefined || options.memoryBytes !== undefined ? { maxBytes: options.maxBytes, memoryBytes: options.memoryBytes } : undefined,
    renderLimit: options.limiter ?? { perMinute: 10_000 },
  });
  const manifest = (await app.inject({ url: '/tiles/factory/manifest.json' })).json() as TileManifest;
  const store = getTileStore(dirs);
  const get = (layer: string, z: number, x: number, y: number, remoteAddress = '10.0.0.1') =>
    app.inject({ url: `/tiles/factory/${manifest.version}/${layer}/${z}/${x}/${y}.webp`, remoteAddress });
  return { app, dirs, manifest, store, get };
}

/** Tile files on disk by level: `{ file, bytes }`, for levels matching `which`. */
async function tilesOnDisk(tilesDir: string, which: (z: number) => boolean): Promise<{ file: string; bytes: number }[]> {
  const out: { file: string; bytes: number }[] = [];
  const walk = async (dir: string, depth: number, z?: number): Promise<void> => {
    for (const entry of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(dir, entry.name);
      // {map}/{version}/{layer}/{z}/{x}/{y}.webp: z is at depth 3.
      if (entry.isDirectory()) await walk(full, depth + 1, depth === 3 ? Number(entry.name) : z);
      else if (entry.name.endsWith('.webp') && z !== undefined && which(z)) out.push({ file: full, bytes: (await fs.stat(full)).size });
    }
  };
  await walk(tilesDir, 0);
  return out;
}

const sum = (files: { bytes: number }[]) => files.reduce((n, f) => n + f.bytes, 0);
const deep = (z: number) => z > PREBUILT_MAX_Z;

describe('on-demand tile cache budget', () => {
  it('evicts the least recently used on-demand tiles past the budget, never prebuilt levels', async () => {
    const { dirs, store, get, manifest } = await tilesApp('lru');
    const fileOf = (z: number, x: number, y: number) => store.tileFile('factory', manifest.version, 'main', { z, x, y });
    // Two metatiles of level 4 (tiles 0..3 and 4..7 of row 4), and a prebuilt-level tile.
    expect((await get('main', 4, 5, 5)).statusCode).toBe(200);
    expect((await get('main', 4, 1, 5)).statusCode).toBe(200);
    expect((await get('main', 2, 1, 1)).statusCode).toBe(200);
    const afterTwo = store.stats();
    expect(afterTwo).toMatchObject({ onDemandRenders: 3, cacheFiles: 32 });
    expect(afterTwo.cacheBytes).toBe(sum(await tilesOnDisk(dirs.tilesDir, deep)));
    const prebuilt = await tilesOnDisk(dirs.tilesDir, (z) => !deep(z));
    expect(prebuilt.length).toBeGreaterThan(0);

    // Tile (4, 5) of the first metatile is used again: now newer than the whole second one.
    const used = fileOf(4, 5, 5);
    expect((await get('main', 4, 5, 5)).statusCode).toBe(200);

    // Budget: what is on disk now. A third metatile goes over it.
    store.configureCache({ maxBytes: afterTwo.cacheBytes });
    expect((await get('main', 4, 9, 5)).statusCode).toBe(200);
    await store.evictIfNeeded();
    const left = await tilesOnDisk(dirs.tilesDir, deep);
    const stats = store.stats();
    expect(sum(left)).toBeLessThanOrEqual(afterTwo.cacheBytes);
    expect(stats.cacheBytes).toBe(sum(left));
    expect(stats.evictedFiles).toBeGreaterThan(0);
    expect(stats.evictedFiles + stats.cacheFiles).toBe(48);
    const names = new Set(left.map((f) => f.file));
    // The tile used again and every tile of the newest metatile survive; the first metatile's
    // other tiles (used longest ago) went first.
    expect(names.has(used)).toBe(true);
    const newest = Array.from({ length: 16 }, (_, i) => fileOf(4, 8 + (i % 4), 4 + Math.floor(i / 4)));
    for (const file of newest) expect(names.has(file), file).toBe(true);
    const firstOthers = Array.from({ length: 16 }, (_, i) => ({ x: 4 + (i % 4), y: 4 + Math.floor(i / 4) })).filter((t) => !(t.x === 5 && t.y === 5));
    for (const t of firstOthers) expect(names.has(fileOf(4, t.x, t.y)), `${t.x},${t.y}`).toBe(false);

    // A budget of 0 keeps no on-demand tile; the prebuilt levels stay.
    store.configureCache({ maxBytes: 0 });
    await store.evictIfNeeded();
    expect(await tilesOnDisk(dirs.tilesDir, deep)).toEqual([]);
    expect(await tilesOnDisk(dirs.tilesDir, (z) => !deep(z))).toEqual(prebuilt);
    // An evicted tile is gone from memory too, and rendered again on request.
    const rendersBefore = store.stats().onDemandRenders;
    const again = await get('main', 4, 5, 5);
    expect(again.statusCode).toBe(200);
    expect(again.headers['cache-control']).toBe(TILE_CACHE_CONTROL);
    expect(store.stats().onDemandRenders).toBe(rendersBefore + 1);
  });

  it('finds the tiles a previous run left on disk and holds them to the budget', async () => {
    const { dirs, store, get } = await tilesApp('restart');
    expect((await get('main', 4, 5, 5)).statusCode).toBe(200);
    expect((await get('main', 5, 10, 10)).statusCode).toBe(200);
    const before = await tilesOnDisk(dirs.tilesDir, deep);
    expect(store.stats().cacheBytes).toBe(sum(before));
    // A new process: a new store over the same folders, half the bytes as its budget.
    const next = new TileStore({ ...dirs, cache: { maxBytes: Math.floor(sum(before) / 2) } });
    await next.scanCache();
    expect(next.stats()).toMatchObject({ cacheFiles: before.length });
    await next.evictIfNeeded();
    const after = await tilesOnDisk(dirs.tilesDir, deep);
    expect(sum(after)).toBeLessThanOrEqual(sum(before) / 2);
    expect(next.stats().cacheBytes).toBe(sum(after));
  });
});

describe('hot tiles in memory (TILE_MEMORY_MB)', () => {
  it('answers a tile served before from memory, the same bytes, without reading its file', async () => {
    const { store, get, manifest } = await tilesApp('memory');
    const first = await get('main', 2, 1, 1);
    expect(first.statusCode).toBe(200);
    const held = store.stats();
    expect(held.memoryFiles).toBeGreaterThan(0);
    expect(held.memoryBytes).toBeGreaterThanOrEqual(first.rawPayload.length);
    // The file is gone from disk: only memory can answer with its bytes.
    await fs.rm(store.tileFile('factory', manifest.version, 'main', { z: 2, x: 1, y: 1 }));
    const second = await get('main', 2, 1, 1);
    expect(second.statusCode).toBe(200);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(second.headers['cache-control']).toBe(TILE_CACHE_CONTROL);
    expect(store.stats()).toMatchObject({ memoryHits: held.memoryHits + 1, onDemandRenders: held.onDemandRenders });
  });

  it('keeps a rendered on-demand tile in memory too', async () => {
    const { store, get } = await tilesApp('memory-render');
    const rendered = await get('main', 4, 5, 5);
    expect(rendered.statusCode).toBe(200);
    const hits = store.stats().memoryHits;
    const again = await get('main', 4, 5, 5);
    expect(again.rawPayload.equals(rendered.rawPayload)).toBe(true);
    expect(store.stats()).toMatchObject({ memoryHits: hits + 1, onDemandRenders: 1 });
  });

  it('keeps nothing with a budget of 0, and reads every tile from disk', async () => {
    const { store, get } = await tilesApp('memory-off', { memoryBytes: 0 });
    for (let i = 0; i < 3; i++) expect((await get('main', 2, 1, 1)).statusCode).toBe(200);
    expect(store.stats()).toMatchObject({ memoryFiles: 0, memoryBytes: 0, memoryMaxBytes: 0, memoryHits: 0 });
  });

  it('answers many requests for one tile at once with the same bytes', async () => {
    const { get } = await tilesApp('memory-concurrent');
    const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => get('main', 2, i % 4, 1)));
    for (const answer of answers) expect(answer.statusCode).toBe(200);
    for (let i = 4; i < answers.length; i++) expect(answers[i].rawPayload.equals(answers[i % 4].rawPayload)).toBe(true);
  });
});

describe('per-address limit on uncached renders', () => {
  it('answers a refused render with the nearest cached parent, scaled, or 429 JSON with Retry-After', async () => {
    let now = 0;
    const limiter = new RenderLimiter({ perMinute: 2, burst: 1, now: () => now });
    const { store, get } = await tilesApp('limit', { limiter });
    // The first uncached render of 10.0.0.1 goes through.
    const first = await get('main', 5, 10, 10);
    expect(first.statusCode).toBe(200);
    // The same tile again is on disk: no render, no token needed.
    expect((await get('main', 5, 10, 10)).statusCode).toBe(200);
    // Another uncached tile: no parent on disk → 429 JSON with Retry-After, not an error page.
    const refused = await get('main', 5, 20, 20);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['content-type']).toMatch(/application\/json/);
    expect(refused.headers['retry-after']).toBe('30');
    expect(refused.json()).toMatchObject({ error: 'Too Many Requests', message: expect.stringMatching(/try tile factory\/main\/5\/20\/20 again in 30 s/) });
    // Another address renders the overview (level 0).
    expect((await get('main', 0, 0, 0, '10.0.0.2')).statusCode).toBe(200);
    // Now 10.0.0.1's refused tile comes from level 0, cut and scaled to the tile's size.
    const stand = await get('main', 5, 20, 20);
    expect(stand.statusCode).toBe(200);
    expect(stand.headers['content-type']).toBe('image/webp');
    expect(stand.headers['cache-control']).toBe(FALLBACK_CACHE_CONTROL);
    // Never stored under the real tile's URL (which the page asks for again), and says when to ask.
    expect(FALLBACK_CACHE_CONTROL).toBe('no-store');
    expect(stand.headers['cache-control']).not.toMatch(/max-age|immutable|public/);
    expect(stand.headers['retry-after']).toBe('30');
    expect(stand.headers['x-tile-fallback']).toBe('0/0/0');
    const meta = await sharp(stand.rawPayload).metadata();
    const rect = tilePixelRect(MAPS.factory.size.width, MAPS.factory.size.height, { z: 5, x: 20, y: 20 });
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', rect.width, rect.height]);
    // Its metatile's tiles were not rendered.
    expect(store.stats()).toMatchObject({ onDemandRenders: 2, refusedRenders: 2, fallbackTiles: 1 });
    // A nearer parent is preferred: level 4 of tile (10, 10)'s metatile is on disk after this.
    now += 30_000;
    expect((await get('main', 4, 10, 10)).statusCode).toBe(200);
    const nearer = await get('main', 5, 21, 21);
    expect(nearer.statusCode).toBe(200);
    expect(nearer.headers['x-tile-fallback']).toBe('4/10/10');
    // After the refill, the render goes through.
    now += 30_000;
    const later = await get('main', 5, 20, 20);
    expect(later.statusCode).toBe(200);
    expect(later.headers['cache-control']).toBe(TILE_CACHE_CONTROL);
    expect(later.headers['x-tile-fallback']).toBeUndefined();
    expect(later.headers['retry-after']).toBeUndefined();
  });

  it('keeps 400 and 404 for bad addresses, before any limit', async () => {
    const limiter = new RenderLimiter({ perMinute: 0, now: () => 0 });
    const { app, manifest } = await tilesApp('limit-bad', { limiter });
    expect((await app.inject({ url: `/tiles/factory/${manifest.version}/main/4/x/1.webp` })).statusCode).toBe(400);
    expect((await app.inject({ url: `/tiles/factory/${manifest.version}/main/99/1/1.webp` })).statusCode).toBe(404);
    expect((await app.inject({ url: `/tiles/factory/${manifest.version}/nope/4/1/1.webp` })).statusCode).toBe(404);
  });
});

describe('settings through buildServer', () => {
  it('passes TILE_RENDERS_PER_MINUTE, TILE_CACHE_MAX_MB and TILE_MEMORY_MB to the routes, and shows the figures in the metrics', async () => {
    const db = await testBackends()[0].open();
    await migrateToLatest(db);
    const token = 't'.repeat(40);
    const app = buildServer({
      db,
      uploadsDir: path.join(root, 'wired', 'uploads'),
      distDir: path.join(root, 'wired', 'dist'),
      assetsDir: path.join(root, 'wired', 'assets'),
      tilesDir: path.join(root, 'wired', 'tiles'),
      tileCache: { maxBytes: 0, memoryBytes: 8 * 1024 * 1024, rendersPerMinute: 0 },
      metricsToken: token,
    });
    apps.push(app);
    try {
      const manifest = (await app.inject({ url: '/tiles/factory/manifest.json' })).json() as TileManifest;
      const refused = await app.inject({ url: `/tiles/factory/${manifest.version}/main/4/1/1.webp` });
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('60');
      const stats = getTileStore({ assetsDir: path.join(root, 'wired', 'assets'), tilesDir: path.join(root, 'wired', 'tiles') }).stats();
      expect([stats.cacheMaxBytes, stats.memoryMaxBytes]).toEqual([0, 8 * 1024 * 1024]);
      const metrics = await app.inject({ url: '/api/be/metrics', headers: { authorization: `Bearer ${token}` } });
      expect(metrics.statusCode).toBe(200);
      expect(metrics.body).toMatch(/^raidmap_tile_renders_refused_total 1$/m);
      expect(metrics.body).toMatch(/^raidmap_tile_cache_bytes 0$/m);
      expect(metrics.body).toMatch(/^raidmap_tile_memory_hits_total 0$/m);
      expect(metrics.body).toMatch(/^raidmap_tile_memory_bytes 0$/m);
    } finally {
      await app.close();
      apps.splice(apps.indexOf(app), 1);
      await db.close();
    }
  });
});
