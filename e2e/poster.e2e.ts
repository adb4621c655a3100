/**
 * The poster of the first view (issue 11, src/ui/map/poster.ts): the map page shows its first
 * view's tiles as images before the engine has started, under the bars and panels, exactly where
 * the engine then draws the same tiles; it goes when the engine is ready. The stream overlay
 * (a see-through canvas) has none.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { MAPS } from '../src/domain/maps';
import { tileBounds, type TileManifest } from '../src/domain/tiles';
import { posterTiles } from '../src/engine/kernels/first-view';
import { baseUrl, markers, openMap, toScreen, useBrowser, type MapAutomation } from './browser';
import { decodeRgba, meanDiffAround, type Rgba } from './support/image';

const browser = useBrowser();
const map = MAPS.customs;

interface PosterImage {
  z: number;
  x: number;
  y: number;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * The poster's tiles that show, once every one of them is loaded: the elements of the page's
 * HTML (server/http/map-poster.ts, a background image each) or the page's own images.
 */
async function posterImages(page: Page): Promise<PosterImage[]> {
  const shown = () =>
    page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.map-poster > *')]
        .filter((e) => getComputedStyle(e).display !== 'none')
        .map((e) => {
          const url = e instanceof HTMLImageElement ? e.src : (/^url\("(.*)"\)$/.exec(getComputedStyle(e).backgroundImage)?.[1] ?? '');
          const box = e.getBoundingClientRect();
          return { url, left: box.left, top: box.top, right: box.right, bottom: box.bottom };
        }),
    );
  await expect.poll(async () => (await shown()).length, { timeout: 20_000, interval: 50 }).toBeGreaterThan(0);
  const tiles = await shown();
  // Loaded: each decodes (from the browser's cache once the poster has it). A decode that fails
  // is tried again twice (headless Chromium under CI load rejected one once, "The source image
  // cannot be decoded", with the tile whole on the server); a tile that never decodes fails the
  // test with what the server sends for it.
  const failures = await page.evaluate(async (urls) => {
    const notes: string[] = [];
    await Promise.all(
      urls.map(async (url) => {
        for (let attempt = 1; ; attempt += 1) {
          try {
            await Object.assign(new Image(), { src: url }).decode();
            return;
          } catch (error) {
            const answer = await fetch(url).then(
              async (r) => `HTTP ${r.status} ${r.headers.get('content-type') ?? ''}, ${(await r.arrayBuffer()).byteLength} bytes`,
              (e: unknown) => String(e),
            );
            const note = `${url}: decode ${attempt} failed (${String(error)}); the server sends ${answer}`;
            if (attempt >= 3) throw new Error(note);
            notes.push(note);
            await new Promise((resolve) => setTimeout(resolve, 250));
          }
        }
      }),
    );
    return notes;
  }, tiles.map((t) => t.url));
  for (const failure of failures) console.warn(`poster.e2e: ${failure}`);
  return tiles.map(({ url, ...box }) => {
    const [z, x, y] = new URL(url).pathname.replace(/\.\w+$/, '').split('/').slice(-3).map(Number);
    return { z, x, y, ...box };
  });
}

/** Holds the engine's chunk (the worker engine's page side, or the main-thread engine) back until the returned function is called: the poster stays up. */
async function holdEngine(page: Page): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/(worker-)?engine-[\w-]{8}\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return () => release();
}

/** A part of the view that no bar or panel covers. */
const CLIP = { x: 300, y: 120, width: 640, height: 560 };
const shot = async (page: Page, dx = 0): Promise<Rgba> => decodeRgba(await page.screenshot({ clip: { ...CLIP, x: CLIP.x + dx } }));

