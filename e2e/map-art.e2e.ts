/**
 * An operator's drawing as it comes (docs/MAP-ART.md): a community-style Customs drawing
 * (floor groups named Ground_Level, Second_Floor…, another aspect ratio, a hidden floor,
 * `<use>` of `<defs>`, a style sheet) dropped into ASSETS_DIR/maps/customs/map.svg of a
 * server of its own. Every floor renders (compared pixel by pixel), a marker stored at a
 * known game point sits on its drawn spot, and `npm run map:check` prints the layers and
 * writes the previews. The drawing is generated (tests/support/community-svg.ts).
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { MAPS } from '../src/domain/maps';
import { tileScale } from '../src/domain/tiles';
import { createRepositories, migrateToLatest, openDatabase } from '../server/db';
import { sampleItems } from '../server/seed/items';
import { sampleMarkers } from '../server/seed/markers';
import { sampleQuests } from '../server/seed/quests';
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

beforeAll(async () => {
  mkdirSync(path.join(assetsDir, 'maps', 'customs'), { recursive: true });
  writeFileSync(path.join(assetsDir, 'maps', 'customs', 'map.svg'), drawing.svg);
  symlinkSync(path.join(repoRoot, 'assets', 'icons'), path.join(assetsDir, 'icons'));
  // The other maps' tiles are the global server's (hard links: nothing is rendered twice, its files are untouched).
  const tilesDir = path.join(root, 'tiles');
  const shared = inject('tilesDir');
  if (existsSync(shared)) {
    execFileSync('cp', ['-al', shared, tilesDir]);
    rmSync(path.join(tilesDir, 'customs'), { recursive: true, force: true });
  }
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
    // The art report and the build time are `info` lines of the JSON log (docs/SERVER.md "Logs and metrics").
    env: { ASSETS_DIR: assetsDir, TILES_DIR: tilesDir, TILE_RENDERS_PER_MINUTE: '100000', LOG_LEVEL: 'info' },
    startTimeoutMs: 120_000,
    tilesTimeoutMs: 240_000,
  });
}, 400_000);

afterAll(async () => {
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('a community-style drawing, as it comes', () => {
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
    expect(logs.match(/group "Labels" of .* matches no layer/g)).toHaveLength(1);
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
