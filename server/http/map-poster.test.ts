import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MAPS } from '../../src/domain/maps';
import { HTML_POSTER_CLASS, type TileManifest } from '../../src/domain/tiles';
import { posterPreloads, type PosterPreload } from '../../src/engine/kernels/first-view';
import { testBackends } from '../testing/databases';
import { builtSiteOptions } from '../testing/built-site';
import { useRoleApp } from '../testing/role-app';
import { htmlPosters, posterMarkup, posterStylesheet, posterStylesheetPath } from './map-poster';

const manifest: TileManifest = { map: 'customs', version: 'v1', tileSize: 256, minZ: 0, maxZ: 7, prebuiltMaxZ: 3, width: 4400, height: 3200, layers: [...MAPS.customs.layers], format: 'webp' };

/** The stylesheet's rule of each tile class, with the media query it sits under. */
function rulesOf(css: string): Map<string, { media: string; declarations: Record<string, string> }> {
  const rules = new Map<string, { media: string; declarations: Record<string, string> }>();
  for (const block of css.matchAll(/@media ([^{]+)\{((?:[^{}]+\{[^}]*\})*)\}/g)) {
    for (const rule of block[2].matchAll(/\.map-poster--html>\.(t\d+)\{([^}]*)\}/g)) {
      const declarations = Object.fromEntries(rule[2].split(';').map((d) => [d.slice(0, d.indexOf(':')), d.slice(d.indexOf(':') + 1)]));
      rules.set(rule[1], { media: block[1], declarations });
    }
  }
  return rules;
}

describe('the HTML poster (pure parts)', () => {
  const tiles = posterPreloads(MAPS.customs, manifest);

  it("gives every tile its place from the window's centre, its size, its image and its floor's opacity, under its windows' media query", () => {
    const rules = rulesOf(posterStylesheet(tiles));
    expect(rules.size).toBe(tiles.length);
    tiles.forEach((t, i) => {
      const rule = rules.get(`t${i}`)!;
      expect(rule.media).toBe(t.media);
      const at = (value: string) => Number(/^calc\(50% \+ (-?[\d.]+)px\)$/.exec(value)![1]);
      expect(at(rule.declarations.left)).toBeCloseTo(t.fromCentreLeft, 3);
      expect(at(rule.declarations.top)).toBeCloseTo(t.fromCentreTop, 3);
      expect(parseFloat(rule.declarations.width)).toBeCloseTo(t.width, 3);
      expect(parseFloat(rule.declarations.height)).toBeCloseTo(t.height, 3);
      expect(rule.declarations['background-image']).toBe(`url("${t.path}")`);
      expect(rule.declarations.opacity === undefined ? 1 : Number(rule.declarations.opacity)).toBeCloseTo(t.opacity, 3);
      expect(rule.declarations.display).toBe('block');
    });
  });

  it('hides every tile outside its windows, so a window fetches only its own', () => {
    const css = posterStylesheet(tiles);
    expect(css.split('\n')[0]).toBe(`.${HTML_POSTER_CLASS}>span{display:none;position:absolute;background-size:calc(100% + 1px) calc(100% + 1px);background-repeat:no-repeat}`);
    // Outside any @media block there is no other rule.
    expect(css.replace(/@media [^{]+\{(?:[^{}]+\{[^}]*\})*\}/g, '').trim()).toBe(css.split('\n')[0]);
  });

  it('writes one element per tile, hidden from assistive technology, and quotes what a CSS url needs', () => {
    const markup = posterMarkup('customs', tiles);
    expect(markup.startsWith(`<div class="map-poster ${HTML_POSTER_CLASS}" aria-hidden="true" data-map="customs">`)).toBe(true);
    expect([...markup.matchAll(/<span class="t(\d+)" elementtiming="map-poster"><\/span>/g)].map((m) => Number(m[1]))).toEqual(tiles.map((_, i) => i));
    const odd: PosterPreload = { ...tiles[0], path: '/tiles/a"b\\c/1.webp' };
    expect(posterStylesheet([odd])).toContain('url("/tiles/a\\22 b\\5c c/1.webp")');
    expect(posterStylesheetPath(manifest)).toBe('/tiles/customs/v1/poster.css');
  });
});

