/**
 * Culling with a margin: markers are placed for the view plus a margin around it, in "zoomed
 * map" space (map pixels × zoom), and their container carries the translation. While the
 * zoom stays and the view stays inside the placed area, a camera move only moves the
 * container: no query, no sort, no particle upload. Pure: returns rectangles and decisions.
 */
import type { CameraView } from './camera-view';
import { visibleMapRect, type ViewportSize } from './camera';

export interface MapRect {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** What the last placement covered: its zoom and the map rectangle it queried. */
export interface Placement {
  zoom: number;
  rect: MapRect;
}

/**
 * The map rectangle whose markers can show on screen: the viewport grown by `iconHalfCss`
 * (an icon centred just outside the edge still shows half of itself).
 */
export function cullRect(view: CameraView, viewport: ViewportSize, iconHalfCss: number): MapRect {
  const r = visibleMapRect(view, viewport);
  const half = iconHalfCss / view.zoom;
  return { minX: r.minX - half, minY: r.minY - half, maxX: r.maxX + half, maxY: r.maxY + half };
}

/** `rect` grown by `marginCss` screen pixels on every side, at `zoom`. */
export function padRect(rect: MapRect, zoom: number, marginCss: number): MapRect {
  const m = marginCss / zoom;
  return { minX: rect.minX - m, minY: rect.minY - m, maxX: rect.maxX + m, maxY: rect.maxY + m };
}

export function containsRect(outer: MapRect, inner: MapRect): boolean {
  return inner.minX >= outer.minX && inner.maxX <= outer.maxX && inner.minY >= outer.minY && inner.maxY <= outer.maxY;
}

export function containsPoint(rect: MapRect, x: number, y: number): boolean {
  return x >= rect.minX && x <= rect.maxX && y >= rect.minY && y <= rect.maxY;
}

/** True when the last placement still serves this view: same zoom, and the view's cull rect inside what was placed. */
export function placementCovers(placed: Placement | null, zoom: number, needed: MapRect): boolean {
  return placed !== null && placed.zoom === zoom && containsRect(placed.rect, needed);
}

/**
 * Screen offset of the "zoomed map" space (map × zoom) for a view: screen = mapX × zoom + offsetX.
 * Equal to kernels/camera's mapToScreen, split so the per-marker part does not depend on the centre.
 */
export function layoutOffset(view: CameraView, viewport: ViewportSize): { x: number; y: number } {
  return { x: viewport.width / 2 - view.x * view.zoom, y: viewport.height / 2 - view.y * view.zoom };
}
