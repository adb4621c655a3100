/**
 * Camera math: pure functions over a {x, y, zoom} view (x, y = map-pixel point at the
 * centre of the viewport; zoom = CSS pixels per map pixel). Gestures produce deltas,
 * `clampView` is applied last.
 */
import type { CameraView } from '../types';

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

/** Log2 zoom change of one wheel event: 2^(−deltaY / WHEEL_PX_PER_DOUBLING), capped at ±WHEEL_MAX_STEP. */
export const WHEEL_PX_PER_DOUBLING = 100;
export const WHEEL_MAX_STEP = 1;
/** Double-click zoom factor (spec §9: speed 1 = one doubling). */
export const DOUBLE_CLICK_FACTOR = 2;

export function clampZoom(zoom: number, limits: Pick<CameraLimits, 'minZoom' | 'maxZoom'>): number {
  if (!Number.isFinite(zoom)) return limits.minZoom;
  return Math.min(limits.maxZoom, Math.max(limits.minZoom, zoom));
}

/** Zoom clamped to the limits and the centre kept on the map, so the map can never be lost off-screen. */
export function clampView(view: CameraView, limits: CameraLimits): CameraView {
  const zoom = clampZoom(view.zoom, limits);
  const x = Number.isFinite(view.x) ? Math.min(limits.mapWidth, Math.max(0, view.x)) : limits.mapWidth / 2;
  const y = Number.isFinite(view.y) ? Math.min(limits.mapHeight, Math.max(0, view.y)) : limits.mapHeight / 2;
  return { x, y, zoom };
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
): CameraView {
  if (!Number.isFinite(factor) || factor <= 0) return clampView(view, limits);
  const zoom = clampZoom(view.zoom * factor, limits);
  const anchor = screenToMap(view, viewport, screenX, screenY);
  const offsetX = screenX - viewport.width / 2;
  const offsetY = screenY - viewport.height / 2;
  return clampView({ x: anchor.x - offsetX / zoom, y: anchor.y - offsetY / zoom, zoom }, limits);
}

/** Pans by a screen-space delta (the map follows the pointer). */
export function panBy(view: CameraView, screenDx: number, screenDy: number, limits: CameraLimits): CameraView {
  return clampView({ x: view.x - screenDx / view.zoom, y: view.y - screenDy / view.zoom, zoom: view.zoom }, limits);
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
