/**
 * Camera math: pure functions over a {x, y, zoom} view (x, y = map-pixel point at the
 * centre of the viewport; zoom = CSS pixels per map pixel). Gestures produce deltas,
 * `clampView` is applied last. The page may cover the viewport's edges (a top bar, side
 * panels, a dock: `ViewportInsets`); the clamp lets the map's edges come in that far, so a
 * marker at the map's edge can be brought out from under them.
 */
import { MAP_BOUNDS_MARGIN } from '../../domain/position-bounds';
import type { CameraView } from './camera-view';

export interface ViewportSize {
  /** CSS pixels. */
  width: number;
  height: number;
}

export interface CameraLimits {
  minZoom: number;
  maxZoom: number;
  /** Map size in map pixels. */
  mapWidth: number;
  mapHeight: number;
}

/**
 * How far in from each edge of the viewport the page covers it (CSS pixels): the visible part
 * of the viewport is what is left. All 0 when nothing covers it.
 */
export interface ViewportInsets {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export const NO_INSETS: ViewportInsets = Object.freeze({ top: 0, right: 0, bottom: 0, left: 0 });

/**
 * The insets of the page's covers (`base`: top bar, panels, dock) together with `extra` ones (the
 * marker popup's room on a phone): on each side the larger, so the map's edge may come in as far
 * as either lets it. An axis on which the two together would leave nothing of the viewport
 * (a side panel across most of a phone and the popup's room on the other side) keeps the base's
 * insets: the clamp would otherwise ignore that axis's insets altogether.
 */
export function combineInsets(base: ViewportInsets, extra: ViewportInsets, viewport: ViewportSize): ViewportInsets {
  const axis = (start: 'top' | 'left', end: 'bottom' | 'right', size: number): [number, number] => {
    const a = Math.max(insetLength(base[start]), insetLength(extra[start]));
    const b = Math.max(insetLength(base[end]), insetLength(extra[end]));
    return a + b < size ? [a, b] : [insetLength(base[start]), insetLength(base[end])];
  };
  const [top, bottom] = axis('top', 'bottom', viewport.height);
  const [left, right] = axis('left', 'right', viewport.width);
  return { top, right, bottom, left };
}

/** Log2 zoom change of one wheel event: 2^(−deltaY / WHEEL_PX_PER_DOUBLING), capped at ±WHEEL_MAX_STEP. */
export const WHEEL_PX_PER_DOUBLING = 100;
export const WHEEL_MAX_STEP = 1;
/** Double-click zoom factor (spec §9: speed 1 = one doubling). */
export const DOUBLE_CLICK_FACTOR = 2;

export function clampZoom(zoom: number, limits: Pick<CameraLimits, 'minZoom' | 'maxZoom'>): number {
  if (!Number.isFinite(zoom)) return limits.minZoom;
  return Math.min(limits.maxZoom, Math.max(limits.minZoom, zoom));
}

/** One inset as the clamp may use it: a finite length, not negative. */
function insetLength(value: number): number {
  return Number.isFinite(value) && value > 0 ? value : 0;
}

/**
 * One axis's insets as the clamp uses them: those that leave nothing of the viewport visible
 * (a page that says it covers it all) are ignored, so the map is clamped to the whole viewport.
 */
function axisInsets(start: number, end: number, viewSize: number | undefined): [number, number] {
  const [a, b] = [insetLength(start), insetLength(end)];
  return viewSize !== undefined && a + b < viewSize ? [a, b] : [0, 0];
}

/**
 * One axis of the centre clamp. A map larger than the visible part of the view (the viewport
 * less the insets) keeps covering it: its edges can come in as far as the insets, no further.
 * A smaller map is centred in the viewport, moved the least that brings it clear of the insets.
 * Without a viewport size, the centre stays on the map. A `reach` coordinate (the player's, see
 * `reachPoint`) may always be brought to the centre, past the map's edge if it lies there.
 */
function clampAxis(
  centre: number, mapSize: number, viewSize: number | undefined, zoom: number, insetStart: number, insetEnd: number, reach?: number,
): number {
  if (!Number.isFinite(centre)) return mapSize / 2;
  let [low, high] = [0, mapSize];
  if (viewSize !== undefined && viewSize > 0) {
    const half = viewSize / 2 / zoom;
    // The centres at which the map's start edge meets the visible part's start, and its end edge that part's end.
    const startEdgeAtInset = half - insetStart / zoom;
    const endEdgeAtInset = mapSize - half + insetEnd / zoom;
    if (startEdgeAtInset <= endEdgeAtInset) [low, high] = [startEdgeAtInset, endEdgeAtInset];
    else low = high = Math.min(startEdgeAtInset, Math.max(endEdgeAtInset, mapSize / 2));
  }
  if (reach !== undefined && Number.isFinite(reach)) [low, high] = [Math.min(low, reach), Math.max(high, reach)];
  return Math.min(high, Math.max(low, centre));
}

/**
 * A map point the camera may always centre on, whatever its clamp (the where-am-I marker): a
 * position the feed or Where am I accepts may lie past the drawing's edge, up to
 * MAP_BOUNDS_MARGIN of its size (position-bounds.ts), and a view that centres on it (the stream
 * overlay, a zoomed-in page) must show it there rather than stop at the edge with the marker
 * off-screen. Taken no further than that margin: the map is never lost further than that.
 */
export interface ReachPoint {
  x: number;
  y: number;
}

export function reachPoint(point: ReachPoint, limits: Pick<CameraLimits, 'mapWidth' | 'mapHeight'>): ReachPoint | null {
  if (!Number.isFinite(point.x) || !Number.isFinite(point.y)) return null;
  const within = (value: number, size: number) => Math.min((1 + MAP_BOUNDS_MARGIN) * size, Math.max(-MAP_BOUNDS_MARGIN * size, value));
  return { x: within(point.x, limits.mapWidth), y: within(point.y, limits.mapHeight) };
}

/**
 * Zoom clamped to the limits, then the centre clamped so the map can never be lost off-screen:
 * its edges may come in as far as the `insets` (the part of the viewport the page covers), and
 * the `reach` point (reachPoint) may be brought to the centre.
 */
export function clampView(
  view: CameraView, limits: CameraLimits, viewport?: ViewportSize, insets: ViewportInsets = NO_INSETS, reach: ReachPoint | null = null,
): CameraView {
  const zoom = clampZoom(view.zoom, limits);
  const [left, right] = axisInsets(insets.left, insets.right, viewport?.width);
  const [top, bottom] = axisInsets(insets.top, insets.bottom, viewport?.height);
  return {
    x: clampAxis(view.x, limits.mapWidth, viewport?.width, zoom, left, right, reach?.x),
    y: clampAxis(view.y, limits.mapHeight, viewport?.height, zoom, top, bottom, reach?.y),
    zoom,
  };
}

export function mapToScreen(view: CameraView, viewport: ViewportSize, mapX: number, mapY: number): { x: number; y: number } {
  return {
    x: (mapX - view.x) * view.zoom + viewport.width / 2,
    y: (mapY - view.y) * view.zoom + viewport.height / 2,
  };
}

export function screenToMap(view: CameraView, viewport: ViewportSize, screenX: number, screenY: number): { x: number; y: number } {
  return {
    x: (screenX - viewport.width / 2) / view.zoom + view.x,
    y: (screenY - viewport.height / 2) / view.zoom + view.y,
  };
}

/**
 * Zooms by `factor` keeping the map point under (screenX, screenY) fixed on screen
 * (as long as no clamp applies). The zoom is clamped first, so the anchor stays put at the limits.
 */
export function zoomAround(
  view: CameraView,
  viewport: ViewportSize,
  factor: number,
  screenX: number,
  screenY: number,
  limits: CameraLimits,
  insets: ViewportInsets = NO_INSETS,
  reach: ReachPoint | null = null,
): CameraView {
  if (!Number.isFinite(factor) || factor <= 0) return clampView(view, limits, viewport, insets, reach);
  const zoom = clampZoom(view.zoom * factor, limits);
  const anchor = screenToMap(view, viewport, screenX, screenY);
  const offsetX = screenX - viewport.width / 2;
  const offsetY = screenY - viewport.height / 2;
  return clampView({ x: anchor.x - offsetX / zoom, y: anchor.y - offsetY / zoom, zoom }, limits, viewport, insets, reach);
}

/** Pans by a screen-space delta (the map follows the pointer). */
export function panBy(
  view: CameraView,
  screenDx: number,
  screenDy: number,
  limits: CameraLimits,
  viewport?: ViewportSize,
  insets: ViewportInsets = NO_INSETS,
  reach: ReachPoint | null = null,
): CameraView {
  return clampView({ x: view.x - screenDx / view.zoom, y: view.y - screenDy / view.zoom, zoom: view.zoom }, limits, viewport, insets, reach);
}

/** Wheel delta (pixels, deltaMode already normalised) → zoom factor of one discrete step. */
export function wheelZoomFactor(deltaYPx: number): number {
  if (!Number.isFinite(deltaYPx) || deltaYPx === 0) return 1;
  const step = Math.max(-WHEEL_MAX_STEP, Math.min(WHEEL_MAX_STEP, -deltaYPx / WHEEL_PX_PER_DOUBLING));
  return 2 ** step;
}

/** Normalises WheelEvent.deltaY by deltaMode (0 pixels, 1 lines, 2 pages) to pixels. */
export function wheelDeltaPx(deltaY: number, deltaMode: number, pageHeight: number): number {
  if (deltaMode === 1) return deltaY * 16;
  if (deltaMode === 2) return deltaY * pageHeight;
  return deltaY;
}

/** Map-pixel rectangle visible in the viewport. */
export function visibleMapRect(view: CameraView, viewport: ViewportSize) {
  const halfW = viewport.width / 2 / view.zoom;
  const halfH = viewport.height / 2 / view.zoom;
  return { minX: view.x - halfW, minY: view.y - halfH, maxX: view.x + halfW, maxY: view.y + halfH };
}
