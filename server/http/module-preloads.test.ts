/**
 * A map page names the engine's chunks as modulepreload links: the entries of the engine its
 * address draws with (the render worker's page side by default, the main-thread engine and
 * PixiJS with `?render=main`) and the tools, and what they import, less what the page's own
 * entry already loads; nothing on other pages, nothing without a build manifest, and a rebuilt
 * manifest is read again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testBackends } from '../testing/databases';
import { builtSiteOptions } from '../testing/built-site';
import { useRoleApp } from '../testing/role-app';
import { mapPageExtras } from './map-page-head';
import { htmlPosters } from './map-poster';
import { mapPagePreloads, mapPagePreloadsFrom, modulePreloadLinks } from './module-preloads';

/** A manifest shaped as Vite writes it (build.manifest). */
const manifest = {
  'index.html': { file: 'assets/index-A.js', src: 'index.html', isEntry: true, imports: ['_runtime-R.js', '_shared-S.js'], css: ['assets/index-C.css'] },
  '_runtime-R.js': { file: 'assets/runtime-R.js' },
  '_shared-S.js': { file: 'assets/shared-S.js', imports: ['_runtime-R.js'] },
  'src/engine/index.ts': { file: 'assets/engine-E.js', src: 'src/engine/index.ts', isDynamicEntry: true, imports: ['_runtime-R.js', 'index.html', '_pixi-P.js', '_hit-H.js'], assets: ['assets/tile-fetch.worker-W.js'] },
  '_pixi-P.js': { file: 'assets/pixi-P.js', imports: ['_runtime-R.js', '_pixi-deep-D.js'] },
  '_pixi-deep-D.js': { file: 'assets/pixi-deep-D.js' },
  'src/tools/index.ts': { file: 'assets/tools-T.js', src: 'src/tools/index.ts', isDynamicEntry: true, imports: ['index.html', '_hit-H.js'] },
  '_hit-H.js': { file: 'assets/hit-H.js' },
  'src/engine/worker-engine.ts': { file: 'assets/worker-engine-K.js', src: 'src/engine/worker-engine.ts', isDynamicEntry: true, imports: ['_options-O.js', 'index.html'], dynamicImports: ['src/engine/index.ts'] },
  '_options-O.js': { file: 'assets/options-O.js', imports: ['_runtime-R.js'] },
  'src/ui/pages/PilotPage.tsx': { file: 'assets/PilotPage-X.js', isDynamicEntry: true, imports: ['index.html'] },
  '_style-only.css': { file: 'assets/style-only.css' },
};

const linksOf = (html: string) => [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);

describe('mapPagePreloads (pure)', () => {
  it('names the engine and tools entries first, then their chunks in import order, without what the page loads already', () => {
    expect(mapPagePreloads(manifest, 'main')).toEqual(['/assets/engine-E.js', '/assets/tools-T.js', '/assets/pixi-P.js', '/assets/pixi-deep-D.js', '/assets/hit-H.js']);
  });

  it('by default (the render worker) names the worker engine, not PixiJS nor the main-thread engine it falls back to', () => {
    expect(mapPagePreloads(manifest)).toEqual(['/assets/worker-engine-K.js', '/assets/tools-T.js', '/assets/options-O.js', '/assets/hit-H.js']);
    expect(mapPagePreloads(manifest, 'worker')).toEqual(mapPagePreloads(manifest));
  });

  it('names nothing for a manifest without the entries, or that is not a manifest', () => {
    expect(mapPagePreloads({ 'index.html': manifest['index.html'] })).toEqual([]);
    for (const bad of [null, 'x', [], { a: 1 }, { a: { file: 3 } }, { a: { file: 'x.js', imports: 'y' } }]) expect(mapPagePreloads(bad)).toEqual([]);
  });

  it('writes links whose href cannot break out of the attribute', () => {
    expect(modulePreloadLinks(['/assets/a.js', '/assets/"><script>x.js'])).toBe('<link rel="modulepreload" crossorigin href="/assets/a.js"><link rel="modulepreload" crossorigin href="/assets/scriptx.js">');
  });
});

describe('mapPagePreloadsFrom (the build folder)', () => {
  it('reads the manifest, has none without one, and reads it again after a rebuild', () => {
    const dist = fs.mkdtempSync(path.join(fs.mkdtempSync('/tmp/raidmap-preloads-'), 'dist-'));
    const read = mapPagePreloadsFrom(dist);
    expect(read()).toBe('');
    fs.mkdirSync(path.join(dist, '.vite'));
    const file = path.join(dist, '.vite', 'manifest.json');
    fs.writeFileSync(file, JSON.stringify(manifest));
    expect(linksOf(read())).toEqual(mapPagePreloads(manifest));
    expect(linksOf(read('main'))).toEqual(mapPagePreloads(manifest, 'main'));
    fs.writeFileSync(file, JSON.stringify({ ...manifest, 'src/engine/index.ts': { ...manifest['src/engine/index.ts'], file: 'assets/engine-NEW.js' } }));
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(linksOf(read('main'))[0]).toBe('/assets/engine-NEW.js');
    fs.writeFileSync(file, '{ not json');
    fs.utimesSync(file, new Date(), new Date(Date.now() + 10_000));
    expect(read()).toBe('');
    expect(read('main')).toBe('');
  });

  it('is added to a map page head with or without a tile manifest', async () => {
    const links = () => modulePreloadLinks(['/assets/engine-E.js']);
    await expect(mapPageExtras(undefined, links)('/map/customs')).resolves.toEqual({ head: links(), body: '' });
    await expect(mapPageExtras(htmlPosters(() => Promise.reject(new Error('broken'))), links)('/map/customs')).resolves.toEqual({ head: links(), body: '' });
    await expect(mapPageExtras(undefined, links)('/')).resolves.toEqual({ head: '', body: '' });
  });
});

describe.each(testBackends())('a map page names the engine chunks to preload on $name', (backend) => {
  const server = useRoleApp(backend, (root) => builtSiteOptions(root, { '.vite/manifest.json': JSON.stringify(manifest) }));

  it.each(['anonymous', 'visitor', 'pro', 'admin'] as const)('gives %s the links on a map page, before </head>', async (role) => {
    const headers = server.cookies[role] ? { cookie: server.cookies[role] } : {};
    const page = await server.app.inject({ url: '/map/customs', headers });
    expect(page.statusCode).toBe(200);
    expect(linksOf(page.body)).toEqual(mapPagePreloads(manifest, 'worker'));
    expect(page.body.lastIndexOf('modulepreload')).toBeLessThan(page.body.indexOf('</head>'));
    const onMain = await server.app.inject({ url: '/map/customs?render=main', headers });
    expect(onMain.statusCode).toBe(200);
    expect(linksOf(onMain.body)).toEqual(mapPagePreloads(manifest, 'main'));
  });

  it('gives no links on other pages', async () => {
    for (const url of ['/', '/progression/quests', '/pilot', '/map/atlantis']) {
      const page = await server.app.inject({ url });
      expect(page.statusCode, url).toBe(200);
      expect(linksOf(page.body), url).toEqual([]);
    }
  });
});
