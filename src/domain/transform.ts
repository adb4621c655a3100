/**
 * Conversion between game coordinates and map pixels.
 *
 * Game space: metres; `x` and `z` span the ground plane, `y` is height (ignored here).
 * Map space: pixels of the map's SVG (its width × height, origin top-left, y down).
 *
 *   x' = x·cosθ − z·sinθ,  y' = x·sinθ + z·cosθ        (θ = rotate, degrees)
 *   mapX = xOffset + sx·ratio·x',   sx = invertX ? −1 : 1
 *   mapY = yOffset + sy·ratio·y',   sy = invertY ? −1 : 1
 */
export interface MapTransform {
  /** Rotation of the game's ground plane, in degrees, applied before scaling. */
  rotate: number;
  xOffset: number;
  yOffset: number;
  invertX: boolean;
  invertY: boolean;
  /** Map pixels per game metre. */
  ratio: number;
}

export interface GamePoint {
  gameX: number;
  gameZ: number;
}

export interface MapPoint {
  mapX: number;
  mapY: number;
}

const DEG = Math.PI / 180;

export function gameToMap(t: MapTransform, game: GamePoint): MapPoint {
  const cos = Math.cos(t.rotate * DEG);
  const sin = Math.sin(t.rotate * DEG);
  const rx = game.gameX * cos - game.gameZ * sin;
  const ry = game.gameX * sin + game.gameZ * cos;
  return {
    mapX: t.xOffset + (t.invertX ? -1 : 1) * t.ratio * rx,
    mapY: t.yOffset + (t.invertY ? -1 : 1) * t.ratio * ry,
  };
}

export function mapToGame(t: MapTransform, map: MapPoint): GamePoint {
  const rx = ((map.mapX - t.xOffset) / t.ratio) * (t.invertX ? -1 : 1);
  const ry = ((map.mapY - t.yOffset) / t.ratio) * (t.invertY ? -1 : 1);
  const cos = Math.cos(t.rotate * DEG);
  const sin = Math.sin(t.rotate * DEG);
  // inverse rotation
  return { gameX: rx * cos + ry * sin, gameZ: -rx * sin + ry * cos };
}

/** Coordinates are rounded to 4 decimals wherever they are stored or shown (spec §5, §9). */
export function round4(value: number): number {
  const r = Math.round(value * 1e4) / 1e4;
  return Object.is(r, -0) ? 0 : r;
}
