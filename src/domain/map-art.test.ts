import { describe, expect, it } from 'vitest';
import {
  COMMUNITY_LAYERS, MapArtError, boundsRect, defaultPlacement, drawingToMap, fitInside, gameToDrawing, layerGroupNames,
  mapToDrawing, outsideMapWarning, parseMapArt, placementRect, shareOutsideMap,
} from './map-art';
import { MAPS, MAP_IDS, type MapDefinition } from './maps';
import { gameToMap, mapToGame } from './transform';

describe('layer group names', () => {
  it('names every layer of every map: raidmap id first, then the community names', () => {
    for (const id of MAP_IDS) {
      const map = MAPS[id];
      const names = layerGroupNames(map);
      expect(Object.keys(names).sort(), id).toEqual([...map.layers].sort());
      for (const layer of map.layers) {
        expect(names[layer][0], `${id}/${layer}`).toBe(layer);
        expect(names[layer].length, `${id}/${layer} has a community name`).toBeGreaterThan(1);
      }
      // The community table names no layer the map lacks.
      expect(Object.keys(COMMUNITY_LAYERS[id].layers).every((l) => map.layers.includes(l)), id).toBe(true);
      // No group name draws two layers of one map.
      const all = Object.values(names).flat().map((n) => n.toLowerCase());
      expect(new Set(all).size, id).toBe(all.length);
    }
  });

  it('pairs the community floors with raidmap floors as the reference does', () => {
    expect(layerGroupNames(MAPS.customs)).toEqual({
      underground: ['underground', 'Underground_Level'],
      main: ['main', 'Ground_Level', 'Ground_Floor'],
      level2: ['level2', 'Second_Floor'],
      level3: ['level3', 'Third_Floor'],
      level4: ['level4', 'Fourth_Floor'],
    });
    // Interchange counts from First_Floor (its 2nd floor, 25–34 m).
    expect(layerGroupNames(MAPS.interchange).level2).toContain('First_Floor');
    expect(layerGroupNames(MAPS.interchange).level3).toContain('Second_Floor');
    expect(layerGroupNames(MAPS.interchange).level2).not.toContain('Second_Floor');
    expect(layerGroupNames(MAPS.factory).main[1]).toBe('Ground_Floor');
    // "Basement", "Bunkers": raidmap's own ids, matched ignoring case.
    expect(layerGroupNames(MAPS.factory).basement).toEqual(['basement', 'Underground_Level', 'Tunnels']);
    expect(layerGroupNames(MAPS.reserve).bunkers).toEqual(['bunkers', 'Underground_Level']);
    expect(layerGroupNames(MAPS.streets).level5).toContain('Fifth_Floor');
    expect(layerGroupNames(MAPS['ground-zero']).garage).toContain('Underground_Level');
  });

  it('lets map.json replace the names of a layer', () => {
    expect(layerGroupNames(MAPS.customs, { main: ['Roads', 'Terrain'] }).main).toEqual(['Roads', 'Terrain']);
    expect(layerGroupNames(MAPS.customs, { main: ['Roads'] }).level2).toEqual(['level2', 'Second_Floor']);
  });
});

