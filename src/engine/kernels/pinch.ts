/**
 * Two-finger pinch: from the two touch points before and after a move, the camera step that
 * keeps the map point under the fingers' midpoint under it. The zoom changes by the ratio of the
 * fingers' distances and the map follows the midpoint. A tool applies a step as
 * `panBy(dx, dy)` then `zoomAt(factor, x, y)` (the camera clamps the zoom to the map's limits
 * there, as it does for the wheel).
 */

export interface TouchPoint {
  /** Screen CSS px. */
  x: number;
  y: number;
}

export type TouchPair = readonly [TouchPoint, TouchPoint];

export interface PinchStep {
  /** Zoom factor: distance after / distance before (1 when either distance is too small to trust). */
  factor: number;
  /** Screen movement of the midpoint (the pan). */
  dx: number;
  dy: number;
  /** The midpoint after the move: the anchor of the zoom. */
  x: number;
  y: number;
}

/**
 * Below this distance (CSS px) between the fingers the ratio is noise (two fingers nearly on one
 * spot): the step only pans.
 */
export const PINCH_MIN_DISTANCE_PX = 8;

export function midpoint([a, b]: TouchPair): TouchPoint {
  return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
}

export function distance([a, b]: TouchPair): number {
  return Math.hypot(b.x - a.x, b.y - a.y);
}

/** The camera step from the pair `before` to the pair `after` (same finger order). */
export function pinchStep(before: TouchPair, after: TouchPair): PinchStep {
  const m0 = midpoint(before);
  const m1 = midpoint(after);
  const d0 = distance(before);
  const d1 = distance(after);
  const trusted = d0 >= PINCH_MIN_DISTANCE_PX && d1 >= PINCH_MIN_DISTANCE_PX && Number.isFinite(d0) && Number.isFinite(d1);
  const dx = m1.x - m0.x;
  const dy = m1.y - m0.y;
  return {
    factor: trusted ? d1 / d0 : 1,
    dx: Number.isFinite(dx) ? dx : 0,
    dy: Number.isFinite(dy) ? dy : 0,
    x: m1.x,
    y: m1.y,
  };
}
