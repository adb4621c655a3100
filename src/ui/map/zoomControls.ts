/**
 * The map's on-screen zoom buttons (ZoomControls.tsx; docs/DECISIONS.md "Zoom buttons on the
 * map"): + and − for a mouse, a finger and a screen reader, as the focused map's + and − keys
 * are for a keyboard (mapKeyboard.ts). Pure rules first (whether a step is possible, the view
 * after it, where the buttons go), then the measuring of the page they are placed in.
 */
import { visibleRect, type CanvasArea, type ScreenRect } from '../../domain/keep-in-view';
import { measureCanvasArea, watchCanvasArea } from './canvasArea';
import { KEY_ZOOM_FACTOR, zoomAbout } from './mapKeyboard';

export type ZoomDirection = 'in' | 'out';

export interface ZoomLimits {
  minZoom: number;
  maxZoom: number;
}

type View = { x: number; y: number; zoom: number };

/**
 * A zoom this close to a limit (relative) is at it: the engine clamps to the limit exactly, but a
 * view restored from storage or a link may sit a rounding error away from it.
 */
const AT_LIMIT = 1e-6;

/** Whether the view can zoom further `direction` within the map's limits (a button at its limit is disabled). */
export function canZoom(zoom: number, direction: ZoomDirection, limits: ZoomLimits): boolean {
  if (!Number.isFinite(zoom)) return false;
  return direction === 'in' ? zoom < limits.maxZoom * (1 - AT_LIMIT) : zoom > limits.minZoom * (1 + AT_LIMIT);
}

/**
 * The view after one button press: the + and − keys' step (×KEY_ZOOM_FACTOR) about `anchor`, an
 * offset from the canvas's centre (CSS px; the middle of the visible part), so what is there stays
 * there. The last step before a limit lands on it exactly (the anchor still stays: the engine's
 * clamp of a larger step would move it). Null at the limit: nothing to do.
 */
export function zoomStep(view: View, direction: ZoomDirection, limits: ZoomLimits, anchor: { x: number; y: number }): View | null {
  if (!canZoom(view.zoom, direction, limits)) return null;
  const wanted = direction === 'in' ? view.zoom * KEY_ZOOM_FACTOR : view.zoom / KEY_ZOOM_FACTOR;
  const zoom = Math.min(limits.maxZoom, Math.max(limits.minZoom, wanted));
  return zoomAbout(view, zoom / view.zoom, anchor.x, anchor.y);
}

/** Room between the buttons and what they are kept clear of (CSS px). */
export const ZOOM_CONTROLS_GAP = 10;

/** Where the buttons go: CSS px from the canvas's right and bottom edges to theirs. */
export interface ZoomControlsPlace {
  right: number;
  bottom: number;
}

function overlaps(a: ScreenRect, b: ScreenRect): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/**
 * The buttons' place: the bottom-right corner of the map's visible part (what the top bar, the
 * side panels and the admin dock leave free: keep-in-view.ts `visibleRect`, as the camera's insets
 * and the keyboard's cross-hair use it), `gap` in from its edges, as a map site has them. Then clear
 * of what else lies over the map there (`avoid`: the marker popup's sheet, the loading line, the
 * kept-for-admin notice, and the covers themselves where too little is left free for a visible
 * part): lifted above it, or where that leaves the visible part, moved to its left. Where neither
 * fits, the corner (what covers them is on top: a popup over most of a phone on its side).
 */
