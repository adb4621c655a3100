import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPopupSize, markerChanged, popup, POPUP_STORAGE_KEY, requestFocus, resetPopup, setEnlarged, showPopupFor, stepImage, takeFocus, toggleEnlarged } from './popup';
import { memoryStorage, setStorageBackend } from './storage';

let storage: ReturnType<typeof memoryStorage>;
beforeEach(() => {
  storage = memoryStorage();
  setStorageBackend(storage);
  resetPopup();
  loadPopupSize();
});
afterEach(() => setStorageBackend(null));

describe('popup state', () => {
  it('remembers the enlarged size in localStorage map_popup = xlsize', () => {
    expect(popup.enlarged).toBe(false);
    toggleEnlarged();
    expect(popup.enlarged).toBe(true);
    expect(storage.getItem(POPUP_STORAGE_KEY)).toBe('xlsize');
    setEnlarged(false);
    expect(storage.getItem(POPUP_STORAGE_KEY)).toBeNull();
    storage.setItem(POPUP_STORAGE_KEY, 'xlsize');
    loadPopupSize();
    expect(popup.enlarged).toBe(true);
    storage.setItem(POPUP_STORAGE_KEY, 'something else');
    loadPopupSize();
    expect(popup.enlarged).toBe(false);
  });

  it('pages images clamped, and a different marker starts at image 0', () => {
    showPopupFor('a');
    stepImage(1, 3);
    stepImage(1, 3);
    stepImage(1, 3);
    expect(popup.imageIndex).toBe(2);
    stepImage(-1, 3);
    expect(popup.imageIndex).toBe(1);
    showPopupFor('a');
    expect(popup.imageIndex).toBe(1);
    showPopupFor('b');
    expect(popup).toMatchObject({ uid: 'b', imageIndex: 0 });
    stepImage(-1, 3);
    expect(popup.imageIndex).toBe(0);
    stepImage(1, 0);
    expect(popup.imageIndex).toBe(0);
  });

  it('hands a focus request over once and ignores non-numbers', () => {
    requestFocus(Number.NaN, 3);
    expect(takeFocus()).toBeNull();
    requestFocus(120, 340);
    expect(takeFocus()).toEqual({ x: 120, y: 340 });
    expect(takeFocus()).toBeNull();
  });

  it('moves the revision for a change to the open marker or to any, not to another', () => {
    const start = popup.revision;
    markerChanged('x');
    expect(popup.revision).toBe(start + 1);
    showPopupFor('a');
    markerChanged('b');
    expect(popup.revision).toBe(start + 1);
    markerChanged('a');
    markerChanged();
    expect(popup.revision).toBe(start + 3);
  });
});
