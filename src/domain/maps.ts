/**
 * Map definitions (spec §3 "Map definition", §9 table). Sizes and zooms are the spec's;
 * transforms and floor heights are designed from tarkov.dev's MIT-licensed definitions
 * (credit: the tarkov.dev contributors), fitted to these map sizes.
 */
import type { MapTransform } from './transform';

export const MAP_IDS = [
  'dev', 'ground-zero', 'factory', 'customs', 'interchange', 'woods',
  'shoreline', 'reserve', 'lighthouse', 'streets', 'lab', 'labyrinth',
] as const;

export type MapId = (typeof MAP_IDS)[number];

export interface LevelDef {
  /** Floor number: 1 is the main (ground) level, negative numbers are underground. */
  num: number;
  name: string;
  /** SVG layer ids drawn at full opacity when this level is selected. */
  visible: string[];
  /** SVG layer ids not drawn when this level is selected. */
  hidden: string[];
  /** SVG layer ids drawn faintly (0.05) when this level is selected. */
  blur: string[];
  /** Player heights (game y, metres) that belong to this level: low ≤ z < high. */
  height: [low: number, high: number];
}

export interface MapDefinition {
  id: MapId;
  name: string;
  size: { width: number; height: number };
  startZoom: number;
  minZoom: number;
  maxZoom: number;
  transform: MapTransform;
  /** SVG layer ids (`<g id=…>`), bottom first. Each is rasterised into its own tile pyramid. */
  layers: string[];
  /** Levels, top floor first (as the level list shows them). */
  levels: LevelDef[];
  /** The level selected when the map opens. */
  defaultLevel: number;
}

type Floor = { id: string; name: string; num: number; height: [number, number] };

/**
 * Builds the levels of a map from its floors. The main level (num 1) shows only `main`;
 * an upper floor shows `main` with its own layer on top; an underground floor shows its
 * own layer with the main level faint above it.
 */
function levelsFrom(floors: Floor[]): { layers: string[]; levels: LevelDef[] } {
  const sorted = [...floors].sort((a, b) => a.num - b.num);
  const layers = sorted.map((f) => f.id);
  const levels = [...sorted].reverse().map((f): LevelDef => {
    const visible = f.num === 1 ? ['main'] : f.num > 1 ? ['main', f.id] : [f.id];
    const blur = f.num < 1 ? ['main'] : [];
    const hidden = layers.filter((l) => !visible.includes(l) && !blur.includes(l));
    return { num: f.num, name: f.name, visible, hidden, blur, height: f.height };
  });
  return { layers, levels };
}

const INF = 10000;
const main = (low: number, high: number): Floor => ({ id: 'main', name: 'Main', num: 1, height: [low, high] });
const upper = (n: number, low: number, high: number): Floor => ({ id: `level${n}`, name: `Level ${n}`, num: n, height: [low, high] });
const under = (id: string, name: string, low: number, high: number): Floor => ({ id, name, num: -1, height: [low, high] });

function define(
  id: MapId,
  name: string,
  size: [number, number],
  zoom: [start: number, min: number, max: number],
  transform: Omit<MapTransform, 'invertX' | 'invertY'>,
  floors: Floor[],
): MapDefinition {
  return {
    id,
    name,
    size: { width: size[0], height: size[1] },
    startZoom: zoom[0],
    minZoom: zoom[1],
    maxZoom: zoom[2],
    transform: { ...transform, invertX: false, invertY: true },
    ...levelsFrom(floors),
    defaultLevel: 1,
  };
}

