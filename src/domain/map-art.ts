/**
 * Map art: which group of an operator's SVG drawing draws which layer of a map, and where
 * the drawing sits on the map (docs/MAP-ART.md).
 *
 * The community drawings of the maps (Inkscape / Illustrator, one group per floor) name
 * their floor groups `Ground_Level`, `Second_Floor`, `Underground_Level`…; the names per
 * map and the game-metre `bounds` each drawing covers are facts from tarkov.dev's
 * MIT-licensed map definitions (credit: the tarkov.dev contributors), copied here so that
 * nothing reads the reference file at run time. A drawing's groups are matched by `id`,
 * `inkscape:label` or `data-name`, exactly first, then ignoring case.
 *
 * An optional `map.json` beside the drawing (MAP_ART_FILE) overrides the names, leaves
 * groups out, and places the drawing: by its bounds in game coordinates (through the
 * map's transform) or by a rectangle in map pixels. The drawing's aspect ratio is always
 * kept (SVG's `xMidYMid meet`: fitted inside the rectangle, centred), never stretched.
 */
import { z } from 'zod';
import type { MapDefinition, MapId } from './maps';
import { gameToMap, type GamePoint, type MapPoint } from './transform';

/** The file beside `map.svg` that overrides the matching and placement of one drawing. */
export const MAP_ART_FILE = 'map.json';

/** Two opposite corners in game metres, [x, z] each (the reference data's `bounds`). */
export type GameBounds = [[number, number], [number, number]];

/** A rectangle in map pixels. */
export interface MapRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The user-space rectangle of a drawing (its viewBox, else its width and height). */
export interface DrawingBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface ReferenceArt {
  /** Game metres covered by the community drawing (tarkov.dev `svgBounds` ?? `bounds`). */
  bounds?: GameBounds;
  /** Community group names per raidmap layer id, the reference's `svgLayer` first. */
  layers: Record<string, string[]>;
}

const GROUND = ['Ground_Level', 'Ground_Floor'];
const UNDERGROUND = 'Underground_Level';

/**
 * Per map: the community names of each layer. Where the reference names a layer's group
 * (`svgLayer`) it is that name, paired with raidmap's floor by its height range; other
 * floors get the names the community drawings use for them (`Second_Floor` … `Fifth_Floor`,
 * `Underground_Level`). Interchange counts its floors from `First_Floor` (its 2nd floor,
 * 25–34 m: raidmap's level2). Factory's ground group is `Ground_Floor`.
 */
export const COMMUNITY_LAYERS: Record<MapId, ReferenceArt> = {
  dev: {
    layers: { main: GROUND, level2: ['Second_Floor'], basement: [UNDERGROUND, 'Basement'] },
  },
  'ground-zero': {
    bounds: [[249, -124], [-99, 364]],
    layers: { main: GROUND, level2: ['Second_Floor'], level3: ['Third_Floor'], garage: [UNDERGROUND, 'Garage'] },
  },
  factory: {
    bounds: [[77, -64.5], [-65.5, 67.4]],
    layers: { main: ['Ground_Floor', 'Ground_Level'], level2: ['Second_Floor'], level3: ['Third_Floor'], basement: ['Basement', UNDERGROUND, 'Tunnels'] },
  },
  customs: {
    bounds: [[698, -307], [-372, 237]],
    layers: { main: GROUND, level2: ['Second_Floor'], level3: ['Third_Floor'], level4: ['Fourth_Floor'], underground: [UNDERGROUND] },
  },
  interchange: {
    bounds: [[598, -442], [-433, 426]],
    layers: { main: GROUND, level2: ['First_Floor'], level3: ['Second_Floor'], parking: [UNDERGROUND, 'Parking'] },
  },
  woods: {
    bounds: [[646, -914], [-761, 442]],
    layers: { main: GROUND, level2: ['Second_Floor'], bunker: [UNDERGROUND, 'Bunker'] },
  },
  shoreline: {
    bounds: [[504, -415], [-1056, 618]],
    layers: { main: GROUND, level2: ['Second_Floor'], level3: ['Third_Floor'], underground: [UNDERGROUND] },
  },
  reserve: {
    // Reserve's drawing covers `svgBounds`, a little taller than the map's `bounds`.
    bounds: [[289, -274], [-303, 272]],
    layers: { main: GROUND, level2: ['Second_Floor'], level3: ['Third_Floor'], level4: ['Fourth_Floor'], bunkers: ['Bunkers', UNDERGROUND] },
  },
  lighthouse: {
    bounds: [[515, -998], [-545, 725]],
    layers: { main: GROUND, level2: ['Second_Floor'], tunnels: [UNDERGROUND, 'Tunnels'] },
  },
  streets: {
    bounds: [[323, -295], [-280, 532]],
    layers: {
      main: GROUND, level2: ['Second_Floor'], level3: ['Third_Floor'], level4: ['Fourth_Floor'], level5: ['Fifth_Floor'], underground: [UNDERGROUND],
    },
  },
  lab: {
    bounds: [[-80, -477], [-287, -193]],
    layers: { main: GROUND, level2: ['Second_Floor'], technical: [UNDERGROUND, 'Technical'] },
  },
  labyrinth: {
    bounds: [[-52, -37], [53, 76]],
    layers: { main: GROUND, lower: [UNDERGROUND, 'Lower_Maze'] },
  },
};

