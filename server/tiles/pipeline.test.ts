/**
 * The pipeline on real-world SVG features (tests/fixtures/svg): layers are found, tiles
 * have the right size, pixels the right colours, layers do not leak into each other,
 * deep tiles come from the vector, and builds are incremental.
 */
import { mkdtempSync, mkdirSync, copyFileSync, readFileSync, writeFileSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { MAPS, type MapDefinition } from '../../src/domain/maps';
import { PREBUILT_MAX_Z } from '../../src/domain/tiles';
import { disposeNormalizer } from './normalize';
import { TileStore } from './store';

const FIXTURES = path.resolve(__dirname, '../../tests/fixtures/svg');
const tmpRoots: string[] = [];
afterAll(() => tmpRoots.forEach((d) => rmSync(d, { recursive: true, force: true })));
afterAll(() => disposeNormalizer());

function testMap(size: [number, number], layers: string[]): MapDefinition {
  return { ...MAPS.dev, size: { width: size[0], height: size[1] }, maxZoom: 10, layers };
}

function setup(fixture: string, map: MapDefinition) {
  const root = mkdtempSync(path.join(tmpdir(), 'raidmap-tiles-'));
  tmpRoots.push(root);
  const assetsDir = path.join(root, 'assets');
  mkdirSync(path.join(assetsDir, 'maps', map.id), { recursive: true });
  const svgFile = path.join(assetsDir, 'maps', map.id, 'map.svg');
  copyFileSync(path.join(FIXTURES, fixture), svgFile);
  const store = new TileStore({ assetsDir, tilesDir: path.join(root, 'tiles'), maps: [map] });
  return { store, root, svgFile };
}

interface Decoded {
  width: number;
  height: number;
  /** RGBA at (x, y). */
  at(x: number, y: number): [number, number, number, number];
}

async function decode(body: Buffer): Promise<Decoded> {
  const { data, info } = await sharp(body).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    at: (x, y) => {
      const i = (y * info.width + x) * 4;
      return [data[i], data[i + 1], data[i + 2], data[i + 3]];
    },
  };
}

async function tile(store: TileStore, map: MapDefinition, layer: string, z: number, x: number, y: number): Promise<Decoded> {
  const manifest = await store.manifest(map.id);
  const found = await store.tile(map.id, manifest!.version, layer, { z, x, y });
  if (found.status !== 200) throw new Error(found.status === 404 ? found.message : 'render refused');
  return decode(found.body);
}

/** Colour close to the expected (lossy WebP keeps colours within a few units). */
function expectColour(px: [number, number, number, number], rgb: [number, number, number], tolerance = 16) {
  expect(px[3]).toBeGreaterThan(240);
  for (let c = 0; c < 3; c++) expect(Math.abs(px[c] - rgb[c]), `channel ${c} of ${px.join(',')} vs ${rgb.join(',')}`).toBeLessThanOrEqual(tolerance);
}

const RED: [number, number, number] = [255, 0, 0];
const BLUE: [number, number, number] = [0, 0, 255];
const GREEN: [number, number, number] = [0, 255, 0];

describe('nested groups, transforms, a viewBox unlike width/height', () => {
  const map = testMap([600, 500], ['basement', 'main', 'level2']);
  const { store } = setup('nested-transforms.svg', map);

  it('finds every layer by id', async () => {
    const source = await store.source(map);
    expect(source.kind).toBe('file');
    expect(store.missingLayers(source)).toEqual([]);
  });

  it('cuts full and edge tiles to the contract sizes', async () => {
    const t00 = await tile(store, map, 'main', 3, 0, 0);
    expect([t00.width, t00.height]).toEqual([256, 256]);
    const edge = await tile(store, map, 'main', 3, 2, 1);
    expect([edge.width, edge.height]).toEqual([600 - 512, 500 - 256]);
    const z0 = await tile(store, map, 'main', 0, 0, 0);
    expect([z0.width, z0.height]).toEqual([75, 63]);
  });

  it('scales the source to the map size and applies nested transforms', async () => {
    const t = await tile(store, map, 'main', 3, 0, 0);
    expectColour(t.at(50, 50), RED);
    // scale(2) inside translate(64 0): source 64..128 × 0..64 → map 128..256 × 0..128.
    expectColour(t.at(140, 10), BLUE);
    expectColour(t.at(250, 120), BLUE);
    expectColour(t.at(120, 10), RED);
    expectColour(t.at(140, 135), RED);
    // At z = 4 the same blue square is 256..512 px.
    const z4 = await tile(store, map, 'main', 4, 1, 0);
    expectColour(z4.at(10, 10), BLUE);
  });

  it('draws content outside every layer with main only', async () => {
    const main = await tile(store, map, 'main', 3, 1, 1);
    expectColour(main.at(440 - 256, 440 - 256), [255, 0, 255]);
    const upper = await tile(store, map, 'level2', 3, 1, 1);
    expect(upper.at(440 - 256, 440 - 256)[3]).toBe(0);
  });

  it('keeps hidden layers out of the other layers', async () => {
    // level2: green at map 0..128 × 256..384, transparent elsewhere (no red from main).
    const up = await tile(store, map, 'level2', 3, 0, 1);
    expectColour(up.at(60, 60), GREEN);
    expect(up.at(200, 60)[3]).toBe(0);
    const upTop = await tile(store, map, 'level2', 3, 0, 0);
    for (const [x, y] of [[10, 10], [140, 10], [250, 250]]) expect(upTop.at(x, y)[3]).toBe(0);
    // basement: dark everywhere but its yellow square; no red, blue or green.
    const b = await tile(store, map, 'basement', 3, 0, 0);
    expectColour(b.at(50, 50), [255, 255, 0]);
    expectColour(b.at(140, 10), [16, 16, 16]);
    const b2 = await tile(store, map, 'basement', 3, 0, 1);
    expectColour(b2.at(60, 60), [16, 16, 16]);
  });
});

