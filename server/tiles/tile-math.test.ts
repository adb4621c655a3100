import { describe, expect, it } from 'vitest';
import { tileGrid, tileBounds } from '../../src/domain/tiles';
import { METATILE, isTileInRange, levelPixelSize, metatileOf, metatilesOfLevel, tilePixelRect } from './tile-math';

describe('levelPixelSize', () => {
  it('scales the map by 2^(z-3), rounding up', () => {
    expect(levelPixelSize(4400, 3200, 3)).toEqual({ width: 4400, height: 3200 });
    expect(levelPixelSize(4400, 3200, 0)).toEqual({ width: 550, height: 400 });
    expect(levelPixelSize(3100, 3700, 0)).toEqual({ width: 388, height: 463 });
    expect(levelPixelSize(3100, 3700, 5)).toEqual({ width: 12400, height: 14800 });
  });
});

describe('tilePixelRect', () => {
  it('is 256 square inside the grid and cut short at the right and bottom edges', () => {
    expect(tilePixelRect(3100, 3700, { z: 0, x: 0, y: 0 })).toEqual({ left: 0, top: 0, width: 256, height: 256 });
    expect(tilePixelRect(3100, 3700, { z: 0, x: 1, y: 1 })).toEqual({ left: 256, top: 256, width: 132, height: 207 });
    expect(tilePixelRect(600, 500, { z: 3, x: 2, y: 1 })).toEqual({ left: 512, top: 256, width: 88, height: 244 });
  });

  it('matches the map-pixel bounds of the shared contract', () => {
    for (const z of [0, 2, 3, 5]) {
      const { cols, rows } = tileGrid(3260, 3500, z);
      const r = tilePixelRect(3260, 3500, { z, x: cols - 1, y: rows - 1 });
      const b = tileBounds(3260, 3500, z, cols - 1, rows - 1);
      const s = 2 ** (z - 3);
      expect(r.width).toBe(Math.ceil((b.maxX - b.minX) * s - 1e-9));
      expect(r.height).toBe(Math.ceil((b.maxY - b.minY) * s - 1e-9));
      expect(r.left).toBeCloseTo(b.minX * s);
    }
  });
});

describe('isTileInRange', () => {
  it('accepts the grid of levels 0..maxZ only', () => {
    expect(isTileInRange(3600, 3600, 8, { z: 0, x: 1, y: 1 })).toBe(true);
    expect(isTileInRange(3600, 3600, 8, { z: 0, x: 2, y: 0 })).toBe(false);
    expect(isTileInRange(3600, 3600, 8, { z: 3, x: 14, y: 14 })).toBe(true);
    expect(isTileInRange(3600, 3600, 8, { z: 3, x: 15, y: 0 })).toBe(false);
    expect(isTileInRange(3600, 3600, 8, { z: 9, x: 0, y: 0 })).toBe(false);
    expect(isTileInRange(3600, 3600, 7, { z: 8, x: 0, y: 0 })).toBe(false);
    expect(isTileInRange(3600, 3600, 8, { z: -1, x: 0, y: 0 })).toBe(false);
    expect(isTileInRange(3600, 3600, 8, { z: 1, x: -1, y: 0 })).toBe(false);
    expect(isTileInRange(3600, 3600, 8, { z: 1, x: 0.5, y: 0 })).toBe(false);
  });
});

describe('metatiles', () => {
  it('groups 4 × 4 tiles and clips at the level edge', () => {
    const m = metatileOf(3600, 3600, { z: 3, x: 13, y: 5 });
    expect([m.mx, m.my]).toEqual([3, 1]);
    expect(m.rect).toEqual({ left: 3072, top: 1024, width: 3600 - 3072, height: 1024 });
    expect(m.tiles.map((t) => `${t.x},${t.y}`)).toEqual(['12,4', '13,4', '14,4', '12,5', '13,5', '14,5', '12,6', '13,6', '14,6', '12,7', '13,7', '14,7']);
  });

  it('cover every tile of a level exactly once', () => {
    for (const z of [0, 1, 3, 4]) {
      const { cols, rows } = tileGrid(5500, 4200, z);
      const seen = new Set<string>();
      for (const m of metatilesOfLevel(5500, 4200, z)) {
        expect(m.tiles.length).toBeLessThanOrEqual(METATILE * METATILE);
        for (const t of m.tiles) {
          const key = `${t.x},${t.y}`;
          expect(seen.has(key)).toBe(false);
          seen.add(key);
          const r = tilePixelRect(5500, 4200, t);
          expect(r.left).toBeGreaterThanOrEqual(m.rect.left);
          expect(r.left + r.width).toBeLessThanOrEqual(m.rect.left + m.rect.width);
        }
      }
      expect(seen.size).toBe(cols * rows);
    }
  });
});