describe('map.json', () => {
  const file = 'assets/maps/customs/map.json';

  it('is optional', () => {
    expect(parseMapArt(MAPS.customs, undefined)).toEqual({ names: layerGroupNames(MAPS.customs), exclude: [] });
  });

  it('reads names (one or several), groups left out and a placement', () => {
    const art = parseMapArt(
      MAPS.customs,
      JSON.stringify({ comment: 'ours', layers: { main: 'Terrain', level2: ['A', 'B'] }, exclude: ['Legend'], placement: { bounds: [[698, -307], [-372, 237]] } }),
      file,
    );
    expect(art.names.main).toEqual(['Terrain']);
    expect(art.names.level2).toEqual(['A', 'B']);
    expect(art.names.level3).toEqual(['level3', 'Third_Floor']);
    expect(art.exclude).toEqual(['Legend']);
    expect(art.placement).toEqual({ bounds: [[698, -307], [-372, 237]] });
    expect(parseMapArt(MAPS.customs, '{"placement":{"rect":{"x":0,"y":10,"width":100,"height":50}}}').placement).toEqual({ rect: { x: 0, y: 10, width: 100, height: 50 } });
    expect(parseMapArt(MAPS.customs, '{"placement":{"fill":true}}').placement).toEqual({ fill: true });
  });

  it('refuses a bad file with the file and the field named, as a MapArtError', () => {
    const bad = (text: string) => {
      try {
        parseMapArt(MAPS.customs, text, file);
      } catch (err) {
        expect(err).toBeInstanceOf(MapArtError);
        return (err as Error).message;
      }
      throw new Error(`accepted ${text}`);
    };
    expect(bad('{"layers": {')).toMatch(/^assets\/maps\/customs\/map\.json: not valid JSON/);
    expect(bad('{"placement": {"bounds": [[1, 2], [3]]}}')).toMatch(/^assets\/maps\/customs\/map\.json: .*placement/);
    expect(bad('{"placement": {"rect": {"x": 0, "y": 0, "width": -5, "height": 1}}}')).toContain('placement');
    expect(bad('{"layers": {"main": 5}}')).toContain('layers.main');
    expect(bad('{"layers": {"level9": "X"}}')).toBe(`${file}: layers.level9: map "customs" has no layer "level9" (its layers: underground, main, level2, level3, level4)`);
    expect(bad('{"exclude": "Legend"}')).toContain('exclude');
    expect(bad('{"placment": {}}')).toContain('placment');
    expect(bad('[]')).toContain(file);
  });

  it('reads a file saved with a UTF-8 byte order mark', () => {
    expect(parseMapArt(MAPS.customs, '\uFEFF{"layers": {"main": "Terrain"}}', file).names.main).toEqual(['Terrain']);
  });

  it('refuses two layers naming one group, naming both layers and the group', () => {
    const refuse = (text: string) => () => parseMapArt(MAPS.labyrinth, text, file);
    expect(refuse('{"layers": {"main": "Ground_Level", "lower": "Ground_Level"}}')).toThrow(MapArtError);
    expect(refuse('{"layers": {"main": "Ground_Level", "lower": "Ground_Level"}}')).toThrow(
      `${file}: layers: "main" and "lower" both name the group "Ground_Level"; a group draws one layer only`,
    );
    // Matching ignores case last: the same group.
    expect(refuse('{"layers": {"main": ["Roads", "ground_level"], "lower": ["Ground_Level"]}}')).toThrow('"main" and "lower" both name the group "Ground_Level"');
    // One layer listing a name twice is no conflict.
    expect(parseMapArt(MAPS.labyrinth, '{"layers": {"main": ["A", "A"]}}', file).names.main).toEqual(['A']);
  });

  it('gives a group map.json names for a layer to that layer only, not also to the one whose built-in name it is', () => {
    // Labyrinth's layers are [lower, main]: main's built-in "Ground_Level" must not stay in its list.
    const art = parseMapArt(MAPS.labyrinth, '{"layers": {"lower": "Ground_Level"}}', file);
    expect(art.names.lower).toEqual(['Ground_Level']);
    expect(art.names.main).toEqual(['main', 'Ground_Floor']);
  });

  it('refuses game bounds with both corners on one axis, naming the file and field', () => {
    const refuse = (map: MapDefinition, bounds: string) => () => parseMapArt(map, `{"placement": {"bounds": ${bounds}}}`, file);
    expect(refuse(MAPS.labyrinth, '[[0, -37], [0, 76]]')).toThrow(MapArtError);
    expect(refuse(MAPS.labyrinth, '[[0, -37], [0, 76]]')).toThrow(`${file}: placement.bounds: both corners have x = 0, an empty rectangle`);
    expect(refuse(MAPS.customs, '[[100, -307], [100, 237]]')).toThrow(`${file}: placement.bounds: both corners have x = 100`);
    expect(refuse(MAPS.customs, '[[698, 5], [-372, 5]]')).toThrow(`${file}: placement.bounds: both corners have z = 5`);
  });
});

