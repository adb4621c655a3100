/**
 * DOM input → normalised tool events (screen CSS px relative to the element, ms timestamps).
 * Pointer capture keeps a drag going outside the canvas; the wheel never scrolls the page.
 */
import type { Modifiers, ToolEvent } from './interaction/events';
import { wheelDeltaPx } from './kernels/camera';

const modifiers = (e: { altKey: boolean; shiftKey: boolean; ctrlKey: boolean; metaKey: boolean }): Modifiers => ({
  altKey: e.altKey,
  shiftKey: e.shiftKey,
  ctrlKey: e.ctrlKey,
  metaKey: e.metaKey,
});

/** Inputs that take no typing: the map keys (m, l, Escape, Ctrl+Z) still work while one has focus. */
const KEYLESS_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image']);

/** An element the user types into as text: contenteditable, itself or inside one. */
function isEditable(el: HTMLElement): boolean {
  if (el.isContentEditable) return true;
  // Where `isContentEditable` is not implemented (jsdom), the attribute says it.
  return typeof el.closest === 'function' && el.closest('[contenteditable]:not([contenteditable="false"])') !== null;
}

/**
 * Whether a key went to something the user types into (a text box, a select, an editable
 * element): those keys are theirs, not the map's. A focused checkbox or radio (a category
 * filter, a level, an editor option just clicked) is not one.
 */
function isTextInput(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.tagName !== 'string') return false;
  if (isEditable(el) || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT') return true;
  return el.tagName === 'INPUT' && !KEYLESS_INPUTS.has(((el as HTMLInputElement).type || 'text').toLowerCase());
}

export class DomInput {
  private readonly cleanups: (() => void)[] = [];
  /** The element's page rectangle, cached: reading it per event could force a layout. */
  private rect: { left: number; top: number; height: number } | null = null;

  constructor(private readonly element: HTMLElement, private readonly dispatch: (event: ToolEvent) => void) {
    element.style.touchAction = 'none';
    const local = (e: MouseEvent) => {
      const r = this.bounds();
      return { screenX: e.clientX - r.left, screenY: e.clientY - r.top };
    };
    const pointer = (type: 'pointer_down' | 'pointer_move' | 'pointer_up') => (e: PointerEvent) => {
      if (type === 'pointer_down') {
        this.rect = null;
        if (e.button === 0) {
          try {
            element.setPointerCapture?.(e.pointerId);
          } catch {
            // Not a pointer the browser knows (the keyboard's presses, ui/map/mapKeyboard.ts): nothing to capture.
          }
        }
      }
      this.dispatch({
        type,
        ...local(e),
        time: e.timeStamp,
        button: e.button,
        pointerId: e.pointerId,
        pointerType: e.pointerType || 'mouse',
        ...modifiers(e),
      });
    };
    this.listen(element, 'pointerdown', pointer('pointer_down'));
    this.listen(element, 'pointermove', pointer('pointer_move'));
    this.listen(element, 'pointerup', pointer('pointer_up'));
    this.listen(element, 'pointercancel', (e: PointerEvent) => this.dispatch({ type: 'pointer_cancel', time: e.timeStamp, pointerId: e.pointerId }));
    this.listen(element, 'pointerleave', (e: PointerEvent) => this.dispatch({ type: 'pointer_leave', time: e.timeStamp }));
    this.listen(
      element,
      'wheel',
      (e: WheelEvent) => {
        e.preventDefault();
        this.dispatch({
          type: 'wheel',
          ...local(e),
          time: e.timeStamp,
          deltaY: wheelDeltaPx(e.deltaY, e.deltaMode, this.bounds().height || 800),
          ...modifiers(e),
        });
      },
      { passive: false },
    );
    this.listen(element, 'dblclick', (e: MouseEvent) => {
      e.preventDefault();
      this.dispatch({ type: 'double_click', ...local(e), time: e.timeStamp, ...modifiers(e) });
    });
    this.listen(element, 'contextmenu', (e: MouseEvent) => e.preventDefault());
    const key = (type: 'key_down' | 'key_up') => (e: KeyboardEvent) => {
      if (isTextInput(e.target)) return;
      this.dispatch({ type, key: e.key, code: e.code, time: e.timeStamp, ...modifiers(e) });
    };
    this.listen(window, 'keydown', key('key_down'));
    this.listen(window, 'keyup', key('key_up'));
    this.listen(element, 'pointerenter', () => this.invalidateBounds());
    this.listen(window, 'scroll', () => this.invalidateBounds(), { capture: true, passive: true });
  }

  /** The element moved or resized: re-read its rectangle at the next event. */
  invalidateBounds(): void {
    this.rect = null;
  }

  private bounds(): { left: number; top: number; height: number } {
    if (!this.rect) {
      const r = this.element.getBoundingClientRect();
      this.rect = { left: r.left, top: r.top, height: r.height };
    }
    return this.rect;
  }

  dispose(): void {
    for (const c of this.cleanups.splice(0)) c();
  }

  private listen<E extends Event>(target: EventTarget, type: string, handler: (e: E) => void, options?: AddEventListenerOptions): void {
    const h = handler as EventListener;
    target.addEventListener(type, h, options);
    this.cleanups.push(() => target.removeEventListener(type, h, options));
  }
}
