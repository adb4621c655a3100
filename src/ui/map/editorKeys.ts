/**
 * The admin's keys for the open marker (docs/EDITOR.md "Keys"), beside the state tree's keys
 * (engine/interaction/root-state.ts: Escape, m, l, e, 1…8, Ctrl+Z / Ctrl+Y):
 *
 *   Enter              the open marker's edit form (its popup in view mode)
 *   Delete, Backspace  delete the open marker, after 'Are you sure?' (its popup in view mode;
 *                      in edit state a selected shape takes Delete first)
 *   Ctrl+C (⌘C)        copy the open marker (popup in view mode; the edit form has its Copy
 *                      button): the next map click places the copy
 *   Ctrl+V (⌘V)        place a copy of the marker copied last under the pointer (again and
 *                      again); with the pointer off the map the next click places it
 *
 * Only where the keys would mean nothing else: never in a text field, Enter never on a button or
 * link (it presses them), Ctrl+C never while text is selected (that copies the text), and only on
 * the map, the page or the marker popup (its buttons included, but for Enter), not in another
 * panel or dialog. Pure: the callers read
 * the event's target with `keyTarget` and do the action.
 *
 * The letters are read as typed, or by the physical key where the layout types no Latin letter
 * (domain/keyboard-layout.ts `shortcutKey`: Ctrl+С on the Russian layout copies).
 *
 * With a marker's edit form open, Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y outside a text field never
 * also run the browser's own undo (`stopsBrowserUndo`, MarkerEditForm): it would change a form
 * field the focus is not in (the admin's typed text wiped while the map undid its step).
 */

import { shortcutKey } from '../../domain/keyboard-layout';

export type MarkerKeyAction = 'edit' | 'delete' | 'copy' | 'paste';

/**
 * Where a key was pressed: a text field, a control of the marker popup (its Edit or Delete
 * button: Enter presses them, Delete and Ctrl+C mean nothing there), another control, the map
 * (the page, the canvas, the marker popup's text), the map's focused canvas (`canvas`: as the
 * map, but Enter is the keyboard's press there, ui/map/mapKeyboard.ts), or elsewhere (another
 * panel or dialog).
 */
export type KeyTarget = 'text' | 'popup-control' | 'control' | 'map' | 'canvas' | 'other';

/**
 * The map canvas's container: a Tab stop (ui/map/MapCanvas.tsx), focused by a click on the map
 * too; `data-keyboard-cursor="on"` while its cross-hair shows (keyboard mode, mapKeyboard.ts).
 */
const MAP_CANVAS_CLASS = 'map-canvas';

export interface KeyPress {
  key: string;
  /** KeyboardEvent.code, the physical key: Ctrl+С on the Russian layout is Ctrl+C (`shortcutKey`). */
  code?: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  repeat: boolean;
  defaultPrevented: boolean;
}

export interface MarkerKeyState {
  /** The uid of the open marker (its popup), or null. */
  openMarker: string | null;
  /** The open marker's popup is in view mode (not its edit form). */
  viewing: boolean;
  /** A drawn shape is selected (Delete is the shape's). */
  shapeSelected: boolean;
  /** Text is selected in the page (Ctrl+C copies it). */
  textSelected: boolean;
  /** A marker was copied with Ctrl+C (Ctrl+V places it). */
  copied: boolean;
}

const TEXT_INPUT_TYPES = new Set(['text', 'search', 'email', 'number', 'password', 'tel', 'url', 'date', 'time', 'datetime-local', 'month', 'week']);
const CONTROL_TAGS = new Set(['BUTTON', 'A', 'SUMMARY', 'INPUT', 'SELECT', 'OPTION', 'LABEL']);

/** What the key's target is; `popupSelector` finds the marker popup (its content counts as the map). */
export function keyTarget(target: EventTarget | null, popupSelector = '.marker-popup'): KeyTarget {
  const el = target as HTMLElement | null;
  if (!el || typeof el.tagName !== 'string') return 'map';
  if (el.isContentEditable || el.tagName === 'TEXTAREA') return 'text';
  // Where `isContentEditable` is not implemented (jsdom), the attribute says it.
  if (typeof el.closest === 'function' && el.closest('[contenteditable]:not([contenteditable="false"])') !== null) return 'text';
  if (el.tagName === 'INPUT' && TEXT_INPUT_TYPES.has(((el as HTMLInputElement).type || 'text').toLowerCase())) return 'text';
  const inPopup = typeof el.closest === 'function' && el.closest(popupSelector) !== null;
  if (CONTROL_TAGS.has(el.tagName)) return inPopup ? 'popup-control' : 'control';
  if (el.tagName === 'BODY' || el.tagName === 'HTML' || el.tagName === 'CANVAS') return 'map';
  if (el.classList?.contains(MAP_CANVAS_CLASS)) return el.dataset.keyboardCursor === 'on' ? 'canvas' : 'map';
  return inPopup ? 'map' : 'other';
}

export function markerKeyAction(press: KeyPress, target: KeyTarget, state: MarkerKeyState): MarkerKeyAction | null {
  if (press.defaultPrevented || press.repeat || press.altKey || (target !== 'map' && target !== 'canvas' && target !== 'popup-control')) return null;
  const command = press.ctrlKey || press.metaKey;
  const key = shortcutKey(press.key, press.code);
  // Enter presses a focused button.
  if (key === 'Enter' && target !== 'map') return null;
  if (command) {
    if (press.shiftKey) return null;
    if (key === 'c') return state.openMarker && state.viewing && !state.textSelected ? 'copy' : null;
    if (key === 'v') return state.copied ? 'paste' : null;
    return null;
  }
  if (press.shiftKey || !state.openMarker || !state.viewing) return null;
  if (key === 'Enter') return 'edit';
  if ((key === 'Delete' || key === 'Backspace') && !state.shapeSelected) return 'delete';
  return null;
}

/** The undo keys as the state tree reads them: Ctrl+Z (⌘Z) 'undo'; Ctrl+Shift+Z, Ctrl+Y 'redo'; else null. */
export function undoKey(press: Pick<KeyPress, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'shiftKey'>): 'undo' | 'redo' | null {
  if (!press.ctrlKey && !press.metaKey) return null;
  const key = shortcutKey(press.key, press.code);
  if ((key === 'z' && press.shiftKey) || key === 'y') return 'redo';
  return key === 'z' ? 'undo' : null;
}

/**
 * While a marker's edit form is open: whether the browser's own undo / redo of this press is
 * stopped (docs/EDITOR.md "Keys"). In a text field it stays (Ctrl+Z there is the field's text
 * undo, and the map's undo never acts: engine/input.ts). Anywhere else (the form's buttons or
 * selects, the map, the page) the browser would undo the typing of a form field out of sight,
 * on top of the map's undo, so it is stopped; the map's undo acts as ever (not from a select).
 */
export function stopsBrowserUndo(press: Pick<KeyPress, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'shiftKey'>, target: KeyTarget): boolean {
  return undoKey(press) !== null && target !== 'text';
}
