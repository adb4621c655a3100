/**
 * Two real server processes (`node --import tsx server/main.ts`, as `npm run serve` starts
 * them) on different ports, sharing one PostgreSQL database (a fresh schema of
 * TEST_DATABASE_URL), one DATA_DIR and one tile folder, as docs/DEPLOY.md describes: started
 * together, only one migrates and seeds; a session made on A works on B and ends there when
 * it ends on A; an admin's marker added on A is in B's list and reaches a browser page open
 * on B through B's live stream; a live position published to A moves a page following its
 * code on B; each process follows every pilot code's last map and position (a page opening on A
 * is replayed what B received since, a position sent to B is checked against the map sent to
 * A) and `watchers` counts the pages of every process (docs/PILOT.md "Several processes"); a
 * tile asked of both at once is rendered once.
 *
 * Skipped without TEST_DATABASE_URL (`bash scripts/ensure-postgres.sh` prints one).
 */
import { existsSync, mkdirSync, rmSync, watch, type FSWatcher } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { Page } from 'playwright-core';
import type { Marker } from '../src/domain/marker';
import { tileGrid, tilePath } from '../src/domain/tiles';
import { markers, useBrowser } from './browser';
import { fetchManifest } from './support/tiles';
import { freshDataDir, startServer, type RunningServer } from './support/server';

const url = process.env.TEST_DATABASE_URL;
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const schema = `e2e_multi_${process.pid}_${Date.now().toString(36)}`;
const dataDir = freshDataDir('raidmap-e2e-multi-');
const browser = useBrowser();
let a: RunningServer | undefined;
let b: RunningServer | undefined;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function servers(): { a: RunningServer; b: RunningServer } {
  if (!a || !b) throw new Error('the two servers did not start');
  return { a, b };
}

async function signIn(base: string, name: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/be/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, password }) });
  if (!res.ok) throw new Error(`signing in as ${name} on ${base}: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('raidmap_session='));
  if (!cookie) throw new Error('no session cookie');
  return cookie.split(';')[0];
}

async function listUids(base: string, map: string): Promise<string[]> {
  const res = await fetch(`${base}/api/be/markers/list?map=${map}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { markers: Marker[] }).markers.map((m) => m.uid);
}

/** A new pilot pairing, made on `base`. */
async function pair(base: string): Promise<{ code: string; token: string }> {
  const res = await fetch(`${base}/api/be/pilot/pairings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  expect(res.status).toBe(201);
  return (await res.json()) as { code: string; token: string };
}

/** Publishes one pilot message to the process at `base`; the raw answer. */
function send(base: string, code: string, token: string, message: unknown): Promise<Response> {
  return fetch(`${base}/api/be/pilot/${code}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(message),
  });
}

/** Publishes one pilot message to the process at `base`, which must take it. */
async function publish(base: string, code: string, token: string, message: unknown): Promise<void> {
  const res = await send(base, code, token, message);
  expect(res.status, await res.clone().text()).toBe(200);
}

/** What the process at `base` says of a code: the call /pilot makes for `watchers` and `knowsMap`. */
async function pairingInfo(base: string, code: string): Promise<{ watchers: number; knowsMap: boolean }> {
  const res = await fetch(`${base}/api/be/pilot/${code}`);
  expect(res.status).toBe(200);
  return (await res.json()) as { watchers: number; knowsMap: boolean };
}

type PilotApi = { __map: { mapId: string; ready: boolean; pilot(): { status: string } | null; player(): { x: number; y: number; z: number; look: number | null } | null } };

async function openOn(page: Page, base: string, map: string): Promise<void> {
  await page.goto(`${base}/map/${map}`, { waitUntil: 'domcontentloaded' });
  await page.waitForFunction(() => (window as unknown as { __map?: { ready: boolean } }).__map?.ready === true, undefined, { timeout: 45_000, polling: 100 });
}

