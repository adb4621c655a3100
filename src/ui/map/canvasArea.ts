/**
 * Measures the map page as the engine cannot: the canvas's box and the page elements drawn
 * over it (top bar with its where-am-I box, side panels, admin dock), in canvas pixels. Read
 * at the moment it is needed, so panels shown or hidden, a wrapped top bar or a phone turned
 * sideways count as they are then.
 */
import type { CanvasArea, ScreenRect } from '../../domain/keep-in-view';

/** The map canvas's host (MapCanvas.tsx). */
const CANVAS_SELECTOR = '.map-canvas';
/** What covers the canvas (TopBar.tsx, CategoryPanel.tsx and RightPanel.tsx, AdminDock.tsx). */
const COVER_SELECTOR = '.map-topbar, .map-panel, .admin-dock';

function relativeTo(box: DOMRect, origin: DOMRect): ScreenRect {
  return { left: box.left - origin.left, top: box.top - origin.top, right: box.right - origin.left, bottom: box.bottom - origin.top };
}

/** The canvas and what covers it, or null where there is no laid-out canvas (not in a page, or hidden). */
export function measureCanvasArea(root: ParentNode | null = globalThis.document ?? null): CanvasArea | null {
  const canvas = root?.querySelector(CANVAS_SELECTOR);
  if (!root || !canvas) return null;
  const origin = canvas.getBoundingClientRect();
  if (!(origin.width > 0 && origin.height > 0)) return null;
  const covers = [...root.querySelectorAll(COVER_SELECTOR)]
    .map((element) => element.getBoundingClientRect())
    .filter((box) => box.width > 0 && box.height > 0)
    .map((box) => relativeTo(box, origin));
  return { width: origin.width, height: origin.height, covers };
}
