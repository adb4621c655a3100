/**
 * The drawn shapes of one map in two tabs: the other tab's write reaches this one through the
 * window's `storage` event (jsdom: real localStorage, the event dispatched as a browser would).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shapesStorageKey, type DrawnShape } from '../domain/shapes';
import { addShape, editor, loadShapes, resetEditor } from './editor';

const key = shapesStorageKey('customs');
const rect: DrawnShape = { id: 'r1', type: 'rect', geometry: { x: 0, y: 0, x1: 50, y1: 50 }, name: '' };
const line: DrawnShape = { id: 'l2', type: 'line', geometry: { x: 0, y: 0, x1: 90, y1: 90 }, name: '' };

/** What the browser does in this tab when another tab writes the key. */
function otherTabWrites(value: DrawnShape[]): void {
  const text = JSON.stringify(value);
  const old = localStorage.getItem(key);
  localStorage.setItem(key, text);
  window.dispatchEvent(new StorageEvent('storage', { key, oldValue: old, newValue: text }));
}

beforeEach(() => {
  localStorage.clear();
  resetEditor();
});
afterEach(() => {
  resetEditor();
  localStorage.clear();
});

describe('shapes across tabs', () => {
  it("this tab shows the other tab's line at once, and its own rectangle and that line both stay stored", () => {
    loadShapes('customs');
    addShape(rect);
    otherTabWrites([rect, line]);
    expect(editor.shapes.map((s) => s.id)).toEqual(['r1', 'l2']);
    otherTabWrites([line]);
    expect(editor.shapes.map((s) => s.id)).toEqual(['l2']);
  });

  it("another map's key, or no map loaded, changes nothing", () => {
    loadShapes('customs');
    addShape(rect);
    localStorage.setItem(shapesStorageKey('woods'), JSON.stringify([line]));
    window.dispatchEvent(new StorageEvent('storage', { key: shapesStorageKey('woods') }));
    expect(editor.shapes.map((s) => s.id)).toEqual(['r1']);
    resetEditor();
    otherTabWrites([line]);
    expect(editor.shapes).toEqual([]);
  });
});
