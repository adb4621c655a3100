/**
 * Server outages, seen from open map pages: the server of this file is stopped and started
 * again on the same address and DATA_DIR (as restart.e2e.ts does), and the pages are left to
 * find their way back on their own.
 *
 * - An admin's markers placed while the server was down are sent again by themselves once it is
 *   back and the list reloaded; meanwhile the dock says they could not be reached (c24a42c).
 * - A visitor's list read again after a restart is never older than the live feed: a
 *   revalidation after a write is not a 304 (c69fff7; the page's side, live changes put back on
 *   a list read again, is tested in src/ui/map/markerSource.test.ts: a page-level race of it
 *   depended on when the page re-read its list, and passed without the fix as well).
 * - Tiles that failed while the server was away are asked for again with the map left still
 *   (26a6eb7).
 */
import { rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, test } from 'vitest';
import type { Page } from 'playwright-core';
import { round4 } from '../src/domain/transform';
import {
  MAP, freeSpots, map, openMap, serverMarkers, serverUids, signIn, toolsPanel, until, useEditorBrowser, type EditorPage,
} from './support/editor';
import { freshDataDir, startServer, type RunningServer } from './support/server';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = freshDataDir('raidmap-e2e-outages-');
let server: RunningServer | undefined;
let port: number | undefined;

const env = () => ({ NODE_ENV: 'development', DEMO_ACCOUNTS: '1', SEED_MAPS: MAP, TILES_DIR: inject('tilesDir') });

async function start(): Promise<RunningServer> {
  server = await startServer({ repoRoot, dataDir, env: env(), port, tilesTimeoutMs: 120_000 });
  port = server.port;
  return server;
}

async function stop(): Promise<void> {
  await server?.stop();
  server = undefined;
}

beforeAll(async () => {
  await start();
});

// A test that failed while the server was down leaves it down: the next one starts it again.
beforeEach(async () => {
  if (!server) await start();
});

afterAll(async () => {
  await stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const base = () => {
  if (!server) throw new Error('the outages server is not running');
  return server.baseUrl;
};

const browser = useEditorBrowser();

/** The browser logs each refused connection while the server is down; a request met while it closes gets its 503. */
function allowOutage({ errors }: EditorPage): void {
  errors.allow(/net::ERR_|Failed to load resource|^HTTP 503 for /);
}

const notice = (page: Page) => page.locator('.admin-unsaved .admin-set-aside__text');

describe('an admin placing markers while the server is down', () => {
  test('the places are sent again by themselves once the server is back, and the dock says so meanwhile', async () => {
    const tracked = await browser.newPage();
    allowOutage(tracked);
    const { page } = tracked;
    await signIn(page, base(), 'admin');
    await openMap(page, base());
    await expect.poll(() => toolsPanel(page).locator('.admin-live--connected').count(), { timeout: 15_000 }).toBe(1);
    const spots = await freeSpots(page, 2);
    const before = await serverUids(base());
    const known = new Set((await map(page).markers()).map((m) => m.uid));

    await stop();
    await expect.poll(() => toolsPanel(page).locator('.admin-live--reconnecting').count(), { timeout: 15_000 }).toBe(1);
    await page.keyboard.press('l');
    for (const spot of spots) await page.mouse.click(spot.x, spot.y);

    const placed = await until(
      async () => (await map(page).markers()).filter((m) => !known.has(m.uid)),
      (list) => list.length === 2 && list.every((m) => m.flag === 'failed'),
      'two placed markers flagged failed',
    );
    await expect.poll(() => notice(page).textContent(), { timeout: 10_000 }).toBe('2 changes not saved: the server could not be reached. Try again.');

    await start();
    // No click: the page hears the feed again, reads the list, and sends both places itself.
    const added = await until(
      async () => [...(await serverUids(base()))].filter((uid) => !before.has(uid)),
      (uids) => uids.length >= 2,
      'two new markers on the server',
      15_000,
    );
    expect(added.sort()).toEqual(placed.map((m) => m.uid).sort());
    await until(
      async () => (await map(page).markers()).filter((m) => added.includes(m.uid)).map((m) => m.flag),
      (flags) => flags.length === 2 && flags.every((f) => f === null),
      'the placed markers without a flag',
    );
    await expect.poll(() => notice(page).count(), { timeout: 10_000 }).toBe(0);
    // Sent once each: no doubles.
    expect([...(await serverUids(base()))].filter((uid) => !before.has(uid)).sort()).toEqual(added.sort());
  }, 60_000);
});

describe('a visitor following the live feed across a restart', () => {
  test('a revalidation of the compact list right after a write gets the new list, not a 304', async () => {
    const url = `${base()}/api/be/markers/compact?map=${MAP}&lang=en`;
    const first = await fetch(url);
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();

    const tracked = await browser.newPage();
    await signIn(tracked.page, base(), 'admin');
    const [marker] = await serverMarkers(base());
    const res = await tracked.page.request.post(`${base()}/api/be/admin/marker/update`, {
      data: { ...marker, geometry: { ...marker.geometry, x: round4(marker.geometry.x + 5) }, version: marker.version },
    });
    expect(res.status()).toBe(200);

    const again = await fetch(url, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(200);
    expect(again.headers.get('etag')).toBeTruthy();
    expect(again.headers.get('etag')).not.toBe(etag);
  }, 30_000);
});

describe('tiles that failed while the server was away', () => {
  test('are asked for again with the map left still once it is back', async () => {
    const tracked = await browser.newPage();
    allowOutage(tracked);
    const { page, context } = tracked;
    await openMap(page, base());
    const failed: string[] = [];
    const answered: { at: number; status: number }[] = [];
    context.on('requestfailed', (request) => {
      if (new URL(request.url()).pathname.startsWith('/tiles/')) failed.push(request.url());
    });
    context.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/tiles/')) answered.push({ at: Date.now(), status: response.status() });
    });

    await stop();
    const zoom = (await map(page).camera()).zoom;
    await page.mouse.move(640, 400);
    for (let i = 0; i < 4; i += 1) {
      await page.mouse.wheel(0, -300);
      await page.waitForTimeout(150);
    }
    await expect.poll(async () => (await map(page).camera()).zoom, { timeout: 10_000 }).toBeGreaterThan(zoom);
    await expect.poll(() => failed.length, { timeout: 15_000 }).toBeGreaterThan(0);

    await start();
    const up = Date.now();
    // Nothing touches the map from here on.
    await expect.poll(() => answered.filter((r) => r.at >= up && r.status === 200).length, { timeout: 25_000, interval: 250 }).toBeGreaterThan(0);
  }, 60_000);
});
