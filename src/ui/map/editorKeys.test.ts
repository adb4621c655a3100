// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { keyTarget, markerKeyAction, stopsBrowserUndo, undoKey, type KeyPress, type MarkerKeyState } from './editorKeys';

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  repeat: false,
  defaultPrevented: false,
  ...mods,
});
const open: MarkerKeyState = { openMarker: 'm1', viewing: true, shapeSelected: false, textSelected: false, copied: false };

describe('markerKeyAction', () => {
  it('Enter edits and Delete or Backspace deletes the open marker in view mode', () => {
    expect(markerKeyAction(press('Enter'), 'map', open)).toBe('edit');
    expect(markerKeyAction(press('Delete'), 'map', open)).toBe('delete');
    expect(markerKeyAction(press('Backspace'), 'map', open)).toBe('delete');
  });

  it('does nothing without an open marker, in its edit form, or with modifiers', () => {
    expect(markerKeyAction(press('Enter'), 'map', { ...open, openMarker: null })).toBeNull();
    expect(markerKeyAction(press('Delete'), 'map', { ...open, viewing: false })).toBeNull();
    expect(markerKeyAction(press('Enter'), 'map', { ...open, viewing: false })).toBeNull();
    expect(markerKeyAction(press('Delete', { shiftKey: true }), 'map', open)).toBeNull();
    expect(markerKeyAction(press('Delete', { altKey: true }), 'map', open)).toBeNull();
    expect(markerKeyAction(press('Delete', { repeat: true }), 'map', open)).toBeNull();
    expect(markerKeyAction(press('Delete', { defaultPrevented: true }), 'map', open)).toBeNull();
  });

  it('leaves Delete to a selected shape', () => {
    expect(markerKeyAction(press('Delete'), 'map', { ...open, shapeSelected: true })).toBeNull();
    expect(markerKeyAction(press('Enter'), 'map', { ...open, shapeSelected: true })).toBe('edit');
  });

  it('on a button of the marker popup: Enter is the button\'s, Delete and Ctrl+C / Ctrl+V are the marker\'s', () => {
    expect(markerKeyAction(press('Enter'), 'popup-control', open)).toBeNull();
    expect(markerKeyAction(press('Delete'), 'popup-control', open)).toBe('delete');
    expect(markerKeyAction(press('c', { ctrlKey: true }), 'popup-control', open)).toBe('copy');
    expect(markerKeyAction(press('v', { ctrlKey: true }), 'popup-control', { ...open, copied: true })).toBe('paste');
  });

  it('acts only on the map, the page or the marker popup: never in a field, on another control or in another panel', () => {
    for (const target of ['text', 'control', 'other'] as const) {
      expect(markerKeyAction(press('Enter'), target, open), target).toBeNull();
      expect(markerKeyAction(press('Delete'), target, open), target).toBeNull();
      expect(markerKeyAction(press('c', { ctrlKey: true }), target, open), target).toBeNull();
      expect(markerKeyAction(press('v', { ctrlKey: true }), target, { ...open, copied: true }), target).toBeNull();
    }
  });

  it('Ctrl+C (or ⌘C) copies the open marker unless text is selected; Ctrl+V pastes once something is copied', () => {
    expect(markerKeyAction(press('c', { ctrlKey: true }), 'map', open)).toBe('copy');
    expect(markerKeyAction(press('C', { metaKey: true }), 'map', open)).toBe('copy');
    expect(markerKeyAction(press('c', { ctrlKey: true }), 'map', { ...open, textSelected: true })).toBeNull();
    expect(markerKeyAction(press('c', { ctrlKey: true }), 'map', { ...open, openMarker: null })).toBeNull();
    expect(markerKeyAction(press('c', { ctrlKey: true }), 'map', { ...open, viewing: false })).toBeNull();
    expect(markerKeyAction(press('c', { ctrlKey: true, shiftKey: true }), 'map', open)).toBeNull();
    expect(markerKeyAction(press('v', { ctrlKey: true }), 'map', open)).toBeNull();
    expect(markerKeyAction(press('v', { ctrlKey: true }), 'map', { ...open, openMarker: null, copied: true })).toBe('paste');
    expect(markerKeyAction(press('c'), 'map', open)).toBeNull();
  });
});

describe('keys on the focused map canvas (a click on the map focuses it)', () => {
  it("are the open marker's keys but Enter, which presses at the cross-hair there", () => {
    const open: MarkerKeyState = { openMarker: 'm1', viewing: true, shapeSelected: false, textSelected: false, copied: false };
    expect(markerKeyAction(press('Delete'), 'canvas', open)).toBe('delete');
    expect(markerKeyAction(press('c', { ctrlKey: true }), 'canvas', open)).toBe('copy');
    expect(markerKeyAction(press('v', { ctrlKey: true }), 'canvas', { ...open, copied: true })).toBe('paste');
    expect(markerKeyAction(press('Enter'), 'canvas', open)).toBeNull();
    expect(markerKeyAction(press('Enter'), 'map', open)).toBe('edit');
  });
});

