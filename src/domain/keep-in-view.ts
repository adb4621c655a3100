/**
 * Whether a point of the canvas is where the user can see it, and where to put it when it is
 * not (the where-am-I marker at or below the map's start zoom; beyond the spec), and how far the
 * map's edges may be panned in (the camera's clamp: `coveredInsets`, `reachInsets`). The canvas is
 * partly covered by the page (top bar, side panels, admin dock): what is left is the visible
 * part, and a point counts as in view only inside that part less a margin, so it is not hidden
 * by the edge of a panel or the fingers at the border. Screen pixels, relative to the canvas.
 */

export interface ScreenRect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface ScreenPoint {
  x: number;
  y: number;
}

/** How far in from each edge of the canvas something covers it (screen pixels). */
export interface ScreenInsets {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** The canvas's size and the rectangles of the page that cover it. */
export interface CanvasArea {
  width: number;
  height: number;
  covers: readonly ScreenRect[];
}

/** Share of the visible part's width and height kept free at each side. */
export const IN_VIEW_MARGIN = 0.15;

/**
 * A visible part narrower or lower than this share of the canvas is no place to show anything
 * (panels over most of a phone): the whole canvas is used instead.
 */
const SMALLEST_VISIBLE_SHARE = 0.2;

const width = (r: ScreenRect) => r.right - r.left;
const height = (r: ScreenRect) => r.bottom - r.top;

function intersect(a: ScreenRect, b: ScreenRect): ScreenRect | null {
  const r = { left: Math.max(a.left, b.left), top: Math.max(a.top, b.top), right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom) };
  return width(r) > 0 && height(r) > 0 ? r : null;
}

/**
 * The free rectangle less one cover: the cover is cut away from the side that loses the least
 * area (a bar across the top cuts the top, a panel down the side cuts that side).
 */
function cutAway(free: ScreenRect, cover: ScreenRect): ScreenRect {
  const hit = intersect(free, cover);
  if (!hit) return free;
  const cuts: ScreenRect[] = [
    { ...free, left: hit.right },
    { ...free, right: hit.left },
    { ...free, top: hit.bottom },
    { ...free, bottom: hit.top },
  ];
  const area = (r: ScreenRect) => Math.max(0, width(r)) * Math.max(0, height(r));
  return cuts.reduce((best, cut) => (area(cut) > area(best) ? cut : best));
}

/** The largest part of the canvas the covers leave free, cut side by side; the whole canvas when too little is left. */
export function visibleRect(area: CanvasArea): ScreenRect {
  const canvas = { left: 0, top: 0, right: area.width, bottom: area.height };
  const free = area.covers.reduce(cutAway, canvas);
  const tooSmall = width(free) < area.width * SMALLEST_VISIBLE_SHARE || height(free) < area.height * SMALLEST_VISIBLE_SHARE;
  return tooSmall ? canvas : free;
}

/**
 * How far in from each edge of the canvas its visible part starts: the camera lets the map's
 * edges be panned in that far, so what lies at the map's edge can be brought out from under the
 * top bar, a panel or the dock. All 0 when the visible part is the whole canvas (nothing covers
 * it, or the covers leave too little: the map is not to be pushed into a sliver).
 */
export function coveredInsets(area: CanvasArea): ScreenInsets {
  const free = visibleRect(area);
  return { top: free.top, right: area.width - free.right, bottom: area.height - free.bottom, left: free.left };
}

/**
 * The insets of a view that follows a point (the stream overlay follows the player): every point
 * of the map may be brought to the middle of the canvas, its corners included, so the followed
 * point stays centred where the map's edge would otherwise stop the camera (what lies beyond the
 * map's edge is shown: the overlay's background, or the stream under a transparent overlay).
 * The camera's clamp lets the map's edges come in as far as the insets: half the canvas less
 * half a pixel on each side leaves the centre free (the clamp ignores insets that cover all).
 */
export function followInsets(area: Pick<CanvasArea, 'width' | 'height'>): ScreenInsets {
  return reachInsets(area, { x: area.width / 2, y: area.height / 2 });
}

/**
 * The insets that let every point of the map be brought to `target` on the canvas, the map's
 * corners included: each edge of the map may come in as far as the target, less half a pixel,
 * so the two sides of an axis never cover all of it (the clamp ignores insets that do). A target
 * off the canvas is taken at its nearest edge; a canvas of a pixel or less, or not finite, gets none.
 * The marker popup's on a phone (ui/popup/popupPlacement.ts `popupCoveredInsets`); the stream
 * overlay's followed point (`followInsets`: the canvas's middle).
 */
export function reachInsets(area: Pick<CanvasArea, 'width' | 'height'>, target: ScreenPoint): ScreenInsets {
  const reach = (length: number, at: number): [number, number] => {
    if (!Number.isFinite(length) || length <= 1) return [0, 0];
    const point = Math.min(length - 0.5, Math.max(0.5, Number.isFinite(at) ? at : length / 2));
    return [point - 0.5, length - point - 0.5];
  };
  const [top, bottom] = reach(area.height, target.y);
  const [left, right] = reach(area.width, target.x);
  return { top, right, bottom, left };
}

