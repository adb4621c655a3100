import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { slug, SUBCATEGORIES } from '../../src/domain/categories';
import { ICON_ATLAS_META, ICON_ATLAS_PATH, ICON_CELL, iconAtlasPath, iconAtlasSize, iconCell, iconIndexOf } from '../../src/domain/icon-atlas';
import { tempDir, testBackends } from '../testing/databases';
import { useRoleApp } from '../testing/role-app';
import { drawIconAtlas, IconAtlasCache, iconAtlasCacheOf, iconAtlasHead } from './icon-atlas';

const square = (fill: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><rect width="64" height="64" fill="${fill}"/></svg>`;

/** RGBA of the pixel at the centre of icon `index`'s cell. */
async function cellCentre(png: Buffer, index: number): Promise<number[]> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const { x, y } = iconCell(index);
  const at = ((y + ICON_CELL / 2) * info.width + x + ICON_CELL / 2) * info.channels;
  return [...data.subarray(at, at + 4)];
}

describe('drawIconAtlas', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir();
    fs.writeFileSync(path.join(dir, 'red.svg'), square('#ff0000'));
    // Another size and viewBox: scaled to fill its cell.
    fs.writeFileSync(path.join(dir, 'blue.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 1 1"><rect width="1" height="1" fill="#0000ff"/></svg>');
    fs.writeFileSync(path.join(dir, 'broken.svg'), 'this is not an svg');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('draws each icon in its cell, in order, and a plain badge for a missing or broken one', async () => {
    const atlas = await drawIconAtlas(dir, ['red', 'missing', 'blue', 'broken']);
    const meta = await sharp(atlas.png).metadata();
    expect(meta.format).toBe('png');
    expect({ width: meta.width, height: meta.height }).toEqual({ width: iconAtlasSize(4).width, height: iconAtlasSize(4).height });
    expect(await cellCentre(atlas.png, 0)).toEqual([255, 0, 0, 255]);
    expect(await cellCentre(atlas.png, 2)).toEqual([0, 0, 255, 255]);
    // The badge: a #556070 disc.
    expect(await cellCentre(atlas.png, 1)).toEqual([0x55, 0x60, 0x70, 255]);
    expect(await cellCentre(atlas.png, 3)).toEqual([0x55, 0x60, 0x70, 255]);
    expect(atlas.fallback).toEqual(['broken', 'missing']);
    expect(atlas.etag).toMatch(/^"[\w-]{27}"$/);
  });

  it('draws every icon of the repository without a fallback, in the layout the page expects', async () => {
    const atlas = await drawIconAtlas(path.resolve('assets/icons'), SUBCATEGORIES.map((s) => slug(s.id)));
    expect(atlas.fallback).toEqual([]);
    const meta = await sharp(atlas.png).metadata();
    expect({ width: meta.width, height: meta.height }).toEqual({ width: iconAtlasSize().width, height: iconAtlasSize().height });
    // Drawn, not empty: the safe icon's badge is opaque at its centre.
    const [, , , alpha] = await cellCentre(atlas.png, iconIndexOf('Safe'));
    expect(alpha).toBe(255);
  });
});

describe('IconAtlasCache', () => {
  it('draws once for concurrent requests and again only when an icon file changes', async () => {
    const dir = tempDir();
    try {
      for (const s of SUBCATEGORIES) fs.writeFileSync(path.join(dir, `${slug(s.id)}.svg`), square('#00ff00'));
      const cache = new IconAtlasCache(dir);
      const [a, b, c] = await Promise.all([cache.get(), cache.get(), cache.get()]);
      expect(b).toBe(a);
      expect(c).toBe(a);
      expect(await cache.get()).toBe(a);
      const safe = path.join(dir, 'safe.svg');
      fs.writeFileSync(safe, square('#ff00ff'));
      const later = new Date(Date.now() + 5_000);
      fs.utimesSync(safe, later, later);
      const redrawn = await cache.get();
      expect(redrawn.etag).not.toBe(a.etag);
      expect(await cellCentre(redrawn.png, iconIndexOf('Safe'))).toEqual([255, 0, 255, 255]);
      expect(await cellCentre(redrawn.png, iconIndexOf('Cache'))).toEqual([0, 255, 0, 255]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives a version of the PNG that changes with it, and `ready` never waits for a drawing', async () => {
    const dir = tempDir();
    try {
      for (const s of SUBCATEGORIES) fs.writeFileSync(path.join(dir, `${slug(s.id)}.svg`), square('#00ff00'));
      const cache = new IconAtlasCache(dir);
      // Not drawn yet: nothing now, and the drawing is started for the request that follows.
      expect(await cache.ready()).toBeUndefined();
      const atlas = await cache.get();
      expect(atlas.version).toMatch(/^[A-Za-z0-9_-]{16}$/);
      expect(atlas.etag.slice(1, 17)).toBe(atlas.version);
      expect(await cache.ready()).toBe(atlas);
      const ammo = path.join(dir, 'ammo-box.svg');
      fs.writeFileSync(ammo, square('#ff00ff'));
      const later = new Date(Date.now() + 5_000);
      fs.utimesSync(ammo, later, later);
      // Changed on disk: not the old version, however drawn it was.
      expect(await cache.ready()).toBeUndefined();
      const redrawn = await cache.get();
      expect(redrawn.version).not.toBe(atlas.version);
      expect(await cache.ready()).toBe(redrawn);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is one per icons folder, shared by the route and the map pages\' head', async () => {
    const dir = tempDir();
    try {
      expect(iconAtlasCacheOf(dir)).toBe(iconAtlasCacheOf(path.join(dir, '.')));
      const head = iconAtlasHead(dir);
      expect(await head()).toBe('');
      const atlas = await iconAtlasCacheOf(dir).get();
      expect(await head()).toBe(`<meta name="${ICON_ATLAS_META}" content="${atlas.version}">`);
      // No folder (no atlas route): no version.
      expect(await iconAtlasHead(path.join(dir, 'missing'))()).toBe('');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('logs the icons drawn as badges, by name', async () => {
    const dir = tempDir();
    try {
      const warn = vi.fn();
      const cache = new IconAtlasCache(dir, { warn } as never);
      const atlas = await cache.get();
      expect(atlas.fallback).toHaveLength(SUBCATEGORIES.length);
      await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(1));
      expect(String(warn.mock.calls[0][1])).toMatch(/plain badges.*safe/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(testBackends())('GET /icons/atlas.png on $name', (backend) => {
  const server = useRoleApp(backend, (root) => {
    const assetsDir = path.join(root, 'assets');
    fs.mkdirSync(path.join(assetsDir, 'icons'), { recursive: true });
    fs.writeFileSync(path.join(assetsDir, 'icons', 'safe.svg'), square('#ff0000'));
    return { uploadsDir: path.join(root, 'uploads'), distDir: path.join(root, 'dist'), assetsDir, tilesDir: path.join(root, 'tiles') };
  });

  it.each(['anonymous', 'visitor', 'pro', 'admin'] as const)('answers %s with the same public PNG (icons are no secret)', async (role) => {
    const res = await server.app.inject({ url: ICON_ATLAS_PATH, headers: server.cookies[role] ? { cookie: server.cookies[role] } : {} });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    // The plain URL (an old page, one without the head's version) is revalidated on every use.
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(await cellCentre(res.rawPayload, iconIndexOf('Safe'))).toEqual([255, 0, 0, 255]);
  });

  it('revalidates to a 304 with its ETag, and answers concurrent requests with one drawing', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => server.app.inject({ url: ICON_ATLAS_PATH })));
    const etags = new Set(answers.map((r) => r.headers.etag));
    expect(etags.size).toBe(1);
    const etag = [...etags][0] as string;
    expect((await server.app.inject({ url: ICON_ATLAS_PATH, headers: { 'if-none-match': etag } })).statusCode).toBe(304);
    expect((await server.app.inject({ url: ICON_ATLAS_PATH, headers: { 'if-none-match': `W/${etag}, "other"` } })).statusCode).toBe(304);
    expect((await server.app.inject({ url: ICON_ATLAS_PATH, headers: { 'if-none-match': '"other"' } })).statusCode).toBe(200);
  });

  it('answers its current version for a year (immutable), any other version and the plain URL no-cache', async () => {
    const plain = await server.app.inject({ url: ICON_ATLAS_PATH });
    const version = String(plain.headers.etag).slice(1, 17);
    const current = await server.app.inject({ url: iconAtlasPath(version) });
    expect(current.statusCode).toBe(200);
    expect(current.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(current.headers.etag).toBe(plain.headers.etag);
    expect(current.rawPayload.equals(plain.rawPayload)).toBe(true);
    expect((await server.app.inject({ url: iconAtlasPath(version), headers: { 'if-none-match': String(plain.headers.etag) } })).statusCode).toBe(304);
    // A version the atlas no longer has (an old page): today's atlas, but never kept under that URL.
    for (const url of [iconAtlasPath('oldVersion123456'), `${ICON_ATLAS_PATH}?v=${version}&v=${version}`, `${ICON_ATLAS_PATH}?v[]=${version}`]) {
      const other = await server.app.inject({ url });
      expect(other.statusCode, url).toBe(200);
      expect(other.headers['cache-control'], url).toBe('no-cache');
      expect(other.headers.etag, url).toBe(plain.headers.etag);
    }
  });

  it('a map page names the current version once the atlas is drawn; a changed icon gives a new one', async () => {
    // The route and the head share one drawing per icons folder.
    const iconsDir = path.join(server.root, 'assets', 'icons');
    const head = iconAtlasHead(iconsDir);
    const first = String((await server.app.inject({ url: ICON_ATLAS_PATH })).headers.etag).slice(1, 17);
    expect(await head()).toBe(`<meta name="${ICON_ATLAS_META}" content="${first}">`);
    // An operator changes an icon (or a deploy brings a new set).
    const ammo = path.join(iconsDir, 'ammo-box.svg');
    fs.writeFileSync(ammo, square('#00ff00'));
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(ammo, later, later);
    const res = await server.app.inject({ url: ICON_ATLAS_PATH });
    const second = String(res.headers.etag).slice(1, 17);
    expect(second).not.toBe(first);
    expect(await cellCentre(res.rawPayload, iconIndexOf('Ammo Box'))).toEqual([0, 255, 0, 255]);
    expect(await head()).toBe(`<meta name="${ICON_ATLAS_META}" content="${second}">`);
    expect((await server.app.inject({ url: iconAtlasPath(first) })).headers['cache-control']).toBe('no-cache');
    expect((await server.app.inject({ url: iconAtlasPath(second) })).headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('ignores a query string and refuses writes with a JSON error, never a 5xx', async () => {
    expect((await server.app.inject({ url: `${ICON_ATLAS_PATH}?v=1&x[]=2` })).statusCode).toBe(200);
    expect((await server.app.inject({ method: 'HEAD', url: ICON_ATLAS_PATH })).statusCode).toBe(200);
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      const res = await server.app.inject({ method, url: ICON_ATLAS_PATH, headers: { cookie: server.cookies.admin, 'content-type': 'application/json' }, payload: '{}' });
      expect(res.statusCode, method).toBe(404);
      expect(res.json(), method).toHaveProperty('error');
    }
    // The SVGs it is drawn from are still served beside it.
    expect((await server.app.inject({ url: '/icons/safe.svg' })).statusCode).toBe(200);
  });
});
