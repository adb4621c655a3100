/**
 * The camera: {x, y, zoom} state, the viewport size, the part of it the page covers (insets),
 * and the map's limits. Gestures hand it
 * deltas (pan, zoom around a point); it applies them and clamps last. Listeners hear of
 * changes synchronously; the engine coalesces them into one update per animation frame.
 */
import type { MapDefinition } from '../domain/maps';
import {
  clampView, combineInsets, mapToScreen, panBy, reachPoint, screenToMap, visibleMapRect, zoomAround,
  NO_INSETS, type CameraLimits, type ReachPoint, type ViewportInsets, type ViewportSize,
} from './kernels/camera';
import { cameraLimits, firstView } from './kernels/first-view';
import type { CameraView, CoveredInsetsSource } from './types';

export class Camera {
  private view: CameraView;
  private size: ViewportSize;
  /** What each source says covers the viewport: the page's covers, the marker popup's room. */
  private readonly covered: Record<CoveredInsetsSource, ViewportInsets> = { page: NO_INSETS, popup: NO_INSETS };
  /** The two together, as the clamp uses them (kernels/camera.ts `combineInsets`). */
  private insets: ViewportInsets = NO_INSETS;
  readonly limits: CameraLimits;
  /** The point the view may always centre on, past the map's edge too (the player: setReach). */
  private reach: ReachPoint | null = null;
  /** The centre last asked for with set() and clamped, until a gesture moves the view. */
  private requested: ReachPoint | null = null;
  private readonly listeners = new Set<(view: CameraView) => void>();

  constructor(map: Pick<MapDefinition, 'size' | 'startZoom' | 'minZoom' | 'maxZoom'>, viewport: ViewportSize) {
    this.limits = cameraLimits(map);
    this.size = { ...viewport };
    this.view = firstView(map, this.size);
  }

  get state(): CameraView {
    return { ...this.view };
  }

  get viewport(): ViewportSize {
    return { ...this.size };
  }

  setViewport(viewport: ViewportSize): void {
    if (!(viewport.width >= 0) || !(viewport.height >= 0)) return;
    if (viewport.width === this.size.width && viewport.height === this.size.height) return;
    this.size = { ...viewport };
    this.insets = combineInsets(this.covered.page, this.covered.popup, this.size);
    this.view = clampView(this.view, this.limits, this.size, this.insets, this.reach);
    this.notify();
  }

  /**
   * The part of the viewport `source` covers (CSS px in from each edge): the page's covers, or
   * the marker popup's room while it is open (all 0 when it closes). The map's edges may be
   * panned in as far as either source lets them. The view is clamped again at once, so insets
   * that shrink pull the map back.
   */
  setInsets(insets: ViewportInsets, source: CoveredInsetsSource = 'page'): void {
    const { top, right, bottom, left } = insets;
    this.covered[source] = { top, right, bottom, left };
    const next = combineInsets(this.covered.page, this.covered.popup, this.size);
    const same = this.insets;
    if (next.top === same.top && next.right === same.right && next.bottom === same.bottom && next.left === same.left) return;
    this.insets = next;
    this.apply(clampView(this.view, this.limits, this.size, this.insets, this.reach));
  }

  set(view: Partial<CameraView>): void {
    const next = { ...this.view, ...definedOnly(view) };
    this.requested = typeof view.x === 'number' && typeof view.y === 'number' ? { x: next.x, y: next.y } : null;
    this.apply(clampView(next, this.limits, this.size, this.insets, this.reach));
  }

  /**
   * The point the view may always be centred on, even past the map's edge (kernels/camera.ts
   * `reachPoint`): the where-am-I marker, or null. The page centres the view on a new position
   * before it hands the engine the marker (ui/topbar/wirePlayer.ts), so that centre was clamped
   * with the marker before: a centre asked for with set() and not moved by a gesture since is
   * clamped again with the new point, and lands on the player.
   */
  setReach(point: ReachPoint | null): void {
    const next = point ? reachPoint(point, this.limits) : null;
    if (next?.x === this.reach?.x && next?.y === this.reach?.y) return;
    this.reach = next;
    const view = this.requested ? { ...this.view, ...this.requested } : this.view;
    this.apply(clampView(view, this.limits, this.size, this.insets, this.reach));
  }

  panBy(screenDx: number, screenDy: number): void {
    if (!Number.isFinite(screenDx) || !Number.isFinite(screenDy)) return;
    this.requested = null;
    this.apply(panBy(this.view, screenDx, screenDy, this.limits, this.size, this.insets, this.reach));
  }

  zoomAt(factor: number, screenX: number, screenY: number): void {
    this.requested = null;
    this.apply(zoomAround(this.view, this.size, factor, screenX, screenY, this.limits, this.insets, this.reach));
  }

  toScreen(mapX: number, mapY: number): { x: number; y: number } {
    return mapToScreen(this.view, this.size, mapX, mapY);
  }

  toMap(screenX: number, screenY: number): { x: number; y: number } {
    return screenToMap(this.view, this.size, screenX, screenY);
  }

  visibleRect() {
    return visibleMapRect(this.view, this.size);
  }

  onChange(listener: (view: CameraView) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private apply(next: CameraView): void {
    if (next.x === this.view.x && next.y === this.view.y && next.zoom === this.view.zoom) return;
    this.view = next;
    this.notify();
  }

  private notify(): void {
    const view = this.state;
    for (const l of this.listeners) l(view);
  }
}

function definedOnly(view: Partial<CameraView>): Partial<CameraView> {
  const out: Partial<CameraView> = {};
  if (typeof view.x === 'number') out.x = view.x;
  if (typeof view.y === 'number') out.y = view.y;
  if (typeof view.zoom === 'number') out.zoom = view.zoom;
  return out;
}
