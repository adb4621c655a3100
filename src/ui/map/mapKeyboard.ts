/**
 * The map from the keyboard (docs/DECISIONS.md "The map from the keyboard"). The map's canvas is
 * a Tab stop; while it has the focus:
 *
 *   Arrow keys      move the map (Shift: further)
 *   + / −           zoom in / out about the cross-hair (what is under it stays under it)
 *   Enter, Space    press at the keyboard cursor, a cross-hair in the middle of the map's visible
 *                   part (what the top bar, the panels and the admin dock leave free): a click
 *                   there (open the marker under it; an admin's marker tool places one, the
 *                   poly tool adds a point, …). Only while the cross-hair shows: a click on the
 *                   map focuses the canvas too, and Enter then keeps its meaning
 *
 * With a tool that drags (an admin's line, arrow, rectangle, circle, pen; move; edit), Enter
 * holds the press instead: the arrow keys then move the cursor, not the map (Shift: a pixel at a
 * time, and the tools' slow move), and Enter again lets go. Enter twice without moving is a
 * click (selects a shape, opens a marker). Escape lets go of a held press without finishing it
 * (the state tree's Escape then resets the tool, as ever). A drag let go with Enter leaves the
 * cross-hair where it let go (on the marker just moved: Enter opens it, Enter again moves it);
 * one let go otherwise (Escape, the focus gone) puts it back in the middle.
 *
 * The cross-hair is the keyboard's pointer: while it shows, a hover move (no button) is sent at it
 * whenever it or the map under it moves (shown, a pan, a zoom, back home), so the editor's pointer
 * position (the status bar's coordinates, where Ctrl+V pastes) is the cross-hair's spot, not
 * where a drag or a mouse last left it.
 *
 * A click from the keyboard pins the cross-hair to the map point it pressed: when something else
 * moves the map (the popup it opened makes room for itself, a link's framing), the cross-hair
 * moves with it and stays on the marker it opened, also when the focus comes back from the popup,
 * so Enter after Escape opens it again. A map key of its own, a mouse, a zoom, or the point leaving
 * the visible part ends the pin.
 *
 * The presses are pointer events sent to the canvas (engine/input.ts reads them as a mouse's),
 * so every tool behaves as it does under a mouse: nothing here knows a tool's rules beyond which
 * ones drag. Pure rules first (`mapKeyAction`, `pressStyle`), then the DOM wiring.
 */

import { inVisiblePart, visibleRect, type CanvasArea } from '../../domain/keep-in-view';
import { measureCanvasArea } from './canvasArea';

/** What a key does on the focused map. */
export type MapKeyAction =
  | { kind: 'pan'; dx: number; dy: number }
  | { kind: 'zoom'; factor: number }
  | { kind: 'press' }
  | { kind: 'moveCursor'; dx: number; dy: number }
  | { kind: 'release' };

/** Screen pixels a map pan moves per arrow key (Shift: PAN_FAR_PX). */
export const PAN_PX = 100;
export const PAN_FAR_PX = 400;
/** Screen pixels the keyboard cursor moves per arrow key while a press is held (Shift: 1). */
export const CURSOR_PX = 10;
/** The zoom's factor per + or − (a wheel notch's worth, twice). */
export const KEY_ZOOM_FACTOR = 1.5;

const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