/**
 * The group names that draw each layer of a map: raidmap's own layer id first, then the
 * community names. `overrides` (from map.json) replaces the names of the layers it lists.
 */
export function layerGroupNames(map: MapDefinition, overrides: Record<string, string[]> = {}): Record<string, string[]> {
  const community = (COMMUNITY_LAYERS as Partial<Record<string, ReferenceArt>>)[map.id]?.layers ?? {};
  // A name map.json gives a layer is that layer's only: the built-in lists of the others
  // lose it (else a layer earlier in the map's order would take the group first).
  const claimed = new Set(Object.values(overrides).flat().map((n) => n.toLowerCase()));
  const out: Record<string, string[]> = {};
  for (const id of map.layers) {
    const list = overrides[id] ?? [id, ...(community[id] ?? [])].filter((n) => !claimed.has(n.toLowerCase()));
    // Matching ignores case last: a name that differs from an earlier one only in case adds nothing.
    out[id] = list.filter((n, i) => list.findIndex((m) => m.toLowerCase() === n.toLowerCase()) === i);
  }
  return out;
}

/** The game bounds the community drawing of a map covers, when the reference gives them. */
export function communityBounds(mapId: string): GameBounds | undefined {
  return (COMMUNITY_LAYERS as Partial<Record<string, ReferenceArt>>)[mapId]?.bounds;
}

// ---------------------------------------------------------------- map.json

const finite = z.number().finite();
const gamePointSchema = z.tuple([finite, finite]);
const names = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

export const placementSchema = z.union([
  z.strictObject({
    /** Two opposite corners of the drawing in game metres, [[x, z], [x, z]]. */
    bounds: z.tuple([gamePointSchema, gamePointSchema]),
  }),
  z.strictObject({
    /** Where the drawing goes, in map pixels. */
    rect: z.strictObject({ x: finite, y: finite, width: finite.positive(), height: finite.positive() }),
  }),
  z.strictObject({
    /** Fitted into the whole map (the default for drawings named with raidmap's layer ids). */
    fill: z.literal(true),
  }),
]);

export type Placement = z.infer<typeof placementSchema>;

export const mapArtSchema = z.strictObject({
  /** Free text for the operator (ignored). */
  comment: z.string().optional(),
  /** Per layer id: the group name(s) that draw it (replaces the built-in names of that layer). */
  layers: z.record(z.string(), names).optional(),
  /** Group names never drawn (legends, frames, notes). */
  exclude: z.array(z.string().min(1)).optional(),
  placement: placementSchema.optional(),
});

export type MapArtFile = z.infer<typeof mapArtSchema>;

/** What a drawing's map.json (or its absence) settles, ready for the tile pipeline. */
export interface MapArt {
  /** Group names per layer id. */
  names: Record<string, string[]>;
  exclude: string[];
  placement?: Placement;
}

export class MapArtError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MapArtError';
  }
}

/**
 * Reads a map.json's text for `map`. Throws MapArtError naming `file` and the field
 * ("assets/maps/customs/map.json: placement.bounds.0: …") on bad JSON or a bad value.
 */