/** The rectangle shrunk by `share` of its width and height at each side. */
function inset(rect: ScreenRect, share: number): ScreenRect {
  const dx = width(rect) * share;
  const dy = height(rect) * share;
  return { left: rect.left + dx, top: rect.top + dy, right: rect.right - dx, bottom: rect.bottom - dy };
}

/** Whether the point is inside the visible part of the canvas, less the margin. */
export function isInView(point: ScreenPoint, area: CanvasArea, margin = IN_VIEW_MARGIN): boolean {
  const safe = inset(visibleRect(area), margin);
  return point.x >= safe.left && point.x <= safe.right && point.y >= safe.top && point.y <= safe.bottom;
}

/**
 * Where on the canvas the point should go: null when it is in view already (nothing moves: the
 * user's own pan and zoom are kept), else the centre of the visible part, so it shows with
 * room around it on every side.
 */
export function placeInView(point: ScreenPoint, area: CanvasArea, margin = IN_VIEW_MARGIN): ScreenPoint | null {
  if (isInView(point, area, margin)) return null;
  const free = visibleRect(area);
  return { x: (free.left + free.right) / 2, y: (free.top + free.bottom) / 2 };
}

/**
 * Room kept around a marker's point for its icon (28 px, centred on the point) so that it shows
 * whole: a point closer than this to a cover's edge is half under it.
 */
export const MARKER_ROOM = 16;

/** Whether the point shows whole in the visible part: its marker's icon clear of every cover. */
export function showsWhole(point: ScreenPoint, area: CanvasArea, room = MARKER_ROOM): boolean {
  const free = visibleRect(area);
  return point.x >= free.left + room && point.x <= free.right - room && point.y >= free.top + room && point.y <= free.bottom - room;
}

/** Whether the point is anywhere in the visible part (its icon may be cut by a cover's edge). */
export function inVisiblePart(point: ScreenPoint, area: CanvasArea): boolean {
  const free = visibleRect(area);
  return point.x >= free.left && point.x <= free.right && point.y >= free.top && point.y <= free.bottom;
}

/** A framed point the camera's clamp stopped short, and what brings it into view. */
export interface ReachIntoView {
  /** Where on the canvas it goes: the nearest point of the visible part less the margin. */
  to: ScreenPoint;
  /** The clamp's insets let in as far again as the point has to move: the map's edge comes that much further in. */
  insets: ScreenInsets;
}

/**
 * For a point the page framed for the visitor (a link's marker or position, Where am I), which
 * the camera's clamp stopped short of the visible part (it lies at the map's edge: the clamp lets
 * that edge come in only as far as the covers, `insets`): where it goes, and the insets that let
 * the map's edge come in far enough for it to get there. Null when it is in view already. The
 * move is the least that brings it inside the visible part less the margin, as `isInView` counts
 * it: past a panel's edge by a sixth or so of the visible part, not to its middle (which would
 * bare half of it).
 */
export function reachIntoView(at: ScreenPoint, area: CanvasArea, insets: ScreenInsets, margin = IN_VIEW_MARGIN): ReachIntoView | null {
  if (!Number.isFinite(at.x) || !Number.isFinite(at.y) || isInView(at, area, margin)) return null;
  const safe = inset(visibleRect(area), margin);
  const to = { x: Math.min(safe.right, Math.max(safe.left, at.x)), y: Math.min(safe.bottom, Math.max(safe.top, at.y)) };
  return {
    to,
    insets: {
      top: insets.top + Math.max(0, to.y - at.y),
      right: insets.right + Math.max(0, at.x - to.x),
      bottom: insets.bottom + Math.max(0, at.y - to.y),
      left: insets.left + Math.max(0, to.x - at.x),
    },
  };
}

/**
 * A reach let in for a framed point (`reachIntoView`), taken back as the map's edges go out
 * again: each side no further in than the map's edge is now (`edges`: how far each edge of the
 * map is in from the canvas's edge, with half a pixel to spare) and never less than the covers
 * give (`covered`). So the user's pan back out is never undone and nothing jumps: the map is not
 * pulled back, it is only kept from going further in. Null once it is back to the covers'.
 */
export function relaxReach(held: ScreenInsets, covered: ScreenInsets, edges: ScreenInsets): ScreenInsets | null {
  const side = (key: keyof ScreenInsets) => {
    const edge = Number.isFinite(edges[key]) ? edges[key] + 0.5 : held[key];
    return Math.max(covered[key], Math.min(held[key], edge));
  };
  const next = { top: side('top'), right: side('right'), bottom: side('bottom'), left: side('left') };
  const beyond = next.top > covered.top || next.right > covered.right || next.bottom > covered.bottom || next.left > covered.left;
  return beyond ? next : null;
}
