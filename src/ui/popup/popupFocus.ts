/**
 * Where the keyboard goes around the marker popup (docs/DECISIONS.md "The marker popup in the
 * Tab order"). The popup is not modal and is drawn late in the page (after the panels), so left
 * to the browser, Tab from its last control went to the end of the page. Instead it sits in the
 * Tab order right after what opened it, as an HTML `popover` does after its invoker:
 * - its **opener** is the control that had the focus as the popup opened its marker (Find a
 *   marker's field, a control in a panel); a marker clicked on the map or opened by a `?obj=`
 *   link has none: the map canvas stands in for it (the popup comes from the map);
 * - Tab from the popup's last control goes to the page's next Tab stop after the opener (after
 *   the map: the top bar); Shift+Tab from its first control, or from the dialog itself, goes
 *   back to the opener (without one, to the Tab stop before the map: the skip links);
 * - and the way back in keeps that place (`wirePopupTabIn`): Tab from the opener (or the map
 *   canvas) goes to the popup's first control, Shift+Tab from the Tab stop after it to the
 *   popup's last, so a popup the focus left is reached again as it was left, not after the
 *   whole page (docs/DECISIONS.md "The way back into the marker popup");
 * - after a Delete closes the popup, the focus goes back to the opener, else to the map canvas
 *   (focusable by script only, not a Tab stop), not to the page's `<body>`; so does closing it
 *   (Escape, Close) with the focus in it (`popupClosingWithFocus`). A phone's Find a marker
 *   field is folded away by then (not shown: no opener), so no on-screen keyboard pops up.
 */
import type { KeyboardEvent } from 'react';

/** The map canvas's host (ui/map/MapCanvas.tsx): where a popup opened from the map came from. */
const MAP_CANVAS_SELECTOR = '.map-canvas';
/** The open marker popup's wrapper (MarkerPopupFrame; the loading frame's too). */
const POPUP_SELECTOR = '.marker-popup';
/** What Tab can land on (disabled controls left out), as popups/focusTrap.ts counts it. */
const TABBABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The control the focus came from into the open popup (null: from the map, or none). */
let opener: HTMLElement | null = null;

/** Whether the element is drawn: not in a hidden or inert part, not `display: none` (where the browser can tell). */
function shown(element: HTMLElement): boolean {
  if (element.closest('[hidden], [inert]')) return false;
  return typeof element.checkVisibility === 'function' ? element.checkVisibility() : true;
}

/** The Tab stops under `root`, in page order. */
export function tabStops(root: ParentNode): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(TABBABLE)].filter((element) => element.tabIndex >= 0 && shown(element));
}

/** The opener, while it can take the focus again: in the page, outside the popup, drawn and enabled. */
function usableOpener(popupRoot: Element | null): HTMLElement | null {
  const element = opener;
  if (!element || !element.isConnected || popupRoot?.contains(element)) return null;
  if (element === element.ownerDocument.body || (element as HTMLButtonElement).disabled) return null;
  return shown(element) ? element : null;
}

/** The map canvas's host, or null on a page without one. */
function mapCanvas(doc: Document): HTMLElement | null {
  return doc.querySelector<HTMLElement>(MAP_CANVAS_SELECTOR);
}

/**
 * A popup opens, or opens another marker: its opener is the control focused now (Find a marker's
 * field), none where that is the page's body (a click on the map, a `?obj=` link). With the focus
 * in the popup already, it keeps the one it had.
 */
export function notePopupOpened(popupRoot: Element): void {
  const doc = popupRoot.ownerDocument;
  const active = doc.activeElement;
  if (active && popupRoot.contains(active)) return;
  opener = active instanceof HTMLElement && active !== doc.body ? active : null;
}

/** The opener known now (tests). */
export function popupOpener(): HTMLElement | null {
  return opener;
}

/** Forgets the opener (tests; a page that is left). */
export function forgetPopupOpener(): void {
  opener = null;
}

/**
 * Where Tab (or Shift+Tab, `backwards`) out of the popup goes: the Tab stop after the opener (or
 * the map), or the opener itself (or the stop before the map). Null where the page has no such
 * stop: the browser's own order then.
 */
