import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAPS } from '../src/domain/maps';
import { markerSchema, type Marker } from '../src/domain/marker';
import { buildServer } from './app';
import { createRepositories, migrateToLatest, type Db, type Repositories } from './db';
import { seedIfEmpty } from './seed';
import { tempDir, testBackends } from './testing/databases';

const SPEC_MARKER_FIELDS = ['uid', 'map', 'category', 'subCategory', 'level', 'geometry', 'name', 'desc', 'imgs', 'name_l10n', 'desc_l10n', 'questUid', 'itemsUid'];

function makeDist(root: string): string {
  const dist = path.join(root, 'dist');
  fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>raidmap</title><div id="root"></div>');
  fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log("app")\n'.repeat(200));
  // A precompressed asset as the build writes it (scripts/vite/precompress.ts): the copies say which was sent.
  fs.writeFileSync(path.join(dist, 'assets', 'engine-def456.js'), 'console.log("engine")\n'.repeat(200));
  fs.writeFileSync(path.join(dist, 'assets', 'engine-def456.js.br'), zlib.brotliCompressSync('console.log("engine from br")\n'.repeat(200)));
  fs.writeFileSync(path.join(dist, 'assets', 'engine-def456.js.gz'), zlib.gzipSync('console.log("engine from gz")\n'.repeat(200)));
  fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dist;
}

