/**
 * An operator's drawing as it comes (docs/MAP-ART.md): a community-style Customs drawing
 * (floor groups named Ground_Level, Second_Floor…, another aspect ratio, a hidden floor,
 * `<use>` of `<defs>`, a style sheet) dropped into ASSETS_DIR/maps/customs/map.svg of a
 * server of its own. Every floor renders (compared pixel by pixel), a marker stored at a
 * known game point sits on its drawn spot, and `npm run map:check` prints the layers and
 * writes the previews. The drawing is generated (tests/support/community-svg.ts).
 * And art that cannot be shown (a map.json with a mistake, on a server of its own): visitors
 * read so in their language, never the server's paths; the manifest's 500 names no file, the
 * log has the reason once; mended, Try again brings the map.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { MAPS } from '../src/domain/maps';
import { tileScale } from '../src/domain/tiles';
import { createRepositories, migrateToLatest, openDatabase } from '../server/db';
import { sampleItems } from '../server/seed/items';
import { sampleMarkers } from '../server/seed/markers';
import { sampleQuests } from '../server/seed/quests';
import { generateSampleSvg } from '../server/tiles';
import { communityDrawing, findColour } from '../tests/support/community-svg';
import { useBrowser } from './browser';
import { decodeRgba } from './support/image';
import { startServer, type RunningServer } from './support/server';
import { fetchManifest, tileMosaic } from './support/tiles';

const repoRoot = path.resolve(__dirname, '..');
const map = MAPS.customs;
const drawing = communityDrawing({ map });
const root = mkdtempSync(path.join(tmpdir(), 'raidmap-e2e-map-art-'));
const assetsDir = path.join(root, 'assets');
const dataDir = path.join(root, 'data');
const markerUid = 'e2e-map-art-marker';
let server: RunningServer;
const browser = useBrowser();

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/**
 * A tile folder for a server of this file: the other maps' tiles are the global server's (hard
 * links: nothing is rendered twice, its files are untouched); Customs' are its own.
 */
function otherMapsTiles(tilesDir: string): string {
  const shared = inject('tilesDir');
  if (existsSync(shared)) {
    execFileSync('cp', ['-al', shared, tilesDir]);
    rmSync(path.join(tilesDir, 'customs'), { recursive: true, force: true });
  }
  return tilesDir;
}

