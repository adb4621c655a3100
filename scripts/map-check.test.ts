/**
 * `npm run map:check`: run as the operator runs it (a child process), on a generated
 * community-style drawing in a temporary assets folder, with one marker in a temporary
 * database at a known game point.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAPS } from '../src/domain/maps';
import { createRepositories, migrateToLatest, openDatabase } from '../server/db';
import { sampleItems } from '../server/seed/items';
import { sampleMarkers } from '../server/seed/markers';
import { sampleQuests } from '../server/seed/quests';
import { communityDrawing, findColour } from '../tests/support/community-svg';
import { TileStore } from '../server/tiles/store';
import { describeReport, levelOfLayer, parseArgs } from './map-check';

const repo = path.resolve(__dirname, '..');
const root = mkdtempSync(path.join(tmpdir(), 'raidmap-map-check-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const map = MAPS.customs;
const drawing = communityDrawing({ map });
/** Markup no tile shows, at the end of the drawing (outside every layer): warned about, never run or fetched. */
const UNRENDERED = '<script>fetch("http://127.0.0.1:9/")</script><image id="sat" href="http://127.0.0.1:9/sat.png" width="10" height="10"/>';
const withUnrendered = (svg: string) => svg.replace(/<\/svg>\s*$/, `${UNRENDERED}</svg>`);
const assetsDir = path.join(root, 'assets');
const dataDir = path.join(root, 'data');
const out = path.join(root, 'out');

function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/map-check.ts', ...args],
      { cwd: repo, env: { ...process.env, ASSETS_DIR: assetsDir, DATA_DIR: dataDir, ...env }, timeout: 120_000 },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  mkdirSync(path.join(assetsDir, 'maps', 'customs'), { recursive: true });
  writeFileSync(path.join(assetsDir, 'maps', 'customs', 'map.svg'), withUnrendered(drawing.svg));
  // One marker on level 3, at the game point of level 3's drawn dot.
  const db = openDatabase({ sqliteFile: path.join(dataDir, 'raidmap.sqlite') });
  await migrateToLatest(db);
  const [sample] = sampleMarkers({ map, count: 1, quests: sampleQuests(), items: sampleItems() });
  const at = drawing.floors.level3.map;
  await createRepositories(db).markers.insertMany([{ ...sample, level: 3, geometry: { x: at.mapX, y: at.mapY } }]);
  await db.close();
});