function makeAssets(root: string): string {
  const assets = path.join(root, 'assets');
  fs.mkdirSync(path.join(assets, 'icons'), { recursive: true });
  fs.writeFileSync(path.join(assets, 'icons', 'safe.svg'), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"/>');
  return assets;
}

describe.each(testBackends())('HTTP API on $name', (backend) => {
  let app: FastifyInstance;
  let db: Db;
  let repos: Repositories;
  let root: string;
  let tilesDir: string;

  beforeAll(async () => {
    root = tempDir();
    db = await backend.open();
    await migrateToLatest(db);
    repos = createRepositories(db);
    const uploadsDir = path.join(root, 'data', 'uploads');
    await seedIfEmpty(db, repos, { maps: ['customs', 'factory'], markersPerMap: 320, uploadsDir });
    tilesDir = path.join(root, 'data', 'tiles');
    app = buildServer({ db, repos, uploadsDir, distDir: makeDist(root), assetsDir: makeAssets(root), tilesDir });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    await db.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  describe('GET /api/be/markers/list', () => {
    it('returns every field of the spec Marker for each marker of the map', async () => {
      const res = await app.inject({ url: '/api/be/markers/list?map=customs' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const { markers } = res.json() as { markers: Marker[] };
      expect(markers).toHaveLength(320);
      for (const m of markers) {
        for (const field of SPEC_MARKER_FIELDS) expect(m, field).toHaveProperty(field);
        expect(m.map).toBe('customs');
        expect(markerSchema.safeParse(m).success).toBe(true);
      }
      expect(markers.some((m) => m.imgs.length > 0 && m.imgs[0].img.startsWith('/uploads/sample/'))).toBe(true);
      expect(markers.some((m) => m.questUid)).toBe(true);
    });

    it('ignores any extra query string', async () => {
      const plain = await app.inject({ url: '/api/be/markers/list?map=customs' });
      const extra = await app.inject({ url: '/api/be/markers/list?map=customs&lang=ru&t=123&x[]=1&flag' });
      expect(extra.statusCode).toBe(200);
      expect(extra.body).toBe(plain.body);
    });

    it('answers 404 JSON for an unknown map', async () => {
      const res = await app.inject({ url: '/api/be/markers/list?map=atlantis' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Not Found', message: expect.stringContaining('unknown map "atlantis"') });
    });

    it('answers 400 JSON for a missing, empty or repeated map parameter', async () => {
      for (const url of ['/api/be/markers/list', '/api/be/markers/list?map=', '/api/be/markers/list?map=customs&map=factory', '/api/be/markers/list?mapp=customs']) {
        const res = await app.inject({ url });
        expect(res.statusCode, url).toBe(400);
        const body = res.json();
        expect(body.error).toBe('Bad Request');
        expect(body.message).toMatch(/query parameter "map"/);
      }
    });

    it('sends a strong ETag and answers 304 to If-None-Match, in every encoding', async () => {
      const first = await app.inject({ url: '/api/be/markers/list?map=factory', headers: { 'accept-encoding': 'identity' } });
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const again = await app.inject({ url: '/api/be/markers/list?map=factory&v=2', headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');

      const br = await app.inject({ url: '/api/be/markers/list?map=factory', headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toMatch(/Accept-Encoding/i);
      expect(br.headers.etag).not.toBe(etag);
      expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(first.body);
      const gz = await app.inject({ url: '/api/be/markers/list?map=factory', headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(first.body);
      for (const tag of [br.headers.etag, gz.headers.etag, `"other", ${etag}`]) {
        const res = await app.inject({ url: '/api/be/markers/list?map=factory', headers: { 'if-none-match': tag as string } });
        expect(res.statusCode).toBe(304);
      }
      const stale = await app.inject({ url: '/api/be/markers/list?map=factory', headers: { 'if-none-match': '"stale"' } });
      expect(stale.statusCode).toBe(200);
    });

    it('reads the database once per map, not once per request', async () => {
      const load = vi.spyOn(repos.markers, 'listJsonByMap');
      try {
        repos.markers.notifyChanged(['customs']);
        for (let i = 0; i < 5; i++) {
          const res = await app.inject({ url: `/api/be/markers/list?map=customs&i=${i}`, headers: { 'accept-encoding': i % 2 ? 'br' : 'gzip' } });
          expect(res.statusCode).toBe(200);
        }
        // The change is rebuilt once in the background (server/http/json-cache.ts), not per read.
        await new Promise((resolve) => setTimeout(resolve, 110));
        expect((await app.inject({ url: '/api/be/markers/list?map=customs' })).statusCode).toBe(200);
        expect(load).toHaveBeenCalledTimes(1);
        expect(load).toHaveBeenCalledWith('customs');
      } finally {
        load.mockRestore();
      }
    });

    it('serves the list from the cache until markers of that map change (rebuilt in the background, within 100 ms)', async () => {
      const before = await app.inject({ url: '/api/be/markers/list?map=factory' });
      const other = await app.inject({ url: '/api/be/markers/list?map=customs' });
      const first = (before.json() as { markers: Marker[] }).markers[0];
      await repos.markers.update({ ...first, name: 'Renamed in test' });
      // server/http/json-cache.ts: a read 100 ms after a write always has it.
      await new Promise((resolve) => setTimeout(resolve, 110));
      const after = await app.inject({ url: '/api/be/markers/list?map=factory' });
      expect(after.headers.etag).not.toBe(before.headers.etag);
      expect((after.json() as { markers: Marker[] }).markers.find((m) => m.uid === first.uid)?.name).toBe('Renamed in test');
      const otherAfter = await app.inject({ url: '/api/be/markers/list?map=customs' });
      expect(otherAfter.headers.etag).toBe(other.headers.etag);
    });
  });

  describe('quest and item caches', () => {
    it('GET /api/be/quests returns the quest fields with an ETag', async () => {
      const res = await app.inject({ url: '/api/be/quests' });
      expect(res.statusCode).toBe(200);
      const { quests } = res.json() as { quests: Record<string, unknown>[] };
      expect(quests.length).toBeGreaterThanOrEqual(38);
      expect(Object.keys(quests[0]).sort()).toEqual(['name', 'requiredForKappa', 'requiredForLightkeeper', 'ruName', 'trader', 'uid', 'wikiUrl']);
      expect(typeof quests[0].requiredForKappa).toBe('boolean');
      const cached = await app.inject({ url: '/api/be/quests', headers: { 'if-none-match': res.headers.etag as string } });
      expect(cached.statusCode).toBe(304);
    });

    it('GET /api/be/items returns uid, name and ruName with an ETag', async () => {
      const res = await app.inject({ url: '/api/be/items' });
      const { items } = res.json() as { items: Record<string, unknown>[] };
      expect(items.length).toBeGreaterThanOrEqual(75);
      expect(Object.keys(items[0]).sort()).toEqual(['name', 'ruName', 'uid']);
      const cached = await app.inject({ url: '/api/be/items', headers: { 'if-none-match': res.headers.etag as string } });
      expect(cached.statusCode).toBe(304);
    });

    it('quest markers link to quests of the cache', async () => {
      const { quests } = (await app.inject({ url: '/api/be/quests' })).json() as { quests: { uid: string }[] };
      const known = new Set(quests.map((q) => q.uid));
      const { markers } = (await app.inject({ url: '/api/be/markers/list?map=customs' })).json() as { markers: Marker[] };
      const linked = markers.filter((m) => m.questUid);
      expect(linked.length).toBeGreaterThan(0);
      expect(linked.every((m) => known.has(m.questUid!))).toBe(true);
    });
  });

  it('GET /api/be/health reports status and tile progress', async () => {
    const res = await app.inject({ url: '/api/be/health' });
    expect(res.json()).toEqual({ status: 'ok', tiles: { ready: true, done: 0, total: 0, failed: [] }, database: { ok: true } });
  });

  it('never answers malformed input with a 5xx, and every error is { error, message }', async () => {
    const requests: InjectOptions[] = [
      { method: 'GET', url: '/api/be/markers/list?map=%E0%A4%A' },
      { method: 'GET', url: '/%E0%A4%A' },
      { method: 'GET', url: `/api/be/markers/list?map=${'x'.repeat(5000)}` },
      { method: 'GET', url: '/api/be/markers/list?map[a]=1' },
      { method: 'GET', url: '/api/be/markers/list?map=../../etc/passwd' },
      { method: 'POST', url: '/api/be/markers/list?map=customs', payload: '{bad json', headers: { 'content-type': 'application/json' } },
      { method: 'POST', url: '/api/be/quests', payload: 'x', headers: { 'content-type': 'text/plain' } },
      { method: 'DELETE', url: '/api/be/items' },
      { method: 'GET', url: '/api/be/unknown' },
      { method: 'GET', url: '/uploads/../raidmap.sqlite' },
      { method: 'GET', url: '/uploads/sample/nope.webp' },
      { method: 'GET', url: '/icons/nope.svg' },
      { method: 'GET', url: '/tiles/atlantis/manifest.json' },
      { method: 'GET', url: '/tiles/customs/v/main/0/0/abc.webp' },
      { method: 'PUT', url: '/map/customs', payload: '{}', headers: { 'content-type': 'application/json' } },
    ];
    for (const r of requests) {
      const res = await app.inject(r);
      const label = `${r.method} ${String(r.url).slice(0, 60)}`;
      expect(res.statusCode, label).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, label).toBeLessThan(500);
      const body = res.json();
      expect(typeof body.error, label).toBe('string');
      expect(typeof body.message, label).toBe('string');
    }
  });

  describe('static files', () => {
    it('serves index.html for page routes (SPA fallback) without caching', async () => {
      for (const url of ['/', '/map/customs', '/map/customs?quest=a,b&obj=x', '/progression/quests', '/pilot']) {
        const res = await app.inject({ url });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-type'], url).toMatch(/^text\/html/);
        expect(res.headers['cache-control'], url).toBe('no-cache');
        expect(res.body).toContain('<div id="root">');
      }
    });

    it('does not fall back for the API, tiles, icons, uploads or missing files', async () => {
      for (const url of ['/api/be/nothing', '/tiles', '/icons/none', '/uploads/x', '/assets/missing-123.js', '/missing.png']) {
        const res = await app.inject({ url });
        expect(res.statusCode, url).toBe(404);
        expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      }
    });

    it('caches hashed assets for a year and compresses them', async () => {
      const res = await app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(res.rawPayload).toString()).toContain('console.log("app")');
      const favicon = await app.inject({ url: '/favicon.svg' });
      expect(favicon.statusCode).toBe(200);
      expect(favicon.headers['cache-control']).not.toMatch(/immutable/);
    });

    it('sends the build’s .br and .gz copies as they are, with the asset’s type and caching', async () => {
      const br = await app.inject({ url: '/assets/engine-def456.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toMatch(/^application\/javascript/);
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toContain('engine from br');
      const gz = await app.inject({ url: '/assets/engine-def456.js', headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(zlib.gunzipSync(gz.rawPayload).toString()).toContain('engine from gz');
      const plain = await app.inject({ url: '/assets/engine-def456.js', headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toContain('console.log("engine")');
      // The copies are not pages of their own.
      expect((await app.inject({ url: '/assets/engine-def456.js.br' })).headers['content-type']).not.toMatch(/javascript/);
    });

    it('serves icons from assets/icons and sample images from uploads', async () => {
      const icon = await app.inject({ url: '/icons/safe.svg' });
      expect(icon.statusCode).toBe(200);
      expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/);
      const { markers } = (await app.inject({ url: '/api/be/markers/list?map=customs' })).json() as { markers: Marker[] };
      const img = markers.find((m) => m.imgs.length > 0)!.imgs[0].img;
      const image = await app.inject({ url: img });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/webp');
      expect(image.rawPayload.subarray(8, 12).toString()).toBe('WEBP');
    });
  });

  it('registers the tile routes', async () => {
    const res = await app.inject({ url: `/tiles/atlantis/manifest.json` });
    expect(res.statusCode).toBe(404);
    expect(MAPS.customs.layers.length).toBeGreaterThan(0);
  });
});

describe('buildServer without a built site or tiles', () => {
  it('serves the API and explains that the site is not built', async () => {
    const backend = testBackends()[0];
    const db = await backend.open();
    const root = tempDir();
    try {
      await migrateToLatest(db);
      const app = buildServer({ db, uploadsDir: path.join(root, 'uploads'), distDir: path.join(root, 'no-dist'), assetsDir: path.join(root, 'no-assets'), tiles: false });
      const page = await app.inject({ url: '/map/customs' });
      expect(page.statusCode).toBe(404);
      expect(page.json().message).toMatch(/not built/);
      const list = await app.inject({ url: '/api/be/markers/list?map=customs' });
      expect(list.json()).toEqual({ markers: [] });
      expect((await app.inject({ url: '/tiles/customs/manifest.json' })).statusCode).toBe(404);
      await app.close();
    } finally {
      await db.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('refuses to start tiles without a tiles folder', async () => {
    const parent = tempDir();
    const root0 = path.join(parent, 'never-created');
    const db = await testBackends()[0].open();
    try {
      expect(() => buildServer({ db, uploadsDir: path.join(root0, 'uploads'), tiles: true })).toThrow(/tilesDir/);
      expect(fs.existsSync(root0)).toBe(false);
    } finally {
      await db.close();
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });
});
