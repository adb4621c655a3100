import { describe, expect, it } from 'vitest';
import { tileBounds, tileGrid, type TileManifest } from '../../domain/tiles';
import { baseTiles, childTiles, parentTile, pickTileZ, planCover, visibleTiles, type TileCoord } from './tiles';

const manifest: Pick<TileManifest, 'minZ' | 'maxZ' | 'width' | 'height'> = { minZ: 0, maxZ: 7, width: 4400, height: 3200 };
const viewport = { width: 1280, height: 800 };
const k = (t: TileCoord) => `${t.z}/${t.x}/${t.y}`;

describe('pickTileZ', () => {
  it('picks the level whose texture is not enlarged more than ~1.19× on the device', () => {
    expect(pickTileZ(1, 1, manifest)).toBe(3);
    expect(pickTileZ(1, 2, manifest)).toBe(4);
    expect(pickTileZ(0.5, 1, manifest)).toBe(2);
    expect(pickTileZ(1.1, 1, manifest)).toBe(3);
    expect(pickTileZ(1.3, 1, manifest)).toBe(4);
    expect(pickTileZ(0.6, 1, manifest)).toBe(3);
    expect(pickTileZ(0.58, 1, manifest)).toBe(2);
  });

  it('clamps to the manifest levels', () => {
    expect(pickTileZ(0.01, 1, manifest)).toBe(0);
    expect(pickTileZ(10, 2, manifest)).toBe(7);
    expect(pickTileZ(1, Number.NaN, manifest)).toBe(3);
  });
});

describe('visibleTiles', () => {
  it('covers the viewport exactly with the tiles of the picked level', () => {
    const view = { x: 2200, y: 1600, zoom: 1 };
    const range = visibleTiles(view, viewport, 1, manifest);
    expect(range.z).toBe(3);
    // 1280×800 map px around (2200, 1600): x 1560..2840, y 1200..2000 → cols 6..11, rows 4..7
    expect([range.minX, range.maxX, range.minY, range.maxY]).toEqual([6, 11, 4, 7]);
    expect(range.tiles).toHaveLength(6 * 4);
    const union = range.tiles.map((t) => tileBounds(4400, 3200, t.z, t.x, t.y));
    expect(Math.min(...union.map((b) => b.minX))).toBeLessThanOrEqual(1560);
    expect(Math.max(...union.map((b) => b.maxX))).toBeGreaterThanOrEqual(2840);
  });

  it('sorts centre-out: distances never decrease', () => {
    const view = { x: 1000, y: 900, zoom: 1.7 };
    const range = visibleTiles(view, viewport, 1, manifest);
    const span = 256 / 2 ** (range.z - 3);
    const d = range.tiles.map((t) => Math.hypot((t.x + 0.5) * span - view.x, (t.y + 0.5) * span - view.y));
    for (let i = 1; i < d.length; i++) expect(d[i]).toBeGreaterThanOrEqual(d[i - 1] - 1e-9);
    const centre = range.tiles[0];
    expect(Math.floor(view.x / span)).toBe(centre.x);
    expect(Math.floor(view.y / span)).toBe(centre.y);
  });

  it('clips at the map edges (no negative or past-the-grid tiles)', () => {
    const range = visibleTiles({ x: 0, y: 3200, zoom: 1 }, viewport, 1, manifest);
    const grid = tileGrid(4400, 3200, range.z);
    expect(range.minX).toBe(0);
    expect(range.maxY).toBe(grid.rows - 1);
    for (const t of range.tiles) {
      expect(t.x).toBeGreaterThanOrEqual(0);
      expect(t.y).toBeGreaterThanOrEqual(0);
      expect(t.x).toBeLessThan(grid.cols);
      expect(t.y).toBeLessThan(grid.rows);
    }
  });

  it('returns nothing when the view is entirely off the map', () => {
    const range = visibleTiles({ x: -5000, y: -5000, zoom: 1 }, viewport, 1, manifest);
    expect(range.tiles).toEqual([]);
  });

  it('at min zoom the whole map fits in a few level-0 tiles', () => {
    const range = visibleTiles({ x: 2200, y: 1600, zoom: 0.12 }, viewport, 1, manifest);
    expect(range.z).toBe(0);
    expect(range.tiles.map(k).sort()).toEqual(['0/0/0', '0/0/1', '0/1/0', '0/1/1', '0/2/0', '0/2/1'].sort());
  });
});

