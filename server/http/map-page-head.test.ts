import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ICON_ATLAS_META, iconAtlasPath } from '../../src/domain/icon-atlas';
import { INLINE_MANIFEST_ID, type TileManifest } from '../../src/domain/tiles';
import { testBackends } from '../testing/databases';
import { builtSiteOptions } from '../testing/built-site';
import { useRoleApp } from '../testing/role-app';
import { MAPS } from '../../src/domain/maps';
import { posterPreloads } from '../../src/engine/kernels/first-view';
import { mapIdOfPage, mapPageExtras, scriptSafeJson } from './map-page-head';
import { htmlPosters } from './map-poster';
import { withExtras } from './static-site';

/** The manifest block of a page, parsed, or null. */
function inlineManifest(html: string): unknown {
  const match = new RegExp(`<script type="application/json" id="${INLINE_MANIFEST_ID}">(.*?)</script>`).exec(html);
  return match ? JSON.parse(match[1]) : null;
}

describe('map page head (pure parts)', () => {
  it('finds the map of a map page only', () => {
    expect(mapIdOfPage('/map/customs')).toBe('customs');
    expect(mapIdOfPage('/map/ground-zero/')).toBe('ground-zero');
    for (const p of ['/', '/map', '/map/', '/map/atlantis', '/map/customs/extra', '/maps/customs', '/map/%E0%A4%A', '/map/..%2Fcustoms']) expect(mapIdOfPage(p), p).toBeNull();
  });

  it('writes JSON that cannot close its script element, and reads back the same', () => {
    const nasty = { a: '</script><script>alert(1)</script>', b: '<!--', c: '\u2028\u2029' };
    const text = scriptSafeJson(nasty);
    expect(text).not.toMatch(/<|\u2028|\u2029/);
    expect(JSON.parse(text)).toEqual(nasty);
  });

  it('puts the head before </head> and the body part after <body …>, and leaves a page without those alone', () => {
    const extras = { head: '<meta name="a">', body: '<div class="p"></div>' };
    expect(withExtras(Buffer.from('<html><head><title>x</title></head><body class="b"><div id="root"></div></body></html>'), extras).toString()).toBe(
      '<html><head><title>x</title><meta name="a"></head><body class="b"><div class="p"></div><div id="root"></div></body></html>',
    );
    for (const text of ['<p>no head</p>', '<html><head></head><p>no body tag</p></html>', '<body></body><head></head>']) {
      const bare = Buffer.from(text);
      expect(withExtras(bare, extras), text).toBe(bare);
    }
    const page = Buffer.from('<html><head></head><body></body></html>');
    expect(withExtras(page, { head: '', body: '' })).toBe(page);
  });

  it('puts a class on <html>, beside one it has, once', () => {
    const overlay = { head: '', body: '', htmlClass: 'stream-overlay' };
    expect(withExtras(Buffer.from('<!doctype html><html lang="en"><head></head><body></body></html>'), overlay).toString()).toBe(
      '<!doctype html><html lang="en" class="stream-overlay"><head></head><body></body></html>',
    );
    expect(withExtras(Buffer.from('<html class="dark" lang="en"><head></head><body></body></html>'), overlay).toString()).toBe(
      '<html class="dark stream-overlay" lang="en"><head></head><body></body></html>',
    );
    expect(withExtras(Buffer.from('<html class="stream-overlay"><head></head><body></body></html>'), overlay).toString()).toBe('<html class="stream-overlay"><head></head><body></body></html>');
    // Not a plain class name: left out.
    expect(withExtras(Buffer.from('<html><head></head><body></body></html>'), { ...overlay, htmlClass: '"><script>' }).toString()).toBe('<html><head></head><body></body></html>');
  });

  it("carries the icon atlas's version on every map page, overlay included, and on no other page", async () => {
    const meta = `<meta name="${ICON_ATLAS_META}" content="Ab3_-x9QzT0kLm2P">`;
    const atlasHead = async () => meta;
    const manifest = { map: 'customs', version: 'v1' } as unknown as TileManifest;
    const poster = { head: '<link rel="stylesheet" href="/p.css">', markup: '<div class="poster"></div>', stylesheetPath: '/p.css', stylesheet: '', encoded: async () => Buffer.alloc(0), manifest };
    const withPoster = mapPageExtras(async () => poster, () => '<link rel="modulepreload" href="/e.js">', atlasHead);
    const page = await withPoster('/map/customs');
    expect(page.head).toContain(meta);
    // After the manifest, before the poster's preloads and the engine's.
    expect(page.head.indexOf(INLINE_MANIFEST_ID)).toBeLessThan(page.head.indexOf(meta));
    expect(page.head.indexOf(meta)).toBeLessThan(page.head.indexOf('/p.css'));
    expect(page.head.indexOf(meta)).toBeLessThan(page.head.indexOf('/e.js'));
    expect((await withPoster('/map/customs', '?overlay=1')).head).toContain(meta);
    expect((await mapPageExtras(undefined, undefined, atlasHead)('/map/woods')).head).toBe(meta);
    for (const url of ['/', '/progression/quests', '/map/atlantis']) expect(await withPoster(url), url).toEqual({ head: '', body: '' });
    // No version yet (the atlas not drawn) or a failure: the page goes without, as before.
    expect((await mapPageExtras(undefined, undefined, async () => '')('/map/woods')).head).toBe('');
    expect((await mapPageExtras(undefined, undefined, () => Promise.reject(new Error('sharp')))('/map/woods')).head).toBe('');
  });

  it('gives nothing when the manifest cannot be had (a broken drawing), instead of failing the page', async () => {
    const extras = mapPageExtras(htmlPosters(() => Promise.reject(new Error('not well-formed'))));
    await expect(extras('/map/customs')).resolves.toEqual({ head: '', body: '' });
    await expect(mapPageExtras(htmlPosters(() => Promise.resolve(undefined)))('/map/customs')).resolves.toEqual({ head: '', body: '' });
  });
});

