import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { marker } from '../editor/testing/fakes';
import { popup, resetPopup, showPopupFor, startEdit, setDraft } from './popup';
import { keepSetAsideAcrossReloads, parseStoredWork, setAsideStorageKey, workToKeep } from './setAsideStore';
import { memoryStorage, setStorageBackend } from './storage';

let storage: ReturnType<typeof memoryStorage>;
const KEY = setAsideStorageKey('customs');

/** A page: its window and document, hidden and shown at will. */
function page() {
  const win = new EventTarget();
  const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' as DocumentVisibilityState });
  return {
    start: () => keepSetAsideAcrossReloads('customs', win, doc),
    hide: () => {
      doc.visibilityState = 'hidden';
      doc.dispatchEvent(new Event('visibilitychange'));
    },
    close: () => win.dispatchEvent(new Event('pagehide')),
  };
}

/** The edit form of m1 open, with a typed name. */
function typing(name: string) {
  const base = marker('m1', { name: 'Base', version: 3 });
  showPopupFor('m1');
  startEdit(base);
  setDraft({ ...base, name });
}

beforeEach(() => {
  storage = memoryStorage();
  setStorageBackend(storage);
  resetPopup();
});
afterEach(() => {
  resetPopup();
  setStorageBackend(null);
});

describe('work set aside across reloads', () => {
  it('keeps the open form’s typed work when the page closes, and the next page offers it as set aside', () => {
    const first = page();
    const stop = first.start();
    typing('Typed before the reload');
    first.close();
    stop();
    resetPopup();
    const next = page();
    next.start();
    expect(popup.setAside).toMatchObject({ uid: 'm1', snapshot: { name: 'Base', version: 3 }, draft: { name: 'Typed before the reload' } });
  });

  it('keeps the edit set aside when the page is hidden (a phone switching apps), and drops it once the admin did', () => {
    const p = page();
    const stop = p.start();
    typing('Aside');
    showPopupFor(null);
    expect(popup.setAside).not.toBeNull();
    p.hide();
    expect(parseStoredWork(storage.data.get(KEY) ?? null, 'customs')?.edit.draft.name).toBe('Aside');
    popup.setAside = null;
    p.hide();
    expect(storage.data.has(KEY)).toBe(false);
    stop();
  });

  it('does not drop the work another tab of the map stored, and keeps nothing of another map', () => {
    // Tab B opened first: nothing stored yet, nothing taken.
    const b = page();
    const stopB = b.start();
    const a = page();
    const stopA = a.start();
    typing('Tab A’s work');
    a.hide();
    // (The tabs share this test's popup state: B's has no work.)
    resetPopup();
    b.hide();
    b.close();
    expect(parseStoredWork(storage.data.get(KEY) ?? null, 'customs')?.edit.draft.name).toBe('Tab A’s work');
    stopB();
    stopA();
    // Work on a marker of another map is not this map's to keep.
    expect(workToKeep({ mode: 'view', snapshot: null, draft: null, setAside: { uid: 'w', snapshot: marker('w', { map: 'woods' }), draft: marker('w', { map: 'woods', name: 'x' }) } }, 'customs')).toBeNull();
  });

  it('never restores a broken or foreign entry, and removes it', () => {
    for (const bad of ['not json', '{}', JSON.stringify({ page: 'p', edit: { uid: 'm1', snapshot: { uid: 'm1' }, draft: {} } }), JSON.stringify({ page: 'p', edit: { uid: 'm1', snapshot: marker('m1', { map: 'woods' }), draft: marker('m1', { map: 'woods' }) } })]) {
      storage.data.set(KEY, bad);
      const stop = page().start();
      expect(popup.setAside).toBeNull();
      expect(storage.data.has(KEY)).toBe(false);
      stop();
    }
  });

  it('stores nothing when the form has no typed change', () => {
    const p = page();
    const stop = p.start();
    const base = marker('m1', { name: 'Base' });
    showPopupFor('m1');
    startEdit(base);
    p.close();
    expect(storage.data.has(KEY)).toBe(false);
    stop();
  });
});
