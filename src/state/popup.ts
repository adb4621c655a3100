/**
 * The marker popup's own state (the open marker itself is `mapView.selectedUid`): the image
 * shown, the enlarged size (remembered in localStorage `map_popup` = `xlsize`, spec §9),
 * whether the pointer is over the popup (the wiring then stops wheel zoom), and a pending
 * request to centre the map on a point (a `?obj=` link), which the wiring hands to the engine.
 */
import { proxy } from 'valtio';
import { readStored, writeStored } from './storage';

export const POPUP_STORAGE_KEY = 'map_popup';
export const POPUP_ENLARGED_VALUE = 'xlsize';

export interface PopupState {
  /** The marker whose images `imageIndex` pages through. */
  uid: string | null;
  imageIndex: number;
  enlarged: boolean;
  /** The pointer is over the popup: the map must not zoom. */
  pointerOver: boolean;
  /** Map-pixel point the map should be centred on, until the wiring has done it. */
  focus: { x: number; y: number } | null;
  /** Moves each time a marker changed on the page (`markerChanged`): the popup reads its marker again. */
  revision: number;
}

export const popup = proxy<PopupState>({
  uid: null,
  imageIndex: 0,
  enlarged: readStored(POPUP_STORAGE_KEY) === POPUP_ENLARGED_VALUE,
  pointerOver: false,
  focus: null,
  revision: 0,
});

/** Re-reads the remembered size (on map page mount, and in tests after swapping storage). */
export function loadPopupSize(): void {
  popup.enlarged = readStored(POPUP_STORAGE_KEY) === POPUP_ENLARGED_VALUE;
}

export function setEnlarged(enlarged: boolean): void {
  popup.enlarged = enlarged;
  writeStored(POPUP_STORAGE_KEY, enlarged ? POPUP_ENLARGED_VALUE : null);
}

export function toggleEnlarged(): void {
  setEnlarged(!popup.enlarged);
}

/** Shows `uid`'s popup: a different marker starts again at its first image (spec §4). */
export function showPopupFor(uid: string | null): void {
  if (popup.uid === uid) return;
  popup.uid = uid;
  popup.imageIndex = 0;
  if (uid === null) popup.pointerOver = false;
}

/** Pages through `count` images, clamped to the first and last. */
export function stepImage(direction: 1 | -1, count: number): void {
  if (count <= 0) {
    popup.imageIndex = 0;
    return;
  }
  popup.imageIndex = Math.min(count - 1, Math.max(0, popup.imageIndex + direction));
}

export function setPointerOverPopup(over: boolean): void {
  popup.pointerOver = over;
}

export function requestFocus(x: number, y: number): void {
  if (!Number.isFinite(x) || !Number.isFinite(y)) return;
  popup.focus = { x, y };
}

/** Takes the pending focus request, if any (the wiring calls this once it has centred). */
export function takeFocus(): { x: number; y: number } | null {
  const focus = popup.focus;
  popup.focus = null;
  return focus ? { x: focus.x, y: focus.y } : null;
}

/**
 * A marker changed on the page (a save, an upload, an undo, a live change from another admin):
 * the open popup reads its marker from the worker again. Without a uid, or with the open one's,
 * the popup re-reads; a change to another marker is ignored.
 */
export function markerChanged(uid?: string): void {
  if (uid !== undefined && popup.uid !== null && uid !== popup.uid) return;
  popup.revision += 1;
}

export function resetPopup(): void {
  popup.uid = null;
  popup.imageIndex = 0;
  popup.pointerOver = false;
  popup.focus = null;
}
