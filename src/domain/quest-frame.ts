/**
 * Bringing a followed quest's markers into view (the quest list's Show, a map link from the
 * Quests page: docs/DECISIONS.md "Showing a quest's markers"): which floor to show, what to say
 * of the markers on other floors, and the camera that frames a set of points in the visible
 * part of the canvas (keep-in-view.ts: what the top bar, the panels and a phone's sheet leave).
 * Map pixels for points, screen pixels (relative to the canvas) for the visible part.
 */
import type { ScreenRect } from './keep-in-view';

export interface MapPoint {
  x: number;
  y: number;
}

/** A marker's place: its point and its level. */
export interface PlacedPoint extends MapPoint {
  level: number;
}

export interface MapBounds {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface FrameCamera {
  x: number;
  y: number;
  zoom: number;
}

/** Share of the visible part's width and height left free around the framed points (as keep-in-view's margin). */
export const FRAME_MARGIN = 0.15;

/** The smallest rectangle that holds every point (finite ones only); null for none. */
export function pointsBounds(points: readonly MapPoint[]): MapBounds | null {
  let bounds: MapBounds | null = null;
  for (const { x, y } of points) {
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    if (!bounds) bounds = { left: x, top: y, right: x, bottom: y };
    else {
      bounds.left = Math.min(bounds.left, x);
      bounds.top = Math.min(bounds.top, y);
      bounds.right = Math.max(bounds.right, x);
      bounds.bottom = Math.max(bounds.bottom, y);
    }
  }
  return bounds;
}

/** How many points each level holds, most first (ties: the lower level first). */
export function countByLevel(points: readonly Pick<PlacedPoint, 'level'>[]): Array<{ level: number; count: number }> {
  const counts = new Map<number, number>();
  for (const { level } of points) counts.set(level, (counts.get(level) ?? 0) + 1);
  return [...counts].map(([level, count]) => ({ level, count })).sort((a, b) => b.count - a.count || a.level - b.level);
}

/**
 * The floor to show a quest's markers on: the current one while it holds any (the player
 * stays where they are), else the one that holds most of them; null without markers.
 */
export function floorToShow(points: readonly Pick<PlacedPoint, 'level'>[], current: number): number | null {
  if (points.some((p) => p.level === current)) return current;
  return countByLevel(points)[0]?.level ?? null;
}

/** The markers on levels other than `shown`, per level (most first): the quiet "2 on Level 3". */
export function elsewhereByLevel(points: readonly Pick<PlacedPoint, 'level'>[], shown: number): Array<{ level: number; count: number }> {
  return countByLevel(points.filter((p) => p.level !== shown));
}

/** The visible part less `margin` of its width and height at each side. */
function inner(visible: ScreenRect, margin: number): ScreenRect {
  const dx = (visible.right - visible.left) * margin;
  const dy = (visible.bottom - visible.top) * margin;
  return { left: visible.left + dx, top: visible.top + dy, right: visible.right - dx, bottom: visible.bottom - dy };
}

/**
 * The camera that shows every point of `bounds` in the visible part of the canvas (less the
 * margin), or null when they all show there already (the user's own pan and zoom are kept).
 * The zoom is never raised (a player who zoomed out keeps the overview; one marker keeps the
 * zoom): it is lowered only as far as needed for the points to fit, not below `minZoom`. The
 * points' middle goes to the middle of the visible part. `canvas` is the canvas's size; the
 * camera's x, y are the map point at the canvas's centre (engine/kernels/camera.ts).
 */
export function frameBounds(
  bounds: MapBounds,
  visible: ScreenRect,
  canvas: { width: number; height: number },
  view: FrameCamera,
  minZoom: number,
  margin = FRAME_MARGIN,
): FrameCamera | null {
  const safe = inner(visible, margin);
  const toScreen = (x: number, y: number) => ({ x: (x - view.x) * view.zoom + canvas.width / 2, y: (y - view.y) * view.zoom + canvas.height / 2 });
  const a = toScreen(bounds.left, bounds.top);
  const b = toScreen(bounds.right, bounds.bottom);
  if (a.x >= safe.left && a.y >= safe.top && b.x <= safe.right && b.y <= safe.bottom) return null;
  const spanX = bounds.right - bounds.left;
  const spanY = bounds.bottom - bounds.top;
  const fitX = spanX > 0 ? (safe.right - safe.left) / spanX : Infinity;
  const fitY = spanY > 0 ? (safe.bottom - safe.top) / spanY : Infinity;
  const zoom = Math.max(minZoom, Math.min(view.zoom, fitX, fitY));
  const middle = { x: (visible.left + visible.right) / 2, y: (visible.top + visible.bottom) / 2 };
  const centre = { x: (bounds.left + bounds.right) / 2, y: (bounds.top + bounds.bottom) / 2 };
  return { x: centre.x - (middle.x - canvas.width / 2) / zoom, y: centre.y - (middle.y - canvas.height / 2) / zoom, zoom };
}