describe.each(testBackends())('a map page carries the poster of its first view on $name', (backend) => {
  const server = useRoleApp(backend, (root) => builtSiteOptions(root));

  const versionOf = async (mapId: string) => ((await server.app.inject({ url: `/tiles/${mapId}/manifest.json` })).json() as TileManifest).version;

  it.each(['anonymous', 'visitor', 'pro', 'admin'] as const)('gives %s the poster first in the body and its stylesheet in the head, the same for everyone', async (role) => {
    const headers = server.cookies[role] ? { cookie: server.cookies[role] } : {};
    const page = await server.app.inject({ url: '/map/customs?quest=q1', headers });
    const version = await versionOf('customs');
    const href = `/tiles/customs/${version}/poster.css`;
    expect(page.body).toContain(`<link rel="stylesheet" href="${href}"></head>`.replace('</head>', ''));
    expect(page.body.indexOf(href)).toBeLessThan(page.body.indexOf('</head>'));
    expect(page.body).toMatch(/<body><div class="map-poster map-poster--html" aria-hidden="true" data-map="customs">(<span class="t\d+" elementtiming="map-poster"><\/span>)+<\/div><div id="root">/);
    const sheet = await server.app.inject({ url: href, headers });
    expect(sheet.statusCode).toBe(200);
    expect(sheet.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(sheet.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // One rule per element, and each tile it names is one the server has.
    const spans = [...page.body.matchAll(/<span class="(t\d+)"/g)].map((m) => m[1]);
    expect([...rulesOf(sheet.body).keys()].sort()).toEqual(spans.sort());
    const first = /url\("([^"]+)"\)/.exec(sheet.body)![1];
    expect(first.startsWith(`/tiles/customs/${version}/`)).toBe(true);
    expect((await server.app.inject({ url: first, headers })).statusCode).toBe(200);
  });

  it('gives the stream overlay and pages that are not maps none', async () => {
    for (const url of ['/map/customs?overlay=1', '/', '/progression/quests', '/map/atlantis']) {
      const page = await server.app.inject({ url });
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).not.toContain('map-poster');
      expect(page.body, url).not.toContain('poster.css');
    }
  });

  it('answers an unknown map, a string that is no version or a bad path with a clear error, never a stylesheet', async () => {
    const version = await versionOf('factory');
    for (const url of [
      '/tiles/atlantis/v1/poster.css',
      `/tiles/factory/${version}x/poster.css`,
      '/tiles/factory/old/poster.css',
      `/tiles/..%2Ffactory/${version}/poster.css`,
      `/tiles/factory/${'9'.repeat(500)}/poster.css`,
      `/tiles/%00/${version}/poster.css`,
    ]) {
      const res = await server.app.inject({ url });
      // (a NUL is refused before any route: 400)
      expect([400, 404], url).toContain(res.statusCode);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      expect(res.json().error, url).toBeTruthy();
    }
    expect((await server.app.inject({ url: `/tiles/factory/${version}/poster.css` })).statusCode).toBe(200);
  });

  it("redirects an earlier version's stylesheet to the current one's, never kept by a cache", async () => {
    const version = await versionOf('factory');
    const earlier = version === '0123456789ab' ? 'ba9876543210' : '0123456789ab';
    const res = await server.app.inject({ url: `/tiles/factory/${earlier}/poster.css` });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`/tiles/factory/${version}/poster.css`);
    expect(res.headers['cache-control']).toBe('no-store');
    const followed = await server.app.inject({ url: res.headers.location as string });
    expect(followed.statusCode).toBe(200);
    expect(followed.headers['content-type']).toMatch(/^text\/css/);
    expect(followed.body).toContain(`/tiles/factory/${version}/`);
  });

  it('sends the stylesheet compressed as the client accepts, the same text in each', async () => {
    const url = `/tiles/customs/${await versionOf('customs')}/poster.css`;
    const plain = await server.app.inject({ url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const [encoding, decode] of [
      ['br', zlib.brotliDecompressSync],
      ['gzip', zlib.gunzipSync],
    ] as const) {
      const res = await server.app.inject({ url, headers: { 'accept-encoding': encoding } });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
      expect(decode(res.rawPayload).toString('utf8')).toBe(plain.body);
    }
  });

  it('gives many pages and stylesheets at once the same poster', async () => {
    const version = await versionOf('woods');
    const [pages, sheets] = await Promise.all([
      Promise.all(Array.from({ length: 8 }, () => server.app.inject({ url: '/map/woods' }))),
      Promise.all(Array.from({ length: 8 }, () => server.app.inject({ url: `/tiles/woods/${version}/poster.css` }))),
    ]);
    expect(new Set(pages.map((p) => /<div class="map-poster[^]*?<\/div>/.exec(p.body)![0])).size).toBe(1);
    expect(new Set(sheets.map((s) => s.body)).size).toBe(1);
    expect(sheets.every((s) => s.statusCode === 200)).toBe(true);
  });
});

describe('htmlPosters', () => {
  it('makes a map\'s poster once per tile version, and a new version\'s when the art changes', async () => {
    let current: TileManifest = manifest;
    const posterOf = htmlPosters(async () => current);
    const first = await posterOf('customs');
    expect(first?.stylesheetPath).toBe('/tiles/customs/v1/poster.css');
    expect((await posterOf('customs'))?.stylesheet).toBe(first?.stylesheet);
    current = { ...manifest, version: 'v2' };
    const second = await posterOf('customs');
    expect(second?.stylesheetPath).toBe('/tiles/customs/v2/poster.css');
    expect(second?.stylesheet).toContain('/tiles/customs/v2/');
    expect(second?.stylesheet).not.toContain('/tiles/customs/v1/');
    expect(await htmlPosters(async () => undefined)('customs')).toBeUndefined();
  });
});
