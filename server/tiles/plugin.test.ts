/** The /tiles routes through fastify.inject, on the real sample maps. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAPS } from '../../src/domain/maps';
import { PREBUILT_MAX_Z, maxTileZ, type TileManifest } from '../../src/domain/tiles';
import { disposeNormalizer } from './normalize';
import { tilesPlugin, TILE_CACHE_CONTROL } from './plugin';

let app: FastifyInstance;
let root: string;
let manifest: TileManifest;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'raidmap-tiles-plugin-'));
  app = Fastify();
  await app.register(tilesPlugin, { assetsDir: path.join(root, 'assets'), tilesDir: path.join(root, 'tiles') });
  const res = await app.inject({ method: 'GET', url: '/tiles/factory/manifest.json' });
  manifest = res.json();
});

afterAll(async () => {
  await app.close();
  await disposeNormalizer();
  rmSync(root, { recursive: true, force: true });
});

const base = () => `/tiles/factory/${manifest.version}`;

describe('GET /tiles/:map/manifest.json', () => {
  it('describes the pyramid of the map, not cached', async () => {
    const res = await app.inject({ method: 'GET', url: '/tiles/factory/manifest.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.json()).toEqual({
      map: 'factory',
      version: expect.stringMatching(/^[0-9a-f]{12}$/),
      tileSize: 256,
      minZ: 0,
      maxZ: maxTileZ(MAPS.factory),
      prebuiltMaxZ: PREBUILT_MAX_Z,
      width: 3600,
      height: 3600,
      layers: ['basement', 'main', 'level2', 'level3'],
      format: 'webp',
    });
  });

  it('is 404 JSON for an unknown map', async () => {
    const res = await app.inject({ method: 'GET', url: '/tiles/atlantis/manifest.json' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'Not Found', message: expect.stringContaining('atlantis') });
  });
});

describe('GET /tiles/:map/:version/:layer/:z/:x/:y.webp', () => {
  it('serves a tile rendered on demand, with immutable cache headers', async () => {
    const res = await app.inject({ method: 'GET', url: `${base()}/main/0/1/1.webp` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toBe(TILE_CACHE_CONTROL);
    expect(TILE_CACHE_CONTROL).toBe('public, max-age=31536000, immutable');
    // Factory is 3600 px: at z = 0 it is 450 px, so tile (1, 1) is 194 px square.
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 194, 194]);
  });

  it('serves the same bytes from the disk cache the second time', async () => {
    const first = await app.inject({ method: 'GET', url: `${base()}/level2/2/1/1.webp` });
    const second = await app.inject({ method: 'GET', url: `${base()}/level2/2/1/1.webp` });
    expect(second.statusCode).toBe(200);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
  });

  it('serves the deepest level', async () => {
    const z = maxTileZ(MAPS.factory);
    const res = await app.inject({ method: 'GET', url: `${base()}/main/${z}/40/40.webp` });
    expect(res.statusCode).toBe(200);
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([256, 256]);
  });

  it.each([
    ['a wrong version', () => `/tiles/factory/0123456789ab/main/0/0/0.webp`, 'version'],
    ['an unknown map', () => `/tiles/atlantis/${manifest.version}/main/0/0/0.webp`, 'atlantis'],
    ['an unknown layer', () => `${base()}/level9/0/0/0.webp`, 'level9'],
    ['a level deeper than the pyramid', () => `${base()}/main/${maxTileZ(MAPS.factory) + 1}/0/0.webp`, 'outside'],
    ['x outside the grid', () => `${base()}/main/0/2/0.webp`, 'outside'],
    ['y outside the grid', () => `${base()}/main/3/0/15.webp`, 'outside'],
    ['another format', () => `${base()}/main/0/0/0.png`, 'webp'],
  ])('is 404 JSON for %s', async (_, url, words) => {
    const res = await app.inject({ method: 'GET', url: url() });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toMatchObject({ error: 'Not Found', message: expect.stringContaining(words) });
  });

  it.each([
    ['z', () => `${base()}/main/abc/0/0.webp`],
    ['x', () => `${base()}/main/0/-1/0.webp`],
    ['y', () => `${base()}/main/0/0/1e3.webp`],
    ['y (no extension)', () => `${base()}/main/0/0/zero`],
    ['z (fraction)', () => `${base()}/main/0.5/0/0.webp`],
  ])('is 400 JSON for a non-numeric %s', async (_, url) => {
    const res = await app.inject({ method: 'GET', url: url() });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Bad Request', message: expect.stringContaining('integer') });
  });
});

describe('a real map whose drawing or map.json cannot be used', () => {
  /** An app over a fresh assets folder holding `files` under maps/woods/, its log lines collected. */
  async function brokenApp(files: Record<string, string>) {
    const dir = mkdtempSync(path.join(tmpdir(), 'raidmap-tiles-broken-'));
    mkdirSync(path.join(dir, 'assets', 'maps', 'woods'), { recursive: true });
    for (const [name, body] of Object.entries(files)) writeFileSync(path.join(dir, 'assets', 'maps', 'woods', name), body);
    const lines: { level: number; msg: string; err?: unknown }[] = [];
    const stream = { write: (line: string) => lines.push(JSON.parse(line)) };
    const broken = Fastify({ logger: { level: 'info', stream } });
    await broken.register(tilesPlugin, { assetsDir: path.join(dir, 'assets'), tilesDir: path.join(dir, 'tiles') });
    return { broken, dir, lines, close: async () => (await broken.close(), rmSync(dir, { recursive: true, force: true })) };
  }

  it('answers 500 JSON with a short public reason, no path; the log has the whole reason once', async () => {
    const { broken, dir, lines, close } = await brokenApp({ 'map.svg': '<svg><g id="main"></g></svg>', 'map.json': '{"placement": {"fill": "yes"}}' });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await broken.inject({ method: 'GET', url: '/tiles/woods/manifest.json' });
        expect(res.statusCode).toBe(500);
        expect(res.json()).toEqual({
          error: 'Internal Server Error',
          message: `the art of map "woods" cannot be shown right now: its map.json has a mistake (the server's log says why)`,
        });
        expect(res.body).not.toContain(dir);
      }
      const errors = lines.filter((l) => l.level >= 50);
      expect(errors).toEqual([expect.objectContaining({ msg: expect.stringContaining(`${path.join(dir, 'assets', 'maps', 'woods', 'map.json')}: placement: expected one of`) })]);
      // JSON lines without a stack: the reason is the message.
      expect(errors[0].err).toBeUndefined();
    } finally {
      await close();
    }
  });

  it('says a drawing that is not well-formed SVG cannot be read', async () => {
    const { broken, close } = await brokenApp({ 'map.svg': '<svg><g id="main"></svg>' });
    try {
      const res = await broken.inject({ method: 'GET', url: '/tiles/woods/manifest.json' });
      expect(res.statusCode).toBe(500);
      expect(res.json().message).toBe(`the art of map "woods" cannot be shown right now: its drawing cannot be read (the server's log says why)`);
    } finally {
      await close();
    }
  });
});