const square = (rotate: number): MapDefinition => ({
  ...MAPS.dev,
  size: { width: 1000, height: 1000 },
  transform: { rotate, ratio: 2, xOffset: 500, yOffset: 500, invertX: false, invertY: true },
});

describe('placement', () => {
  it('fits inside, centred, aspect kept', () => {
    expect(fitInside({ x: 0, y: 0, width: 200, height: 100 }, { x: 10, y: 20, width: 400, height: 400 })).toEqual({ x: 10, y: 120, width: 400, height: 200 });
    expect(fitInside({ x: 5, y: 5, width: 100, height: 200 }, { x: 0, y: 0, width: 400, height: 400 })).toEqual({ x: 100, y: 0, width: 200, height: 400 });
  });

  it('fills the map by default, fitted (never stretched)', () => {
    const r = placementRect(MAPS.customs, { x: 0, y: 0, width: 1062, height: 535 });
    expect(r.from).toBe('fill');
    expect(r.rect.width).toBe(4400);
    expect(r.rect.height).toBeCloseTo((4400 * 535) / 1062, 6);
    expect(r.rect.y).toBeCloseTo((3200 - r.rect.height) / 2, 6);
    // A drawing of the map's own size fills it exactly.
    expect(placementRect(MAPS.customs, { x: 0, y: 0, width: 4400, height: 3200 }).rect).toEqual({ x: 0, y: 0, width: 4400, height: 3200 });
  });

  it('places by a map-pixel rectangle', () => {
    const r = placementRect(MAPS.customs, { x: 0, y: 0, width: 100, height: 50 }, { rect: { x: 100, y: 200, width: 1000, height: 1000 } });
    expect(r.rect).toEqual({ x: 100, y: 450, width: 1000, height: 500 });
    expect(r.from).toBe('rect');
  });

  it('places by game bounds through the transform, for every rotation', () => {
    for (const rotate of [0, 90, 180, 270]) {
      const map = square(rotate);
      const bounds: [[number, number], [number, number]] = [[-100, -50], [100, 150]];
      const rect = boundsRect(map, bounds);
      // The corners of the bounds are corners of the rectangle.
      const corners = [[-100, -50], [100, 150], [-100, 150], [100, -50]].map(([gameX, gameZ]) => gameToMap(map.transform, { gameX, gameZ }));
      for (const c of corners) {
        expect([rect.x, rect.x + rect.width].some((v) => Math.abs(v - c.mapX) < 1e-9), `rotate ${rotate}`).toBe(true);
        expect([rect.y, rect.y + rect.height].some((v) => Math.abs(v - c.mapY) < 1e-9), `rotate ${rotate}`).toBe(true);
      }
      // 200 × 200 m at 2 px/m, whichever way the map turns.
      expect(rect.width).toBeCloseTo(400, 9);
      expect(rect.height).toBeCloseTo(400, 9);
      const placed = placementRect(map, { x: 0, y: 0, width: 400, height: 200 }, { bounds });
      expect(placed.from).toBe('bounds');
      expect(placed.rect.width / placed.rect.height).toBeCloseTo(2, 9);
    }
  });

  it('lands the reference bounds of each map inside the map', () => {
    for (const id of MAP_IDS) {
      const bounds = COMMUNITY_LAYERS[id].bounds;
      if (!bounds) continue;
      const r = boundsRect(MAPS[id], bounds);
      expect(r.x, id).toBeGreaterThanOrEqual(0);
      expect(r.y, id).toBeGreaterThanOrEqual(0);
      expect(r.x + r.width, id).toBeLessThanOrEqual(MAPS[id].size.width);
      expect(r.y + r.height, id).toBeLessThanOrEqual(MAPS[id].size.height);
    }
  });

  it('refuses a placement that lands as an empty rectangle on a rotated map (rounding, not exactly 0 px), naming map.json', () => {
    const drawing = { x: 0, y: 0, width: 100, height: 50 };
    // Rotated 270° and 180°, one-axis bounds come back about 1e-13 px wide.
    expect(boundsRect(MAPS.labyrinth, [[0, -37], [0, 76]]).height).toBeLessThan(1e-9);
    expect(() => placementRect(MAPS.labyrinth, drawing, { bounds: [[0, -37], [0, 76]] })).toThrow(MapArtError);
    expect(() => placementRect(MAPS.labyrinth, drawing, { bounds: [[0, -37], [0, 76]] })).toThrow(/^map\.json: placement: .*"labyrinth" is an empty rectangle/);
    expect(() => placementRect(MAPS.customs, drawing, { bounds: [[100, -307], [100, 237]] }, 'assets/maps/customs/map.json')).toThrow(
      /^assets\/maps\/customs\/map\.json: placement: .*"customs" is an empty rectangle/,
    );
    expect(() => placementRect(MAPS.customs, drawing, { rect: { x: 0, y: 0, width: 1e-9, height: 10 } })).toThrow('empty rectangle');
  });

  it('warns with the share of the drawing that lies outside the map, naming the field', () => {
    const map = MAPS.customs;
    expect(outsideMapWarning(map, { x: 5000, y: 5000, width: 100, height: 100 }, 'placement.rect')).toBe(
      'placement.rect: 100 % of the drawing lies outside the map (0,0 4400×3200); that part is never drawn',
    );
    expect(shareOutsideMap({ x: 4350, y: -50, width: 100, height: 100 }, map.size)).toBeCloseTo(0.75, 12);
    expect(outsideMapWarning(map, { x: 4350, y: 0, width: 100, height: 100 }, 'placement.rect')).toMatch(/^placement\.rect: 50 % of/);
    // Neither 0 % nor 100 % when it is neither.
    expect(outsideMapWarning(map, { x: -1, y: 0, width: 1000, height: 100 }, 'placement.rect')).toMatch(/: under 1 % of/);
    expect(outsideMapWarning(map, { x: 4399.999, y: 0, width: 1000, height: 100 }, 'placement.rect')).toMatch(/: over 99 % of/);
    // Game bounds of another place: through the transform, off the map.
    const placed = placementRect(map, { x: 0, y: 0, width: 100, height: 50 }, { bounds: [[-2000, 2000], [-3000, 3000]] });
    expect(outsideMapWarning(map, placed.rect, 'placement.bounds')).toMatch(/^placement\.bounds: 100 % of the drawing lies outside the map/);
    // Inside, touching the edges, or an edge a rounding error past the map's (a rotated map's transform): no warning.
    expect(outsideMapWarning(map, { x: 0, y: 0, width: 4400, height: 3200 }, 'placement.rect')).toBeUndefined();
    expect(shareOutsideMap({ x: -1e-13, y: 0, width: 4400 + 2e-13, height: 3200 }, map.size)).toBe(0);
  });

  it('uses the reference bounds by default for a drawing named the community way only', () => {
    expect(defaultPlacement('customs', true)).toEqual({ bounds: COMMUNITY_LAYERS.customs.bounds });
    expect(defaultPlacement('customs', false)).toBeUndefined();
    expect(defaultPlacement('dev', true)).toBeUndefined();
  });

  it('round-trips a game point → map pixel → drawing unit → map pixel → game point', () => {
    for (const id of ['customs', 'factory', 'lab', 'interchange'] as const) {
      const map = MAPS[id];
      const drawing = { x: -20, y: 30, width: 1062, height: 535 };
      const { rect } = placementRect(map, drawing, { bounds: COMMUNITY_LAYERS[id].bounds! });
      for (const game of [{ gameX: 12.5, gameZ: -40 }, { gameX: -3, gameZ: 7.25 }]) {
        const d = gameToDrawing(map, rect, drawing, game);
        const m = drawingToMap(rect, drawing, d);
        expect(m.mapX).toBeCloseTo(gameToMap(map.transform, game).mapX, 6);
        expect(m.mapY).toBeCloseTo(gameToMap(map.transform, game).mapY, 6);
        const back = mapToGame(map.transform, m);
        expect(back.gameX).toBeCloseTo(game.gameX, 6);
        expect(back.gameZ).toBeCloseTo(game.gameZ, 6);
      }
      // The drawing's corners are the rectangle's corners.
      expect(mapToDrawing(rect, drawing, { mapX: rect.x, mapY: rect.y })).toEqual({ x: -20, y: 30 });
    }
  });
});