export function parseMapArt(map: MapDefinition, text: string | undefined, file = MAP_ART_FILE): MapArt {
  if (text === undefined) return { names: layerGroupNames(map), exclude: [] };
  let json: unknown;
  try {
    // Windows editors (Notepad) save UTF-8 with a byte order mark, which JSON.parse refuses.
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new MapArtError(`${file}: not valid JSON: ${(err as Error).message}`);
  }
  const parsed = mapArtSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(top level)'}: ${i.message}`);
    throw new MapArtError(`${file}: ${issues.join('; ')}`);
  }
  const layers = parsed.data.layers ?? {};
  const unknown = Object.keys(layers).filter((id) => !map.layers.includes(id));
  if (unknown.length) {
    throw new MapArtError(`${file}: layers.${unknown[0]}: map "${map.id}" has no layer "${unknown[0]}" (its layers: ${map.layers.join(', ')})`);
  }
  const overrides = Object.fromEntries(Object.entries(layers).map(([id, n]) => [id, typeof n === 'string' ? [n] : n]));
  const shared = sharedGroupName(overrides);
  if (shared) {
    throw new MapArtError(
      `${file}: layers: "${shared.layers[0]}" and "${shared.layers[1]}" both name the group "${shared.name}"; a group draws one layer only`,
    );
  }
  const placement = parsed.data.placement;
  if (placement && 'bounds' in placement) {
    const empty = emptyBoundsAxis(placement.bounds);
    if (empty) {
      throw new MapArtError(
        `${file}: placement.bounds: both corners have ${empty} = ${empty === 'x' ? placement.bounds[0][0] : placement.bounds[0][1]}, an empty rectangle (give two opposite corners of the drawing)`,
      );
    }
  }
  return { names: layerGroupNames(map, overrides), exclude: parsed.data.exclude ?? [], placement };
}

/** Two layers of map.json naming one group (matching ignores case last, so case does not tell groups apart). */
function sharedGroupName(overrides: Record<string, string[]>): { name: string; layers: [string, string] } | undefined {
  const owner = new Map<string, string>();
  for (const [layerId, list] of Object.entries(overrides)) {
    for (const name of list) {
      const other = owner.get(name.toLowerCase());
      if (other !== undefined && other !== layerId) return { name, layers: [other, layerId] };
      owner.set(name.toLowerCase(), layerId);
    }
  }
  return undefined;
}

/** The game axis on which two corners coincide (a rectangle of no width or height), if any. */
function emptyBoundsAxis([[x1, z1], [x2, z2]]: GameBounds): 'x' | 'z' | undefined {
  if (x1 === x2) return 'x';
  if (z1 === z2) return 'z';
  return undefined;
}

// ---------------------------------------------------------------- placement

/** The map-pixel rectangle of two game corners (through the map's transform). */
export function boundsRect(map: MapDefinition, bounds: GameBounds): MapRect {
  const [a, b] = bounds.map(([gameX, gameZ]) => gameToMap(map.transform, { gameX, gameZ }));
  const x = Math.min(a.mapX, b.mapX);
  const y = Math.min(a.mapY, b.mapY);
  return { x, y, width: Math.abs(a.mapX - b.mapX), height: Math.abs(a.mapY - b.mapY) };
}

/** The drawing box fitted inside `target`, centred, its aspect ratio kept (SVG's xMidYMid meet). */
export function fitInside(drawing: DrawingBox, target: MapRect): MapRect {
  const s = Math.min(target.width / drawing.width, target.height / drawing.height);
  const width = drawing.width * s;
  const height = drawing.height * s;
  return { x: target.x + (target.width - width) / 2, y: target.y + (target.height - height) / 2, width, height };
}

export interface PlacementResult {
  /** Where the drawing's box lands, in map pixels (aspect kept). */
  rect: MapRect;
  /** The rectangle asked for, before fitting. */
  target: MapRect;
  /** Where the placement came from. */
  from: 'bounds' | 'rect' | 'fill';
}

/**
 * A placement rectangle narrower or lower than this (map pixels) is empty: two corners on
 * one game axis come back from a rotated map's transform a rounding error apart (about
 * 1e-13 px), not exactly equal.
 */
export const MIN_PLACEMENT_PX = 1e-6;

