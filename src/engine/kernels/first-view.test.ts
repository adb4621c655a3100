import { describe, expect, it } from 'vitest';
import { MAPS } from '../../domain/maps';
import { tileBounds, tilePath, type TileManifest } from '../../domain/tiles';
import { Camera } from '../camera';
import { mapToScreen } from './camera';
import { firstView, htmlPosterCovers, POSTER_LEVELS_COARSER, posterPreloads, posterTiles, PRELOAD_MAX_VIEWPORT, PRELOADED_DPRS } from './first-view';
import { pickTileZ } from './tiles';

const customs = MAPS.customs; // 4400 × 3200, start zoom 0.6
const manifest: TileManifest = { map: 'customs', version: 'v1', tileSize: 256, minZ: 0, maxZ: 7, prebuiltMaxZ: 3, width: 4400, height: 3200, layers: [...customs.layers], format: 'webp' };
const viewport = { width: 1280, height: 800 };

describe('firstView', () => {
  it('is the camera’s view before any gesture: the map’s centre at its start zoom', () => {
    expect(firstView(customs, viewport)).toEqual({ x: 2200, y: 1600, zoom: 0.6 });
    expect(firstView(customs, viewport)).toEqual(new Camera(customs, viewport).state);
    // A phone and a huge screen alike: the centre stays the centre.
    for (const size of [{ width: 390, height: 844 }, { width: 5000, height: 3000 }]) {
      expect(firstView(customs, size)).toEqual(new Camera(customs, size).state);
    }
  });
});

describe('posterTiles', () => {
  it('covers the first view with tiles one level coarser than the engine draws, placed where the engine draws them', () => {
    const tiles = posterTiles(customs, manifest, viewport, 1);
    const view = firstView(customs, viewport);
    const z = pickTileZ(view.zoom, 1, manifest) - POSTER_LEVELS_COARSER;
    expect(tiles.length).toBeGreaterThan(0);
    for (const t of tiles) {
      expect(t.z).toBe(z);
      const b = tileBounds(4400, 3200, t.z, t.x, t.y);
      const topLeft = mapToScreen(view, viewport, b.minX, b.minY);
      const bottomRight = mapToScreen(view, viewport, b.maxX, b.maxY);
      expect(t.left).toBeCloseTo(topLeft.x, 9);
      expect(t.top).toBeCloseTo(topLeft.y, 9);
      expect(t.left + t.width).toBeCloseTo(bottomRight.x, 9);
      expect(t.top + t.height).toBeCloseTo(bottomRight.y, 9);
    }
    // Together they cover the viewport: its four corners and its centre are on some tile.
    for (const [x, y] of [[0, 0], [1279, 0], [0, 799], [1279, 799], [640, 400]]) {
      expect(tiles.some((t) => x >= t.left && x < t.left + t.width && y >= t.top && y < t.top + t.height), `${x},${y}`).toBe(true);
    }
    // Centre-out: the first tile holds the viewport's centre.
    const [first] = tiles;
    expect(640 >= first.left && 640 < first.left + first.width && 400 >= first.top && 400 < first.top + first.height).toBe(true);
  });

  it('draws the floors the engine draws at the level, bottom first, at their opacities', () => {
    const main = posterTiles(customs, manifest, viewport, 1);
    expect(new Set(main.map((t) => t.layer))).toEqual(new Set(['main']));
    expect(main.every((t) => t.opacity === 1)).toBe(true);
    // Level 2 of customs shows its floor over the main one, in the manifest's order.
    const level2 = posterTiles(customs, manifest, viewport, 1, 2);
    expect([...new Set(level2.map((t) => t.layer))]).toEqual(['main', 'level2']);
    // Underground: its floor, and the main floor faintly.
    const under = posterTiles(customs, manifest, viewport, 1, -1);
    expect(under.find((t) => t.layer === 'main')?.opacity).toBeCloseTo(0.05, 9);
    expect(under.find((t) => t.layer === 'underground')?.opacity).toBe(1);
  });

  it('takes the display’s pixel ratio into account, never goes under the pyramid, and is empty for no viewport', () => {
    const sharp = posterTiles(customs, manifest, viewport, 3);
    expect(sharp[0].z).toBeGreaterThan(posterTiles(customs, manifest, viewport, 1)[0].z);
    const shallow = posterTiles(customs, { ...manifest, minZ: 3 }, viewport, 1);
    expect(shallow[0].z).toBe(3);
    expect(posterTiles(customs, manifest, { width: 0, height: 800 }, 1)).toEqual([]);
    // A floor the manifest lacks is simply not drawn.
    expect(posterTiles(customs, { ...manifest, layers: ['underground'] }, viewport, 1)).toEqual([]);
  });
});