export const MAPS: Record<MapId, MapDefinition> = {
  dev: define('dev', 'Dev', [4000, 4000], [0.5, 0.07, 10],
    { rotate: 0, ratio: 10, xOffset: 2000, yOffset: 2000 },
    [upper(2, 5, INF), main(0, 5), under('basement', 'Basement', -INF, 0)]),
  'ground-zero': define('ground-zero', 'Ground Zero', [2800, 3100], [1, 0.2, 10],
    { rotate: 180, ratio: 5.8443, xOffset: 1838.32, yOffset: 848.69 },
    [upper(3, 32.3, INF), upper(2, 28, 32.3), main(21, 28), under('garage', 'Garage', -INF, 21)]),
  factory: define('factory', 'Factory', [3600, 3600], [0.7, 0.12, 10],
    { rotate: 90, ratio: 23.2421, xOffset: 1833.7, yOffset: 1933.64 },
    [upper(3, 6, INF), upper(2, 3, 6), main(-1, 3), under('basement', 'Basement', -INF, -1)]),
  customs: define('customs', 'Customs', [4400, 3200], [0.6, 0.12, 10],
    { rotate: 180, ratio: 3.7832, xOffset: 2816.66, yOffset: 1732.41 },
    [upper(4, 11.2, INF), upper(3, 5.7, 11.2), upper(2, 2.7, 5.7), main(0.5, 2.7), under('underground', 'Underground', -INF, 0.5)]),
  interchange: define('interchange', 'Interchange', [3800, 3800], [0.6, 0.1, 10],
    { rotate: 180, ratio: 3.3909, xOffset: 2179.75, yOffset: 1927.13 },
    [upper(3, 34, INF), upper(2, 25, 34), main(-6, 25), under('parking', 'Parking', -INF, -6)]),
  woods: define('woods', 'Woods', [4800, 4800], [0.4, 0.07, 10],
    { rotate: 180, ratio: 3.1386, xOffset: 2219.53, yOffset: 3140.71 },
    [upper(2, 30, INF), main(-10, 30), under('bunker', 'Bunker', -INF, -10)]),
  shoreline: define('shoreline', 'Shoreline', [3700, 3100], [0.8, 0.12, 15],
    { rotate: 180, ratio: 2.1821, xOffset: 1247.75, yOffset: 1328.52 },
    [upper(3, 2, INF), upper(2, -1, 2), main(-5, -1), under('underground', 'Underground', -INF, -5)]),
  reserve: define('reserve', 'Reserve', [3200, 3000], [1, 0.15, 10],
    { rotate: 180, ratio: 4.973, xOffset: 1565.19, yOffset: 1621.84 },
    [upper(4, 29.3, INF), upper(3, 25.7, 29.3), upper(2, 22.1, 25.7), main(-7, 22.1), under('bunkers', 'Bunkers', -INF, -7)]),
  lighthouse: define('lighthouse', 'Lighthouse', [3100, 3700], [0.65, 0.15, 10],
    { rotate: 180, ratio: 1.9756, xOffset: 1520.37, yOffset: 2119.67 },
    [upper(2, 30, INF), main(-3, 30), under('tunnels', 'Tunnels', -INF, -3)]),
  streets: define('streets', 'Streets of Tarkov', [3260, 3500], [0.7, 0.14, 10],
    { rotate: 180, ratio: 3.8936, xOffset: 1713.71, yOffset: 1288.61 },
    [upper(5, 25, INF), upper(4, 20, 25), upper(3, 15, 20), upper(2, 10, 15), main(-6, 10), under('underground', 'Underground', -INF, -6)]),
  lab: define('lab', 'The Lab', [5500, 4200], [0.41, 0.085, 10],
    { rotate: 270, ratio: 17.8169, xOffset: 8718.66, yOffset: 5369.4 },
    [upper(2, 3, INF), main(-0.9, 3), under('technical', 'Technical', -INF, -0.9)]),
  labyrinth: define('labyrinth', 'The Labyrinth', [3300, 3200], [0.8, 0.07, 10],
    { rotate: 270, ratio: 26.8673, xOffset: 1126.09, yOffset: 1586.57 },
    [main(-3, INF), under('lower', 'Lower Maze', -INF, -3)]),
};

export function isMapId(id: string): id is MapId {
  return (MAP_IDS as readonly string[]).includes(id);
}

export function getMap(id: string): MapDefinition | undefined {
  return isMapId(id) ? MAPS[id] : undefined;
}

/** The level whose height range holds the player's height z (spec §4 Levels); the default level otherwise. */
export function levelForHeight(map: MapDefinition, z: number): number {
  const hit = map.levels.find((l) => z >= l.height[0] && z < l.height[1]);
  return hit ? hit.num : map.defaultLevel;
}

/** Steps the selected level up (+1) or down (−1) through the map's levels, clamped at the ends (Alt+wheel). */
export function stepLevel(map: MapDefinition, current: number, direction: 1 | -1): number {
  const nums = map.levels.map((l) => l.num).sort((a, b) => a - b);
  const i = nums.indexOf(current);
  if (i < 0) return map.defaultLevel;
  return nums[Math.min(nums.length - 1, Math.max(0, i + direction))];
}

export const LEVEL_OPACITY = { selected: 1, otherLevelMarker: 0.2, blurLayer: 0.05 } as const;

/** Opacity of each SVG layer of the map when `levelNum` is selected (spec §4 Levels). */
export function layerOpacities(map: MapDefinition, levelNum: number): Record<string, number> {
  const level = map.levels.find((l) => l.num === levelNum) ?? map.levels.find((l) => l.num === map.defaultLevel)!;
  return Object.fromEntries(
    map.layers.map((layer) => [
      layer,
      level.visible.includes(layer) ? 1 : level.blur.includes(layer) ? LEVEL_OPACITY.blurLayer : 0,
    ]),
  );
}

/** Opacity of a marker on `markerLevel` when `selectedLevel` is selected: its own level 1, others 0.2. */
export function markerOpacity(markerLevel: number, selectedLevel: number): number {
  return markerLevel === selectedLevel ? LEVEL_OPACITY.selected : LEVEL_OPACITY.otherLevelMarker;
}