export function zoomControlsPlace(
  area: CanvasArea,
  box: { width: number; height: number },
  avoid: readonly ScreenRect[] = [],
  gap = ZOOM_CONTROLS_GAP,
): ZoomControlsPlace {
  const free = visibleRect(area);
  const corner = { left: free.right - gap - box.width, top: free.bottom - gap - box.height, right: free.right - gap, bottom: free.bottom - gap };
  const all = [...area.covers, ...avoid];
  let at = corner;
  // Each move clears one rectangle; as many tries as there are rectangles (and one to check).
  for (let tries = 0; tries <= all.length; tries += 1) {
    const hit = all.find((rect) => overlaps(at, rect));
    if (!hit) return { right: area.width - at.right, bottom: area.height - at.bottom };
    const above = hit.top - gap;
    const leftOf = hit.left - gap;
    if (above - box.height >= free.top) at = { ...at, top: above - box.height, bottom: above };
    else if (leftOf - box.width >= free.left) at = { ...at, left: leftOf - box.width, right: leftOf };
    else break;
  }
  return { right: area.width - corner.right, bottom: area.height - corner.bottom };
}

// ---------------------------------------------------------------------------------------------
// DOM

/**
 * What lies over the map besides the covers of canvasArea.ts: the marker popup's dialog (a sheet at
 * the bottom, or the top, of a phone), the loading line, the kept-for-admin notice.
 */
export const ZOOM_AVOID_SELECTOR = '.marker-popup .popup, .map-status, .kept-for-admin';

/** The rectangles of `ZOOM_AVOID_SELECTOR` laid out in the page, relative to the canvas. */
export function measureZoomAvoid(root: ParentNode = document): ScreenRect[] {
  const canvas = root.querySelector('.map-canvas');
  if (!canvas) return [];
  const origin = canvas.getBoundingClientRect();
  return [...root.querySelectorAll(ZOOM_AVOID_SELECTOR)]
    .map((element) => element.getBoundingClientRect())
    .filter((box) => box.width > 0 && box.height > 0)
    .map((box) => ({ left: box.left - origin.left, top: box.top - origin.top, right: box.right - origin.left, bottom: box.bottom - origin.top }));
}

/** The buttons' place in the page now, or null where there is no laid-out canvas. */
export function measureZoomControlsPlace(box: { width: number; height: number }, root: ParentNode = document): ZoomControlsPlace | null {
  const area = measureCanvasArea(root);
  return area ? zoomControlsPlace(area, box, measureZoomAvoid(root)) : null;
}

/** Whether one of the nodes is, or holds, something the buttons keep clear of. */
function holdsAvoided(nodes: NodeList): boolean {
  for (const node of nodes) {
    if (node instanceof Element && (node.matches(ZOOM_AVOID_SELECTOR) || node.querySelector(ZOOM_AVOID_SELECTOR) !== null)) return true;
  }
  return false;
}

/**
 * Calls `onChange` (at most once a frame) when the buttons' place may have changed: the canvas or a
 * cover (watchCanvasArea), or what they keep clear of: it came, went, changed size, or the popup
 * moved between the bottom and the top (its class). Returns the stop.
 */
export function watchZoomControlsPlace(onChange: () => void, root: (ParentNode & Node) = document): () => void {
  let frame: number | null = null;
  const schedule = () => {
    if (frame !== null) return;
    frame = requestAnimationFrame(() => {
      frame = null;
      onChange();
    });
  };
  const stopArea = watchCanvasArea(schedule, root);
  const resizes = typeof ResizeObserver === 'function' ? new ResizeObserver(schedule) : null;
  const observeAll = () => {
    resizes?.disconnect();
    for (const element of root.querySelectorAll(ZOOM_AVOID_SELECTOR)) resizes?.observe(element);
  };
  observeAll();
  const mutations = typeof MutationObserver === 'function'
    ? new MutationObserver((records) => {
      const relevant = records.some((r) => (r.type === 'attributes'
        ? r.target instanceof Element && r.target.closest('.marker-popup') !== null
        : holdsAvoided(r.addedNodes) || holdsAvoided(r.removedNodes)));
      if (!relevant) return;
      observeAll();
      schedule();
    })
    : null;
  mutations?.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['class'] });
  return () => {
    if (frame !== null) cancelAnimationFrame(frame);
    mutations?.disconnect();
    resizes?.disconnect();
    stopArea();
  };
}
