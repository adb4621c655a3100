/**
 * Where the marker popup (normal size, view or edit mode) goes so that it does not cover the
 * marker it describes: at the bottom centre as ever, else at the top, else at the side away from
 * the marker (a phone held landscape has no room above or below a centred marker; a desktop's
 * edit form is as tall as the map). Where no place leaves the marker free (a short window, a
 * phone with the editor tools open), the one that hides the least of it. The boxes mirror
 * popup.css, the top bar and the admin's editor dock included: every placement sits below the
 * bar and above the dock, and grows into neither. The edit form (`kind` 'edit') is placed at the
 * tallest it may grow to, whatever it measures, so that it stays put while the admin types.
 */
import { reachInsets, type ScreenInsets, type ScreenPoint, type ScreenRect as Box } from '../../domain/keep-in-view';
import type { PopupPlacement } from '../../state/popup';

export type { PopupPlacement, ScreenPoint };

/** What the popup shows: its view, or the admin's edit form (taller, popup.css `.marker-popup--edit`). */
export type PopupKind = 'view' | 'edit';

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

/** popup.css `.marker-popup--edit .popup`: the edit form's share of the window and its cap. */
const EDIT_SHARE = 0.8;
const EDIT_MAX = 760;
/**
 * popup.css, narrower than `SIDE_MIN_WINDOW` (no side to go to): the edit form, a sheet across
 * the map, takes at most this share of the map between the top bar and the dock, so the rest is
 * left for its marker (the map moves the marker there: `uncoverPoint`).
 */
const EDIT_SHEET_SHARE = 0.6;

/**
 * popup.css max-height: the bottom popup stops an edge's margin below where the top one starts.
 * The view's `.marker-popup .popup`; the edit form's `.marker-popup--edit .popup`, and without
 * room at the sides its narrow window's sheet, which leaves the map above it free.
 */
export function maxPopupHeight(viewport: ViewportSize, kind: PopupKind = 'view'): number {
  const band = viewport.height - topOffset(viewport) + BELOW_TOPBAR - dockHeight(viewport);
  const whole = viewport.height - topOffset(viewport) - 2 * EDGE - dockHeight(viewport);
  if (kind === 'view') return Math.min(viewport.height * 0.46, 520, whole);
  const edit = Math.min(viewport.height * EDIT_SHARE, EDIT_MAX, whole);
  return hasSides(viewport) ? edit : Math.min(edit, band * EDIT_SHEET_SHARE);
}

function dockHeight(viewport: ViewportSize): number {
  return Math.max(0, viewport.dockHeight ?? 0);
}

/** Where the top and side placements start: below the top bar, however many rows it wraps to. */
function topOffset(viewport: ViewportSize): number {
  const bar = viewport.topBarBottom;
  return (bar !== undefined && Number.isFinite(bar) && bar > 0 ? bar : DEFAULT_TOPBAR_BOTTOM) + BELOW_TOPBAR;
}

function sideWidth(viewport: ViewportSize): number {
  return Math.min(POPUP_WIDTH, viewport.width / 2 - SIDE_GAP);
}

/** Wide enough for a side placement (popup.css: 616 px and wider, `SIDE_MIN_WINDOW`). */
function hasSides(viewport: ViewportSize): boolean {
  return sideWidth(viewport) >= MIN_SIDE_WIDTH;
}

/** popup.css's media query for the edit form's sheet: narrower than this, no side placement. */
export const SIDE_MIN_WINDOW = 2 * (MIN_SIDE_WIDTH + SIDE_GAP);

/**
 * The room a placement may fill (popup.css): a side's whole column between the top bar and the
 * dock, the top's or the bottom's box of the popup's height (the edit form's: the tallest it may
 * grow to). Null for a side too narrow to use.
 */
