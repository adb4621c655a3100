import { describe, expect, it } from 'vitest';
import { MAPS, MAP_IDS } from './maps';
import { gameToMap, mapToGame, round4, type MapTransform } from './transform';

describe('game ⇄ map transform', () => {
  it('applies rotation, ratio, inversion and offsets', () => {
    const t: MapTransform = { rotate: 0, ratio: 2, xOffset: 100, yOffset: 50, invertX: false, invertY: true };
    expect(gameToMap(t, { gameX: 10, gameZ: 5 })).toEqual({ mapX: 120, mapY: 40 });
    const rotated: MapTransform = { ...t, rotate: 90, invertY: false };
    const p = gameToMap(rotated, { gameX: 10, gameZ: 0 });
    expect(p.mapX).toBeCloseTo(100);
    expect(p.mapY).toBeCloseTo(70);
    const flippedX = gameToMap({ ...t, invertX: true }, { gameX: 10, gameZ: 5 });
    expect(flippedX.mapX).toBe(80);
  });

  it('round-trips on every map', () => {
    for (const id of MAP_IDS) {
      const t = MAPS[id].transform;
      for (const [gameX, gameZ] of [[0, 0], [123.456, -78.9], [-500, 300], [1e-3, 999]]) {
        const back = mapToGame(t, gameToMap(t, { gameX, gameZ }));
        expect(back.gameX, id).toBeCloseTo(gameX, 9);
        expect(back.gameZ, id).toBeCloseTo(gameZ, 9);
      }
      const map = { mapX: 1234.5, mapY: 987.25 };
      const again = gameToMap(t, mapToGame(t, map));
      expect(again.mapX).toBeCloseTo(map.mapX, 9);
      expect(again.mapY).toBeCloseTo(map.mapY, 9);
    }
  });

  it('places the map centre inside the map for a point in the middle of the game area', () => {
    // customs: the reference bounds' centre lands near the middle of the 4400x3200 map
    const { mapX, mapY } = gameToMap(MAPS.customs.transform, { gameX: (698 - 372) / 2, gameZ: (-307 + 237) / 2 });
    expect(mapX).toBeCloseTo(2200, 0);
    expect(mapY).toBeCloseTo(1600, 0);
  });

  it('rounds to 4 decimals without negative zero', () => {
    expect(round4(1.234567)).toBe(1.2346);
    expect(round4(-0.00001)).toBe(0);
    expect(Object.is(round4(-0.00001), -0)).toBe(false);
  });
});