describe('npm run map:check', () => {
  it('prints the layers, placement, tiles and markers, and writes a preview per layer with the markers on the art', async () => {
    const r = await run(['customs', '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('layers found: 5 of 5');
    for (const name of ['Ground_Level', 'Second_Floor', 'Third_Floor', 'Fourth_Floor', 'Underground_Level']) expect(r.stdout).toContain(`"${name}"`);
    expect(r.stdout).toContain('layers missing: none');
    expect(r.stdout).toContain('groups matching no layer (drawn with the base layer): "Labels", "Legend", "Frame"');
    expect(r.stdout).toMatch(/placement: by game bounds → x 176, y 580\.4, 4048×2039\.3 map px/);
    expect(r.stdout).toMatch(/tiles: \d+ tiles \(levels 0–3 of 5 layers\) in \d+\.\d s/);
    expect(r.stdout).toContain('markers: 1 from the database');
    // Content no tile shows: one warning line each, and still exit 0.
    const svgFile = path.join(assetsDir, 'maps', 'customs', 'map.svg');
    expect(r.stdout).toContain(`warning: ${svgFile}: <script> is never run (a tile is a picture): <script> at line `);
    expect(r.stdout).toMatch(/warning: .*: linked images are never fetched, so not drawn \(embed them as data: URIs\): "http:\/\/127\.0\.0\.1:9\/sat\.png" of <image id="sat"> at line \d+ \(outside every layer\)/);
    for (const layer of map.layers) expect(existsSync(path.join(out, `customs-${layer}.png`)), layer).toBe(true);

    // Level 3's preview: its drawn dot and the marker ring around it, both at gameToMap of the point.
    const { data, info } = await sharp(path.join(out, 'customs-level3.png')).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(info.width).toBe(1024);
    const image = { width: info.width, height: info.height, data };
    const scale = 1024 / map.size.width;
    const expected = { x: drawing.floors.level3.map.mapX * scale, y: drawing.floors.level3.map.mapY * scale };
    const dot = findColour(image, drawing.floors.level3.dot, expected, 12, 40);
    const ring = findColour(image, [0, 224, 255], expected, 12, 30);
    expect(dot, 'the drawn dot').toBeDefined();
    expect(ring, 'the marker').toBeDefined();
    expect(Math.hypot(dot!.x - expected.x, dot!.y - expected.y)).toBeLessThan(1.5);
    expect(Math.hypot(ring!.x - expected.x, ring!.y - expected.y)).toBeLessThan(1.5);
    // The other levels' previews do not show that marker.
    const { data: d2, info: i2 } = await sharp(path.join(out, 'customs-main.png')).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(findColour({ width: i2.width, height: i2.height, data: d2 }, [0, 224, 255], expected, 12, 30)).toBeUndefined();
  }, 120_000);

  it('exits 1 with a clear message on an unreadable or invalid drawing, or a bad map.json', async () => {
    const missing = await run(['customs', '--svg', path.join(root, 'nope.svg'), '--out', out]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`no drawing at ${path.join(root, 'nope.svg')}`);

    const folder = await run(['customs', '--svg', root, '--out', out]);
    expect(folder.code).toBe(1);
    expect(folder.stderr).toContain('cannot read the drawing');
    expect(folder.stderr).toContain('EISDIR');

    const broken = path.join(root, 'broken', 'map.svg');
    mkdirSync(path.dirname(broken), { recursive: true });
    writeFileSync(broken, '<svg xmlns="http://www.w3.org/2000/svg"><g id="Ground_Level"></svg>');
    const bad = await run(['customs', '--svg', broken, '--out', out]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('not a readable SVG');

    const json = path.join(root, 'broken', 'map.json');
    writeFileSync(json, '{"placement": {"rect": {"x": 0}}}');
    writeFileSync(broken, drawing.svg);
    const badJson = await run(['customs', '--svg', broken, '--out', out]);
    expect(badJson.code).toBe(1);
    expect(badJson.stderr).toContain(`${json}: placement: expected one of {"bounds": [[x, z], [x, z]]} (game metres), {"rect": `);
    // The inner field of the form meant, not zod's "placement: Invalid input".
    expect(badJson.stderr).toContain('placement.rect.y: missing (expected a number)');
  }, 120_000);

  it('exits 1 with one line, no stack, on a drawing resvg cannot read or one that is not UTF-8', async () => {
    const dir = path.join(root, 'unreadable');
    mkdirSync(dir, { recursive: true });
    // Read by raidmap's scanner, refused by resvg (no well-formed XML: an attribute twice).
    const twice = path.join(dir, 'twice.svg');
    writeFileSync(twice, '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50"><g id="main"><rect width="1" width="2"/></g></svg>');
    const r = await run(['customs', '--svg', twice, '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`map:check: ${twice}: not a readable SVG: resvg could not read layer "main" of map "customs"`);
    expect(r.stderr).toContain("attribute 'width'");

    const utf16 = path.join(dir, 'utf16.svg');
    writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(drawing.svg, 'utf16le')]));
    const u = await run(['customs', '--svg', utf16, '--out', out]);
    expect(u.code).toBe(1);
    expect(u.stderr.trim()).toBe(`map:check: ${utf16}: not a readable SVG: the drawing must be UTF-8, and this file is UTF-16: save it again as UTF-8`);
  }, 120_000);

  it('exits 2 on a usage error', async () => {
    expect((await run([])).code).toBe(2);
    const unknown = await run(['atlantis']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown map "atlantis"');
    expect(() => parseArgs(['customs', '--width', '3'])).toThrow('--width');
    expect(() => parseArgs(['customs', '--colour', 'x'])).toThrow('unknown option');
  }, 60_000);

  it('prints the art warnings, naming the files as the operator gave them', async () => {
    const site = path.join(root, 'warnings');
    mkdirSync(path.join(site, 'maps', 'customs'), { recursive: true });
    writeFileSync(path.join(site, 'maps', 'customs', 'map.svg'), drawing.svg);
    writeFileSync(path.join(site, 'maps', 'customs', 'map.json'), '{"exclude": ["Legnd"], "placement": {"rect": {"x": 5000, "y": 5000, "width": 100, "height": 100}}}');
    const store = new TileStore({ assetsDir: site, tilesDir: path.join(root, 'warnings-tiles'), maps: [map] });
    const report = store.artReport(await store.source(map));
    const lines = describeReport(report, map, { drawing: '/home/op/customs.svg', art: '/home/op/customs.json' });
    expect(lines).toContain('warning: /home/op/customs.json: exclude: no group named "Legnd" (looked for as id=, inkscape:label=, data-name=, ignoring case)');
    expect(lines).toContain('warning: /home/op/customs.json: placement.rect: 100 % of the drawing lies outside the map (0,0 4400×3200); that part is never drawn');
    expect(lines.filter((l) => l.startsWith('warning: '))).toHaveLength(2);
  });

  it('warns, naming the element, its line and its layer, about what no tile shows: scripts, event handlers, HTML, linked images', async () => {
    const site = path.join(root, 'unrendered');
    mkdirSync(path.join(site, 'maps', 'customs'), { recursive: true });
    const svg = drawing.svg
      .replace('<g ', '<g onclick="steal()" ')
      .replace(/<\/svg>\s*$/, '<foreignObject width="9" height="9"><p xmlns="http://www.w3.org/1999/xhtml">hi</p></foreignObject>\n<image href="file:///etc/x.png"/></svg>');
    writeFileSync(path.join(site, 'maps', 'customs', 'map.svg'), svg);
    const store = new TileStore({ assetsDir: site, tilesDir: path.join(root, 'unrendered-tiles'), maps: [map] });
    const lines = describeReport(store.artReport(await store.source(map)), map, { drawing: '/home/op/customs.svg' });
    const warnings = lines.filter((l) => l.startsWith('warning: '));
    expect(warnings).toEqual([
      expect.stringMatching(/^warning: \/home\/op\/customs\.svg: event handlers \(on…\) are never run \(a tile is a picture\): onclick of <g[^>]*> at line \d+ \(/),
      expect.stringMatching(/^warning: \/home\/op\/customs\.svg: <foreignObject> \(HTML inside SVG\) is not drawn: <foreignObject> at line \d+ \(outside every layer\)$/),
      expect.stringMatching(/^warning: \/home\/op\/customs\.svg: linked images are never fetched, so not drawn .*"file:\/\/\/etc\/x\.png" of <image> at line \d+ \(outside every layer\)$/),
    ]);
  });

  it('names the level of each layer', () => {
    expect(map.layers.map((l) => levelOfLayer(map, l))).toEqual([-1, 1, 2, 3, 4]);
  });
});