describe('Inkscape layers', () => {
  const map = testMap([512, 512], ['main', 'level2']);
  const { store } = setup('inkscape-layers.svg', map);

  it('finds layers by inkscape:label (any case) and draws a layer hidden in the editor', async () => {
    const source = await store.source(map);
    expect(store.missingLayers(source)).toEqual([]);
    const main = await tile(store, map, 'main', 3, 1, 0);
    expectColour(main.at(100, 100), [0x20, 0x40, 0xc0]);
    const up = await tile(store, map, 'level2', 3, 1, 0);
    expectColour(up.at(100, 100), [0xe0, 0xe0, 0x20]);
    const upLeft = await tile(store, map, 'level2', 3, 0, 0);
    expect(upLeft.at(100, 100)[3]).toBe(0);
  });
});

describe('symbols and use', () => {
  const map = testMap([512, 512], ['main', 'level2']);
  const { store } = setup('use-symbol.svg', map);

  it('draws <use> of a <symbol> and of an element inside another (hidden) layer', async () => {
    const main = await tile(store, map, 'main', 3, 0, 0);
    expectColour(main.at(50, 50), [0x8b, 0x45, 0x13]);
    expectColour(main.at(150, 150), [0xc0, 0xc0, 0xc0]);
    const up = await tile(store, map, 'level2', 3, 1, 0);
    expectColour(up.at(300 - 256 + 60, 60), [0x8b, 0x45, 0x13]);
    const upTank = await tile(store, map, 'level2', 3, 0, 1);
    // The tank (300..360) moved by x = -300 → 0..60 × 300..360 on level2.
    expectColour(upTank.at(30, 330 - 256), [0x00, 0x80, 0x80]);
    expect(upTank.at(150, 150)[3]).toBe(0);
  });
});

describe('clip paths and gradients', () => {
  const map = testMap([512, 512], ['main', 'level2']);
  const { store } = setup('clip-gradient.svg', map);

  it('renders the gradient ramp and clips the disc to the left half', async () => {
    const left = await tile(store, map, 'main', 3, 0, 0);
    const right = await tile(store, map, 'main', 3, 1, 0);
    expect(left.at(5, 100)[0]).toBeLessThan(20);
    expect(right.at(250, 100)[0]).toBeGreaterThan(235);
    expect(Math.abs(right.at(0, 100)[0] - 128)).toBeLessThan(12);
    const upLeft = await tile(store, map, 'level2', 3, 0, 1);
    expectColour(upLeft.at(200, 10), GREEN);
    const upRight = await tile(store, map, 'level2', 3, 1, 1);
    expect(upRight.at(20, 10)[3]).toBe(0);
  });
});

describe('embedded raster images', () => {
  const map = testMap([512, 512], ['main', 'level2']);
  const { store } = setup('embedded-image.svg', map);

  it('draws a data: URI PNG', async () => {
    const t = await tile(store, map, 'main', 3, 0, 0);
    expectColour(t.at(128, 128), [0xff, 0x80, 0x00]);
    const t2 = await tile(store, map, 'main', 3, 1, 1);
    expectColour(t2.at(128, 128), [255, 255, 255]);
  });
});

describe('text', () => {
  const map = testMap([512, 512], ['main', 'level2']);
  const { store } = setup('text-fonts.svg', map);

  const inkIn = (t: Decoded, x0: number, y0: number, x1: number, y1: number) => {
    let dark = 0;
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (t.at(x, y)[0] < 80) dark++;
    return dark;
  };

  it('draws text with system fonts, and falls back when the font is missing', async () => {
    const top = await tile(store, map, 'main', 3, 0, 0);
    expect(inkIn(top, 20, 30, 256, 110)).toBeGreaterThan(1500);
    expect(inkIn(top, 0, 150, 256, 256)).toBe(0);
    const bottom = await tile(store, map, 'main', 3, 0, 1);
    expect(inkIn(bottom, 20, 330 - 256, 256, 410 - 256)).toBeGreaterThan(800);
  });
});

