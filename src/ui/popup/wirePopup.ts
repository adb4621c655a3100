/**
 * The marker popup's part of the engine wiring: while the pointer is over the popup the map
 * does not zoom (spec §4), a pending focus request (a `?obj=` link) centres the map, and the
 * popup is placed clear of its marker (popupPlacement.ts) as the marker moves on screen (the
 * camera moved, the window was resized, another marker opened, the popup grew, the admin's
 * editor dock under it or the top bar above it grew or shrank). Returns the function that undoes it.
 */
import { subscribeKey } from 'valtio/utils';
import type { MapEngineApi } from '../../engine/types';
import { popup, setPopupPlacement, takeFocus } from '../../state/popup';
import { popupPlacement, type ViewportSize } from './popupPlacement';

/** The window the popup is placed in: its size and the admin dock's room, and word when either changes. */
export interface PopupViewport {
  size(): ViewportSize;
  onResize(listener: () => void): () => void;
}

/** The admin dock's height as AdminDock publishes it for popup.css (`--admin-dock-height`). */
const DOCK_PROPERTY = '--admin-dock-height';
/** Where the top bar ends, as TopBar publishes it for popup.css and the panels (`--topbar-bottom`). */
const TOPBAR_PROPERTY = '--topbar-bottom';

/**
 * A length the page publishes, read where popup.css reads it: the page root's inline style,
 * which its element keeps up to date with its size (a ResizeObserver). The very number the
 * popup is placed with, and read without a layout, so a pan (a placement each frame) stays cheap.
 */
function publishedLength(root: HTMLElement, property: string): number {
  const value = Number.parseFloat(root.style.getPropertyValue(property));
  return Number.isFinite(value) && value > 0 ? value : 0;
}

/** The dock's room (0 without a dock). */
export function publishedDockHeight(root: HTMLElement): number {
  return publishedLength(root, DOCK_PROPERTY);
}

/** Calls `listener` when the root's inline style changes: the dock or the top bar published a new length, or went. */
function onPublishedLengths(root: HTMLElement, listener: () => void): () => void {
  if (typeof MutationObserver === 'undefined') return () => undefined;
  const observer = new MutationObserver(listener);
  observer.observe(root, { attributes: true, attributeFilter: ['style'] });
  return () => observer.disconnect();
}

/** The page's window; without one (a test in Node) an empty one, where the popup stays at the bottom. */
const browserWindow: PopupViewport = {
  size: () =>
    typeof window === 'undefined'
      ? { width: 0, height: 0 }
      : {
        width: window.innerWidth,
        height: window.innerHeight,
        dockHeight: publishedDockHeight(document.documentElement),
        topBarBottom: publishedLength(document.documentElement, TOPBAR_PROPERTY),
      },
  onResize(listener) {
    if (typeof window === 'undefined') return () => undefined;
    window.addEventListener('resize', listener);
    const offDock = onPublishedLengths(document.documentElement, listener);
    return () => {
      window.removeEventListener('resize', listener);
      offDock();
    };
  },
};

export function wirePopup(engine: Pick<MapEngineApi, 'setZoomEnabled' | 'setView' | 'toScreen' | 'on'>, viewport: PopupViewport = browserWindow): () => void {
  const centre = () => {
    const focus = takeFocus();
    if (focus) engine.setView({ x: focus.x, y: focus.y });
  };
  const place = () => {
    const at = popup.anchor;
    const next = at ? popupPlacement(engine.toScreen(at.x, at.y), viewport.size(), popup.boxHeight) : 'bottom';
    if (popup.placement !== next) setPopupPlacement(next);
  };
  engine.setZoomEnabled(!popup.pointerOver);
  centre();
  place();
  const offs = [
    subscribeKey(popup, 'pointerOver', (over) => engine.setZoomEnabled(!over)),
    subscribeKey(popup, 'focus', (focus) => {
      if (focus) centre();
    }),
    subscribeKey(popup, 'anchor', place),
    subscribeKey(popup, 'boxHeight', place),
    engine.on('camerachange', place),
    viewport.onResize(place),
  ];
  return () => {
    offs.forEach((off) => off());
    engine.setZoomEnabled(true);
  };
}