describe('the poster of the first view', () => {
  test('shows the map before the engine, under the panels, where the engine then draws it, and goes when it is ready', async () => {
    const { page } = await browser.newPage();
    // Hold the engine back, so that the poster is all there is for a while.
    const release = await holdEngine(page);
    await page.goto(`${baseUrl()}/map/${map.id}`, { waitUntil: 'domcontentloaded' });
    const images = await posterImages(page);
    expect(await page.locator('canvas').count()).toBe(0);
    // Above the canvas's place, under the bars: the top bar is what a click there reaches. The
    // HTML's poster moves into its slot at React's first commit, which may come after DOMContentLoaded.
    await page.locator('.map-poster-slot > .map-poster').waitFor({ timeout: 5_000 });
    expect(await page.locator('.map-poster-slot > .map-poster').count()).toBe(1);
    const bar = (await page.locator('.map-topbar').boundingBox())!;
    expect(await page.evaluate(([x, y]) => !!document.elementFromPoint(x, y)?.closest('.map-topbar'), [bar.x + 5, bar.y + bar.height / 2] as const)).toBe(true);
    expect(await page.locator('.map-poster').getAttribute('aria-hidden')).toBe('true');
    const poster = await shot(page);

    release();
    await page.waitForFunction(() => (window as unknown as { __map?: MapAutomation }).__map?.ready === true, undefined, { timeout: 45_000, polling: 100 });
    await expect.poll(() => page.locator('.map-poster').count(), { timeout: 5_000 }).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __map: { posterAt(): number | null } }).__map.posterAt())).toBeGreaterThan(0);

    // Each poster tile covered the map rectangle where the engine draws that tile (the view has not moved).
    for (const t of images) {
      const b = tileBounds(4400, 3200, t.z, t.x, t.y);
      const topLeft = await toScreen(page, b.minX, b.minY);
      const bottomRight = await toScreen(page, b.maxX, b.maxY);
      expect(Math.abs(t.left - topLeft.x), `tile ${t.z}/${t.x}/${t.y}`).toBeLessThan(0.6);
      expect(Math.abs(t.top - topLeft.y)).toBeLessThan(0.6);
      expect(Math.abs(t.right - bottomRight.x)).toBeLessThan(0.6);
      expect(Math.abs(t.bottom - bottomRight.y)).toBeLessThan(0.6);
    }

    // And it looked like the engine's picture: with the markers off, the same place differs
    // only by the poster's coarser level, far less than the picture moved by 24 px does.
    const categories = page.getByRole('complementary', { name: 'Categories' });
    const checked = categories.getByRole('checkbox', { checked: true });
    for (let left = await checked.count(); left > 0; left = await checked.count()) await checked.first().uncheck();
    await expect.poll(async () => (await markers(page)).length).toBe(0);
    await page.mouse.move(5, 795);
    await page.waitForTimeout(300);
    const engine = await shot(page);
    const shifted = await shot(page, 24);
    const centre = [CLIP.width / 2, CLIP.height / 2, Math.min(CLIP.width, CLIP.height) / 2 - 1] as const;
    const same = meanDiffAround(poster, engine, ...centre);
    const moved = meanDiffAround(poster, shifted, ...centre);
    // (about 2 against 15 here)
    expect(same, `poster vs engine ${same.toFixed(1)}, vs engine 24 px off ${moved.toFixed(1)}`).toBeLessThan(moved / 2);
  });

  test("is in the page's HTML: painted where the engine draws its tiles before any of the page's script has run", async () => {
    const { page } = await browser.newPage();
    // Hold every script of the page back: what shows is the HTML and its stylesheets alone.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/[\w.-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${baseUrl()}/map/${map.id}`, { waitUntil: 'commit' });
    const tiles = await posterImages(page);
    expect(await page.evaluate(() => 'mapView' in window || !!document.querySelector('#root > *'))).toBe(false);
    expect(await page.locator('.map-poster--html').getAttribute('aria-hidden')).toBe('true');
    // Where the engine's first view puts those tiles (the same math the page's own poster uses).
    const manifest = JSON.parse((await page.locator('#raidmap-tile-manifest').textContent())!) as TileManifest;
    const expected = posterTiles(map, manifest, page.viewportSize()!, 1);
    expect(tiles.map((t) => `${t.z}/${t.x}/${t.y}`).sort()).toEqual([...new Set(expected.map((t) => `${t.z}/${t.x}/${t.y}`))].sort());
    for (const t of tiles) {
      const e = expected.find((x) => x.z === t.z && x.x === t.x && x.y === t.y)!;
      expect(Math.abs(t.left - e.left), `tile ${t.z}/${t.x}/${t.y}`).toBeLessThan(0.6);
      expect(Math.abs(t.top - e.top)).toBeLessThan(0.6);
      expect(Math.abs(t.right - (e.left + e.width))).toBeLessThan(0.6);
      expect(Math.abs(t.bottom - (e.top + e.height))).toBeLessThan(0.6);
    }
    // Not the empty page: the map's art is painted there.
    const painted = await shot(page);
    const blank = painted.data.every((v, i) => v === painted.data[i % 4]);
    expect(blank).toBe(false);
    // And no seam of the dark background between two tiles: a line along a tile edge is about
    // as bright as the lines beside it (a seam was a one-pixel line at half their brightness).
    const full = await decodeRgba(await page.screenshot());
    const lum = (x: number, y: number) => {
      const i = (y * full.width + x) * 4;
      return 0.3 * full.data[i] + 0.59 * full.data[i + 1] + 0.11 * full.data[i + 2];
    };
    const column = (x: number) => Array.from({ length: full.height }, (_, y) => lum(x, y)).reduce((a, b) => a + b) / full.height;
    const row = (y: number) => Array.from({ length: full.width }, (_, x) => lum(x, y)).reduce((a, b) => a + b) / full.width;
    const edges = (values: number[], size: number) => [...new Set(values.map(Math.round))].filter((v) => v > 4 && v < size - 4);
    for (const x of edges(tiles.map((t) => t.right), full.width)) {
      const beside = (column(x - 3) + column(x + 3)) / 2;
      expect(Math.min(column(x - 1), column(x)), `seam at x = ${x}`).toBeGreaterThan(beside * 0.85);
    }
    for (const y of edges(tiles.map((t) => t.bottom), full.height)) {
      const beside = (row(y - 3) + row(y + 3)) / 2;
      expect(Math.min(row(y - 1), row(y)), `seam at y = ${y}`).toBeGreaterThan(beside * 0.85);
    }

    // The page's script takes it as its poster, and it goes when the engine is ready.
    release();
    await expect.poll(() => page.locator('.map-poster-slot > .map-poster--html').count(), { timeout: 30_000 }).toBe(1);
    await page.waitForFunction(() => (window as unknown as { __map?: MapAutomation }).__map?.ready === true, undefined, { timeout: 45_000, polling: 100 });
    await expect.poll(() => page.locator('.map-poster').count(), { timeout: 5_000 }).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __map: { posterAt(): number | null } }).__map.posterAt())).toBeGreaterThan(0);
  });

  test.each([
    [1.25, 'the HTML\'s (a Windows laptop at 125 %)'],
    [1.75, 'the page\'s own (a ratio the HTML has none for)'],
  ])('a window at %s dppx gets %s', async (dpr) => {
    const { page } = await browser.newPage({ deviceScaleFactor: dpr });
    const release = await holdEngine(page);
    await page.goto(`${baseUrl()}/map/${map.id}`, { waitUntil: 'domcontentloaded' });
    const tiles = await posterImages(page);
    expect(tiles.length).toBeGreaterThan(0);
    const fromHtml = dpr === 1.25;
    expect(await page.locator('.map-poster--html').count()).toBe(fromHtml ? 1 : 0);
    expect(await page.locator('.map-poster img').count()).toBe(fromHtml ? 0 : tiles.length);
    // Either way, the first view's tiles for this ratio, where the engine draws them.
    const manifest = JSON.parse((await page.locator('#raidmap-tile-manifest').textContent())!) as TileManifest;
    const expected = posterTiles(map, manifest, page.viewportSize()!, dpr);
    expect(tiles.map((t) => `${t.z}/${t.x}/${t.y}`).sort()).toEqual([...new Set(expected.map((t) => `${t.z}/${t.x}/${t.y}`))].sort());
    release();
    await page.waitForFunction(() => (window as unknown as { __map?: MapAutomation }).__map?.ready === true, undefined, { timeout: 45_000, polling: 100 });
  });

  test('the stream overlay has none', async () => {
    const { page } = await browser.newPage();
    await page.goto(`${baseUrl()}/map/${map.id}?overlay=1`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => (window as unknown as { __map?: MapAutomation }).__map?.ready === true, undefined, { timeout: 45_000, polling: 100 });
    expect(await page.locator('.map-poster').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __map: { posterAt(): number | null } }).__map.posterAt())).toBeNull();
  });

  test('a page opened on a map shows its own poster, and one opened elsewhere none', async () => {
    const { page } = await browser.newPage();
    await openMap(page, 'factory');
    expect(await page.evaluate(() => (window as unknown as { __map: { posterAt(): number | null } }).__map.posterAt())).toBeGreaterThan(0);
    await page.goto(`${baseUrl()}/`, { waitUntil: 'domcontentloaded' });
    await page.getByRole('link', { name: /Customs/ }).first().click();
    await page.waitForFunction(() => (window as unknown as { __map?: MapAutomation }).__map?.ready === true, undefined, { timeout: 45_000, polling: 100 });
    expect(await page.locator('.map-poster').count()).toBe(0);
  });

  test('goes when another level is chosen (it shows the default level’s floors)', async () => {
    const { page } = await browser.newPage();
    const release = await holdEngine(page);
    await page.goto(`${baseUrl()}/map/${map.id}`, { waitUntil: 'domcontentloaded' });
    await posterImages(page);
    await page.getByRole('complementary', { name: 'Levels and quests' }).getByRole('radio', { name: 'Level 2' }).check();
    await expect.poll(() => page.locator('.map-poster').count(), { timeout: 5_000 }).toBe(0);
    release();
    await page.waitForFunction(() => (window as unknown as { __map?: MapAutomation }).__map?.ready === true, undefined, { timeout: 45_000, polling: 100 });
  });
});
