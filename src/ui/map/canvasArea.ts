/**
 * Measures the map page as the engine cannot: the canvas's box and the page elements drawn
 * over it (top bar with its where-am-I box, side panels, admin dock), in canvas pixels. Read
 * at the moment it is needed, so panels shown or hidden, a wrapped top bar or a phone turned
 * sideways count as they are then; `watchCanvasArea` says when that may have changed.
 */
import type { CanvasArea, ScreenRect } from '../../domain/keep-in-view';

/** The map canvas's host (MapCanvas.tsx). */
const CANVAS_SELECTOR = '.map-canvas';
/** What covers the canvas (TopBar.tsx, CategoryPanel.tsx and RightPanel.tsx, AdminDock.tsx). */
const COVER_SELECTOR = '.map-topbar, .map-panel, .admin-dock';
/** The side panels (CategoryPanel.tsx, RightPanel.tsx): columns beside the map on a wide window, sheets on a phone. */
const PANEL_SELECTOR = '.map-panel';
/** What `watchCanvasArea` follows: the canvas and its covers. */
const AREA_SELECTOR = `${CANVAS_SELECTOR}, ${COVER_SELECTOR}`;

function relativeTo(box: DOMRect, origin: DOMRect): ScreenRect {
  return { left: box.left - origin.left, top: box.top - origin.top, right: box.right - origin.left, bottom: box.bottom - origin.top };
}

/**
 * A side panel narrower than half the canvas is a column beside the map: it counts down to the
 * canvas's bottom, however short its content is now. The quest panel is as tall as its list,
 * which loads after the map opens and grows as quests are followed (a `?obj=` link follows its
 * marker's quest): counted as it stood, a short panel had its top strip cut away from the visible
 * part instead of its side, and a link's target framed beside it ended under it a moment later.
 * A phone's sheets (as wide as the canvas) count as they are.
 */
function coverBox(element: Element, origin: DOMRect): ScreenRect {
  const box = relativeTo(element.getBoundingClientRect(), origin);
  const column = element.matches(PANEL_SELECTOR) && box.right - box.left < origin.width / 2;
  return column ? { ...box, bottom: Math.max(box.bottom, origin.height) } : box;
}

/** The canvas and what covers it, or null where there is no laid-out canvas (not in a page, or hidden). */
export function measureCanvasArea(root: ParentNode | null = globalThis.document ?? null): CanvasArea | null {
  const canvas = root?.querySelector(CANVAS_SELECTOR);
  if (!root || !canvas) return null;
  const origin = canvas.getBoundingClientRect();
  if (!(origin.width > 0 && origin.height > 0)) return null;
  const covers = [...root.querySelectorAll(COVER_SELECTOR)]
    .filter((element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0;
    })
    .map((element) => coverBox(element, origin));
  return { width: origin.width, height: origin.height, covers };
}

/** Whether one of the nodes is, or holds, the canvas or a cover. */
function holdsAreaElement(nodes: NodeList): boolean {
  for (const node of nodes) {
    if (node instanceof Element && (node.matches(AREA_SELECTOR) || node.querySelector(AREA_SELECTOR) !== null)) return true;
  }
  return false;
}

/**
 * Calls `onChange` after a layout in which the canvas area may have changed: the canvas or a
 * cover changed size (a panel shown or hidden, the top bar wrapped, the dock grew, the window
 * turned), or a cover came or went. Nothing is measured here: the caller measures when told.
 * Without ResizeObserver (or a page) it never calls. Returns the function that stops watching.
 */
export function watchCanvasArea(onChange: () => void, root: (ParentNode & Node) | null = globalThis.document ?? null): () => void {
  if (!root || typeof ResizeObserver !== 'function') return () => undefined;
  // A newly observed element is reported after the next layout: that is the first call.
  const resizes = new ResizeObserver(() => onChange());
  const observed = new Set<Element>();
  const observeNew = () => {
    for (const element of root.querySelectorAll(AREA_SELECTOR)) {
      if (observed.has(element)) continue;
      observed.add(element);
      resizes.observe(element);
    }
  };
  const forgetGone = () => {
    for (const element of observed) {
      if (element.isConnected) continue;
      observed.delete(element);
      resizes.unobserve(element);
    }
  };
  observeNew();
  const mutations = typeof MutationObserver === 'function'
    ? new MutationObserver((records) => {
      if (!records.some((r) => holdsAreaElement(r.addedNodes) || holdsAreaElement(r.removedNodes))) return;
      const removed = records.some((r) => holdsAreaElement(r.removedNodes));
      forgetGone();
      observeNew();
      // A cover that went is no longer observed (and reports no size): say so here.
      if (removed) onChange();
    })
    : null;
  mutations?.observe(root, { childList: true, subtree: true });
  return () => {
    mutations?.disconnect();
    resizes.disconnect();
    observed.clear();
  };
}
