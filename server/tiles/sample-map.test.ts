/** The generated sample maps: well-formed, sized to the spec, one layer group each, and drawn as promised. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAPS, MAP_IDS } from '../../src/domain/maps';
import { tileGrid } from '../../src/domain/tiles';
import { disposeNormalizer } from './normalize';
import { TileStore } from './store';
import { renderRegion } from './render';
import { generateSampleSvg } from './sample-map';
import { findLayer, layerSvg, parseSvg, type ViewBox } from './svg-doc';

const SCALE = 1 / 16;

async function renderLayer(id: (typeof MAP_IDS)[number], layerId: string) {
  const map = MAPS[id];
  const text = generateSampleSvg(map);
  const l = layerSvg(text, parseSvg(text), layerId, { layers: map.layers, baseLayer: 'main' }, map.size);
  const width = Math.ceil(map.size.width * SCALE), height = Math.ceil(map.size.height * SCALE);
  const img = await renderRegion(l, { mapX: 0, mapY: 0, scale: SCALE, outWidth: width, outHeight: height }, map.size);
  // The last column and row cover the map's edge only in part: leave them out.
  const inner = { width: Math.floor(map.size.width * SCALE), height: Math.floor(map.size.height * SCALE) };
  let opaque = 0, clear = 0, luminance = 0;
  for (let y = 0; y < inner.height; y++) {
    for (let x = 0; x < inner.width; x++) {
      const i = (y * width + x) * 4;
      const a = img.pixels[i + 3];
      if (a === 255) opaque++;
      if (a === 0) clear++;
      luminance += (img.pixels[i] + img.pixels[i + 1] + img.pixels[i + 2]) / 3;
    }
  }
  const n = inner.width * inner.height;
  return { opaque: opaque / n, clear: clear / n, meanLuminance: luminance / n };
}

describe.each(MAP_IDS)('sample map %s', (id) => {
  const map = MAPS[id];
  const text = generateSampleSvg(map);

  it('is deterministic, well-formed, at the spec size and of moderate weight', () => {
    expect(generateSampleSvg(map)).toBe(text);
    const root = parseSvg(text);
    expect(root.attrs.get('width')).toBe(String(map.size.width));
    expect(root.attrs.get('height')).toBe(String(map.size.height));
    expect(root.attrs.get('viewBox')).toBe(`0 0 ${map.size.width} ${map.size.height}`);
    expect(text.length).toBeLessThan(300 * 1024);
    expect(text).toContain(map.name.toUpperCase());
  });

  it('has one <g> per layer of the definition', () => {
    const root = parseSvg(text);
    for (const layerId of map.layers) {
      const g = findLayer(root, layerId);
      expect(g?.name).toBe('g');
      expect(g?.attrs.get('id')).toBe(layerId);
      expect(g?.parent).toBe(root);
    }
    expect(root.children.filter((c) => c.name === 'g')).toHaveLength(map.layers.length);
  });

  it('draws main opaque, upper floors over a few buildings only, underground dark over the whole map', async () => {
    for (const layerId of map.layers) {
      const r = await renderLayer(id, layerId);
      if (layerId === 'main') {
        expect(r.opaque).toBe(1);
      } else if (/^level\d+$/.test(layerId)) {
        expect(r.clear).toBeGreaterThan(0.3);
        expect(r.opaque).toBeGreaterThan(0.002);
      } else {
        expect(r.opaque).toBe(1);
        expect(r.meanLuminance).toBeLessThan(70);
      }
    }
  });
});

it('gives each map its own terrain', () => {
  const texts = MAP_IDS.map((id) => generateSampleSvg(MAPS[id]));
  expect(new Set(texts).size).toBe(MAP_IDS.length);
  expect(texts[MAP_IDS.indexOf('shoreline')]).toContain('sample-sea-clip');
  expect(texts[MAP_IDS.indexOf('lighthouse')]).toContain('sample-sea-clip');
  expect(texts[MAP_IDS.indexOf('woods')]).toContain('url(#sample-trees)');
});

describe('deep tiles of every sample layer', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'raidmap-sample-deep-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  afterAll(() => disposeNormalizer());
  const store = new TileStore({ assetsDir: path.join(root, 'assets'), tilesDir: path.join(root, 'tiles') });

  it.each(MAP_IDS)('%s renders tiles at z 5 and at its deepest level across the map', async (id) => {
    const map = MAPS[id];
    const manifest = (await store.manifest(id))!;
    for (const layer of map.layers) {
      for (const z of [5, manifest.maxZ]) {
        const { cols, rows } = tileGrid(map.size.width, map.size.height, z);
        for (const [fx, fy] of [[0.13, 0.87], [0.5, 0.5], [0.91, 0.07]]) {
          const t = { z, x: Math.floor(cols * fx), y: Math.floor(rows * fy) };
          const found = await store.tile(id, manifest.version, layer, t);
          expect(found.status, `${id} ${layer} ${z}/${t.x}/${t.y}`).toBe(200);
        }
      }
    }
  });
});

describe('culling', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'raidmap-cull-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const store = new TileStore({ assetsDir: path.join(root, 'assets'), tilesDir: path.join(root, 'tiles') });

  it.each(['customs', 'shoreline', 'factory', 'woods'] as const)('leaves the pixels of %s unchanged (tight culling against culling to a region twice as large)', async (id) => {
    const map = MAPS[id];
    const source = await store.source(map);
    for (const layerId of map.layers.slice(0, 3)) {
      const layer = await store.layer(source, layerId);
      const loose = { ...layer, cull: (c: ViewBox) => layer.cull!({ x: c.x - c.width / 2, y: c.y - c.height / 2, width: c.width * 2, height: c.height * 2 }) };
      for (const [fx, fy, scale] of [[0.3, 0.4, 4], [0.62, 0.55, 16], [0.45, 0.2, 1], [0.8, 0.77, 32]]) {
        const region = { mapX: map.size.width * fx, mapY: map.size.height * fy, scale, outWidth: 512, outHeight: 384 };
        const a = await renderRegion(layer, region, map.size);
        const b = await renderRegion(loose, region, map.size);
        let worst = 0;
        for (let i = 0; i < a.pixels.length; i++) worst = Math.max(worst, Math.abs(a.pixels[i] - b.pixels[i]));
        expect(worst, `${id} ${layerId} at ${fx},${fy} ×${scale}`).toBeLessThanOrEqual(2);
      }
    }
  });
});