export interface MapKeyPress {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

/**
 * The action of a key on the focused map, or null (the key is someone else's: a letter for the
 * state tree, Ctrl+Z, Tab). `held`: a press is held (a drag from the keyboard).
 */
export function mapKeyAction(press: MapKeyPress, held: boolean): MapKeyAction | null {
  if (press.ctrlKey || press.metaKey || press.altKey) return null;
  const arrow = ARROWS[press.key];
  if (arrow) {
    if (held) {
      const step = press.shiftKey ? 1 : CURSOR_PX;
      return { kind: 'moveCursor', dx: arrow[0] * step, dy: arrow[1] * step };
    }
    const step = press.shiftKey ? PAN_FAR_PX : PAN_PX;
    return { kind: 'pan', dx: arrow[0] * step, dy: arrow[1] * step };
  }
  if (press.key === '+' || press.key === '=') return { kind: 'zoom', factor: KEY_ZOOM_FACTOR };
  if (press.key === '-' || press.key === '_') return { kind: 'zoom', factor: 1 / KEY_ZOOM_FACTOR };
  if (press.key === 'Enter' || press.key === ' ') return { kind: 'press' };
  if (press.key === 'Escape' && held) return { kind: 'release' };
  return null;
}

/**
 * How Enter presses with the tool at `toolPath` (engine's state path): a click, or held for a
 * drag (the tools whose work is a drag; their clicks still come from Enter twice).
 */
export function pressStyle(toolPath: string): 'click' | 'hold' {
  const [tool, shape] = toolPath.split('.');
  if (tool === 'move' || tool === 'edit') return 'hold';
  if (tool === 'draw') return shape === 'marker' || shape === 'text' || shape === 'poly' ? 'click' : 'hold';
  return 'click';
}

/**
 * The view after a zoom by `factor` about a screen point `dx`, `dy` CSS px from the canvas's
 * centre (the camera's x, y is the map point at that centre): the map point under it stays there.
 */
export function zoomAbout(view: { x: number; y: number; zoom: number }, factor: number, dx: number, dy: number): { x: number; y: number; zoom: number } {
  const zoom = view.zoom * factor;
  return { x: view.x + dx / view.zoom - dx / zoom, y: view.y + dy / view.zoom - dy / zoom, zoom };
}

/** The middle of the canvas's visible part, as an offset from the canvas's centre (CSS px); 0, 0 when nothing covers it. */
export function visibleMiddle(area: CanvasArea | null): { x: number; y: number } {
  if (!area) return { x: 0, y: 0 };
  const free = visibleRect(area);
  return { x: (free.left + free.right) / 2 - area.width / 2, y: (free.top + free.bottom) / 2 - area.height / 2 };
}

// ---------------------------------------------------------------------------------------------
// DOM

/** The pointer id of the keyboard's presses (not a real pointer's: a mouse's own events stay apart). */
export const KEYBOARD_POINTER_ID = 7231;

type View = { x: number; y: number; zoom: number };

export interface KeyboardMapEngine {
  camera(): View;
  setView(view: Partial<View>): void;
  toolPath(): string;
  /** Word of every move of the camera, the keyboard's own and others' (the popup's room, a link's framing). */
  on(event: 'camerachange', listener: (view: View) => void): () => void;
}

/**
 * Where the map point `pinned` is on the canvas under `view`, as an offset from the canvas's
 * centre (CSS px); null when the zoom is not the one it was pinned at (a zoom is not a pan the
 * cross-hair follows: what is under it changed).
 */
export function pinnedOffset(pinned: View, view: View): { x: number; y: number } | null {
  if (view.zoom !== pinned.zoom) return null;
  return { x: (pinned.x - view.x) * view.zoom, y: (pinned.y - view.y) * view.zoom };
}

type HeldState = { phase: 'none' } | { phase: 'armed' } | { phase: 'down' };

/**
 * Makes `host` (the map canvas's container) a Tab stop that reads the keys above, and shows the
 * keyboard cursor while it has the keyboard's focus. The pointer events go to `host`'s canvas.
 * Returns the unwiring.
 */
export function wireMapKeyboard(host: HTMLElement, engine: KeyboardMapEngine, measureArea: () => CanvasArea | null = () => measureCanvasArea(host.ownerDocument)): () => void {
  const doc = host.ownerDocument;
  host.tabIndex = 0;
  const cursor = doc.createElement('div');
  cursor.className = 'map-keyboard-cursor';
  cursor.setAttribute('aria-hidden', 'true');
  cursor.hidden = true;
  host.appendChild(cursor);

  let held: HeldState = { phase: 'none' };
  /**
   * The cross-hair shows (keyboard mode): on a keyboard's focus or a map key; a real pointer's
   * press hides it. Enter presses at it only while it shows: after a click on the map (the canvas
   * focused by the mouse) Enter keeps its meaning (the open marker's edit form, ui/map/editorKeys.ts).
   * The host says so in `data-keyboard-cursor` for those keys.
   */
  const showCursor = (shown: boolean) => {
    cursor.hidden = !shown;
    if (shown) host.dataset.keyboardCursor = 'on';
    else delete host.dataset.keyboardCursor;
  };
  /**
   * The cursor's offset from the canvas's centre (CSS px): the middle of the visible part, read
   * when the cross-hair shows or comes home (a panel shown since counts), then moved only while
   * a press is held.
   */
  let offset = { x: 0, y: 0 };
  /**
   * The map point (and the zoom) of the last click from the keyboard: the cross-hair stays on it
   * as the map moves under it by something else than the keyboard; null once a map key, a mouse
   * or a zoom moved it, or it went out of the visible part.
   */
  let pinned: View | null = null;
  /** The pinned point's offset now, where it is in the map's visible part; null (and unpinned) else. */
  const pinnedHere = (area: CanvasArea | null): { x: number; y: number } | null => {
    const at = pinned && pinnedOffset(pinned, engine.camera());
    const box = host.getBoundingClientRect();
    const shows = at !== null && (area
      ? inVisiblePart({ x: area.width / 2 + at.x, y: area.height / 2 + at.y }, area)
      : Math.abs(at.x) <= box.width / 2 && Math.abs(at.y) <= box.height / 2);
    if (!shows) pinned = null;
    return shows ? at : null;
  };
  /** The cross-hair goes home: on the pinned point where it shows, else the middle of the visible part. */
  const home = () => {
    const area = measureArea();
    offset = pinnedHere(area) ?? visibleMiddle(area);
  };
  const pin = () => {
    const view = engine.camera();
    pinned = { x: view.x + offset.x / view.zoom, y: view.y + offset.y / view.zoom, zoom: view.zoom };
  };

  const canvas = () => host.querySelector('canvas');
  const place = () => {
    const box = host.getBoundingClientRect();
    cursor.style.left = `${box.width / 2 + offset.x}px`;
    cursor.style.top = `${box.height / 2 + offset.y}px`;
    cursor.classList.toggle('map-keyboard-cursor--held', held.phase !== 'none');
  };
  const send = (type: 'pointerdown' | 'pointermove' | 'pointerup' | 'pointercancel', shiftKey = false) => {
    const target = canvas();
    if (!target) return;
    const box = target.getBoundingClientRect();
    const init: PointerEventInit = {
      bubbles: true,
      cancelable: true,
      clientX: box.left + box.width / 2 + offset.x,
      clientY: box.top + box.height / 2 + offset.y,
      button: type === 'pointermove' ? -1 : 0,
      // A move is a drag's only while the press is down; else a hover, as a mouse's with no button.
      buttons: type === 'pointerdown' || (type === 'pointermove' && held.phase === 'down') ? 1 : 0,
      pointerId: KEYBOARD_POINTER_ID,
      pointerType: 'mouse',
      isPrimary: true,
      shiftKey,
    };
    target.dispatchEvent(new PointerEvent(type, init));
  };
  /** The keyboard's pointer is at the cross-hair: a hover there (the map or the cross-hair moved). */
  const hover = () => {
    if (!cursor.hidden) send('pointermove');
  };
  /**
   * Lets go of a held press. Finished (Enter), the cross-hair stays where the drag let go: on what
   * was dragged, so Enter opens it or takes it again at once. Cancelled (Escape, blur, a real
   * pointer), what was dragged went back: so does the cross-hair, to the middle.
   */
  const letGo = (finish: boolean) => {
    const wasDown = held.phase === 'down';
    if (wasDown) send(finish ? 'pointerup' : 'pointercancel');
    held = { phase: 'none' };
    if (!(finish && wasDown)) {
      const before = offset;
      home();
      if (offset.x !== before.x || offset.y !== before.y) hover();
    }
    place();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.target !== host || event.defaultPrevented) return;
    const action = mapKeyAction(event, held.phase !== 'none');
    if (!action) return;
    if (action.kind === 'press' && cursor.hidden) return;
    if (action.kind === 'release') {
      // Not stopped: the state tree's Escape (reset to pan, close the popup) follows.
      letGo(false);
      return;
    }
    event.preventDefault();
    // A key for the map: the cursor shows, whatever put the focus there (a click, a script).
    const appearing = cursor.hidden;
    if (appearing) home();
    showCursor(true);
    place();
    if (appearing) hover();
    if (event.repeat && action.kind === 'press') return;
    // The keyboard moves the map or the cross-hair itself: the cross-hair no longer follows a point.
    if (action.kind !== 'press') pinned = null;
    const view = engine.camera();
    if (action.kind === 'pan') {
      engine.setView({ x: view.x + action.dx / view.zoom, y: view.y + action.dy / view.zoom });
      hover();
    } else if (action.kind === 'zoom') {
      engine.setView(zoomAbout(view, action.factor, offset.x, offset.y));
      hover();
    } else if (action.kind === 'moveCursor') {
      if (held.phase === 'armed') {
        send('pointerdown', event.shiftKey);
        held = { phase: 'down' };
      }
      offset = { x: offset.x + action.dx, y: offset.y + action.dy };
      send('pointermove', event.shiftKey);
      place();
    } else if (held.phase === 'down') letGo(true);
    else if (held.phase === 'armed') {
      // Enter twice without a move: a click where the cursor is.
      pin();
      send('pointerdown');
      send('pointerup');
      letGo(false);
    } else if (pressStyle(engine.toolPath()) === 'hold') {
      pinned = null;
      held = { phase: 'armed' };
      place();
    } else {
      pin();
      send('pointerdown');
      send('pointerup');
    }
  };
  const keyboardFocus = () => {
    try {
      return host.matches(':focus-visible');
    } catch {
      return true;
    }
  };
  const onFocus = () => {
    if (held.phase === 'none') home();
    showCursor(keyboardFocus());
    place();
    hover();
  };
  const onBlur = () => {
    // Hidden first: the keyboard's pointer sends no hover from a map it left.
    showCursor(false);
    letGo(false);
  };
  /**
   * The map moved under a pinned cross-hair by something else than the keyboard (the popup the
   * press opened made room for itself): the cross-hair moves with the point it pressed, so it is
   * still on that marker after the popup closes. The keyboard's own pans and zooms unpinned it first.
   */
  const onCamera = (view: View) => {
    if (!pinned || held.phase !== 'none') return;
    if (!pinnedOffset(pinned, view)) {
      pinned = null;
      return;
    }
    // Hidden (the focus is in the popup): placed when the map has the focus again (`home`).
    if (cursor.hidden) return;
    const before = offset;
    home();
    if (offset.x === before.x && offset.y === before.y) return;
    place();
    hover();
  };
  // A mouse, pen or finger on the map: its own pointer from now on, not the cross-hair.
  const onPointerDown = (event: PointerEvent) => {
    if (event.pointerId === KEYBOARD_POINTER_ID) return;
    pinned = null;
    showCursor(false);
    letGo(false);
  };
  host.addEventListener('keydown', onKeyDown);
  host.addEventListener('focus', onFocus);
  host.addEventListener('blur', onBlur);
  host.addEventListener('pointerdown', onPointerDown, { capture: true });
  const offCamera = engine.on('camerachange', onCamera);
  return () => {
    offCamera();
    host.removeEventListener('keydown', onKeyDown);
    host.removeEventListener('focus', onFocus);
    host.removeEventListener('blur', onBlur);
    host.removeEventListener('pointerdown', onPointerDown, { capture: true });
    delete host.dataset.keyboardCursor;
    cursor.remove();
  };
}
