/**
 * The map drawn in the render worker (the default, docs/ENGINE-WORKER.md): the canvas's control
 * is in a worker, the page's main thread draws nothing, and the map shows the same markers as
 * when the main thread draws it (`?render=main`). A browser without OffscreenCanvas draws on the
 * main thread; so does a page whose worker cannot start, by itself, and the rest of its tab.
 * (Every other suite runs with the worker drawing; the camera, map and editor-tool suites run
 * again on the main thread: `npm run test:e2e:main`.)
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { baseUrl, markers, useBrowser } from './browser';
import { canvasTransferred, mapSpread } from './support/map-canvas';
import { fetchManifest } from './support/tiles';

const browser = useBrowser();

async function openReady(page: Page, search: string): Promise<void> {
  await page.goto(`${baseUrl()}/map/customs${search}`, { waitUntil: 'domcontentloaded' });
  await page.waitForFunction(() => (window as unknown as { __map?: { ready?: boolean } }).__map?.ready === true, undefined, { timeout: 45_000, polling: 100 });
}


const renderWorkers = (page: Page) => page.workers().filter((w) => /render\.worker-[\w-]+\.js/.test(w.url()));

/** The main-thread engine's chunk (PixiJS and the scene), as the build names it (`engine-` and an 8-character hash; not `engine-options-…`). */
const MAIN_ENGINE_CHUNK = /\/assets\/engine-[\w-]{8}\.js$/;

/** The scripts the page itself fetched (Resource Timing: a worker's own requests are not in it). */
const pageScripts = (page: Page) =>
  page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name).filter((name) => name.endsWith('.js')));