describe('parent / child tiles', () => {
  it('parent halves coordinates; children stay inside the grid', () => {
    expect(parentTile({ z: 4, x: 9, y: 6 })).toEqual({ z: 3, x: 4, y: 3 });
    const grid = tileGrid(4400, 3200, 4); // 35 × 25
    expect(childTiles({ z: 3, x: 17, y: 12 }, grid).map(k)).toEqual(['4/34/24']);
    expect(childTiles({ z: 3, x: 1, y: 1 }, grid)).toHaveLength(4);
  });
});

describe('planCover', () => {
  const wanted: TileCoord[] = [{ z: 4, x: 10, y: 8 }, { z: 4, x: 11, y: 8 }];

  it('draws loaded tiles and nothing else', () => {
    const plan = planCover(wanted, () => true, manifest);
    expect(plan.draw.map(k)).toEqual(['4/10/8', '4/11/8']);
    expect(plan.missing).toEqual([]);
  });

  it('falls back to the nearest loaded ancestor, drawn once for siblings', () => {
    const loaded = new Set(['2/2/2', '3/5/4']);
    const plan = planCover(wanted, (t) => loaded.has(k(t)), manifest);
    expect(plan.missing.map(k)).toEqual(['4/10/8', '4/11/8']);
    expect(plan.draw.map(k)).toEqual(['3/5/4']);
    expect(plan.uncovered).toEqual([]);
  });

  it('uses loaded children (zooming out) and no parent when they cover the tile', () => {
    const loaded = new Set(['5/20/16', '5/21/16', '5/20/17', '5/21/17', '3/5/4']);
    const plan = planCover([{ z: 4, x: 10, y: 8 }], (t) => loaded.has(k(t)), manifest);
    expect(plan.draw.map(k)).toEqual(['5/20/16', '5/21/16', '5/20/17', '5/21/17']);
  });

  it('draws a parent under partial children, coarse first', () => {
    const loaded = new Set(['5/20/16', '3/5/4']);
    const plan = planCover([{ z: 4, x: 10, y: 8 }], (t) => loaded.has(k(t)), manifest);
    expect(plan.draw.map(k)).toEqual(['3/5/4', '5/20/16']);
  });

  it('leaves a tile uncovered only when nothing related is loaded', () => {
    const plan = planCover(wanted, () => false, manifest);
    expect(plan.draw).toEqual([]);
    expect(plan.missing).toHaveLength(2);
    expect(plan.uncovered.map(k)).toEqual(['4/10/8', '4/11/8']);
  });

  it('goes two levels down: grandchildren that cover the tile need no parent', () => {
    const loaded = new Set<string>(['3/5/4']);
    for (let y = 32; y < 36; y++) for (let x = 40; x < 44; x++) loaded.add(`6/${x}/${y}`);
    const plan = planCover([{ z: 4, x: 10, y: 8 }], (t) => loaded.has(k(t)), manifest);
    expect(plan.draw).toHaveLength(16);
    expect(plan.draw.every((t) => t.z === 6)).toBe(true);
    expect(plan.uncovered).toEqual([]);
  });

  it('draws each fallback once, coarse levels first, whatever the wanted order', () => {
    const loaded = new Set(['2/2/2', '5/22/16', '5/20/16']);
    const plan = planCover(wanted, (t) => loaded.has(k(t)), manifest);
    expect(plan.draw.map(k)).toEqual(['2/2/2', '5/20/16', '5/22/16']);
  });

  it('a tile partly covered by children is not uncovered', () => {
    const loaded = new Set(['5/20/16']);
    const plan = planCover([{ z: 4, x: 10, y: 8 }], (t) => loaded.has(k(t)), manifest);
    expect(plan.missing.map(k)).toEqual(['4/10/8']);
    expect(plan.uncovered).toEqual([]);
  });
});

describe('baseTiles', () => {
  it('lists every tile of the coarsest level, row by row', () => {
    expect(baseTiles({ minZ: 0, width: 4400, height: 3200 })).toEqual([
      { z: 0, x: 0, y: 0 }, { z: 0, x: 1, y: 0 }, { z: 0, x: 2, y: 0 },
      { z: 0, x: 0, y: 1 }, { z: 0, x: 1, y: 1 }, { z: 0, x: 2, y: 1 },
    ]);
    expect(baseTiles({ minZ: 1, width: 500, height: 500 })).toEqual([{ z: 1, x: 0, y: 0 }]);
  });
});