describe.each(testBackends())('a map page carries its tile manifest on $name', (backend) => {
  const server = useRoleApp(backend, (root) => builtSiteOptions(root));

  it.each(['anonymous', 'visitor', 'pro', 'admin'] as const)('gives %s the manifest of /tiles/{map}/manifest.json in the head', async (role) => {
    const headers = server.cookies[role] ? { cookie: server.cookies[role] } : {};
    const page = await server.app.inject({ url: '/map/customs?quest=q1&obj=x', headers });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-cache');
    const manifest = (await server.app.inject({ url: '/tiles/customs/manifest.json', headers })).json() as TileManifest;
    expect(inlineManifest(page.body)).toEqual(manifest);
    expect(page.body.indexOf(INLINE_MANIFEST_ID)).toBeLessThan(page.body.indexOf('</head>'));
  });

  it('gives each map its own, and no other page one', async () => {
    const woods = await server.app.inject({ url: '/map/woods/' });
    expect((inlineManifest(woods.body) as TileManifest).map).toBe('woods');
    for (const url of ['/', '/progression/quests', '/pilot', '/map/atlantis', '/map/customs/extra']) {
      const page = await server.app.inject({ url });
      expect(page.statusCode, url).toBe(200);
      expect(inlineManifest(page.body), url).toBeNull();
    }
  });

  it("preloads the poster's tiles, each for the windows whose poster shows it, but not on the stream overlay", async () => {
    const page = await server.app.inject({ url: '/map/customs?quest=q1' });
    const manifest = inlineManifest(page.body) as TileManifest;
    const links = [...page.body.matchAll(/<link rel="preload" as="image" href="([^"]+)" media="([^"]+)" fetchpriority="high">/g)].map((m) => ({ path: m[1], media: m[2] }));
    expect(links.length).toBeGreaterThan(0);
    expect(links).toEqual(posterPreloads(MAPS.customs, manifest).map(({ path, media }) => ({ path, media })));
    expect(links.every((l) => l.path.startsWith(`/tiles/customs/${manifest.version}/`))).toBe(true);
    expect(page.body.lastIndexOf('rel="preload" as="image"')).toBeLessThan(page.body.indexOf('</head>'));
    // Each tile is a file the server has.
    const first = await server.app.inject({ url: links[0].path });
    expect(first.statusCode).toBe(200);
    const overlay = await server.app.inject({ url: '/map/customs?overlay=1&zoom=2' });
    expect(inlineManifest(overlay.body)).toEqual(manifest);
    expect(overlay.body).not.toContain('as="image"');
    // See-through from its first paint (OBS showed the dark page until the app marked it); no other page is.
    expect(overlay.body).toMatch(/<html[^>]* class="stream-overlay"/);
    expect(page.body).not.toContain('stream-overlay');
    expect((await server.app.inject({ url: '/map/customs?overlay=no' })).body).not.toContain('stream-overlay');
  });

  it('answers many map pages at once with the same manifest', async () => {
    const pages = await Promise.all(Array.from({ length: 12 }, () => server.app.inject({ url: '/map/factory' })));
    const versions = new Set(pages.map((p) => (inlineManifest(p.body) as TileManifest).version));
    expect(versions.size).toBe(1);
  });
});

describe.each(testBackends())("a map page names the icon atlas's version on $name", (backend) => {
  const server = useRoleApp(backend, (root) => {
    const options = builtSiteOptions(root);
    fs.mkdirSync(path.join(options.assetsDir, 'icons'), { recursive: true });
    fs.writeFileSync(path.join(options.assetsDir, 'icons', 'safe.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="#f00"/></svg>');
    return { ...options, tiles: false };
  });
  const versionOf = (html: string) => new RegExp(`<meta name="${ICON_ATLAS_META}" content="([^"]+)">`).exec(html)?.[1];

  it('once the atlas is drawn, as the versioned URL the server keeps for good; the page is not held up before', async () => {
    // Before the atlas's first drawing the page goes without (and starts it); the client then uses the plain URL.
    const before = await server.app.inject({ url: '/map/customs' });
    expect(before.statusCode).toBe(200);
    const atlas = await server.app.inject({ url: '/icons/atlas.png' });
    expect(atlas.headers['cache-control']).toBe('no-cache');
    const page = await server.app.inject({ url: '/map/customs' });
    const version = versionOf(page.body);
    expect(version).toBe(String(atlas.headers.etag).slice(1, 17));
    expect(page.body.indexOf(ICON_ATLAS_META)).toBeLessThan(page.body.indexOf('</head>'));
    const versioned = await server.app.inject({ url: iconAtlasPath(version) });
    expect(versioned.statusCode).toBe(200);
    expect(versioned.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/', '/progression/quests']) expect(versionOf((await server.app.inject({ url })).body), url).toBeUndefined();
  });
});