describe('the map drawn in the render worker', () => {
  test('the canvas is drawn by a worker, with the markers and picture the main thread draws', async () => {
    const worker = await browser.newPage();
    await openReady(worker.page, '?render=worker');
    expect(await canvasTransferred(worker.page)).toBe(true);
    expect(renderWorkers(worker.page)).toHaveLength(1);
    expect(await worker.page.evaluate(() => (window as unknown as { __map: { renderer: string } }).__map.renderer)).toBe('webgl');
    expect(await mapSpread(worker.page)).toBeGreaterThan(8);
    // PixiJS and the scene load in the worker: the page never fetches (nor waits for) the
    // main-thread engine's chunk, which the build once preloaded for both engines.
    expect((await pageScripts(worker.page)).filter((url) => MAIN_ENGINE_CHUNK.test(url))).toEqual([]);

    const main = await browser.newPage();
    await openReady(main.page, '?render=main');
    expect(await canvasTransferred(main.page)).toBe(false);
    expect(renderWorkers(main.page)).toHaveLength(0);
    expect((await pageScripts(main.page)).some((url) => MAIN_ENGINE_CHUNK.test(url))).toBe(true);

    const drawn = (list: { uid: string; visible: boolean }[]) => list.filter((m) => m.visible).map((m) => m.uid).sort();
    const inWorker = drawn(await markers(worker.page));
    expect(inWorker.length).toBeGreaterThan(10);
    expect(inWorker).toEqual(drawn(await markers(main.page)));
  });

  for (const search of ['?render=worker', '?render=main']) test(`${search}: the engine asks for the first view's tiles in one bundle, and draws them`, async () => {
    const { page } = await browser.newPage({ width: 1280, height: 800 });
    const tilePaths: string[] = [];
    page.context().on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/tiles/')) tilePaths.push(pathname);
    });
    await openReady(page, search);
    const bundles = tilePaths.filter((p) => p.includes('/bundle/'));
    expect(bundles).toHaveLength(1);
    // /tiles/{map}/{version}/bundle/{layers}/{z}/{x0}-{x1}/{y0}-{y1}.bin
    const [layers, z, xs, ys] = bundles[0].split('/').slice(5);
    const [x0, x1] = xs.split('-').map(Number);
    const [y0, y1] = ys.replace(/\.bin$/, '').split('-').map(Number);
    expect((x1 - x0 + 1) * (y1 - y0 + 1)).toBeGreaterThan(4);
    // None of its tiles was asked for on its own (the poster's tiles, a level coarser, were).
    const single = tilePaths.filter((p) => !p.includes('/bundle/') && p.endsWith('.webp')).map((p) => p.split('/').slice(4));
    const inBundle = single.filter(([layer, tz, tx, ty]) => {
      const x = Number(tx);
      const y = Number(ty.replace(/\.webp$/, ''));
      return layers.split(',').includes(layer) && tz === z && x >= x0 && x <= x1 && y >= y0 && y <= y1;
    });
    expect(inBundle).toEqual([]);
    expect(await mapSpread(page)).toBeGreaterThan(8);
  });

  for (const search of ['?render=worker', '?render=main']) {
    test(`${search}: a page that starts on a replaced drawing's tile version loses one request to it, then draws the current one`, async () => {
      const { page, errors } = await browser.newPage({ width: 1280, height: 800 });
      const manifest = await fetchManifest(baseUrl(), 'customs');
      // A version of the same shape the server does not have: the drawing was replaced after this page's HTML was written.
      const old = manifest.version.slice(0, -1) + (manifest.version.endsWith('0') ? '1' : '0');
      // The browser logs each 404 of the old version (the poster's images, the engine's one request).
      errors.allow(new RegExp(`status of 404 .*/tiles/customs/${old}/`));
      let html = '';
      await page.route(/\/map\/customs(\?|$)/, async (route) => {
        const response = await route.fetch();
        html = (await response.text()).replaceAll(manifest.version, old);
        await route.fulfill({ response, body: html });
      });
      const requests: Array<{ path: string; status: () => Promise<number> }> = [];
      page.context().on('request', (request) => {
        const { pathname } = new URL(request.url());
        if (pathname.startsWith('/tiles/customs/')) requests.push({ path: pathname, status: async () => (await request.response())?.status() ?? 0 });
      });
      await openReady(page, search);
      await expect.poll(() => mapSpread(page), { timeout: 15_000 }).toBeGreaterThan(8);
      // The HTML's own poster and preloads name the old version; of the engine's requests, one did.
      const engineOld = requests.filter((r) => r.path.startsWith(`/tiles/customs/${old}/`) && !html.includes(r.path)).map((r) => r.path);
      expect(engineOld.length, engineOld.join('\n')).toBeLessThanOrEqual(1);
      const current = requests.filter((r) => r.path.startsWith(`/tiles/customs/${manifest.version}/`));
      expect(current.length).toBeGreaterThan(0);
      // Every one answered was served (one the engine cancelled has no answer).
      expect(new Set((await Promise.all(current.map((r) => r.status()))).filter((status) => status !== 0))).toEqual(new Set([200]));
    });
  }

  test('a settled map draws no frames in the worker either', async () => {
    const { page } = await browser.newPage();
    await openReady(page, '?render=worker');
    const frames = () => page.evaluate(() => (window as unknown as { __map: { stats(): { frames: number } | null } }).__map.stats()?.frames ?? 0);
    // Labels and late tiles settle within a few seconds of ready.
    let before = await frames();
    for (let i = 0; i < 20; i++) {
      await page.waitForTimeout(500);
      const now = await frames();
      if (now === before) break;
      before = now;
    }
    await page.waitForTimeout(1000);
    expect(await frames()).toBe(before);
    // And it draws again when dragged.
    await page.mouse.move(640, 400);
    await page.mouse.down();
    await page.mouse.move(560, 360, { steps: 5 });
    await page.mouse.up();
    await page.waitForTimeout(300);
    expect(await frames()).toBeGreaterThan(before);
  });

  test('a browser without OffscreenCanvas draws on the main thread', async () => {
    const { page } = await browser.newPage();
    await page.addInitScript(() => {
      delete (HTMLCanvasElement.prototype as unknown as { transferControlToOffscreen?: unknown }).transferControlToOffscreen;
    });
    await openReady(page, '?render=worker');
    expect(await canvasTransferred(page)).toBe(false);
    expect(renderWorkers(page)).toHaveLength(0);
    expect(await mapSpread(page)).toBeGreaterThan(8);
  });

  test('a render worker that cannot start: the map draws on the main thread by itself, with no error shown', async () => {
    const { page, errors } = await browser.newPage();
    errors.allow(/render worker failed/);
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(m.text());
    });
    await page.route(/render\.worker-[\w-]+\.js/, (route) => route.abort());
    await page.goto(`${baseUrl()}/map/customs`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => (window as unknown as { __map?: { ready?: boolean } }).__map?.ready === true, undefined, { timeout: 45_000, polling: 100 });
    expect(await page.locator('.map-error').count()).toBe(0);
    expect(await canvasTransferred(page)).toBe(false);
    expect(await mapSpread(page)).toBeGreaterThan(8);
    expect(warnings.some((w) => /drawing the map on the main thread/.test(w))).toBe(true);
    // The tab remembers: its next map draws on the main thread from the start.
    await page.unroute(/render\.worker-[\w-]+\.js/);
    await openReady(page, '');
    expect(await canvasTransferred(page)).toBe(false);
    expect(renderWorkers(page)).toHaveLength(0);
  });
});