/** Whether a preload's media query (as posterPreloads writes them) matches a window. */
function matches(media: string, viewport: { width: number; height: number }, dpr: number): boolean {
  return media.split(', ').some((query) => query.split(' and ').every((part) => {
    const [, name, value] = /^\(([\w-]+): ([\d.]+)(?:dppx|px)\)$/.exec(part) ?? [];
    if (name === 'resolution') return Number(value) === dpr;
    if (name === 'min-width') return viewport.width >= Number(value);
    if (name === 'min-height') return viewport.height >= Number(value);
    throw new Error(`unexpected media part ${part}`);
  }));
}

describe('poster preloads (the map page\'s HTML)', () => {
  const preloads = posterPreloads(customs, manifest);
  const viewports = [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
    { width: 1366, height: 768 },
    { width: 1920, height: 1080 },
    { width: 640, height: 1400 },
    { width: 2560, height: 1600 },
    { width: 1, height: 1 },
  ];

  it.each([...PRELOADED_DPRS])('preloads exactly the tiles of the poster of every window up to the largest, at %s dppx', (dpr) => {
    for (const viewport of viewports) {
      const wanted = posterTiles(customs, manifest, viewport, dpr).map((t) => tilePath(manifest, t.layer, t.z, t.x, t.y)).sort();
      const preloaded = preloads.filter((p) => matches(p.media, viewport, dpr)).map((p) => p.path).sort();
      expect(preloaded, `${viewport.width}×${viewport.height}`).toEqual(wanted);
    }
  });

  it.each([...PRELOADED_DPRS])('places each tile as the poster of every window does, from the window\'s centre, at %s dppx', (dpr) => {
    for (const viewport of viewports) {
      const key = (path: string, layer: string) => `${layer} ${path}`;
      const placed = new Map(
        preloads
          .filter((p) => matches(p.media, viewport, dpr))
          .map((p) => [key(p.path, p.layer), { left: viewport.width / 2 + p.fromCentreLeft, top: viewport.height / 2 + p.fromCentreTop, width: p.width, height: p.height, opacity: p.opacity }]),
      );
      for (const t of posterTiles(customs, manifest, viewport, dpr)) {
        const at = placed.get(key(tilePath(manifest, t.layer, t.z, t.x, t.y), t.layer))!;
        expect(at, `${viewport.width}×${viewport.height}`).toBeDefined();
        expect(at.left).toBeCloseTo(t.left, 9);
        expect(at.top).toBeCloseTo(t.top, 9);
        expect(at.width).toBeCloseTo(t.width, 9);
        expect(at.height).toBeCloseTo(t.height, 9);
        expect(at.opacity).toBe(t.opacity);
      }
    }
  });

  it('is the whole poster only for the pixel ratios and window sizes it was written for', () => {
    for (const dpr of PRELOADED_DPRS) {
      expect(htmlPosterCovers({ width: 1280, height: 800 }, dpr)).toBe(true);
      expect(htmlPosterCovers(PRELOAD_MAX_VIEWPORT, dpr)).toBe(true);
      expect(htmlPosterCovers({ width: PRELOAD_MAX_VIEWPORT.width + 1, height: 800 }, dpr)).toBe(false);
      expect(htmlPosterCovers({ width: 1280, height: PRELOAD_MAX_VIEWPORT.height + 1 }, dpr)).toBe(false);
    }
    expect(htmlPosterCovers({ width: 1280, height: 800 }, 1.75)).toBe(false);
    expect(htmlPosterCovers({ width: 1280, height: 800 }, 1.1)).toBe(false);
    expect(htmlPosterCovers({ width: 0, height: 800 }, 1)).toBe(false);
  });

  it('preloads nothing for other pixel ratios, and no tile twice for one', () => {
    for (const viewport of viewports) expect(preloads.filter((p) => matches(p.media, viewport, 1.75))).toEqual([]);
    for (const dpr of PRELOADED_DPRS) {
      for (const viewport of viewports) {
        const paths = preloads.filter((p) => matches(p.media, viewport, dpr)).map((p) => p.path);
        expect(new Set(paths).size, `${dpr} ${viewport.width}×${viewport.height}`).toBe(paths.length);
      }
    }
    expect(PRELOAD_MAX_VIEWPORT.width).toBeGreaterThanOrEqual(1920);
  });

  it('writes a tile that several pixel ratios show once (customs: 1, 1.25 and 1.5 share a pyramid level)', () => {
    const all = new Set(PRELOADED_DPRS.flatMap((dpr) => posterTiles(customs, manifest, PRELOAD_MAX_VIEWPORT, dpr).map((t) => tilePath(manifest, t.layer, t.z, t.x, t.y))));
    expect(new Set(preloads.map((p) => p.path))).toEqual(all);
    const shared = preloads.find((p) => p.media.startsWith('(resolution: 1dppx)'))!;
    expect(shared.media.split(', ').map((q) => q.split(' and ')[0])).toEqual(['(resolution: 1dppx)', '(resolution: 1.25dppx)', '(resolution: 1.5dppx)']);
  });
});
