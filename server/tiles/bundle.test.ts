/**
 * GET /tiles/:map/:version/bundle/...: the tiles of a rectangle of a prebuilt level in one body
 * (src/domain/tile-bundle.ts), the same bytes as the single tiles; a tile the server may not
 * render now is an empty entry (and the bundle is not cached); bad addresses are JSON errors;
 * anyone may read it, as any tile.
 */
import fs from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleEntries, decodeTileBundle, tileBundlePath, type TileRect } from '../../src/domain/tile-bundle';
import type { TileManifest } from '../../src/domain/tiles';
import { testBackends } from '../testing/databases';
import { useRoleApp } from '../testing/role-app';
import { disposeNormalizer } from './normalize';
import { tilesPlugin, TILE_CACHE_CONTROL } from './plugin';

let root: string;
let app: FastifyInstance;
/** The same store behind a render limit of one tile: most of a bundle's tiles are refused. */
let stingy: FastifyInstance;
let manifest: TileManifest;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'raidmap-tile-bundle-'));
  const dirs = { assetsDir: path.join(root, 'assets'), tilesDir: path.join(root, 'tiles') };
  app = Fastify();
  await app.register(tilesPlugin, dirs);
  stingy = Fastify();
  await stingy.register(tilesPlugin, { ...dirs, tilesDir: path.join(root, 'other-tiles'), renderLimit: { perMinute: 1, burst: 1 } });
  manifest = (await app.inject({ url: '/tiles/factory/manifest.json' })).json();
}, 60_000);

afterAll(async () => {
  await app.close();
  await stingy.close();
  await disposeNormalizer();
  rmSync(root, { recursive: true, force: true });
});

const bytesOf = (payload: Buffer) => payload.buffer.slice(payload.byteOffset, payload.byteOffset + payload.byteLength) as ArrayBuffer;

