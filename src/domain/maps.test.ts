import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAPS, MAP_IDS, getMap, isMapId, layerOpacities, levelForHeight, markerOpacity, stepLevel } from './maps';

/** Rows of the spec's "Map sizes, start zoom and zoom limits" table. */
function specTable(): { id: string; width: number; height: number; start: number; min: number; max: number }[] {
  const specPath = resolve(__dirname, '../../tests/fixtures/spec/spec-tables.md');
  const text = readFileSync(specPath, 'utf8');
  const rows = [...text.matchAll(/^\| ([a-z-]+) \| (\d+)x(\d+) \| ([\d.]+) \| ([\d.]+)-([\d.]+) \|$/gm)];
  return rows.map((r) => ({ id: r[1], width: +r[2], height: +r[3], start: +r[4], min: +r[5], max: +r[6] }));
}

describe('map definitions', () => {
  it('match the spec table exactly', () => {
    const table = specTable();
    expect(table).toHaveLength(12);
    expect(table.map((r) => r.id).sort()).toEqual([...MAP_IDS].sort());
    for (const row of table) {
      const map = MAPS[row.id as keyof typeof MAPS];
      expect(map.size, row.id).toEqual({ width: row.width, height: row.height });
      expect([map.startZoom, map.minZoom, map.maxZoom], row.id).toEqual([row.start, row.min, row.max]);
    }
  });

  it('has the twelve spec maps with names, start zoom inside the limits', () => {
    expect(MAP_IDS).toHaveLength(12);
    for (const id of MAP_IDS) {
      const map = MAPS[id];
      expect(map.id).toBe(id);
      expect(map.name.length).toBeGreaterThan(2);
      expect(map.startZoom).toBeGreaterThanOrEqual(map.minZoom);
      expect(map.startZoom).toBeLessThanOrEqual(map.maxZoom);
    }
  });

  it('gives factory the spec levels level3, level2, main, basement (3, 2, 1, -1)', () => {
    expect(MAPS.factory.levels.map((l) => l.num)).toEqual([3, 2, 1, -1]);
    expect(MAPS.factory.layers).toEqual(['basement', 'main', 'level2', 'level3']);
  });

  it('gives every map a main level plus at least one other floor, with non-overlapping height ranges', () => {
    for (const id of MAP_IDS) {
      const { levels, layers, defaultLevel } = MAPS[id];
      expect(levels.length, id).toBeGreaterThanOrEqual(2);
      expect(levels.some((l) => l.num === defaultLevel), id).toBe(true);
      const sorted = [...levels].sort((a, b) => a.height[0] - b.height[0]);
      for (let i = 1; i < sorted.length; i++) expect(sorted[i].height[0], id).toBe(sorted[i - 1].height[1]);
      for (const level of levels) {
        for (const layer of [...level.visible, ...level.blur, ...level.hidden]) expect(layers, id).toContain(layer);
        // every layer is in exactly one of visible / blur / hidden
        expect([...level.visible, ...level.blur, ...level.hidden].sort()).toEqual([...layers].sort());
      }
    }
  });

  it('looks maps up by id and rejects unknown ids', () => {
    expect(getMap('customs')?.name).toBe('Customs');
    expect(getMap('nope')).toBeUndefined();
    expect(isMapId('__proto__')).toBe(false);
  });
});

describe('levels', () => {
  const factory = MAPS.factory;

  it('chooses the level from the player height by height range', () => {
    expect(levelForHeight(factory, 0)).toBe(1);
    expect(levelForHeight(factory, 3)).toBe(2);
    expect(levelForHeight(factory, 7.5)).toBe(3);
    expect(levelForHeight(factory, -4)).toBe(-1);
  });

  it('steps up and down and clamps at the ends', () => {
    expect(stepLevel(factory, 1, 1)).toBe(2);
    expect(stepLevel(factory, 1, -1)).toBe(-1);
    expect(stepLevel(factory, 3, 1)).toBe(3);
    expect(stepLevel(factory, -1, -1)).toBe(-1);
  });

  it('shows the selected level, hides others and draws blur layers at 0.05', () => {
    expect(layerOpacities(factory, 1)).toEqual({ basement: 0, main: 1, level2: 0, level3: 0 });
    expect(layerOpacities(factory, 2)).toEqual({ basement: 0, main: 1, level2: 1, level3: 0 });
    expect(layerOpacities(factory, -1)).toEqual({ basement: 1, main: 0.05, level2: 0, level3: 0 });
  });

  it('dims markers of other levels to 0.2', () => {
    expect(markerOpacity(2, 2)).toBe(1);
    expect(markerOpacity(1, 2)).toBe(0.2);
  });
});
