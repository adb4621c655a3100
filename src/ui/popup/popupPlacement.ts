/**
 * Where the marker popup (view mode, normal size) goes so that it does not cover the marker it
 * describes: at the bottom centre as ever, else at the top, else at the side away from the
 * marker (a phone held landscape has no room above or below a centred marker). Where no place
 * leaves the marker free (a short window, a phone with the editor tools open), the one that
 * hides the least of it. The boxes mirror popup.css, the top bar and the admin's editor dock
 * included: every placement sits below the bar and above the dock, and grows into neither.
 */
import { reachInsets, type ScreenInsets, type ScreenPoint, type ScreenRect as Box } from '../../domain/keep-in-view';
import type { PopupPlacement } from '../../state/popup';

export type { PopupPlacement, ScreenPoint };

export interface ViewportSize {
  width: number;
  height: number;
  /** What the admin's editor dock takes at the bottom (popup.css `--admin-dock-height`); 0 without it. */
  dockHeight?: number;
  /** Where the top bar ends (popup.css `--topbar-bottom`, as TopBar publishes it); the default bar's without it. */
  topBarBottom?: number;
}

/** popup.css: the margin at the screen's edges. */
const EDGE = 16;
/** popup.css: `--topbar-bottom` where it is not published, and the gap below the bar. */
const DEFAULT_TOPBAR_BOTTOM = 54;
const BELOW_TOPBAR = 10;
const POPUP_WIDTH = 420;
/** popup.css: a side popup leaves this much of its half of the screen free (the marker sits near the middle). */
const SIDE_GAP = 48;
/** Narrower than this, a side popup is no use. */
const MIN_SIDE_WIDTH = 260;
/** Around the marker's point: its icon and a little air. */
const MARKER_CLEARANCE = 20;

/** popup.css `.marker-popup .popup` max-height: the bottom popup stops an edge's margin below where the top one starts. */
function maxPopupHeight(viewport: ViewportSize): number {
  return Math.min(viewport.height * 0.46, 520, viewport.height - topOffset(viewport) - 2 * EDGE - dockHeight(viewport));
}

function dockHeight(viewport: ViewportSize): number {
  return Math.max(0, viewport.dockHeight ?? 0);
}

/** Where the top and side placements start: below the top bar, however many rows it wraps to. */
function topOffset(viewport: ViewportSize): number {
  const bar = viewport.topBarBottom;
  return (bar !== undefined && Number.isFinite(bar) && bar > 0 ? bar : DEFAULT_TOPBAR_BOTTOM) + BELOW_TOPBAR;
}

/**
 * The room a placement may fill (popup.css): a side's whole column between the top bar and the
 * dock, the top's or the bottom's box of the popup's height. Null for a side too narrow to use.
 */
export function placementBox(placement: PopupPlacement, viewport: ViewportSize, height: number): Box | null {
  const { width: vw, height: vh } = viewport;
  const top = topOffset(viewport);
  const bottom = vh - EDGE - dockHeight(viewport);
  if (placement === 'left' || placement === 'right') {
    const width = Math.min(POPUP_WIDTH, vw / 2 - SIDE_GAP);
    if (width < MIN_SIDE_WIDTH) return null;
    const left = placement === 'left' ? EDGE : vw - EDGE - width;
    return { left, right: left + width, top, bottom };
  }
  const width = Math.min(POPUP_WIDTH, vw - 2 * EDGE);
  const h = Math.min(height, maxPopupHeight(viewport));
  const boxTop = placement === 'top' ? top : bottom - h;
  return { left: (vw - width) / 2, right: (vw + width) / 2, top: boxTop, bottom: boxTop + h };
}

/** How much of the marker's icon (its point and the clearance around it) `box` hides, in square pixels. */
function coveredArea(box: Box, point: ScreenPoint): number {
  const c = MARKER_CLEARANCE;
  const width = Math.min(point.x + c, box.right) - Math.max(point.x - c, box.left);
  const height = Math.min(point.y + c, box.bottom) - Math.max(point.y - c, box.top);
  return width > 0 && height > 0 ? width * height : 0;
}

/**
 * The first place whose box leaves `marker` (its screen point) free. `popupHeight` is the
 * popup's height as shown (0 before it is measured: the largest it may grow is used then).
 */
