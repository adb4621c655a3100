// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CanvasArea } from '../../domain/keep-in-view';
import { CURSOR_PX, KEY_ZOOM_FACTOR, KEYBOARD_POINTER_ID, mapKeyAction, PAN_FAR_PX, PAN_PX, pressStyle, visibleMiddle, wireMapKeyboard, zoomAbout, type KeyboardMapEngine } from './mapKeyboard';

const press = (key: string, extra: Partial<{ shiftKey: boolean; ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) => ({
  key,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...extra,
});

describe('mapKeyAction', () => {
  it('pans with the arrow keys (Shift further) while no press is held', () => {
    expect(mapKeyAction(press('ArrowLeft'), false)).toEqual({ kind: 'pan', dx: -PAN_PX, dy: 0 });
    expect(mapKeyAction(press('ArrowDown', { shiftKey: true }), false)).toEqual({ kind: 'pan', dx: 0, dy: PAN_FAR_PX });
  });

  it('moves the cursor instead while a press is held (Shift a pixel at a time)', () => {
    expect(mapKeyAction(press('ArrowRight'), true)).toEqual({ kind: 'moveCursor', dx: CURSOR_PX, dy: 0 });
    expect(mapKeyAction(press('ArrowUp', { shiftKey: true }), true)).toEqual({ kind: 'moveCursor', dx: 0, dy: -1 });
  });

  it('zooms with + and −, presses with Enter and Space, lets go with Escape only when held', () => {
    expect(mapKeyAction(press('+'), false)).toEqual({ kind: 'zoom', factor: KEY_ZOOM_FACTOR });
    expect(mapKeyAction(press('='), false)).toEqual({ kind: 'zoom', factor: KEY_ZOOM_FACTOR });
    expect(mapKeyAction(press('-'), false)).toEqual({ kind: 'zoom', factor: 1 / KEY_ZOOM_FACTOR });
    expect(mapKeyAction(press('Enter'), false)).toEqual({ kind: 'press' });
    expect(mapKeyAction(press(' '), true)).toEqual({ kind: 'press' });
    expect(mapKeyAction(press('Escape'), true)).toEqual({ kind: 'release' });
    expect(mapKeyAction(press('Escape'), false)).toBeNull();
  });

  it("leaves the state tree's letters and the command keys alone", () => {
    expect(mapKeyAction(press('m'), false)).toBeNull();
    expect(mapKeyAction(press('z', { ctrlKey: true }), false)).toBeNull();
    expect(mapKeyAction(press('ArrowLeft', { altKey: true }), false)).toBeNull();
    expect(mapKeyAction(press('Tab'), false)).toBeNull();
  });
});

describe('pressStyle', () => {
  it('holds for the tools that drag, clicks for the others', () => {
    for (const path of ['draw.rect.idle', 'draw.line.idle', 'draw.arrow.idle', 'draw.circle.idle', 'draw.pen.idle', 'move.idle', 'edit.idle']) {
      expect(pressStyle(path), path).toBe('hold');
    }
    for (const path of ['pan.idle', 'pan', 'draw.marker.idle', 'draw.text.idle', 'draw.poly.drawing']) {
      expect(pressStyle(path), path).toBe('click');
    }
  });
});

describe('zoomAbout', () => {
  it('keeps the map point under the screen point where it was', () => {
    const view = { x: 1000, y: 800, zoom: 2 };
    const after = zoomAbout(view, 1.5, 120, -60);
    // The map point 120, −60 px from the centre: 1000 + 120 / 2, 800 − 60 / 2 before and after.
    expect(after.zoom).toBe(3);
    expect(after.x + 120 / after.zoom).toBeCloseTo(1060);
    expect(after.y - 60 / after.zoom).toBeCloseTo(770);
    expect(zoomAbout(view, 1.5, 0, 0)).toEqual({ x: 1000, y: 800, zoom: 3 });
  });
});

describe('visibleMiddle', () => {
  it("is the middle of what the covers leave free, from the canvas's centre; 0, 0 with nothing measured", () => {
    // A top bar 100 px high and a side panel 200 px wide over an 800 × 600 canvas: free 200–800 × 100–600.
    const area: CanvasArea = { width: 800, height: 600, covers: [{ left: 0, top: 0, right: 800, bottom: 100 }, { left: 0, top: 100, right: 200, bottom: 600 }] };
    expect(visibleMiddle(area)).toEqual({ x: 100, y: 50 });
    expect(visibleMiddle({ width: 800, height: 600, covers: [] })).toEqual({ x: 0, y: 0 });
    expect(visibleMiddle(null)).toEqual({ x: 0, y: 0 });
  });
});

describe('wireMapKeyboard', () => {
  beforeAll(() => {
    // jsdom has no PointerEvent: a MouseEvent with a pointer's fields is enough here.
    if (typeof globalThis.PointerEvent !== 'function') {
      class TestPointerEvent extends MouseEvent {
        readonly pointerId: number;
        readonly pointerType: string;
        constructor(type: string, init: PointerEventInit = {}) {
          super(type, init);
          this.pointerId = init.pointerId ?? 0;
          this.pointerType = init.pointerType ?? '';
        }
      }
      (globalThis as { PointerEvent: unknown }).PointerEvent = TestPointerEvent;
    }
  });
  let unwire: (() => void) | null = null;
  afterEach(() => {
    unwire?.();
    unwire = null;
    document.body.innerHTML = '';
  });

  function setup(path = 'pan.idle', area: () => CanvasArea | null = () => null) {
    const host = document.createElement('div');
    const canvas = document.createElement('canvas');
    host.appendChild(canvas);
    document.body.appendChild(host);
    const box = { left: 100, top: 50, width: 800, height: 600, right: 900, bottom: 650, x: 100, y: 50, toJSON: () => ({}) };
    host.getBoundingClientRect = () => box as DOMRect;
    canvas.getBoundingClientRect = () => box as DOMRect;
    const events: Array<{ type: string; x: number; y: number; id: number; shift: boolean }> = [];
    /** The hover moves (no button: the cross-hair as the pointer), apart, with the view as each was sent. */
    const hovers: Array<{ x: number; y: number; id: number; view: { x: number; y: number; zoom: number } }> = [];
    const state = { view: { x: 1000, y: 800, zoom: 2 }, path };
    for (const type of ['pointerdown', 'pointermove', 'pointerup', 'pointercancel']) {
      canvas.addEventListener(type, (e) => {
        const p = e as PointerEvent;
        if (type === 'pointermove' && p.buttons === 0) hovers.push({ x: p.clientX, y: p.clientY, id: p.pointerId, view: { ...state.view } });
        else events.push({ type, x: p.clientX, y: p.clientY, id: p.pointerId, shift: p.shiftKey });
      });
    }
    const cameraListeners = new Set<(view: { x: number; y: number; zoom: number }) => void>();
    const engine: KeyboardMapEngine = {
      camera: () => ({ ...state.view }),
      // As the engine, word of the move comes later (the next frame): `moved` says it.
      setView: (view) => Object.assign(state.view, view),
      toolPath: () => state.path,
      on: (_event, listener) => {
        cameraListeners.add(listener);
        return () => cameraListeners.delete(listener);
      },
    };
    const moved = () => cameraListeners.forEach((listener) => listener({ ...state.view }));
    /** Something else than the keyboard moves the map (the popup making room), by screen px. */
    const panOthers = (dx: number, dy: number) => {
      Object.assign(state.view, { x: state.view.x - dx / state.view.zoom, y: state.view.y - dy / state.view.zoom });
      moved();
    };
    unwire = wireMapKeyboard(host, engine, area);
    // Focused from the keyboard (Tab): jsdom does not tell :focus-visible.
    const matches = host.matches.bind(host);
    host.matches = (selector: string) => selector === ':focus-visible' || matches(selector);
    host.focus();
    const key = (k: string, extra: KeyboardEventInit = {}) => host.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...extra }));
    return { host, events, hovers, state, key, moved, panOthers };
  }

  it('is a Tab stop whose arrows pan the camera by screen pixels and whose + and − zoom', () => {
    const { host, state, key } = setup();
    expect(host.tabIndex).toBe(0);
    key('ArrowRight');
    expect(state.view).toEqual({ x: 1000 + PAN_PX / 2, y: 800, zoom: 2 });
    key('ArrowUp', { shiftKey: true });
    expect(state.view.y).toBe(800 - PAN_FAR_PX / 2);
    key('+');
    expect(state.view.zoom).toBe(2 * KEY_ZOOM_FACTOR);
    key('-');
    expect(state.view.zoom).toBeCloseTo(2);
  });

  it('clicks at the centre of the canvas on Enter with a tool that clicks', () => {
    const { events, key } = setup('draw.marker.idle');
    key('Enter');
    expect(events).toEqual([
      { type: 'pointerdown', x: 500, y: 350, id: KEYBOARD_POINTER_ID, shift: false },
      { type: 'pointerup', x: 500, y: 350, id: KEYBOARD_POINTER_ID, shift: false },
    ]);
  });

  it('holds the press with a tool that drags: the arrows then move the cursor, and Enter again lets go', () => {
    const { events, state, key, host } = setup('draw.rect.idle');
    key('Enter');
    expect(events).toEqual([]);
    expect(host.querySelector('.map-keyboard-cursor--held')).not.toBeNull();
    key('ArrowRight');
    key('ArrowDown', { shiftKey: true });
    // The map does not move while a press is held.
    expect(state.view).toEqual({ x: 1000, y: 800, zoom: 2 });
    key('Enter');
    expect(events.map((e) => [e.type, e.x, e.y, e.shift])).toEqual([
      ['pointerdown', 500, 350, false],
      ['pointermove', 500 + CURSOR_PX, 350, false],
      ['pointermove', 500 + CURSOR_PX, 351, true],
      ['pointerup', 500 + CURSOR_PX, 351, false],
    ]);
    // Let go: the arrows pan again.
    expect(host.querySelector('.map-keyboard-cursor--held')).toBeNull();
    key('ArrowLeft');
    expect(state.view.x).toBe(1000 - PAN_PX / 2);
  });

  it('leaves the cross-hair where a drag let go, so Enter takes what was moved again; Escape puts it back in the middle', () => {
    const { host, events, key } = setup('move.idle');
    const cursor = host.querySelector<HTMLElement>('.map-keyboard-cursor')!;
    key('Enter');
    for (let i = 0; i < 3; i++) key('ArrowDown');
    key('Enter');
    expect(events.at(-1)).toMatchObject({ type: 'pointerup', x: 500, y: 350 + 3 * CURSOR_PX });
    expect([cursor.style.left, cursor.style.top]).toEqual(['400px', `${300 + 3 * CURSOR_PX}px`]);
    // The next drag starts on the marker just moved (and so does a click: Enter twice).
    events.length = 0;
    key('Enter');
    key('ArrowRight');
    expect(events[0]).toMatchObject({ type: 'pointerdown', x: 500, y: 350 + 3 * CURSOR_PX });
    // Let go without finishing: what was dragged goes back, and so does the cross-hair.
    key('Escape');
    expect([cursor.style.left, cursor.style.top]).toEqual(['400px', '300px']);
  });

  it("keeps the keyboard's pointer at the cross-hair: a hover there when it shows and after every pan or zoom", () => {
    const { hovers, key } = setup('pan.idle');
    // Focused from the keyboard: the cross-hair shows, and is the pointer.
    expect(hovers).toEqual([{ x: 500, y: 350, id: KEYBOARD_POINTER_ID, view: { x: 1000, y: 800, zoom: 2 } }]);
    hovers.length = 0;
    key('ArrowLeft');
    key('+');
    // Sent after the view moved: the map point under it is the cross-hair's now.
    expect(hovers.map((h) => h.view)).toEqual([
      { x: 1000 - PAN_PX / 2, y: 800, zoom: 2 },
      { x: 1000 - PAN_PX / 2, y: 800, zoom: 2 * KEY_ZOOM_FACTOR },
    ]);
    expect(hovers.every((h) => h.x === 500 && h.y === 350)).toBe(true);
  });

  it('sends no hover while the cross-hair is hidden (a mouse on the map, the focus gone)', () => {
    const { host, hovers, key } = setup('pan.idle');
    hovers.length = 0;
    host.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, pointerId: 1 }));
    host.blur();
    expect(hovers).toEqual([]);
    host.focus();
    key('ArrowRight');
    expect(hovers.length).toBeGreaterThan(0);
  });

  it('makes Enter twice without a move a click, and Escape lets go of a held drag without finishing it', () => {
    const { events, key } = setup('move.idle');
    key('Enter');
    key('Enter');
    expect(events.map((e) => e.type)).toEqual(['pointerdown', 'pointerup']);
    events.length = 0;
    key('Enter');
    key('ArrowLeft');
    key('Escape');
    expect(events.map((e) => e.type)).toEqual(['pointerdown', 'pointermove', 'pointercancel']);
  });

  it('reads only keys sent to the map itself, and lets go of a held press when the map loses the focus', () => {
    const { host, events, state, key } = setup('draw.line.idle');
    const button = document.createElement('button');
    host.appendChild(button);
    button.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    expect(state.view.x).toBe(1000);
    key('Enter');
    key('ArrowRight');
    host.blur();
    expect(events.map((e) => e.type)).toEqual(['pointerdown', 'pointermove', 'pointercancel']);
  });

  it("after a real pointer's press, Enter is left alone until a map key shows the cross-hair again", () => {
    const { host, events, key } = setup('pan.idle');
    key('ArrowRight');
    expect(host.dataset.keyboardCursor).toBe('on');
    host.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, pointerId: 1 }));
    expect(host.dataset.keyboardCursor).toBeUndefined();
    expect(host.querySelector<HTMLElement>('.map-keyboard-cursor')!.hidden).toBe(true);
    const enter = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true });
    host.dispatchEvent(enter);
    expect(enter.defaultPrevented).toBe(false);
    expect(events.filter((e) => e.id === KEYBOARD_POINTER_ID)).toEqual([]);
    key('ArrowLeft');
    key('Enter');
    expect(events.map((e) => e.type)).toEqual(['pointerdown', 'pointerup']);
  });

  it("puts the cross-hair in the middle of the map's visible part, and zooms about it", () => {
    // The phone's sheet over the lower 300 px of the 800 × 600 canvas: the free part is 0–300 high.
    const covers = [{ left: 0, top: 300, right: 800, bottom: 600 }];
    const { host, events, state, key } = setup('draw.marker.idle', () => ({ width: 800, height: 600, covers }));
    const cursor = host.querySelector<HTMLElement>('.map-keyboard-cursor')!;
    expect(cursor.hidden).toBe(false);
    expect([cursor.style.left, cursor.style.top]).toEqual(['400px', '150px']);
    key('Enter');
    // The canvas's box starts at 100, 50.
    expect(events[0]).toMatchObject({ type: 'pointerdown', x: 500, y: 200 });
    // The map point under the cross-hair (150 px above the centre at zoom 2: y 800 − 75) stays under it.
    key('+');
    expect(state.view.zoom).toBe(3);
    expect(state.view.x).toBeCloseTo(1000);
    expect(state.view.y - 150 / state.view.zoom).toBeCloseTo(725);
  });

  it('keeps the cross-hair on the marker a click opened while its popup moves the map, also when the focus comes back from the popup', () => {
    const { host, events, hovers, key, moved, panOthers } = setup('pan.idle');
    const cursor = host.querySelector<HTMLElement>('.map-keyboard-cursor')!;
    key('Enter');
    // The popup it opened makes room for itself: the map moves 18 px up and 12 px left.
    hovers.length = 0;
    panOthers(-12, -18);
    expect([cursor.style.left, cursor.style.top]).toEqual([`${400 - 12}px`, `${300 - 18}px`]);
    expect(hovers).toMatchObject([{ x: 500 - 12, y: 350 - 18 }]);
    // The popup took the focus and gives it back as it closes (Escape): Enter opens the same marker.
    host.blur();
    panOthers(0, -6);
    host.focus();
    expect([cursor.style.left, cursor.style.top]).toEqual([`${400 - 12}px`, `${300 - 24}px`]);
    events.length = 0;
    key('Enter');
    expect(events).toMatchObject([{ type: 'pointerdown', x: 500 - 12, y: 350 - 24 }, { type: 'pointerup' }]);
    // The keyboard's own pan: the cross-hair stays where it is on the screen, and no longer follows.
    key('ArrowLeft');
    moved();
    panOthers(0, 40);
    expect([cursor.style.left, cursor.style.top]).toEqual([`${400 - 12}px`, `${300 - 24}px`]);
  });

  it('lets go of the pinned point once it leaves the visible part, or the map is zoomed', () => {
    const { host, key, state, panOthers, moved } = setup('pan.idle');
    const cursor = host.querySelector<HTMLElement>('.map-keyboard-cursor')!;
    key('Enter');
    panOthers(500, 0);
    // Off the 800 px canvas: back to the middle, and a later pan back does not bring it there.
    expect([cursor.style.left, cursor.style.top]).toEqual(['400px', '300px']);
    panOthers(-500, 0);
    expect(cursor.style.left).toBe('400px');
    key('Enter');
    state.view.zoom = 3;
    moved();
    panOthers(20, 0);
    expect(cursor.style.left).toBe('400px');
  });

  it('takes its cursor away when unwired', () => {
    const { host } = setup();
    expect(host.querySelector('.map-keyboard-cursor')).not.toBeNull();
    unwire!();
    unwire = null;
    expect(host.querySelector('.map-keyboard-cursor')).toBeNull();
  });
});