export function placementBox(placement: PopupPlacement, viewport: ViewportSize, height: number, kind: PopupKind = 'view'): Box | null {
  const { width: vw, height: vh } = viewport;
  const top = topOffset(viewport);
  const bottom = vh - EDGE - dockHeight(viewport);
  if (placement === 'left' || placement === 'right') {
    if (!hasSides(viewport)) return null;
    const width = sideWidth(viewport);
    const left = placement === 'left' ? EDGE : vw - EDGE - width;
    return { left, right: left + width, top, bottom };
  }
  const width = Math.min(POPUP_WIDTH, vw - 2 * EDGE);
  // The edit form is counted at the tallest it may grow to, whatever `height` says (`countedHeight`).
  const h = kind === 'edit' ? maxPopupHeight(viewport, kind) : Math.min(height, maxPopupHeight(viewport, kind));
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
 * The height a placement counts: the popup's as shown, or the largest it may grow to before it is
 * measured (0) and always for the edit form (it grows as the admin types; it must not move then).
 */
function countedHeight(viewport: ViewportSize, popupHeight: number, kind: PopupKind): number {
  return popupHeight > 0 && kind === 'view' ? popupHeight : maxPopupHeight(viewport, kind);
}

/**
 * The first place whose box leaves `marker` (its screen point) free. `popupHeight` is the
 * popup's height as shown (0 before it is measured: the largest it may grow is used then; the
 * edit form's is never used, see `countedHeight`).
 */
export function popupPlacement(marker: ScreenPoint, viewport: ViewportSize, popupHeight: number, kind: PopupKind = 'view'): PopupPlacement {
  if (viewport.width <= 0 || viewport.height <= 0) return 'bottom';
  const height = countedHeight(viewport, popupHeight, kind);
  const away: PopupPlacement[] = marker.x < viewport.width / 2 ? ['right', 'left'] : ['left', 'right'];
  const order: PopupPlacement[] = ['bottom', 'top', ...away];
  let best: { placement: PopupPlacement; covered: number } = { placement: 'bottom', covered: Infinity };
  for (const placement of order) {
    const box = placementBox(placement, viewport, height, kind);
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
function freeAreas(viewport: ViewportSize, height: number, kind: PopupKind): Box[] {
  const top = topOffset(viewport) - BELOW_TOPBAR;
  const bottom = viewport.height - dockHeight(viewport);
  const whole: Box = { left: 0, right: viewport.width, top, bottom };
  // The bottom popup at its height as shown: an edit form may be taller than a view popup's limit.
  const areas: Box[] = [{ ...whole, bottom: bottom - EDGE - height }];
  const topBox = placementBox('top', viewport, height, kind);
  if (topBox) areas.push({ ...whole, top: topBox.bottom });
  const leftBox = placementBox('left', viewport, height, kind);
  if (leftBox) areas.push({ ...whole, left: leftBox.right });
  const rightBox = placementBox('right', viewport, height, kind);
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
export function focusPoint(viewport: ViewportSize, popupHeight: number, enlarged = false, kind: PopupKind = 'view'): ScreenPoint | null {
  if (!(viewport.width > 0) || !(viewport.height > 0)) return null;
  if (!enlarged) {
    const height = countedHeight(viewport, popupHeight, kind);
    const free = freeAreas(viewport, height, kind).find(roomy);
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
export function popupCoveredInsets(viewport: ViewportSize, popupHeight: number, enlarged = false, kind: PopupKind = 'view'): ScreenInsets | null {
  if (!(viewport.width > 0) || !(viewport.height > 0)) return null;
  if (hasSides(viewport)) return null;
  const target = focusPoint(viewport, popupHeight, enlarged, kind);
  return target ? reachInsets(viewport, target) : null;
}

/**
 * Where the map should move an open edit form's marker (at `marker` on screen) so that the form
 * leaves it free: null where the form's placement (`popupPlacement`) leaves it free already, or
 * where no place would (an enlarged form, a window too small: moving the map would not help).
 * Else `focusPoint`: on a phone, the middle of the map above the form's sheet.
 */
export function uncoverPoint(marker: ScreenPoint, viewport: ViewportSize, kind: PopupKind = 'edit', enlarged = false): ScreenPoint | null {
  if (enlarged || !(viewport.width > 0) || !(viewport.height > 0)) return null;
  const height = countedHeight(viewport, 0, kind);
  const hidden = (point: ScreenPoint) => {
    const box = placementBox(popupPlacement(point, viewport, 0, kind), viewport, height, kind);
    return box !== null && coveredArea(box, point) > 0;
  };
  if (!hidden(marker)) return null;
  const target = focusPoint(viewport, 0, false, kind);
  return target && !hidden(target) ? target : null;
}