export function popupPlacement(marker: ScreenPoint, viewport: ViewportSize, popupHeight: number): PopupPlacement {
  if (viewport.width <= 0 || viewport.height <= 0) return 'bottom';
  const height = popupHeight > 0 ? popupHeight : maxPopupHeight(viewport);
  const away: PopupPlacement[] = marker.x < viewport.width / 2 ? ['right', 'left'] : ['left', 'right'];
  const order: PopupPlacement[] = ['bottom', 'top', ...away];
  let best: { placement: PopupPlacement; covered: number } = { placement: 'bottom', covered: Infinity };
  for (const placement of order) {
    const box = placementBox(placement, viewport, height);
    if (!box) continue;
    const covered = coveredArea(box, marker);
    if (covered === 0) return placement;
    // Short of room (a phone with the editor tools open): the place that hides the least of it.
    if (covered < best.covered) best = { placement, covered };
  }
  return best.placement;
}

/** What a marker opened by a link or Find a marker needs free around its point: its icon and a little air. */
const FOCUS_ROOM = 2 * MARKER_CLEARANCE;

/**
 * The parts of the map the popup leaves free, in the order `popupPlacement` tries its places:
 * above a bottom popup, below a top one, beside one at a side. Each runs from the top bar down
 * to the admin's editor dock (the map's visible part), less the popup's box.
 */
function freeAreas(viewport: ViewportSize, height: number): Box[] {
  const top = topOffset(viewport) - BELOW_TOPBAR;
  const bottom = viewport.height - dockHeight(viewport);
  const whole: Box = { left: 0, right: viewport.width, top, bottom };
  // The bottom popup at its height as shown: an edit form may be taller than a view popup's limit.
  const areas: Box[] = [{ ...whole, bottom: bottom - EDGE - height }];
  const topBox = placementBox('top', viewport, height);
  if (topBox) areas.push({ ...whole, top: topBox.bottom });
  const leftBox = placementBox('left', viewport, height);
  if (leftBox) areas.push({ ...whole, left: leftBox.right });
  const rightBox = placementBox('right', viewport, height);
  if (rightBox) areas.push({ ...whole, right: rightBox.left });
  return areas;
}

const middle = (box: Box): ScreenPoint => ({ x: (box.left + box.right) / 2, y: (box.top + box.bottom) / 2 });
const roomy = (box: Box): boolean => box.right - box.left >= FOCUS_ROOM && box.bottom - box.top >= FOCUS_ROOM;

/**
 * Where on the screen a marker opened by a `?obj=` link or Find a marker should sit (the map is
 * moved to put it there): in the middle of the visible part of the map that its popup leaves free.
 * On a phone, that is the band between the top bar and the top of the bottom sheet; the same with
 * a desktop's bottom popup. `popupHeight` is the popup's height as shown (0 before it is measured:
 * the largest it may grow, so the marker is clear of it whatever it holds). Where the bottom
 * leaves no room (a short window), the first place that does, as `popupPlacement` would choose it.
 * An enlarged popup covers the map whatever the marker's place, and a popup that leaves no room
 * anywhere: the middle of the part between the top bar and the dock. Null without a window size
 * (the map is then centred on the marker as before).
 */
export function focusPoint(viewport: ViewportSize, popupHeight: number, enlarged = false): ScreenPoint | null {
  if (!(viewport.width > 0) || !(viewport.height > 0)) return null;
  if (!enlarged) {
    const height = popupHeight > 0 ? popupHeight : maxPopupHeight(viewport);
    const free = freeAreas(viewport, height).find(roomy);
    if (free) return middle(free);
  }
  const top = topOffset(viewport) - BELOW_TOPBAR;
  const bottom = viewport.height - dockHeight(viewport);
  return bottom - top >= FOCUS_ROOM
    ? middle({ left: 0, right: viewport.width, top, bottom })
    : { x: viewport.width / 2, y: viewport.height / 2 };
}

/**
 * How far the open popup lets the map's edges be panned in (the camera's clamp; the page's
 * covers count as well): on a phone, where the popup is a sheet across the map with no room
 * beside a marker, its room counts as covered, and as far again as it takes to bring any point
 * of the map, the map's edges and corners included, to `focusPoint`, so a marker at the map's
 * edge opened by a link or Find a marker lands there, clear of the top bar and the sheet, and the
 * user can drag one out from under the sheet. Null (no more than the page's covers) where the
 * popup can sit beside its marker (a desktop, a tablet, a phone held landscape): there it moves
 * aside instead, and the map keeps its usual clamp. Null without a window size.
 */
export function popupCoveredInsets(viewport: ViewportSize, popupHeight: number, enlarged = false): ScreenInsets | null {
  if (!(viewport.width > 0) || !(viewport.height > 0)) return null;
  const height = popupHeight > 0 ? popupHeight : maxPopupHeight(viewport);
  if (placementBox('left', viewport, height) || placementBox('right', viewport, height)) return null;
  const target = focusPoint(viewport, popupHeight, enlarged);
  return target ? reachInsets(viewport, target) : null;
}
