import { describe, expect, it } from 'vitest';
import { MAPS } from '../../domain/maps';
import { MAX_TILE_Z, tileGrid } from '../../domain/tiles';
import { numKey, splitNumKey } from './tiles';

describe('numKey', () => {
  it('is unique over every floor, level and tile of the largest map', () => {
    const lab = MAPS.lab; // 5500 × 4200, the largest
    const seen = new Set<number>();
    let count = 0;
    for (let floor = 0; floor < 6; floor++) {
      for (let z = 0; z <= MAX_TILE_Z; z++) {
        const { cols, rows } = tileGrid(lab.size.width, lab.size.height, z);
        expect(cols).toBeLessThan(4096);
        for (let x = 0; x < cols; x += z > 6 ? 7 : 1) {
          for (let y = 0; y < rows; y += z > 6 ? 5 : 1) {
            seen.add(numKey(floor, z, x, y));
            count++;
          }
        }
      }
    }
    expect(seen.size).toBe(count);
    expect(Number.isSafeInteger(numKey(7, 15, 4095, 4095))).toBe(true);
  });
});

describe('splitNumKey', () => {
  it('gives back the floor and the tile of a key', () => {
    for (const [floor, z, x, y] of [[0, 0, 0, 0], [3, 5, 17, 12], [7, 15, 4095, 4095], [1, 8, 4000, 9]]) {
      expect(splitNumKey(numKey(floor, z, x, y))).toEqual({ floor, z, x, y });
    }
  });
});