describe.skipIf(!url)(url ? 'two server processes on one PostgreSQL database' : 'two server processes: skipped, TEST_DATABASE_URL is not set (bash scripts/ensure-postgres.sh prints one)', () => {
  beforeAll(async () => {
    const env = {
      DATABASE_URL: url!,
      DATABASE_SCHEMA: schema,
      // The demo accounts (admin / demo) and plain-http cookies.
      NODE_ENV: 'development',
      DEMO_ACCOUNTS: '1',
      SEED_MAPS: 'factory',
      MARKERS_PER_MAP: '60',
      TILES_DIR: inject('tilesDir'),
    };
    // Started together: the start-up lock lets one migrate and seed, the other wait.
    const started = await Promise.allSettled([
      startServer({ repoRoot, dataDir, env, startTimeoutMs: 120_000, tilesTimeoutMs: 120_000 }),
      startServer({ repoRoot, dataDir, env, startTimeoutMs: 120_000, tilesTimeoutMs: 120_000 }),
    ]);
    const up = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    [a, b] = up;
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
  }, 300_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    if (process.env.E2E_SERVER_LOGS) console.log([...(a?.logs() ?? []), '---', ...(b?.logs() ?? [])].join('\n'));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`drop schema if exists ${pg.escapeIdentifier(schema)} cascade`);
    } finally {
      await client.end();
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('started together, one process migrated and seeded the database; both serve the same markers', async () => {
    const { a, b } = servers();
    const logs = [...a.logs(), ...b.logs()];
    expect(logs.filter((l) => /^seeded \d+ sample markers/.test(l))).toHaveLength(1);
    expect(logs.filter((l) => /already has markers: not seeding/.test(l))).toHaveLength(1);
    expect(logs.filter((l) => /created demo accounts/.test(l))).toHaveLength(1);
    const [onA, onB] = await Promise.all([listUids(a.baseUrl, 'factory'), listUids(b.baseUrl, 'factory')]);
    expect(onA.length).toBeGreaterThanOrEqual(60);
    expect(onB).toEqual(onA);
  });

  test('a session made on A works on B, and signing out on A ends it on B', async () => {
    const { a, b } = servers();
    const cookie = await signIn(a.baseUrl, 'pro', 'demo');
    const me = await fetch(`${b.baseUrl}/api/be/user`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ name: 'pro' });
    const out = await fetch(`${a.baseUrl}/api/be/auth/logout`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: '{}' });
    expect(out.status).toBeLessThan(300);
    expect((await fetch(`${b.baseUrl}/api/be/user`, { headers: { cookie } })).status).toBe(401);
  });

  test("an admin's marker added on A is in B's list and reaches a page open on B", async () => {
    const { a, b } = servers();
    const { page } = await browser.newPage();
    await openOn(page, b.baseUrl, 'factory');
    const before = await markers(page);
    expect(before.length).toBeGreaterThan(0);

    const cookie = await signIn(a.baseUrl, 'admin', 'demo');
    const uid = `multi-${Date.now().toString(36)}`;
    const near = before[0];
    const body = {
      uid,
      map: 'factory',
      category: near.category,
      subCategory: near.subCategory,
      level: near.level,
      geometry: { x: near.x + 3, y: near.y + 3 },
      name: 'Added on server A',
      desc: '',
      imgs: [],
      name_l10n: {},
      desc_l10n: {},
      questUid: null,
      itemsUid: [],
    };
    const added = await fetch(`${a.baseUrl}/api/be/admin/marker/add`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(added.status).toBe(201);

    // The page on B hears it on B's live stream (A's NOTIFY), without a reload.
    await page.waitForFunction((want) => (window as unknown as { __map: { markers(): { uid: string }[] } }).__map.markers().some((m) => m.uid === want), uid, { timeout: 10_000, polling: 100 });
    expect((await markers(page)).length).toBe(before.length + 1);
    // And B's list has it (within the list cache's 100 ms bound).
    const deadline = Date.now() + 5000;
    while (!(await listUids(b.baseUrl, 'factory')).includes(uid)) {
      if (Date.now() > deadline) throw new Error(`${uid} never appeared in B's list`);
      await sleep(50);
    }

    // A delete on A takes it off the page on B too.
    const version = ((await added.json()) as { marker: Marker }).marker.version;
    const removed = await fetch(`${a.baseUrl}/api/be/admin/marker/${uid}?version=${version}`, { method: 'DELETE', headers: { cookie } });
    expect(removed.status).toBe(200);
    await page.waitForFunction((want) => !(window as unknown as { __map: { markers(): { uid: string }[] } }).__map.markers().some((m) => m.uid === want), uid, { timeout: 10_000, polling: 100 });
  });

  test('a live position published to A reaches a page following the code on B, and a map change on A switches it', async () => {
    const { a, b } = servers();
    const { code, token } = await pair(a.baseUrl);
    const { page } = await browser.newPage();
    await page.goto(`${b.baseUrl}/map/factory?connection=${code}`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => (window as unknown as PilotApi).__map?.pilot()?.status === 'connected', undefined, { timeout: 30_000, polling: 100 });

    await publish(a.baseUrl, code, token, { type: 'position', data: { x: 12.5, y: 1, z: -7.25, look: 90 } });
    await expect.poll(() => page.evaluate(() => (window as unknown as PilotApi).__map.player()), { timeout: 10_000 }).toEqual({ x: 12.5, y: 1, z: -7.25, look: 90 });

    await publish(a.baseUrl, code, token, { type: 'map', data: { map: 'customs' } });
    await page.waitForURL(/\/map\/customs/, { timeout: 15_000 });
  });

  test("a page opening on A is replayed the map and position the player last sent to B, not A's older ones", async () => {
    const { a, b } = servers();
    const { code, token } = await pair(a.baseUrl);
    // A raid through A, then the next one through B (no sticky sessions).
    await publish(a.baseUrl, code, token, { type: 'map', data: { map: 'woods' } });
    await publish(a.baseUrl, code, token, { type: 'position', data: { x: 10, y: 20, z: 0, look: null } });
    await publish(b.baseUrl, code, token, { type: 'map', data: { map: 'customs' } });
    await publish(b.baseUrl, code, token, { type: 'position', data: { x: -100, y: 50, z: 1, look: 45 } });

    const { page } = await browser.newPage();
    await page.goto(`${a.baseUrl}/map/customs?connection=${code}`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => (window as unknown as PilotApi).__map?.ready === true, undefined, { timeout: 45_000, polling: 100 });
    await page.waitForFunction(() => (window as unknown as PilotApi).__map?.pilot()?.status === 'connected', undefined, { timeout: 30_000, polling: 100 });
    // The replay's position arrives (player() is in game coordinates, as published).
    await expect.poll(() => page.evaluate(() => (window as unknown as PilotApi).__map?.player() ?? null), { timeout: 10_000 }).not.toBeNull();
    expect(await page.evaluate(() => (window as unknown as PilotApi).__map.player())).toEqual({ x: -100, y: 50, z: 1, look: 45 });
    // Still Customs: the replay did not send the page to Woods.
    expect(new URL(page.url()).pathname).toBe('/map/customs');
    expect(await page.evaluate(() => (window as unknown as PilotApi).__map.mapId)).toBe('customs');
  });

  test('a position sent to B is checked against the map the player sent to A', async () => {
    const { a, b } = servers();
    const { code, token } = await pair(a.baseUrl);
    await publish(a.baseUrl, code, token, { type: 'map', data: { map: 'factory' } });
    // B hears A's map over the hub (milliseconds later; docs/PILOT.md "Several processes").
    await expect.poll(() => pairingInfo(b.baseUrl, code).then((info) => info.knowsMap), { timeout: 5000 }).toBe(true);

    // (500, 0) is on Customs and Woods, far east of Factory's drawing.
    const res = await send(b.baseUrl, code, token, { type: 'position', data: { x: 500, y: 0, z: 0, look: null } });
    const body = (await res.json()) as { error: string; map: string | null; message: string };
    expect(res.status, JSON.stringify(body)).toBe(400);
    expect(body).toMatchObject({ error: 'outside_map', map: 'factory' });
    expect(body.message).toMatch(/outside Factory/);
  });

  test("a page following the code through B counts in A's watchers, until it closes", async () => {
    const { a, b } = servers();
    const { code } = await pair(a.baseUrl);
    expect((await pairingInfo(a.baseUrl, code)).watchers).toBe(0);

    const { page } = await browser.newPage();
    await page.goto(`${b.baseUrl}/map/customs?connection=${code}`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => (window as unknown as PilotApi).__map?.pilot()?.status === 'connected', undefined, { timeout: 30_000, polling: 100 });
    await expect.poll(() => pairingInfo(b.baseUrl, code).then((info) => info.watchers), { timeout: 5000 }).toBe(1);
    // A, where the pilot paired (what /pilot shows as "N pages watching"), counts B's page.
    await expect.poll(() => pairingInfo(a.baseUrl, code).then((info) => info.watchers), { timeout: 5000 }).toBe(1);

    await page.context().close();
    await expect.poll(() => pairingInfo(a.baseUrl, code).then((info) => info.watchers), { timeout: 5000 }).toBe(0);
    expect((await pairingInfo(b.baseUrl, code)).watchers).toBe(0);
  });

  test('a tile asked of both processes at once is rendered once', async () => {
    const { a, b } = servers();
    const tilesDir = inject('tilesDir');
    const manifest = await fetchManifest(a.baseUrl, 'factory');
    const z = manifest.maxZ;
    const layer = manifest.layers[0];
    const grid = tileGrid(manifest.width, manifest.height, z);
    // A tile nobody asked for yet (not on disk): random, away from the edges.
    let x: number;
    let y: number;
    do {
      x = 1 + Math.floor(Math.random() * (grid.cols - 2));
      y = 1 + Math.floor(Math.random() * (grid.rows - 2));
    } while (existsSync(join(tilesDir, 'factory', manifest.version, layer, String(z), String(x), `${y}.${manifest.format}`)));
    const dir = join(tilesDir, 'factory', manifest.version, layer, String(z), String(x));
    mkdirSync(dir, { recursive: true });
    const file = `${y}.${manifest.format}`;
    // Every time the tile file is put in place (a rename of a finished temp file) is one render.
    const placed: string[] = [];
    const watcher: FSWatcher = watch(dir, (event, name) => {
      if (event === 'rename' && name === file) placed.push(name);
    });
    try {
      const path = tilePath(manifest, layer, z, x, y);
      const [fromA, fromB] = await Promise.all([fetch(`${a.baseUrl}${path}`), fetch(`${b.baseUrl}${path}`)]);
      expect([fromA.status, fromB.status]).toEqual([200, 200]);
      const [bytesA, bytesB] = await Promise.all([fromA.arrayBuffer(), fromB.arrayBuffer()]);
      expect(Buffer.from(bytesA).equals(Buffer.from(bytesB))).toBe(true);
      expect(bytesA.byteLength).toBeGreaterThan(0);
      await sleep(300);
      expect(placed).toEqual([file]);
    } finally {
      watcher.close();
    }
  });
});