describe('a community-style drawing, as it comes', () => {
  // Its own server, started only when a test of this group runs.
  beforeAll(async () => {
    mkdirSync(path.join(assetsDir, 'maps', 'customs'), { recursive: true });
    writeFileSync(path.join(assetsDir, 'maps', 'customs', 'map.svg'), drawing.svg);
    symlinkSync(path.join(repoRoot, 'assets', 'icons'), path.join(assetsDir, 'icons'));
    const tilesDir = otherMapsTiles(path.join(root, 'tiles'));
    // One marker, on level 2, at the game point of level 2's drawn dot.
    const db = openDatabase({ sqliteFile: path.join(dataDir, 'raidmap.sqlite') });
    await migrateToLatest(db);
    const [sample] = sampleMarkers({ map, count: 1, quests: sampleQuests(), items: sampleItems() });
    const at = drawing.floors.level2.map;
    await createRepositories(db).markers.insertMany([{ ...sample, uid: markerUid, level: 2, geometry: { x: at.mapX, y: at.mapY } }]);
    await db.close();
    server = await startServer({
      repoRoot,
      dataDir,
      // The art report and the build's line are logged at info (JSON lines after start-up).
      env: { ASSETS_DIR: assetsDir, TILES_DIR: tilesDir, TILE_RENDERS_PER_MINUTE: '100000', LOG_LEVEL: 'info' },
      startTimeoutMs: 120_000,
      tilesTimeoutMs: 240_000,
    });
  }, 400_000);

  afterAll(async () => {
    await server?.stop();
  });

  test('logs its layers, the groups of no layer once, and the build time of the map', () => {
    // After start-up the log is JSON lines: their messages, and any plain start-up line as it is.
    const logs = server
      .logs()
      .map((line) => {
        try {
          const entry = JSON.parse(line) as { msg?: unknown };
          return typeof entry.msg === 'string' ? entry.msg : line;
        } catch {
          return line;
        }
      })
      .join('\n');
    expect(logs).toMatch(/tiles: customs: .*map\.svg: layers underground=Underground_Level, main=Ground_Level, level2=Second_Floor, level3=Third_Floor, level4=Fourth_Floor; placed by bounds/);
    // JSON lines: the quotes come escaped.
    expect(logs.match(/group \\?"Labels\\?" of .* matches no layer/g)).toHaveLength(1);
    expect(logs).toMatch(/tiles: customs: built \d+ tiles of 5 layers in \d+\.\d s/);
  });

  test('every floor renders where the drawing sits, in its own colour; outside it the map is empty', async () => {
    const manifest = await fetchManifest(server.baseUrl, 'customs');
    const r = drawing.rect;
    const z = 1;
    const s = tileScale(z);
    const rect = { minX: r.x, minY: r.y, maxX: r.x + r.width, maxY: r.y + r.height };
    const share = (img: { width: number; height: number; data: Uint8Array }, c: [number, number, number]) => {
      let hit = 0;
      for (let i = 0; i < img.width * img.height; i++) {
        const o = i * 4;
        if (Math.abs(img.data[o] - c[0]) < 12 && Math.abs(img.data[o + 1] - c[1]) < 12 && Math.abs(img.data[o + 2] - c[2]) < 12) hit++;
      }
      return hit / (img.width * img.height);
    };
    for (const layer of map.layers) {
      const img = await decodeRgba(await tileMosaic(server.baseUrl, manifest, layer, z, rect));
      const floor = drawing.floors[layer];
      // Main covers the whole drawing; each other floor a tenth of its width by a third of its height.
      const expected = layer === 'main' ? 0.9 : 0.02;
      expect(share(img, floor.fill), `${layer} in its colour`).toBeGreaterThan(expected);
      // Its dot is where the game point is.
      const dot = findColour(img, floor.dot, { x: (floor.map.mapX - r.x) * s, y: (floor.map.mapY - r.y) * s }, 6, 60);
      expect(dot, `${layer}: dot`).toBeDefined();
    }
    // Above the drawing (it is wider than the map's aspect): nothing.
    const above = await decodeRgba(await tileMosaic(server.baseUrl, manifest, 'main', z, { minX: r.x, minY: 0, maxX: r.x + r.width, maxY: r.y - 8 }));
    expect(share(above, [0, 0, 0])).toBe(1);
  });

  test('a marker stored at a known game point sits on the spot the drawing marks', async () => {
    const response = await fetch(`${server.baseUrl}/api/be/markers/list?map=customs`);
    expect(response.ok).toBe(true);
    const body = (await response.json()) as { markers: { uid: string; level: number; geometry: { x: number; y: number } }[] };
    const marker = body.markers.find((m) => m.uid === markerUid);
    expect(marker).toBeDefined();
    const manifest = await fetchManifest(server.baseUrl, 'customs');
    // The 1:1 level around the marker.
    const { x, y } = marker!.geometry;
    const img = await decodeRgba(await tileMosaic(server.baseUrl, manifest, 'level2', 3, { minX: x - 32, minY: y - 32, maxX: x + 32, maxY: y + 32 }));
    const left = Math.max(0, Math.floor(x - 32));
    const top = Math.max(0, Math.floor(y - 32));
    const dot = findColour(img, drawing.floors.level2.dot, { x: x - left, y: y - top }, 32, 40);
    expect(dot).toBeDefined();
    expect(Math.hypot(left + dot!.x - x, top + dot!.y - y)).toBeLessThan(2);
  });

  test('in the browser, the marker is drawn on the spot of the art that marks its game point', async () => {
    type Api = {
      ready: boolean;
      markers(): { uid: string; x: number; y: number; visible: boolean }[];
      toScreen(x: number, y: number): { x: number; y: number } | null;
      camera(): { zoom: number } | null;
    };
    const { page } = await browser.newPage();
    await page.goto(`${server.baseUrl}/map/customs`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => (window as unknown as { __map?: Api }).__map?.ready === true, undefined, { timeout: 60_000, polling: 100 });
    await page.getByRole('radio', { name: 'Level 2' }).check();
    const spot = drawing.floors.level2.map;
    // Zoomed in around the marker, so a pixel of the screen is under a map pixel.
    for (let i = 0; i < 4; i++) {
      const at = await page.evaluate(([x, y]) => (window as unknown as { __map: Api }).__map.toScreen(x, y), [spot.mapX, spot.mapY] as const);
      await page.mouse.move(at!.x, at!.y);
      await page.mouse.wheel(0, -240);
      await page.waitForTimeout(250);
    }
    const marker = await page.evaluate((uid) => (window as unknown as { __map: Api }).__map.markers().find((m) => m.uid === uid), markerUid);
    expect(marker).toMatchObject({ visible: true });
    expect(marker!.x).toBeCloseTo(spot.mapX, 2);
    expect(marker!.y).toBeCloseTo(spot.mapY, 2);
    const onScreen = (await page.evaluate(([x, y]) => (window as unknown as { __map: Api }).__map.toScreen(x, y), [marker!.x, marker!.y] as const))!;
    const zoom = (await page.evaluate(() => (window as unknown as { __map: Api }).__map.camera()))!.zoom;
    expect(zoom).toBeGreaterThan(1);

    // The marker's icon covers the dot: hide the markers (every category off), then find the dot.
    const categories = page.getByRole('complementary', { name: 'Categories' });
    const checked = categories.getByRole('checkbox', { checked: true });
    for (let left = await checked.count(); left > 0; left = await checked.count()) await checked.first().uncheck();
    await expect.poll(() => page.evaluate(() => (window as unknown as { __map: Api }).__map.markers().length)).toBe(0);
    const findDot = async () => {
      const image = await decodeRgba(await page.screenshot());
      return findColour(image, drawing.floors.level2.dot, onScreen, 40 * zoom, 40);
    };
    await expect.poll(async () => ((await findDot())?.count ?? 0) > 20, { timeout: 10_000 }).toBe(true);
    const dot = (await findDot())!;
    expect(Math.hypot(dot.x - onScreen.x, dot.y - onScreen.y)).toBeLessThan(Math.max(2, zoom));
  });

  test('npm run map:check prints the layers and writes the previews', async () => {
    const out = path.join(root, 'previews');
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile('npm', ['run', '--silent', 'map:check', '--', 'customs', '--out', out], {
        cwd: repoRoot,
        env: { ...process.env, ASSETS_DIR: assetsDir, DATA_DIR: dataDir },
        timeout: 180_000,
      }, (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }));
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('layers found: 5 of 5');
    expect(result.stdout).toMatch(/level2 +"Second_Floor"/);
    expect(result.stdout).toContain('groups matching no layer (drawn with the base layer): "Labels", "Legend", "Frame"');
    expect(result.stdout).toMatch(/placement: by game bounds/);
    expect(result.stdout).toMatch(/tiles: \d+ tiles/);
    expect(result.stdout).toContain('markers: 1 from the database');
    for (const layer of map.layers) {
      expect(existsSync(path.join(out, `customs-${layer}.png`)), layer).toBe(true);
      expect(result.stdout).toContain(`customs-${layer}.png`);
    }
  }, 200_000);
});