/**
 * Where a drawing lands on the map: inside the rectangle the placement asks for (game
 * bounds through the map's transform, or a map-pixel rectangle; none or `fill`: the whole
 * map), fitted with its aspect ratio kept and centred. `file` (the map.json the placement
 * came from) names it when the rectangle is empty.
 */
export function placementRect(map: MapDefinition, drawing: DrawingBox, placement?: Placement, file = MAP_ART_FILE): PlacementResult {
  let target: MapRect;
  let from: PlacementResult['from'];
  if (placement && 'bounds' in placement) {
    target = boundsRect(map, placement.bounds);
    from = 'bounds';
  } else if (placement && 'rect' in placement) {
    target = placement.rect;
    from = 'rect';
  } else {
    target = { x: 0, y: 0, width: map.size.width, height: map.size.height };
    from = 'fill';
  }
  if (!(target.width >= MIN_PLACEMENT_PX && target.height >= MIN_PLACEMENT_PX)) {
    throw new MapArtError(`${file}: placement: the drawing's place on map "${map.id}" is an empty rectangle (${JSON.stringify(target)} map px)`);
  }
  return { rect: fitInside(drawing, target), target, from };
}

/**
 * The share (0–1) of a rectangle's area that lies outside the map. Overhangs under
 * MIN_PLACEMENT_PX count as none: a rotated map's transform puts an edge a rounding error
 * (about 1e-13 px) past the map's.
 */
export function shareOutsideMap(rect: MapRect, size: MapDefinition['size']): number {
  // The length itself when nothing is cut off, so that a rectangle inside gives exactly 0.
  const kept = (from: number, length: number, mapLength: number) =>
    from >= -MIN_PLACEMENT_PX && from + length <= mapLength + MIN_PLACEMENT_PX ? length : Math.max(0, Math.min(from + length, mapLength) - Math.max(from, 0));
  return 1 - (kept(rect.x, rect.width, size.width) * kept(rect.y, rect.height, size.height)) / (rect.width * rect.height);
}

/** A share as a whole percentage that never reads 0 or 100 when it is neither. */
function percent(share: number): string {
  const p = Math.round(share * 100);
  if (p === 0 && share > 0) return 'under 1';
  if (p === 100 && share < 1) return 'over 99';
  return String(p);
}

/**
 * The warning for a drawing placed partly or wholly off the map (a typo in a rectangle, game
 * bounds of another map): the map still builds, but what lies outside is never drawn.
 * `field` is where the placement came from ("placement.rect"); undefined when all is inside.
 */
export function outsideMapWarning(map: MapDefinition, rect: MapRect, field: string): string | undefined {
  const share = shareOutsideMap(rect, map.size);
  if (share <= 0) return undefined;
  return `${field}: ${percent(share)} % of the drawing lies outside the map (0,0 ${map.size.width}×${map.size.height}); that part is never drawn`;
}

/**
 * The placement used when map.json gives none: a drawing named the community's way is the
 * community's drawing of the whole map, and covers the reference bounds; any other fills
 * the map (as raidmap's own sample maps do).
 */
export function defaultPlacement(mapId: string, communityNamed: boolean): Placement | undefined {
  const bounds = communityBounds(mapId);
  return communityNamed && bounds ? { bounds } : undefined;
}

/** A map point in the drawing's user units (the inverse of drawingToMap). */
export function mapToDrawing(rect: MapRect, drawing: DrawingBox, p: MapPoint): { x: number; y: number } {
  return {
    x: drawing.x + ((p.mapX - rect.x) * drawing.width) / rect.width,
    y: drawing.y + ((p.mapY - rect.y) * drawing.height) / rect.height,
  };
}

/** A point of the drawing (user units) on the map. */
export function drawingToMap(rect: MapRect, drawing: DrawingBox, p: { x: number; y: number }): MapPoint {
  return {
    mapX: rect.x + ((p.x - drawing.x) * rect.width) / drawing.width,
    mapY: rect.y + ((p.y - drawing.y) * rect.height) / drawing.height,
  };
}

/** A game point in the drawing's user units: where an operator's drawing must show it. */
export function gameToDrawing(map: MapDefinition, rect: MapRect, drawing: DrawingBox, p: GamePoint): { x: number; y: number } {
  return mapToDrawing(rect, drawing, gameToMap(map.transform, p));
}
