/**
 * The ground-plane positions a map accepts (the live feed's publisher, Where am I, `#pos=`):
 * its drawing grown by a margin, in game metres. No zod here: the map page uses it.
 */
import type { MapDefinition } from './maps';
import type { PlayerPosition } from './position';
import { mapToGame } from './transform';

/**
 * How far outside a map's drawing a published position may lie, as a share of the drawing's
 * width and height on each side. The drawings cover the playable area with some room and the
 * transforms are fitted, not surveyed, so a real position is never near this; a position past
 * it is a mistake (a wrong map, a broken watcher, a made-up number) and is refused, not clamped:
 * a clamped marker would sit on the map's edge as if the player were there.
 */
export const MAP_BOUNDS_MARGIN = 0.25;

/** A rectangle of the ground plane in position space (x = game X, y = game Z; metres). */
export interface PositionBounds {
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
}

/**
 * The positions `map` accepts: its drawing (map pixels 0…width × 0…height) grown by `margin`
 * on each side, turned into game metres. The box around the four turned corners: exact for the
 * maps' quarter-turn rotations, a little larger for any other angle.
 */
export function mapPositionBounds(map: Pick<MapDefinition, 'size' | 'transform'>, margin = MAP_BOUNDS_MARGIN): PositionBounds {
  const { width, height } = map.size;
  const [left, right] = [-margin * width, (1 + margin) * width];
  const [top, bottom] = [-margin * height, (1 + margin) * height];
  const corners = [
    [left, top],
    [right, top],
    [left, bottom],
    [right, bottom],
  ].map(([mapX, mapY]) => mapToGame(map.transform, { mapX, mapY }));
  const xs = corners.map((c) => c.gameX);
  const ys = corners.map((c) => c.gameZ);
  return { minX: Math.min(...xs), maxX: Math.max(...xs), minY: Math.min(...ys), maxY: Math.max(...ys) };
}

/** The position's ground plane (x, y) lies within `bounds`. */
export function isInside(bounds: PositionBounds, position: Pick<PlayerPosition, 'x' | 'y'>): boolean {
  return position.x >= bounds.minX && position.x <= bounds.maxX && position.y >= bounds.minY && position.y <= bounds.maxY;
}

/** Whether a position can be on `map` (within its drawing and the margin). */
export function isPositionOnMap(position: Pick<PlayerPosition, 'x' | 'y'>, map: Pick<MapDefinition, 'size' | 'transform'>): boolean {
  return isInside(mapPositionBounds(map), position);
}