describe('deep tiles on demand', () => {
  const map = testMap([512, 512], ['main', 'level2']);
  const { store } = setup('thin-line.svg', map);

  it('renders z = 6 from the vector: a 0.2 px line is 1–2 px wide, not a blurred smear', async () => {
    // x = 100 map px → 800 px at z = 6 → tile x = 3, column 32.
    const t = await tile(store, map, 'main', 6, 3, 5);
    expect([t.width, t.height]).toEqual([256, 256]);
    const row = 100;
    const touched: number[] = [];
    let darkest = 255;
    for (let x = 0; x < t.width; x++) {
      const v = t.at(x, row)[0];
      if (v < 235) touched.push(x);
      darkest = Math.min(darkest, v);
    }
    expect(touched.length).toBeGreaterThanOrEqual(1);
    expect(touched.length).toBeLessThanOrEqual(3);
    expect(touched.every((x) => Math.abs(x - 32) <= 2)).toBe(true);
    expect(darkest).toBeLessThan(110);
  });

  it('renders a metatile once for concurrent requests and caches it on disk', async () => {
    const manifest = (await store.manifest(map.id))!;
    const before = store.renders;
    const coords = [[0, 0], [1, 0], [3, 3], [2, 1]] as const;
    const results = await Promise.all(coords.map(([x, y]) => store.tile(map.id, manifest.version, 'main', { z: 5, x, y })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(store.renders - before).toBe(1);
    expect(existsSync(store.tileFile(map.id, manifest.version, 'main', { z: 5, x: 3, y: 3 }))).toBe(true);
    await store.tile(map.id, manifest.version, 'main', { z: 5, x: 1, y: 1 });
    expect(store.renders - before).toBe(1);
  });
});

describe('incremental builds', () => {
  const map = testMap([600, 500], ['basement', 'main', 'level2']);
  const { store, root, svgFile } = setup('nested-transforms.svg', map);

  it('does no work the second time, and makes a new version when the SVG changes', async () => {
    const first = await store.prepareMap(map);
    expect(first.built).toBe(true);
    expect(first.tilesWritten).toBeGreaterThan(0);
    const renders = store.renders;
    const versionDir = path.join(root, 'tiles', map.id, first.version);
    expect(existsSync(path.join(versionDir, '.complete'))).toBe(true);
    // Levels 0..PREBUILT_MAX_Z of each layer are on disk.
    for (const layer of map.layers) {
      expect(readdirSync(path.join(versionDir, layer)).map(Number).sort()).toEqual([...Array(PREBUILT_MAX_Z + 1).keys()]);
    }

    const second = await store.prepareMap(map);
    expect(second).toMatchObject({ built: false, version: first.version, tilesWritten: 0 });
    expect(store.renders).toBe(renders);

    // A new store (a restart) also finds the build complete.
    const restarted = new TileStore({ assetsDir: path.join(root, 'assets'), tilesDir: path.join(root, 'tiles'), maps: [map] });
    expect((await restarted.prepareMap(map)).built).toBe(false);
    expect(restarted.renders).toBe(0);

    writeFileSync(svgFile, readFileSync(svgFile, 'utf8').replace('#ff0000', '#00ffff'));
    const third = await store.prepareMap(map);
    expect(third.built).toBe(true);
    expect(third.version).not.toBe(first.version);
    expect(existsSync(versionDir)).toBe(false);
    const t = await tile(store, map, 'main', 3, 0, 0);
    expectColour(t.at(50, 50), [0, 255, 255]);
  });

  it('answers 404 for an outdated version', async () => {
    const found = await store.tile(map.id, '000000000000', 'main', { z: 0, x: 0, y: 0 });
    expect(found.status).toBe(404);
  });
});

describe('groups far off a deep tile', () => {
  const map = testMap([512, 512], ['main', 'level2']);
  const { store } = setup('far-opacity.svg', map);

  it('renders the tile (the far groups are culled, not handed to resvg)', async () => {
    // z = 8: 32 tile pixels per map pixel; the metatile at the origin covers map 0..32.
    const t = await tile(store, map, 'main', 8, 0, 0);
    expect([t.width, t.height]).toEqual([256, 256]);
    // The half-transparent red square (map 4..20) over white.
    expectColour(t.at(200, 200), [255, 128, 128], 20);
    expectColour(t.at(50, 50), [255, 255, 255]);
    // And the far groups still draw where they are.
    const far = await tile(store, map, 'main', 3, 1, 0);
    expectColour(far.at(400 - 256 + 25, 35), [128, 128, 128], 20);
  });
});