describe('keyTarget', () => {
  it('tells text fields, controls, the map and other panels apart', () => {
    document.body.innerHTML = `
      <div class="map-canvas" tabindex="0" data-keyboard-cursor="on"><canvas></canvas></div><div class="map-canvas" id="clicked" tabindex="0"></div>
      <div class="marker-popup"><div role="dialog" tabindex="-1"><p>Text</p><button>Edit</button><input type="search"></div></div>
      <aside><div tabindex="-1" id="panel"></div><input type="checkbox"><textarea></textarea></aside>
      <div contenteditable="true" id="editable"><b>bold</b></div><div contenteditable="false" id="fixed"></div>`;
    const q = (selector: string) => document.querySelector(selector);
    expect(keyTarget(document.body)).toBe('map');
    expect(keyTarget(null)).toBe('map');
    expect(keyTarget(q('canvas'))).toBe('map');
    expect(keyTarget(q('.map-canvas'))).toBe('canvas');
    // Focused by a click on the map (no cross-hair): the map, Enter included.
    expect(keyTarget(q('#clicked'))).toBe('map');
    expect(keyTarget(q('[role=dialog]'))).toBe('map');
    expect(keyTarget(q('.marker-popup p'))).toBe('map');
    expect(keyTarget(q('.marker-popup button'))).toBe('popup-control');
    expect(keyTarget(q('input[type=search]'))).toBe('text');
    expect(keyTarget(q('textarea'))).toBe('text');
    expect(keyTarget(q('input[type=checkbox]'))).toBe('control');
    expect(keyTarget(q('.marker-popup input[type=search]'))).toBe('text');
    expect(keyTarget(q('#panel'))).toBe('other');
    expect(keyTarget(q('#editable'))).toBe('text');
    expect(keyTarget(q('#editable b'))).toBe('text');
    expect(keyTarget(q('#fixed'))).toBe('other');
  });
});

describe('undo keys with an edit form open', () => {
  const key = (k: string, mods: Partial<Pick<KeyPress, 'ctrlKey' | 'metaKey' | 'shiftKey'>> = {}) => ({ key: k, ctrlKey: false, metaKey: false, shiftKey: false, ...mods });
  it('reads Ctrl+Z as undo and Ctrl+Shift+Z / Ctrl+Y as redo, as the state tree does', () => {
    expect(undoKey(key('z', { ctrlKey: true }))).toBe('undo');
    expect(undoKey(key('Z', { metaKey: true }))).toBe('undo');
    expect(undoKey(key('Z', { ctrlKey: true, shiftKey: true }))).toBe('redo');
    expect(undoKey(key('y', { ctrlKey: true }))).toBe('redo');
    expect(undoKey(key('z'))).toBeNull();
    expect(undoKey(key('c', { ctrlKey: true }))).toBeNull();
  });

  it('stops the browser’s own undo everywhere but in a text field', () => {
    const undo = key('z', { ctrlKey: true });
    expect(stopsBrowserUndo(undo, 'text')).toBe(false);
    expect(stopsBrowserUndo(undo, 'popup-control')).toBe(true);
    expect(stopsBrowserUndo(undo, 'control')).toBe(true);
    expect(stopsBrowserUndo(undo, 'map')).toBe(true);
    expect(stopsBrowserUndo(key('y', { ctrlKey: true }), 'other')).toBe(true);
    expect(stopsBrowserUndo(key('c', { ctrlKey: true }), 'popup-control')).toBe(false);
  });
});

describe('Ctrl+C, Ctrl+V and the undo keys on the Russian layout (by the physical key)', () => {
  it('copies with Ctrl+с and pastes with Ctrl+м (the C and V keys)', () => {
    expect(markerKeyAction(press('с', { ctrlKey: true, code: 'KeyC' }), 'map', open)).toBe('copy');
    expect(markerKeyAction(press('м', { ctrlKey: true, code: 'KeyV' }), 'map', { ...open, copied: true })).toBe('paste');
  });

  it('undoes with Ctrl+я, redoes with Ctrl+Shift+Я and Ctrl+н, and the edit form stops the browser\'s own undo for them', () => {
    expect(undoKey(press('я', { ctrlKey: true, code: 'KeyZ' }))).toBe('undo');
    expect(undoKey(press('Я', { ctrlKey: true, shiftKey: true, code: 'KeyZ' }))).toBe('redo');
    expect(undoKey(press('н', { ctrlKey: true, code: 'KeyY' }))).toBe('redo');
    expect(stopsBrowserUndo(press('я', { ctrlKey: true, code: 'KeyZ' }), 'map')).toBe(true);
  });

  it('keeps a Latin layout by letter (AZERTY\'s v on its V key; its w on QWERTY\'s Z key is no undo)', () => {
    expect(markerKeyAction(press('v', { ctrlKey: true, code: 'KeyV' }), 'map', { ...open, copied: true })).toBe('paste');
    expect(undoKey(press('w', { ctrlKey: true, code: 'KeyZ' }))).toBeNull();
  });
});