export function tabOutTarget(popupRoot: Element, backwards: boolean): HTMLElement | null {
  const doc = popupRoot.ownerDocument;
  const from = usableOpener(popupRoot);
  if (backwards && from) return from;
  const anchor = from ?? mapCanvas(doc);
  if (!anchor) return null;
  const stops = tabStops(doc).filter((element) => !popupRoot.contains(element) && element !== anchor && !anchor.contains(element));
  const after = (element: HTMLElement) => (anchor.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
  if (backwards) return stops.filter((element) => !after(element)).at(-1) ?? null;
  // Past the page's last stop: round to its first, as the browser would after its own bar.
  return stops.find(after) ?? stops[0] ?? null;
}

/**
 * Where Tab (or Shift+Tab, `backwards`) from `active`, outside the open popup, goes into it: the
 * popup's first control from its opener (or the map canvas, for one from the map), its last from
 * the Tab stop after that (where Tab out of the popup goes: `tabOutTarget`). A popup with no
 * control of its own takes the focus on its dialog. Null elsewhere: the browser's own order.
 */
export function tabInTarget(popupRoot: Element, active: Element | null, backwards: boolean): HTMLElement | null {
  if (!(active instanceof HTMLElement) || popupRoot.contains(active)) return null;
  const anchor = usableOpener(popupRoot) ?? mapCanvas(popupRoot.ownerDocument);
  if (!anchor) return null;
  if (active !== (backwards ? tabOutTarget(popupRoot, false) : anchor)) return null;
  const inside = tabStops(popupRoot);
  return (backwards ? inside.at(-1) : inside[0]) ?? popupRoot.querySelector<HTMLElement>('[role="dialog"]');
}

/**
 * Tab and Shift+Tab into the open marker popup from the page (`tabInTarget`), on `doc`'s keydown
 * (bubbling: a control that takes Tab itself, as a list's choice, goes first). Returns the unwiring.
 */
export function wirePopupTabIn(doc: Document = document): () => void {
  const onKeyDown = (event: globalThis.KeyboardEvent) => {
    if (event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    const root = doc.querySelector(POPUP_SELECTOR);
    if (!root) return;
    const target = tabInTarget(root, doc.activeElement, event.shiftKey);
    if (!target) return;
    event.preventDefault();
    target.focus();
  };
  doc.addEventListener('keydown', onKeyDown);
  return () => doc.removeEventListener('keydown', onKeyDown);
}

/**
 * The popup's Tab and Shift+Tab at its ends (its wrapper's keydown): out to the page next to
 * where the popup came from. Within the popup, the browser's order.
 */
export function popupTabKey(event: KeyboardEvent<HTMLElement>): void {
  if (event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
  const root = event.currentTarget;
  const inside = tabStops(root);
  const active = root.ownerDocument.activeElement;
  const backwards = event.shiftKey;
  const atEnd = backwards
    ? inside.length === 0 || active === inside[0] || (active instanceof HTMLElement && active.getAttribute('role') === 'dialog' && root.contains(active))
    : inside.length === 0 || active === inside[inside.length - 1];
  if (!atEnd) return;
  const target = tabOutTarget(root, backwards);
  if (!target) return;
  event.preventDefault();
  target.focus();
}

/** Focuses the map canvas's host (focusable by script only: tabindex -1, not a Tab stop). False without one. */
function focusMapCanvas(doc: Document): boolean {
  const canvas = mapCanvas(doc);
  if (!canvas) return false;
  if (!canvas.hasAttribute('tabindex')) canvas.tabIndex = -1;
  canvas.focus({ preventScroll: true });
  return doc.activeElement === canvas;
}

/**
 * The focus is nowhere useful: on the page's body, on nothing, or in the popup that is going
 * (`closing`; without it, in any marker popup: a Delete's, whose form or view goes first).
 */
function focusLost(doc: Document, closing?: Element): boolean {
  const active = doc.activeElement;
  if (!active || active === doc.body || !active.isConnected) return true;
  return closing ? closing.contains(active) : active.closest(POPUP_SELECTOR) !== null;
}

/**
 * After the popup closed itself (a Delete): the focus back to its opener, else to the map canvas,
 * unless it went somewhere on its own meanwhile. Waits for the popup to go (the page draws it
 * away after the state change): a task later.
 */
export function returnFocusAfterClose(doc: Document = document, closing?: Element): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(() => {
      if (focusLost(doc, closing)) {
        const from = usableOpener(null);
        if (from) from.focus({ preventScroll: true });
        if (!from || doc.activeElement !== from) focusMapCanvas(doc);
      }
      resolve();
    }, 0);
  });
}

/**
 * The popup is leaving the page (its frame unmounts; a Delete handles itself): where the focus
 * was in it, the focus goes back to the opener, else the map (`returnFocusAfterClose`), as the
 * page's other dialogs give it back (popups/Popup.tsx; the marker popup's dialog is often not
 * the one that first took the focus: its loading frame came first). A popup replaced by another
 * marker's keeps nothing to do: the new one takes the focus, and `returnFocusAfterClose` leaves
 * a focus that went somewhere.
 */
export function popupClosingWithFocus(popupRoot: Element): void {
  const doc = popupRoot.ownerDocument;
  if (!popupRoot.contains(doc.activeElement)) return;
  // Only this popup's going counts: another that opened meanwhile keeps the focus it took.
  void returnFocusAfterClose(doc, popupRoot);
}
