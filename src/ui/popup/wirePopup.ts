/**
 * The marker popup's part of the engine wiring: while the pointer is over the popup the map
 * does not zoom (spec §4), a pending focus request (a `?obj=` link, Find a marker) moves the map
 * so that the marker shows in the middle of what its popup leaves free (popupPlacement.ts
 * `focusPoint`: on a phone, between the top bar and the bottom sheet), again as the popup's
 * height becomes known (see `FOCUS_SETTLE_MS`), and the popup is placed clear of its marker
 * (popupPlacement.ts) as the marker moves on screen (the camera moved, the window was resized,
 * another marker opened, the popup grew, the admin's editor dock under it or the top bar above
 * it grew or shrank). The edit form is placed the same way, at the tallest it may grow to (it
 * stays put while the admin types), when it opens and as its marker moves on screen; where no
 * place leaves its marker free (a phone, where it is a sheet across the map), the map moves the
 * marker into the part the form leaves free (popupPlacement.ts `uncoverPoint`) when the form
 * opens and when its marker changes (`UNCOVER_DELAY_MS` later), never as the user pans. On a
 * phone the open popup's room counts as covered (popupPlacement.ts `popupCoveredInsets`, the
 * edit form's as well): the map's edge may be panned out far enough for the marker to land at
 * the focus point; the page's own covers come from ui/map/wireCoveredInsets.ts, and the camera
 * takes the two together. Returns the function that undoes it.
 */
import { subscribeKey } from 'valtio/utils';
import type { CameraView, MapEngineApi, ViewportInsets } from '../../engine/types';
import { popup, setPopupPlacement, takeFocus } from '../../state/popup';
import { focusPoint, popupCoveredInsets, popupPlacement, uncoverPoint, type PopupKind, type ScreenPoint, type ViewportSize } from './popupPlacement';

/**
 * How long after the focused marker's popup shows its height may still change and move the map
 * with it (ms): it is measured as it renders, and grows once its image has loaded. Until then
 * the map is moved with the height known (the last popup's) or, with none, the largest it may
 * grow to. A pan or zoom by the user, another marker, a closed popup or Enlarge ends it at once.
 */
export const FOCUS_SETTLE_MS = 1500;

/**
 * How long the page's layout must stay still before the wiring decides whether an edit form that
 * opened (or whose marker changed) covers its marker (ms): the admin dock folds away under a
 * phone's form (admin.css) and publishes its new height a frame or two later; decided at once,
 * the map would move for a dock that is gone. Each change of the window, the dock or the bar
 * meanwhile starts the wait again.
 */
export const UNCOVER_DELAY_MS = 120;

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

type MapPoint = { x: number; y: number };

const samePoint = (a: MapPoint | null, b: MapPoint) => a !== null && a.x === b.x && a.y === b.y;

/** The camera is where the wiring left it (within half a screen pixel): the user has not moved the map since. */
function sameView(a: CameraView, b: CameraView): boolean {
  return a.zoom === b.zoom && Math.abs(a.x - b.x) * a.zoom < 0.5 && Math.abs(a.y - b.y) * a.zoom < 0.5;
}

/** A served focus request whose popup may still change height: the map follows until `until`. */
interface Settling {
  point: MapPoint;
  /** The view the wiring set last: any other means the user moved the map. */
  view: CameraView;
  /** Clock time the follow ends; Infinity until the marker's popup shows. */
  until: number;
}

const UNCOVERED: ViewportInsets = { top: 0, right: 0, bottom: 0, left: 0 };

const sameInsets = (a: ViewportInsets, b: ViewportInsets) => a.top === b.top && a.right === b.right && a.bottom === b.bottom && a.left === b.left;

/** What the open popup shows: the edit form (state/popup.ts edit mode, of the open marker) or the view. */
const popupKind = (): PopupKind => (popup.mode === 'edit' && popup.snapshot !== null && popup.snapshot.uid === popup.uid ? 'edit' : 'view');