describe('GET /tiles/:map/:version/bundle/:layers/:z/:x0-:x1/:y0-:y1.bin', () => {
  it('holds the single tiles, layer by layer and row by row, cached as they are', async () => {
    // Factory is 3600 px: level 1 is 900 px, 4 × 4 tiles.
    const range: TileRect = { z: 1, minX: 1, maxX: 2, minY: 0, maxY: 1 };
    const res = await app.inject({ url: tileBundlePath(manifest, ['main', 'level2'], range) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['cache-control']).toBe(TILE_CACHE_CONTROL);
    const tiles = decodeTileBundle(bytesOf(res.rawPayload));
    const entries = bundleEntries(['main', 'level2'], range);
    expect(tiles).toHaveLength(8);
    for (const [i, t] of entries.entries()) {
      const single = await app.inject({ url: `/tiles/factory/${manifest.version}/${t.layer}/${t.z}/${t.x}/${t.y}.webp` });
      expect(single.statusCode).toBe(200);
      expect(Buffer.from(tiles[i]!).equals(single.rawPayload), `${t.layer}/${t.x}/${t.y}`).toBe(true);
    }
  });

  it('leaves out, as empty entries, the tiles it may not render now, and is then not cached', async () => {
    const range: TileRect = { z: 2, minX: 0, maxX: 1, minY: 0, maxY: 1 };
    // The one render the limit allows draws a metatile, which holds this corner's tiles.
    const first = await stingy.inject({ url: tileBundlePath(manifest, ['basement'], range) });
    expect(first.statusCode).toBe(200);
    expect(decodeTileBundle(bytesOf(first.rawPayload)).some((t) => t !== null)).toBe(true);
    // The limit is spent: another floor's tiles, not on disk, are all left out.
    const refused = await stingy.inject({ url: tileBundlePath(manifest, ['level3'], range) });
    expect(refused.statusCode).toBe(200);
    expect(refused.headers['cache-control']).toBe('no-store');
    const tiles = decodeTileBundle(bytesOf(refused.rawPayload));
    expect(tiles).toHaveLength(4);
    expect(tiles.every((t) => t === null)).toBe(true);
  });

  const base = () => `/tiles/factory/${manifest.version}/bundle`;

  it.each([
    ['z', () => `${base()}/main/x/0-1/0-1.bin`, 'integer'],
    ['columns', () => `${base()}/main/1/0_1/0-1.bin`, 'first-last'],
    ['rows', () => `${base()}/main/1/0-1/-1-1.bin`, 'first-last'],
    ['columns the wrong way round', () => `${base()}/main/1/2-1/0-1.bin`, 'before its last'],
    ['an empty layer name', () => `${base()}/main,/1/0-1/0-1.bin`, 'distinct names'],
    ['a layer twice', () => `${base()}/main,main/1/0-1/0-1.bin`, 'distinct names'],
    ['more tiles than a bundle holds', () => `${base()}/main,level2/3/0-13/0-13.bin`, 'at most 256'],
    ['a level that is not prebuilt', () => `${base()}/main/4/0-1/0-1.bin`, 'prebuilt levels 0–3'],
  ])('is 400 JSON for %s', async (_, url, words) => {
    const res = await app.inject({ url: url() });
    expect(res.statusCode).toBe(400);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toMatchObject({ error: 'Bad Request', message: expect.stringContaining(words) });
  });

  it.each([
    ['an unknown map', () => `/tiles/atlantis/${manifest.version}/bundle/main/1/0-1/0-1.bin`, 'atlantis'],
    ['a stale version', () => `/tiles/factory/0123456789ab/bundle/main/1/0-1/0-1.bin`, 'not current'],
    ['an unknown layer', () => `${base()}/main,level9/1/0-1/0-1.bin`, 'level9'],
    ['columns outside the level', () => `${base()}/main/1/0-4/0-1.bin`, 'outside'],
    ['another extension', () => `${base()}/main/1/0-1/0-1.json`, '.bin'],
  ])('is 404 JSON for %s', async (_, url, words) => {
    const res = await app.inject({ url: url() });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'Not Found', message: expect.stringContaining(words) });
  });

  it('answers concurrent requests for one bundle with the same bytes', async () => {
    const url = tileBundlePath(manifest, ['main'], { z: 0, minX: 0, maxX: 1, minY: 0, maxY: 1 });
    const answers = await Promise.all(Array.from({ length: 6 }, () => app.inject({ url })));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    for (const r of answers) expect(r.rawPayload.equals(answers[0].rawPayload)).toBe(true);
  });
});

describe.each(testBackends())('tile bundles for every role on $name', (backend) => {
  const server = useRoleApp(backend, (dir) => {
    fs.mkdirSync(path.join(dir, 'assets'), { recursive: true });
    return { uploadsDir: path.join(dir, 'uploads'), distDir: path.join(dir, 'dist'), assetsDir: path.join(dir, 'assets'), tilesDir: path.join(dir, 'tiles') };
  });

  it.each(['anonymous', 'visitor', 'pro', 'admin'] as const)('answers %s with the same public bundle (tiles are no secret)', async (role) => {
    const headers = server.cookies[role] ? { cookie: server.cookies[role] } : {};
    const own = (await server.app.inject({ url: '/tiles/factory/manifest.json', headers })).json() as TileManifest;
    const res = await server.app.inject({ url: tileBundlePath(own, ['main'], { z: 0, minX: 0, maxX: 1, minY: 0, maxY: 1 }), headers });
    expect(res.statusCode).toBe(200);
    expect(decodeTileBundle(bytesOf(res.rawPayload)).every((t) => t !== null)).toBe(true);
  });

  it('refuses writes with a JSON error', async () => {
    const own = (await server.app.inject({ url: '/tiles/factory/manifest.json' })).json() as TileManifest;
    const url = tileBundlePath(own, ['main'], { z: 0, minX: 0, maxX: 0, minY: 0, maxY: 0 });
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      const res = await server.app.inject({ method, url, headers: { cookie: server.cookies.admin, 'content-type': 'application/json' }, payload: '{}' });
      expect(res.statusCode, method).toBe(404);
      expect(res.json(), method).toHaveProperty('error');
    }
  });
});
