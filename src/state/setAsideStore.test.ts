import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEditorCommands } from '../editor/commands';
import { fakeServer, fakeSink, marker } from '../editor/testing/fakes';
import type { Marker } from '../domain/marker';
import { bindEditor, editor, placeMarker, resetEditor } from './editor';
import { popup, resetPopup, showPopupFor, startEdit, setDraft } from './popup';
import {
  discardKeptAdds, keepSetAsideAcrossReloads, keptAdds, parseStoredAdds, parseStoredWork, restoreKeptAdds, setAsideStorageKey, unsavedAddsStorageKey, workToKeep,
} from './setAsideStore';
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
  resetEditor();
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

describe('unsaved markers across reloads', () => {
  const ADDS = unsavedAddsStorageKey('customs');

  /** A map page of an admin: its server (down for the next `failures` adds), its list, its commands. */
  function adminPage(list: Marker[] = [], failures = 0, prefix = 'new') {
    const server = fakeServer();
    const stored = list.map((m) => server.seed(m));
    const shown = fakeSink(stored);
    let n = 0;
    const commands = createEditorCommands({ api: server.api, sink: shown.sink, mapId: 'customs', newUid: () => `${prefix}-${++n}` });
    for (let i = 0; i < failures; i++) server.failNext('add');
    const tab = page();
    const stop = tab.start();
    bindEditor(commands);
    return { server, shown, commands, tab, stop };
  }

  /** The page goes: its keeper stops before its commands are unbound (as wireEditor does). */
  function leave(p: { stop: () => void }) {
    p.stop();
    resetEditor();
    resetPopup();
  }

  it('keeps the markers placed while the server was down, and the next page puts them back (unsaved, their adds sent)', async () => {
    const first = adminPage([], 2);
    await placeMarker(10, 20);
    await placeMarker(30, 40);
    expect(Object.values(editor.pending).map((p) => p.status)).toEqual(['failed', 'failed']);
    first.tab.close();
    leave(first);
    expect(Object.values(parseStoredAdds(storage.getItem(ADDS), 'customs')).flat().map((m) => m.uid)).toEqual(['new-1', 'new-2']);

    // The reload: still down for one add. The dock offers both.
    const next = adminPage([], 1, 'next');
    expect(keptAdds.markers.map((m) => [m.uid, m.geometry])).toEqual([
      ['new-1', { x: 10, y: 20 }],
      ['new-2', { x: 30, y: 40 }],
    ]);
    await restoreKeptAdds();
    await next.commands.settle();
    expect(keptAdds.markers).toEqual([]);
    expect(next.shown.markers.has('new-1')).toBe(true);
    // The first add failed again: on the map with its red badge, Retry; the second is saved.
    expect(editor.pending).toEqual({ 'new-1': { status: 'failed', error: expect.any(String) } });
    expect(next.server.stored.get('new-2')).toMatchObject({ uid: 'new-2', version: 1 });
    // Still unsaved: still kept for a later page.
    next.tab.hide();
    expect(Object.values(parseStoredAdds(storage.getItem(ADDS), 'customs')).flat().map((m) => m.uid)).toEqual(['new-1']);
    await next.commands.retrySave('new-1');
    next.tab.hide();
    expect(storage.getItem(ADDS)).toBeNull();
    leave(next);
  });

  it('does not add again a marker the server did save (its answer was lost): the loaded list has its uid', async () => {
    const first = adminPage();
    first.server.failNext('add', undefined, true); // stored, the answer lost
    await placeMarker(10, 20);
    expect(editor.pending['new-1']?.status).toBe('failed');
    first.tab.close();
    leave(first);

    const saved = { ...first.server.stored.get('new-1')!, name: 'Renamed by Bob' };
    const next = adminPage([saved], 0, 'next');
    expect(keptAdds.markers.map((m) => m.uid)).toEqual(['new-1']);
    await restoreKeptAdds();
    await next.commands.settle();
    expect(next.server.writes()).toEqual([]);
    expect(next.shown.markers.get('new-1')).toMatchObject({ name: 'Renamed by Bob' });
    expect(keptAdds.markers).toEqual([]);
    next.tab.hide();
    expect(storage.getItem(ADDS)).toBeNull();
    leave(next);
  });

  it('drops the offered markers when the admin discards them; nothing is sent', async () => {
    const first = adminPage([], 1);
    await placeMarker(10, 20);
    first.tab.close();
    leave(first);

    const next = adminPage([], 0, 'next');
    expect(keptAdds.markers).toHaveLength(1);
    discardKeptAdds();
    expect(keptAdds.markers).toEqual([]);
    expect(storage.getItem(ADDS)).toBeNull();
    next.tab.close();
    leave(next);
    expect(next.server.writes()).toEqual([]);
    adminPage();
    expect(keptAdds.markers).toEqual([]);
  });

  it('only the page that wrote its markers removes them: another tab’s stay stored beside this one’s', async () => {
    const mine = adminPage([], 1);
    // Another tab of the map stores its unsaved marker meanwhile.
    const theirs = marker('other-1', { name: 'Placed in the other tab' });
    storage.setItem(ADDS, JSON.stringify({ 'other-tab': [theirs] }));
    mine.tab.hide();
    expect(parseStoredAdds(storage.getItem(ADDS), 'customs')).toEqual({ 'other-tab': [theirs] });
    await placeMarker(10, 20);
    mine.tab.hide();
    const slots = parseStoredAdds(storage.getItem(ADDS), 'customs');
    expect(Object.values(slots).flat().map((m) => m.uid).sort()).toEqual(['new-1', 'other-1']);
    expect(slots['other-tab']).toEqual([theirs]);
    leave(mine);
  });

  it('never offers a broken entry or another map’s marker', () => {
    storage.setItem(ADDS, JSON.stringify({ a: [marker('ok-1'), marker('w-1', { map: 'woods' }), { uid: 'broken' }], b: 'nonsense' }));
    const p = adminPage();
    expect(keptAdds.markers.map((m) => m.uid)).toEqual(['ok-1']);
    leave(p);
    storage.setItem(ADDS, '{not json');
    expect(parseStoredAdds(storage.getItem(ADDS), 'customs')).toEqual({});
  });
});