export function wirePopup(
  engine: Pick<MapEngineApi, 'setZoomEnabled' | 'setView' | 'camera' | 'toScreen' | 'toMap' | 'on' | 'setCoveredInsets'>,
  viewport: PopupViewport = browserWindow,
  now: () => number = () => performance.now(),
): () => void {
  let settling: Settling | null = null;
  let covered: ViewportInsets = UNCOVERED;

  /**
   * The popup's room as the camera counts it: while a popup shows (its marker's point is known)
   * or a focus request waits for its popup, on a phone; nothing once it closed (the camera then
   * pulls the map back inside the page's covers). Set before the map is moved, so the move is
   * clamped with the room it needs.
   */
  const cover = () => {
    const open = popup.anchor !== null || settling !== null;
    const next = (open && popupCoveredInsets(viewport.size(), popup.boxHeight, popup.enlarged, popupKind())) || UNCOVERED;
    if (sameInsets(next, covered)) return;
    covered = next;
    engine.setCoveredInsets?.(next, 'popup');
  };

  /**
   * Moves the camera (zoom kept) so that the map point lies at `target` on screen: screen and
   * map are linear in the camera, so the camera moves by the point's offset from the target.
   */
  const moveTo = (point: MapPoint, target: ScreenPoint | null) => {
    if (!target) {
      engine.setView({ x: point.x, y: point.y });
      return;
    }
    const at = engine.toScreen(point.x, point.y);
    const view = engine.camera();
    const middle = engine.toScreen(view.x, view.y);
    const next = engine.toMap(middle.x + at.x - target.x, middle.y + at.y - target.y);
    engine.setView({ x: next.x, y: next.y });
  };
  const show = (point: MapPoint) => {
    moveTo(point, focusPoint(viewport.size(), popup.boxHeight, popup.enlarged, popupKind()));
    return engine.camera();
  };
  const centre = () => {
    const focus = takeFocus();
    if (!focus) return;
    const s: Settling = { point: focus, view: engine.camera(), until: samePoint(popup.anchor, focus) ? now() + FOCUS_SETTLE_MS : Infinity };
    settling = s;
    cover();
    s.view = show(focus);
  };
  /** The focused marker's popup has a new height: the map moves with it while it settles. */
  const follow = () => {
    const s = settling;
    if (!s || !samePoint(popup.anchor, s.point)) return;
    if (now() > s.until) {
      settling = null;
      return;
    }
    s.view = show(s.point);
  };
  const anchorMoved = () => {
    const s = settling;
    if (!s) return;
    if (!samePoint(popup.anchor, s.point)) settling = null;
    else if (s.until === Infinity) {
      s.until = now() + FOCUS_SETTLE_MS;
      // The height the popup was measured at may already be in (published before its marker's point).
      follow();
    }
  };
  const cameraMoved = () => {
    if (!settling || sameView(engine.camera(), settling.view)) return;
    settling = null;
    cover();
  };
  const place = () => {
    const at = popup.anchor;
    const next = at ? popupPlacement(engine.toScreen(at.x, at.y), viewport.size(), popup.boxHeight, popupKind()) : 'bottom';
    if (popup.placement !== next) setPopupPlacement(next);
  };
  /**
   * The edit form opened, or its marker changed (another marker placed, a move): where the form
   * covers the marker wherever it goes (a phone's sheet), the map moves it into the free part.
   * Not while a focus request is being served (that move counts the form already), and not for
   * the same marker at the same point again: a pan by the user is never undone.
   */
  let uncovered: { uid: string; x: number; y: number } | null = null;
  let uncoverTimer: ReturnType<typeof setTimeout> | null = null;
  const uncoverLater = () => {
    if (uncoverTimer !== null) clearTimeout(uncoverTimer);
    uncoverTimer = setTimeout(() => {
      uncoverTimer = null;
      uncover();
    }, UNCOVER_DELAY_MS);
  };
  const uncover = () => {
    const at = popup.anchor;
    const uid = popup.uid;
    if (popupKind() !== 'edit' || !at || !uid) {
      if (popupKind() !== 'edit') uncovered = null;
      return;
    }
    if (uncovered && uncovered.uid === uid && uncovered.x === at.x && uncovered.y === at.y) return;
    uncovered = { uid, x: at.x, y: at.y };
    if (settling && samePoint(at, settling.point)) return;
    const target = uncoverPoint(engine.toScreen(at.x, at.y), viewport.size(), 'edit', popup.enlarged);
    if (!target) return;
    moveTo(at, target);
  };
  /** The popup's mode changed: its room, its place and, for the edit form, its marker's place. */
  const modeChanged = () => {
    cover();
    uncoverLater();
    place();
  };
  engine.setZoomEnabled(!popup.pointerOver);
  cover();
  centre();
  uncoverLater();
  place();
  const offs = [
    subscribeKey(popup, 'pointerOver', (over) => engine.setZoomEnabled(!over)),
    subscribeKey(popup, 'focus', (focus) => {
      if (focus) centre();
    }),
    subscribeKey(popup, 'anchor', () => {
      anchorMoved();
      cover();
      uncoverLater();
      place();
    }),
    subscribeKey(popup, 'mode', modeChanged),
    subscribeKey(popup, 'snapshot', modeChanged),
    subscribeKey(popup, 'boxHeight', () => {
      cover();
      follow();
      place();
    }),
    subscribeKey(popup, 'enlarged', () => {
      settling = null;
      cover();
    }),
    engine.on('camerachange', () => {
      cameraMoved();
      place();
    }),
    viewport.onResize(() => {
      cover();
      place();
      if (uncoverTimer !== null) uncoverLater();
    }),
  ];
  return () => {
    offs.forEach((off) => off());
    if (uncoverTimer !== null) clearTimeout(uncoverTimer);
    engine.setZoomEnabled(true);
    if (covered !== UNCOVERED) engine.setCoveredInsets?.(UNCOVERED, 'popup');
  };
}