describe('map art that cannot be shown (a map.json with a mistake)', () => {
  // A server of its own whose Customs drawing comes with a map.json that says "yes" where only
  // true is allowed (docs/MAP-ART.md): the manifest fails until the file is mended.
  const brokenRoot = path.join(root, 'broken');
  const brokenAssets = path.join(brokenRoot, 'assets');
  const artFile = path.join(brokenAssets, 'maps', 'customs', 'map.json');
  const MANIFEST = /\/tiles\/customs\/manifest\.json/;
  let broken: RunningServer;

  beforeAll(async () => {
    mkdirSync(path.dirname(artFile), { recursive: true });
    writeFileSync(path.join(brokenAssets, 'maps', 'customs', 'map.svg'), generateSampleSvg(map));
    writeFileSync(artFile, '{"placement":{"fill":"yes"}}');
    symlinkSync(path.join(repoRoot, 'assets', 'icons'), path.join(brokenAssets, 'icons'));
    const brokenData = path.join(brokenRoot, 'data');
    mkdirSync(brokenData, { recursive: true });
    broken = await startServer({
      repoRoot,
      dataDir: brokenData,
      env: { ASSETS_DIR: brokenAssets, TILES_DIR: otherMapsTiles(path.join(brokenRoot, 'tiles')), TILE_RENDERS_PER_MINUTE: '100000' },
      startTimeoutMs: 120_000,
    });
  }, 300_000);

  afterAll(async () => {
    await broken?.stop();
  });

  /** Customs on that server, until its error shows (the manifest's 500 is what the test is about). */
  async function openBroken(locale = 'en-US') {
    const tracked = await browser.newPage({ locale });
    tracked.errors.allow(MANIFEST);
    await tracked.page.goto(`${broken.baseUrl}/map/customs`, { waitUntil: 'domcontentloaded' });
    const alert = tracked.page.locator('.map-error[role="alert"]');
    await alert.waitFor({ timeout: 30_000 });
    return { ...tracked, alert };
  }

  /** The page's markup, attributes included: nothing of the server's files or zod's words. */
  async function expectNoServerWords(page: Page): Promise<void> {
    const html = await page.evaluate(() => document.documentElement.outerHTML);
    expect(html).not.toContain(brokenRoot);
    expect(html).not.toContain('map.json');
    expect(html).not.toContain('Invalid input');
    expect(html).not.toContain('placement');
  }

  test('EN: visitors read that the art cannot be shown, with no server path, and Try again', async () => {
    const { page, alert } = await openBroken();
    expect(await alert.textContent()).toContain('This map\'s art cannot be shown right now');
    await expectNoServerWords(page);
    expect(await alert.getByRole('button', { name: 'Try again' }).isVisible()).toBe(true);
  });

  test('RU: the same in Russian', async () => {
    const { page, alert } = await openBroken('ru-RU');
    expect(await alert.textContent()).toContain('Изображение этой карты сейчас не удаётся показать');
    await expectNoServerWords(page);
    expect(await alert.getByRole('button', { name: 'Попробовать снова' }).isVisible()).toBe(true);
  });

  test('the manifest answers 500 with a reason that names no file; the log has the whole reason, once', async () => {
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${broken.baseUrl}/tiles/customs/manifest.json`);
      expect(response.status).toBe(500);
      const { message } = (await response.json()) as { message: string };
      expect(message).toContain('the art of map "customs" cannot be shown right now');
      expect(message).not.toContain(brokenRoot);
      expect(message).not.toContain('/');
      expect(message).not.toContain('Invalid input');
    }
    // For the operator: the file and the field, logged once for these files, not per request.
    const lines = broken.logs().filter((line) => line.includes('the map\'s drawing cannot be used until this is fixed'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(artFile);
    expect(lines[0]).toContain('placement.fill');
  });

  test('once map.json is mended, Try again brings the map', async () => {
    const { page, alert } = await openBroken();
    writeFileSync(artFile, '{"placement":{"fill":true}}');
    await alert.getByRole('button', { name: 'Try again' }).click();
    await page.waitForFunction(
      () => {
        const api = (window as unknown as { __map?: { ready?: boolean; mapId?: string } }).__map;
        return api?.ready === true && api.mapId === 'customs';
      },
      undefined,
      { timeout: 120_000, polling: 100 },
    );
    expect(await page.locator('.map-error').count()).toBe(0);
    expect((await fetch(`${broken.baseUrl}/tiles/customs/manifest.json`)).status).toBe(200);
  }, 150_000);
});
