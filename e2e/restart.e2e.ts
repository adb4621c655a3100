/**
 * Start-up is idempotent: a second start on the same DATA_DIR reuses the database (no second
 * seeding, the same markers), and a start on tiles already cut rewrites none of them. A page
 * following a live feed while the server is down asks for its stream again a few times only,
 * waiting longer each time, and follows again once the server is back on the same address.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { PREBUILT_MAX_Z } from '../src/domain/tiles';
import { useBrowser } from './browser';
import { freshDataDir, startServer, type RunningServer } from './support/server';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = freshDataDir('raidmap-e2e-restart-');
const feedDataDir = freshDataDir('raidmap-e2e-restart-feed-');
let server: RunningServer | undefined;
let feedServer: RunningServer | undefined;
const browser = useBrowser();

afterAll(async () => {
  await server?.stop();
  await feedServer?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(feedDataDir, { recursive: true, force: true });
});

async function markerUids(base: string, mapId: string): Promise<string[]> {
  const response = await fetch(`${base}/api/be/markers/list?map=${mapId}`);
  expect(response.status).toBe(200);
  const { markers } = (await response.json()) as { markers: { uid: string }[] };
  return markers.map((m) => m.uid).sort();
}

/** Path → modification time of every prebuilt tile (z ≤ PREBUILT_MAX_Z): {map}/{version}/{layer}/{z}/... */
function prebuiltTiles(tilesDir: string): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (dir: string, depth: number) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth === 3 && !(Number(entry.name) <= PREBUILT_MAX_Z)) continue;
        walk(path, depth + 1);
      } else if (depth >= 4) {
        out.set(path, statSync(path).mtimeMs);
      }
    }
  };
  walk(tilesDir, 0);
  return out;
}

describe('restarting the server', () => {
  test('reuses the database, and rewrites no tile already cut', async () => {
    // Tiles the global server already cut, shared by both starts.
    const tilesDir = inject('tilesDir');
    const before = prebuiltTiles(tilesDir);
    expect(before.size).toBeGreaterThan(100);
    const env = { SEED_MAPS: 'factory', TILES_DIR: tilesDir };

    server = await startServer({ repoRoot, dataDir, env, tilesTimeoutMs: 120_000 });
    expect(server.health.tiles.ready).toBe(true);
    const first = await markerUids(server.baseUrl, 'factory');
    expect(first.length).toBeGreaterThanOrEqual(300);
    await server.stop();

    server = await startServer({ repoRoot, dataDir, env, tilesTimeoutMs: 120_000 });
    expect(server.health.tiles.ready).toBe(true);
    expect(server.health.tiles.done).toBe(server.health.tiles.total);
    const second = await markerUids(server.baseUrl, 'factory');
    // Same markers, no second seeding (which would add new uids or duplicates).
    expect(second).toEqual(first);

    const after = prebuiltTiles(tilesDir);
    const rewritten = [...before].filter(([path, mtime]) => after.get(path) !== mtime).map(([path]) => path);
    expect(rewritten.slice(0, 5), `${rewritten.length} prebuilt tiles rewritten or removed`).toEqual([]);
  }, 300_000);
});

describe('a page following a live feed while the server is down', () => {
  test('asks for the stream a few times, each wait longer, and follows again once the server is back', async () => {
    const env = { SEED_MAPS: 'customs', TILES_DIR: inject('tilesDir') };
    feedServer = await startServer({ repoRoot, dataDir: feedDataDir, env, tilesTimeoutMs: 120_000 });
    const { baseUrl, port } = feedServer;
    const paired = await fetch(`${baseUrl}/api/be/pilot/pairings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(paired.status).toBe(201);
    const { code } = (await paired.json()) as { code: string };

    const { page, errors } = await browser.newPage();
    // The browser logs each refused or dropped connection while the server is down, and a
    // stream asked for while it is closing gets its 503 (Fastify's answer during close).
    errors.allow(/net::ERR_|Failed to load resource|^HTTP 503 for /);
    const status = () => page.evaluate(() => (window as unknown as { __map: { pilot(): { status: string } | null } }).__map.pilot()?.status ?? null);
    const streamAsked: number[] = [];
    page.on('request', (request) => {
      if (request.url().includes(`/api/be/pilot/${code}/events`)) streamAsked.push(Date.now());
    });
    await page.goto(`${baseUrl}/map/customs?connection=${code}`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => (window as unknown as { __map?: { ready?: boolean } }).__map?.ready === true, undefined, { timeout: 45_000, polling: 100 });
    await expect.poll(status, { timeout: 15_000 }).toBe('connected');

    const stopping = Date.now();
    await feedServer.stop();
    const down = Date.now();
    await expect.poll(status, { timeout: 10_000 }).toBe('reconnecting');
    // Down for 20 s: the browser's own retry asked every 2 s (10 times); the page backs off from 2 s.
    await page.waitForTimeout(20_000);
    const restarting = Date.now();
    feedServer = await startServer({ repoRoot, dataDir: feedDataDir, env, port, tilesTimeoutMs: 120_000 });
    const up = Date.now();

    // Asked again at about 2, 6 and 14 s (each wait shortened by up to a quarter at random).
    const whileDown = streamAsked.filter((t) => t > stopping && t < restarting);
    const gaps = whileDown.slice(1).map((t, i) => t - whileDown[i]);
    const asked = `asked ${whileDown.length} times, ${whileDown.map((t) => t - stopping).join(', ')} ms after the stop`;
    expect(whileDown.length, asked).toBeGreaterThanOrEqual(3);
    expect(whileDown.length, asked).toBeLessThanOrEqual(5);
    for (let i = 1; i < gaps.length; i += 1) expect(gaps[i], `gaps ${gaps.join(', ')} ms`).toBeGreaterThan(gaps[i - 1]);

    await expect.poll(status, { timeout: 35_000, interval: 250 }).toBe('connected');
    console.log(`stopped in ${down - stopping} ms, down ${restarting - down} ms, ${asked}; back after ${up - restarting} ms, connected ${Date.now() - up} ms later`);
  }, 120_000);
});
