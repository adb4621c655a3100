import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Marker } from '../domain/marker';
import { shapesStorageKey, type DrawnShape } from '../domain/shapes';
import { createEditorCommands } from '../editor/commands';
import { fakeServer, fakeSink, marker, offline } from '../editor/testing/fakes';
import {
  addShape,
  bindEditor,
  changesOnLeaving,
  changesOnLeavingNow,
  copyMarker,
  copyMarkerTo,
  pasteMarkerAt,
  deleteMarker,
  dismissGoneWhileMoving,
  drawnShapeSelected,
  followOpenMarker,
  editingForm,
  editingMarker,
  editor,
  EDITOR_STORAGE_KEY,
  finishPlacing,
  mergeShapes,
  syncShapes,
  loadEditorPrefs,
  loadHistory,
  hasUnsavedChanges,
  loadShapes,
  markerFlagsOf,
  markerSelection,
  moveMarker,
  noteGoneWhileMoving,
  parseEditorPrefs,
  placeMarker,
  receiveRemoteChange,
  reloadMarkers,
  redo,
  removeShape,
  resetEditor,
  resolveConflict,
  retrySave,
  saveMarker,
  selectShape,
  selectedMarkerUid,
  selectTool,
  setCursor,
  setEditOnOpen,
  setLive,
  setMarkerType,
  setPath,
  setShapes,
  startCopy,
  toggleEditMode,
  toggleMoveMode,
  undo,
  updateShape,
  uploadImage,
} from './editor';
import { closeMap, mapView, openMap, setLevel } from './mapView';
import { patchDraft, popup, resetPopup, showPopupFor, startEdit } from './popup';
import { memoryStorage, setStorageBackend } from './storage';

let storage: ReturnType<typeof memoryStorage>;

beforeEach(() => {
  storage = memoryStorage();
  setStorageBackend(storage);
  resetEditor();
  resetPopup();
});

afterEach(() => {
  resetEditor();
  closeMap();
  setStorageBackend(null);
});

function bind(initial: Marker[] = []) {
  const server = fakeServer();
  const stored = initial.map((m) => server.seed(m));
  const page = fakeSink(stored);
  let n = 0;
  const commands = createEditorCommands({ api: server.api, sink: page.sink, mapId: 'customs', newUid: () => `new-${++n}` });
  bindEditor(commands);
  return { server, page, commands, stored };
}

const rect = (id: string, x = 0): DrawnShape => ({ id, type: 'rect', geometry: { x, y: 0, x1: x + 50, y1: 50 }, name: '' });

describe('with nothing bound', () => {
  it('marker actions do nothing and answer null / false', async () => {
    expect(await placeMarker(1, 2)).toBeNull();
    expect(await saveMarker(marker('m1'))).toBeNull();
    expect(await copyMarkerTo('m1', 1, 2)).toBeNull();
    expect(await deleteMarker('m1')).toBe(false);
    expect(await loadHistory('m1')).toEqual([]);
    expect(await receiveRemoteChange({ kind: 'remove', map: 'customs', uid: 'm1', version: 2, by: null })).toBe('ignored');
    await moveMarker('m1', { x: 1, y: 1 });
    await undo();
    await redo();
    await retrySave('m1');
    await resolveConflict('mine');
    await expect(uploadImage('m1', 0, new File(['x'], 'a.png', { type: 'image/png' }))).rejects.toThrow('the editor is not ready');
    expect(editor.canUndo).toBe(false);
  });
});

describe('mode, tool and path', () => {
  it('a tool selects draw; null goes back to pan', () => {
    selectTool('rect');
    expect(editor).toMatchObject({ mode: 'draw', tool: 'rect', path: 'draw.rect.idle', drawingShape: null });
    selectTool(null);
    expect(editor).toMatchObject({ mode: 'pan', tool: null, path: 'pan.idle' });
  });

  it('edit toggles with pan, move toggles with pan; both clear the tool', () => {
    selectTool('poly');
    toggleEditMode();
    expect(editor).toMatchObject({ mode: 'edit', tool: null, path: 'edit.idle' });
    toggleEditMode();
    expect(editor.mode).toBe('pan');
    toggleMoveMode();
    expect(editor).toMatchObject({ mode: 'move', path: 'move.idle' });
    toggleMoveMode();
    expect(editor.mode).toBe('pan');
  });

  it('derives mode, tool and the shape being drawn from the engine path', () => {
    setPath('draw.rect.drawing');
    expect(editor).toMatchObject({ path: 'draw.rect.drawing', mode: 'draw', tool: 'rect', drawingShape: 'rect' });
    setPath('draw.rect.idle');
    expect(editor.drawingShape).toBeNull();
    setPath('move.dragging');
    expect(editor).toMatchObject({ mode: 'move', tool: null, drawingShape: null, path: 'move.dragging' });
    setPath('root.nowhere');
    expect(editor.path).toBe('move.dragging');
  });

  it('keeps the cursor and live state', () => {
    setCursor({ mapX: 1, mapY: 2, screenX: 3, screenY: 4 });
    expect(editor.cursor).toEqual({ mapX: 1, mapY: 2, screenX: 3, screenY: 4 });
    setCursor(null);
    expect(editor.cursor).toBeNull();
    setLive('reconnecting');
    expect(editor.live).toBe('reconnecting');
  });
});

describe('remembered options', () => {
  it('remembers the marker type and edit-on-open in map:editor', () => {
    setMarkerType('Keys', 'Key Spawn');
    setEditOnOpen(true);
    expect(JSON.parse(storage.getItem(EDITOR_STORAGE_KEY)!)).toEqual({ markerCategory: 'Keys', markerSubCategory: 'Key Spawn', editOnOpen: true });
    setMarkerType('Keys', 'Not a subcategory');
    expect(editor.markerSubCategory).toBe('Key Spawn');
    resetEditor();
    expect(editor).toMatchObject({ markerCategory: 'Keys', markerSubCategory: 'Key Spawn', editOnOpen: true });
  });

  it('falls back to the defaults for anything malformed', () => {
    expect(parseEditorPrefs('{oops')).toEqual({ markerCategory: 'Markers', markerSubCategory: 'Marker', editOnOpen: false });
    expect(parseEditorPrefs(JSON.stringify({ markerCategory: 'Loot', markerSubCategory: 'Key Spawn', editOnOpen: 'yes' }))).toEqual({
      markerCategory: 'Markers',
      markerSubCategory: 'Marker',
      editOnOpen: false,
    });
    storage.setItem(EDITOR_STORAGE_KEY, JSON.stringify({ markerCategory: 'Loot', markerSubCategory: 'Safe' }));
    loadEditorPrefs();
    expect(editor).toMatchObject({ markerCategory: 'Loot', markerSubCategory: 'Safe', editOnOpen: false });
  });
});

describe('marker actions', () => {
  it('places a marker of the chosen type on the level shown; its pending save and undo show here', async () => {
    openMap('customs');
    setLevel(2);
    setMarkerType('Loot', 'Safe');
    const { server, page } = bind();
    server.failNext('add', offline());
    expect(await placeMarker(1.23456, 2)).toBeNull();
    expect(page.markers.get('new-1')).toMatchObject({ level: 2, category: 'Loot', subCategory: 'Safe', geometry: { x: 1.2346, y: 2 } });
    expect(editor.pending['new-1']).toEqual({ status: 'failed', error: 'the server could not be reached. Try again.' });
    expect(editor.canUndo).toBe(true);
    await retrySave('new-1');
    expect(editor.pending).toEqual({});
    expect(mapView.level).toBe(2);
  });

  it('copies at the next click and clears copying', async () => {
    bind([marker('m1', { name: 'Safe' })]);
    startCopy('m1');
    expect(editor.copying).toBe('m1');
    expect(await copyMarkerTo('m1', 5, 6)).toMatchObject({ uid: 'new-1', name: 'Safe', geometry: { x: 5, y: 6 } });
    expect(editor.copying).toBeNull();
  });

  it('Ctrl+C remembers a marker and arms the click; each Ctrl+V places another copy; nothing after sign-out', async () => {
    bind([marker('m1', { name: 'Safe' })]);
    expect(await pasteMarkerAt(1, 1)).toBeNull();
    copyMarker('m1');
    expect(editor).toMatchObject({ copied: 'm1', copying: 'm1' });
    expect(await pasteMarkerAt(5, 6)).toMatchObject({ uid: 'new-1', name: 'Safe', geometry: { x: 5, y: 6 } });
    expect(editor.copying).toBeNull();
    expect(await pasteMarkerAt(7, 8)).toMatchObject({ uid: 'new-2', name: 'Safe', geometry: { x: 7, y: 8 } });
    expect(editor.copied).toBe('m1');
    bindEditor(null);
    expect(editor.copied).toBeNull();
  });

  it('a copy placed by a click or Ctrl+V takes the floor shown, not its source\'s', async () => {
    openMap('customs');
    const { server } = bind([marker('m1', { name: 'Safe', level: 3 })]);
    setLevel(2);
    startCopy('m1');
    expect(await copyMarkerTo('m1', 5, 6, mapView.level)).toMatchObject({ uid: 'new-1', level: 2 });
    copyMarker('m1');
    expect(await pasteMarkerAt(7, 8)).toMatchObject({ uid: 'new-2', level: 2 });
    // Left out (an Alt-drag copy): the source's floor.
    expect(await copyMarkerTo('m1', 9, 9)).toMatchObject({ uid: 'new-3', level: 3 });
    expect(server.stored.get('new-1')?.level).toBe(2);
  });

  it("an undo of the place under an open edit form closes the form and sets its typing aside; the redo brings the marker back", async () => {
    openMap('customs');
    const { server } = bind();
    const placed = (await placeMarker(10, 20))!;
    startEdit(placed);
    patchDraft({ name: 'Stash' });
    await undo();
    expect(server.stored.has(placed.uid)).toBe(false);
    expect(popup.mode).toBe('view');
    expect(popup.setAside).toMatchObject({ uid: placed.uid, draft: { name: 'Stash' }, removed: true });
    await redo();
    expect(server.stored.has(placed.uid)).toBe(true);
    expect(popup.setAside?.draft.name).toBe('Stash');
    // Back on the page: the work is an edit of it again, not an add.
    expect(popup.setAside?.removed).toBeUndefined();
  });

  it('moves and undoes through the bound commands', async () => {
    const { page } = bind([marker('m1')]);
    await moveMarker('m1', { x: 7, y: 8 });
    expect(editor.canUndo).toBe(true);
    await undo();
    expect(page.markers.get('m1')?.geometry).toEqual({ x: 100, y: 200 });
    expect(editor).toMatchObject({ canUndo: false, canRedo: true });
  });

  it('shows a readable error for a file that cannot be uploaded', async () => {
    bind([marker('m1')]);
    await expect(uploadImage('m1', 0, new File(['x'], 'a.gif', { type: 'image/gif' }))).rejects.toMatchObject({ code: 'fileType', message: 'images must be PNG, JPEG or WebP files.' });
  });
});

describe('badges of unsaved markers', () => {
  it('flags a marker saving while its change is on the way, failed when refused or in conflict, and nothing once saved', async () => {
    const { server, stored } = bind([marker('m1', { name: 'Base' })]);
    const release = server.hold();
    const placing = placeMarker(5, 5);
    await vi.waitFor(() => expect(markerFlagsOf(editor)).toEqual({ 'new-1': 'saving' }));
    release();
    await placing;
    expect(markerFlagsOf(editor)).toEqual({});
    server.failNext('add', offline());
    await placeMarker(6, 6);
    expect(markerFlagsOf(editor)).toEqual({ 'new-2': 'failed' });
    showPopupFor('m1');
    startEdit(stored[0]);
    server.seed({ ...stored[0], desc: 'Theirs' });
    await saveMarker({ ...popup.draft!, name: 'Mine' });
    expect(markerFlagsOf(editor)).toEqual({ 'new-2': 'failed', m1: 'failed' });
    await resolveConflict('theirs');
    expect(hasUnsavedChanges(editor)).toBe(true);
    await retrySave('new-2');
    expect(markerFlagsOf(editor)).toEqual({});
    expect(hasUnsavedChanges(editor)).toBe(false);
  });
});

describe('conflicts and the edit form', () => {
  it('a refused save shows the conflict; mine saves and closes the form', async () => {
    const { server, page, stored } = bind([marker('m1', { name: 'Base' })]);
    showPopupFor('m1');
    startEdit(stored[0]);
    server.seed({ ...stored[0], desc: 'Theirs' });
    expect(await saveMarker({ ...popup.draft!, name: 'Mine' })).toBeNull();
    expect(editor.conflict).toMatchObject({ uid: 'm1', action: 'update', origin: 'save', mine: { name: 'Mine' }, theirs: { desc: 'Theirs', version: 2 } });
    expect(popup.mode).toBe('edit');
    await resolveConflict('mine');
    expect(editor.conflict).toBeNull();
    expect(popup.mode).toBe('view');
    expect(page.markers.get('m1')).toMatchObject({ name: 'Mine', version: 3 });
  });

  it('work set aside for a marker whose save was refused goes once its conflict is resolved (it was the conflict’s mine)', async () => {
    const { server, stored } = bind([marker('m1', { name: 'Base' }), marker('m2')]);
    showPopupFor('m1');
    startEdit(stored[0]);
    patchDraft({ name: 'Mine' });
    server.seed({ ...stored[0], desc: 'Theirs' });
    expect(await saveMarker({ ...popup.draft! })).toBeNull();
    showPopupFor('m2');
    expect(popup.setAside).toMatchObject({ uid: 'm1', draft: { name: 'Mine' } });
    expect(Object.keys(editor.conflicts)).toEqual(['m1']);
    await resolveConflict('theirs', 'm1');
    expect(editor.conflicts).toEqual({});
    expect(popup.setAside).toBeNull();
  });

  it('theirs keeps the server marker and closes the form', async () => {
    const { server, stored } = bind([marker('m1')]);
    startEdit(stored[0]);
    server.seed({ ...stored[0], desc: 'Theirs' });
    await saveMarker({ ...stored[0], name: 'Mine' });
    const revision = popup.revision;
    await resolveConflict('theirs');
    expect(popup.mode).toBe('view');
    expect(popup.revision).toBe(revision + 1);
    expect(server.writes().filter((w) => w.op === 'update')).toHaveLength(1);
  });

  it('a remote change to the marker being edited is a conflict; mine keeps the form on their version', async () => {
    const { server, stored } = bind([marker('m1')]);
    startEdit(stored[0]);
    popup.draft!.name = 'Typing';
    expect(editingMarker()).toMatchObject({ name: 'Typing', version: 1 });
    const theirs = server.seed({ ...stored[0], desc: 'Remote' });
    expect(await receiveRemoteChange({ kind: 'upsert', map: 'customs', marker: theirs, by: 'bob' })).toBe('conflict');
    expect(editor.conflict).toMatchObject({ uid: 'm1', origin: 'live', mine: { name: 'Typing' }, theirs: { desc: 'Remote', version: 2 } });
    await resolveConflict('mine');
    expect(popup).toMatchObject({ mode: 'edit', draft: { name: 'Typing', version: 2 } });
    expect(await saveMarker(popup.draft!)).toMatchObject({ name: 'Typing', version: 3 });
  });

  it('a change the live feed missed (it was down) is the same conflict once the list is reloaded, before any Save', async () => {
    const { server, page, stored } = bind([marker('m1')]);
    startEdit(stored[0]);
    popup.draft!.name = 'Typing';
    const theirs = server.seed({ ...stored[0], desc: 'Saved on another server while ours was down' });
    await reloadMarkers(async () => {
      page.markers.set('m1', JSON.parse(JSON.stringify(theirs)) as Marker);
      return true;
    });
    expect(editor.conflicts.m1).toMatchObject({ origin: 'live', mine: { name: 'Typing', desc: theirs.desc }, theirs: { version: 2 } });
    await resolveConflict('mine');
    expect(popup).toMatchObject({ mode: 'edit', draft: { name: 'Typing', version: 2 } });
    expect(await saveMarker(popup.draft!)).toMatchObject({ name: 'Typing', desc: theirs.desc, version: 3 });
  });

  it('another admin’s move while the description is edited: mine is the description alone; Keep mine + save keeps the move', async () => {
    const { server, page, stored } = bind([marker('m1', { desc: 'Old' })]);
    showPopupFor('m1');
    startEdit(stored[0]);
    patchDraft({ desc: 'Mine' });
    const theirs = server.seed({ ...stored[0], geometry: { x: 900, y: 950 } });
    expect(await receiveRemoteChange({ kind: 'upsert', map: 'customs', marker: theirs, by: 'bob' })).toBe('conflict');
    // "Yours" is only what was typed, on their version: the position is theirs.
    expect(editor.conflicts.m1).toMatchObject({ origin: 'live', mine: { desc: 'Mine', geometry: { x: 900, y: 950 } }, theirs: { desc: 'Old', geometry: { x: 900, y: 950 } } });
    await resolveConflict('mine', 'm1');
    expect(popup).toMatchObject({ mode: 'edit', snapshot: { version: 2, geometry: { x: 900, y: 950 } }, draft: { desc: 'Mine', version: 2, geometry: { x: 900, y: 950 } } });
    expect(await saveMarker(popup.draft!)).toMatchObject({ desc: 'Mine', geometry: { x: 900, y: 950 }, version: 3 });
    expect(server.stored.get('m1')).toMatchObject({ desc: 'Mine', geometry: { x: 900, y: 950 } });
    expect(page.markers.get('m1')).toMatchObject({ desc: 'Mine', geometry: { x: 900, y: 950 } });
  });

  it('another admin’s upload while the name is edited: Keep mine + save keeps their image', async () => {
    const { server, stored } = bind([marker('m1', { name: 'Old' })]);
    startEdit(stored[0]);
    patchDraft({ name: 'Mine' });
    const imgs = [{ img: '/img/markers/m1-0-a.webp', name: '', desc: '' }];
    const theirs = server.seed({ ...stored[0], imgs });
    await receiveRemoteChange({ kind: 'upsert', map: 'customs', marker: theirs, by: 'bob' });
    expect(editor.conflicts.m1.mine).toMatchObject({ name: 'Mine', imgs });
    await resolveConflict('mine', 'm1');
    expect(popup.draft).toMatchObject({ name: 'Mine', imgs });
    await saveMarker(popup.draft!);
    expect(server.stored.get('m1')).toMatchObject({ name: 'Mine', imgs, version: 3 });
  });

  it('Take theirs of a live change drops the typed work, open or set aside', async () => {
    const { server, stored } = bind([marker('m1'), marker('m2')]);
    showPopupFor('m1');
    startEdit(stored[0]);
    patchDraft({ name: 'Mine' });
    const theirs = server.seed({ ...stored[0], desc: 'Theirs' });
    await receiveRemoteChange({ kind: 'upsert', map: 'customs', marker: theirs, by: 'bob' });
    showPopupFor('m2');
    expect(popup.setAside).toMatchObject({ uid: 'm1', draft: { name: 'Mine' } });
    await resolveConflict('theirs', 'm1');
    expect(popup.setAside).toBeNull();
    expect(popup.mode).toBe('view');
    expect(server.writes()).toEqual([]);
  });

  it('Keep mine of a live change whose form was closed: the set-aside work comes back in the form, on their version', async () => {
    const { server, stored } = bind([marker('m1', { desc: 'Old' }), marker('m2')]);
    showPopupFor('m1');
    startEdit(stored[0]);
    patchDraft({ desc: 'Mine' });
    const theirs = server.seed({ ...stored[0], geometry: { x: 7, y: 8 } });
    await receiveRemoteChange({ kind: 'upsert', map: 'customs', marker: theirs, by: 'bob' });
    showPopupFor('m2');
    showPopupFor('m1'); // its popup, in view mode (the dock's Show)
    expect(popup.mode).toBe('view');
    await resolveConflict('mine', 'm1');
    expect(popup).toMatchObject({ mode: 'edit', setAside: null, snapshot: { version: 2 }, draft: { desc: 'Mine', geometry: { x: 7, y: 8 }, version: 2 } });
    await saveMarker(popup.draft!);
    expect(server.stored.get('m1')).toMatchObject({ desc: 'Mine', geometry: { x: 7, y: 8 }, version: 3 });
  });

  it('a refused save’s mine is only this page’s changes: Keep mine keeps the other admin’s move', async () => {
    const { server, stored } = bind([marker('m1', { desc: 'Old' })]);
    showPopupFor('m1');
    startEdit(stored[0]);
    patchDraft({ desc: 'Mine' });
    server.seed({ ...stored[0], geometry: { x: 7, y: 8 } });
    expect(await saveMarker({ ...popup.draft! })).toBeNull();
    expect(editor.conflicts.m1).toMatchObject({ origin: 'save', mine: { desc: 'Mine', geometry: { x: 7, y: 8 } } });
    await resolveConflict('mine', 'm1');
    expect(server.stored.get('m1')).toMatchObject({ desc: 'Mine', geometry: { x: 7, y: 8 }, version: 3 });
    expect(popup.mode).toBe('view');
  });

  it('another admin deletes the marker being edited: Keep mine keeps the form, and its save adds it again (same uid)', async () => {
    const { server, page, stored } = bind([marker('m1', { name: 'Base' })]);
    showPopupFor('m1');
    startEdit(stored[0]);
    patchDraft({ name: 'Mine' });
    const version = server.remove('m1');
    expect(await receiveRemoteChange({ kind: 'remove', map: 'customs', uid: 'm1', version, by: 'bob' })).toBe('conflict');
    expect(editor.conflicts.m1).toMatchObject({ origin: 'live', theirs: null, mine: { name: 'Mine' } });
    expect(page.markers.has('m1')).toBe(false);
    await resolveConflict('mine', 'm1');
    expect(editor.conflicts).toEqual({});
    expect(popup).toMatchObject({ mode: 'edit', draft: { uid: 'm1', name: 'Mine' } });
    expect(popup.draft?.version).toBeUndefined();
    expect(server.writes()).toEqual([]);
    expect(await saveMarker(popup.draft!)).toMatchObject({ uid: 'm1', name: 'Mine', version: version + 1 });
    expect(server.writes().map((w) => [w.op, w.uid])).toEqual([['add', 'm1']]);
    expect(page.markers.get('m1')).toMatchObject({ name: 'Mine' });
  });

  it('another admin deletes the marker being edited: Take theirs closes the form, it stays deleted', async () => {
    const { server, page, stored } = bind([marker('m1')]);
    showPopupFor('m1');
    startEdit(stored[0]);
    patchDraft({ name: 'Mine' });
    const version = server.remove('m1');
    await receiveRemoteChange({ kind: 'remove', map: 'customs', uid: 'm1', version, by: 'bob' });
    await resolveConflict('theirs', 'm1');
    expect(popup.mode).toBe('view');
    expect(editor.conflicts).toEqual({});
    expect(server.writes()).toEqual([]);
    expect(page.markers.has('m1')).toBe(false);
  });

  it('ignores the echo of its own save', async () => {
    const { page } = bind([marker('m1')]);
    const saved = await saveMarker({ ...page.markers.get('m1')!, name: 'Mine' });
    expect(await receiveRemoteChange({ kind: 'upsert', map: 'customs', marker: saved!, by: 'me' })).toBe('ignored');
  });

  it('work set aside (form closed): another admin’s delete or change of its marker is a conflict; other markers are not', async () => {
    const { server, page, stored } = bind([marker('m1', { name: 'Base' }), marker('m2'), marker('m3')]);
    showPopupFor('m1');
    startEdit(stored[0]);
    patchDraft({ name: 'Mine' });
    showPopupFor('m2');
    startEdit(stored[1]);
    patchDraft({ desc: 'Open form' });
    // A form open on m2: a change of m3 is applied, one of the set-aside m1 is a conflict, m2's form untouched.
    const third = server.seed({ ...stored[2], desc: 'Theirs' });
    expect(await receiveRemoteChange({ kind: 'upsert', map: 'customs', marker: third, by: 'bob' })).toBe('applied');
    const version = server.remove('m1');
    expect(await receiveRemoteChange({ kind: 'remove', map: 'customs', uid: 'm1', version, by: 'bob' })).toBe('conflict');
    expect(editor.conflicts.m1).toMatchObject({ origin: 'live', theirs: null, mine: { name: 'Mine' } });
    expect(page.markers.has('m1')).toBe(false);
    expect(popup).toMatchObject({ mode: 'edit', draft: { uid: 'm2', desc: 'Open form' } });
    expect(editingForm()).toMatchObject({ draft: { uid: 'm2' } });
    // No form open: the set-aside edit is what a live change meets.
    showPopupFor(null);
    expect(editingForm()).toMatchObject({ draft: { uid: 'm2', desc: 'Open form' }, base: { uid: 'm2' } });
  });

  it('a failed save whose work was set aside: a Retry that saves it drops the set-aside work', async () => {
    const { server, stored } = bind([marker('m1'), marker('m2')]);
    showPopupFor('m1');
    startEdit(stored[0]);
    patchDraft({ name: 'Mine' });
    server.failNext('update');
    expect(await saveMarker({ ...popup.draft! })).toBeNull();
    showPopupFor('m2');
    expect(popup.setAside).toMatchObject({ uid: 'm1' });
    await retrySave('m1');
    expect(server.stored.get('m1')).toMatchObject({ name: 'Mine' });
    expect(popup.setAside).toBeNull();
  });
});

describe('shapes', () => {
  it('are read per map from local storage, bad entries dropped, and saved on change', () => {
    storage.setItem(shapesStorageKey('customs'), JSON.stringify([rect('a'), { id: 'b', type: 'blob', geometry: { x: 0, y: 0 } }, { id: 'c', type: 'cirle', geometry: { x: 1, y: 2 } }]));
    loadShapes('customs');
    expect(editor.shapes.map((s) => [s.id, s.type])).toEqual([
      ['a', 'rect'],
      ['c', 'circle'],
    ]);
    addShape(rect('d', 100));
    expect(JSON.parse(storage.getItem(shapesStorageKey('customs'))!).map((s: DrawnShape) => s.id)).toEqual(['a', 'c', 'd']);
    loadShapes('woods');
    expect(editor.shapes).toEqual([]);
    addShape(rect('w'));
    loadShapes('customs');
    expect(editor.shapes.map((s) => s.id)).toEqual(['a', 'c', 'd']);
    setShapes([]);
    expect(storage.getItem(shapesStorageKey('customs'))).toBeNull();
  });

  it('a drag is one undo step from where it began', async () => {
    bind();
    loadShapes('customs');
    addShape(rect('a'));
    updateShape(rect('a', 10), false);
    updateShape(rect('a', 20), false);
    expect(JSON.parse(storage.getItem(shapesStorageKey('customs'))!)[0].geometry.x).toBe(0);
    updateShape(rect('a', 30), true);
    expect(JSON.parse(storage.getItem(shapesStorageKey('customs'))!)[0].geometry.x).toBe(30);
    await undo();
    expect(editor.shapes[0].geometry.x).toBe(0);
    await undo();
    expect(editor.shapes).toEqual([]);
    await redo();
    await redo();
    expect(editor.shapes[0].geometry.x).toBe(30);
  });

  it('removing a shape is undone by putting it back; selection follows', async () => {
    bind();
    loadShapes('customs');
    addShape(rect('a'));
    selectShape('a');
    removeShape('a');
    expect(editor.selectedShape).toBeNull();
    expect(editor.shapes).toEqual([]);
    await undo();
    expect(editor.shapes.map((s) => s.id)).toEqual(['a']);
    expect(JSON.parse(storage.getItem(shapesStorageKey('customs'))!)).toHaveLength(1);
  });

  it("a text shape's label request (editLabel) follows the selection: another one, or the shape removed, drops it", () => {
    bind();
    loadShapes('customs');
    addShape({ id: 't', type: 'text', geometry: { x: 1, y: 2 }, name: 'Text' });
    selectShape('t', { editLabel: true });
    expect(editor).toMatchObject({ selectedShape: 't', labelFocus: 't' });
    selectShape('t');
    expect(editor.labelFocus).toBeNull();
    selectShape('t', { editLabel: true });
    removeShape('t');
    expect(editor).toMatchObject({ selectedShape: null, labelFocus: null });
    selectShape(null, { editLabel: true });
    expect(editor.labelFocus).toBeNull();
  });

  it('a marker-type shape places a marker instead', async () => {
    const { commands, page } = bind();
    loadShapes('customs');
    addShape({ id: 'x', type: 'marker', geometry: { x: 3, y: 4 }, name: '' });
    await commands.settle();
    expect(editor.shapes).toEqual([]);
    expect(page.markers.get('new-1')?.geometry).toEqual({ x: 3, y: 4 });
  });
});

describe('shapes in two tabs of the same map (one local storage key)', () => {
  const key = shapesStorageKey('customs');
  const stored = () => (JSON.parse(storage.getItem(key) ?? '[]') as DrawnShape[]).map((s) => s.id);
  const line = (id: string): DrawnShape => ({ id, type: 'line', geometry: { x: 0, y: 0, x1: 90, y1: 90 }, name: '' });

  it("a write puts this tab's change onto what the other tab stored: neither tab's shape is lost", () => {
    loadShapes('customs');
    // The other tab drew a line after this one loaded (its storage event not heard yet).
    storage.setItem(key, JSON.stringify([line('l2')]));
    addShape(rect('r1'));
    expect(stored()).toEqual(['l2', 'r1']);
    expect(editor.shapes.map((s) => s.id)).toEqual(['l2', 'r1']);
  });

  it("the storage event takes the other tab's list (added, changed, deleted) and writes nothing", () => {
    loadShapes('customs');
    addShape(rect('a'));
    addShape(rect('b'));
    selectShape('b');
    const other = [{ ...rect('a'), name: 'Stash' }, line('c')];
    storage.setItem(key, JSON.stringify(other));
    syncShapes();
    expect(editor.shapes).toEqual(other);
    expect(editor.selectedShape).toBeNull();
    expect(JSON.parse(storage.getItem(key)!)).toEqual(other);
  });

  it('a shape deleted in one tab does not come back from the other', () => {
    loadShapes('customs');
    addShape(rect('a'));
    addShape(rect('b'));
    // The other tab deletes a (this tab has not heard it), then this tab draws c.
    storage.setItem(key, JSON.stringify([rect('b')]));
    addShape(rect('c'));
    expect(stored()).toEqual(['b', 'c']);
    expect(editor.shapes.map((s) => s.id)).toEqual(['b', 'c']);
    // And the other way round: this tab deletes b; a stale tab that still shows b writes its own d.
    removeShape('b');
    expect(stored()).toEqual(['c']);
    const staleBase = new Map([rect('b'), rect('c')].map((s) => [s.id, JSON.stringify(s)]));
    expect(mergeShapes([rect('c')], [rect('b'), rect('c'), line('d')], staleBase).map((s) => s.id)).toEqual(['c', 'd']);
  });

  it("a change here wins over the other tab's older copy; a change there to a shape this tab left alone is kept", () => {
    loadShapes('customs');
    addShape(rect('a'));
    addShape(rect('b'));
    storage.setItem(key, JSON.stringify([rect('a'), { ...rect('b'), name: 'theirs' }]));
    updateShape({ ...rect('a'), name: 'mine' }, true);
    expect((JSON.parse(storage.getItem(key)!) as DrawnShape[]).map((s) => s.name)).toEqual(['mine', 'theirs']);
  });

  it("a drag in progress keeps its shape as dragged through the other tab's change, and is saved once released", () => {
    loadShapes('customs');
    addShape(rect('a'));
    updateShape(rect('a', 40), false);
    storage.setItem(key, JSON.stringify([rect('a'), line('z')]));
    syncShapes();
    expect(editor.shapes.map((s) => [s.id, s.geometry.x])).toEqual([
      ['a', 40],
      ['z', 0],
    ]);
    updateShape(rect('a', 50), true);
    expect((JSON.parse(storage.getItem(key)!) as DrawnShape[]).map((s) => [s.id, s.geometry.x])).toEqual([
      ['a', 50],
      ['z', 0],
    ]);
  });
});

describe('a text shape whose label is left empty', () => {
  const text = (name = 'Text'): DrawnShape => ({ id: 't', type: 'text', geometry: { x: 1, y: 2 }, name });
  const place = () => {
    addShape(text());
    selectShape('t', { editLabel: true });
  };

  it('just placed and its label deleted: removed on finishing, no undo step at all', async () => {
    bind();
    loadShapes('customs');
    addShape(rect('r'));
    place();
    updateShape(text(''), true);
    expect(editor.shapes.map((s) => s.id)).toEqual(['r']);
    expect(editor.selectedShape).toBeNull();
    expect(JSON.parse(storage.getItem(shapesStorageKey('customs'))!).map((s: DrawnShape) => s.id)).toEqual(['r']);
    // The only step left is the rectangle's.
    await undo();
    expect(editor.shapes).toEqual([]);
    expect(editor.canUndo).toBe(false);
    await redo();
    expect(editor.shapes.map((s) => s.id)).toEqual(['r']);
  });

  it('a label of spaces is empty too', () => {
    bind();
    loadShapes('customs');
    place();
    updateShape(text('   '), true);
    expect(editor.shapes).toEqual([]);
    expect(editor.canUndo).toBe(false);
  });

  it('a text placed and kept as is is one step once finished; placement and label are two', async () => {
    bind();
    loadShapes('customs');
    place();
    finishPlacing();
    expect(editor.canUndo).toBe(true);
    await undo();
    expect(editor.shapes).toEqual([]);
    place();
    updateShape(text('Exit'), true);
    await undo();
    expect(editor.shapes.map((s) => s.name)).toEqual(['Text']);
    await undo();
    expect(editor.shapes).toEqual([]);
  });

  it("another shape drawn before the label is finished: the text's step comes first", async () => {
    bind();
    loadShapes('customs');
    place();
    addShape(rect('r'));
    await undo();
    expect(editor.shapes.map((s) => s.id)).toEqual(['t']);
    await undo();
    expect(editor.shapes).toEqual([]);
  });

  it('a labelled text emptied later is removed as one step; undo brings back its label', async () => {
    bind();
    loadShapes('customs');
    place();
    updateShape(text('Exit'), true);
    updateShape(text(''), true);
    expect(editor.shapes).toEqual([]);
    await undo();
    expect(editor.shapes.map((s) => s.name)).toEqual(['Exit']);
  });
});

describe('changes leaving the map would lose or keep', () => {
  it('counts each marker whose change the server has not taken (saving, failed, in conflict) as lost, the unsaved markers placed as kept', () => {
    const saving = { status: 'saving' as const, error: null };
    const failed = { status: 'failed' as const, error: 'offline' };
    const conflict = { uid: 'm3', mine: marker('m3'), theirs: null, action: 'update' as const, origin: 'save' as const };
    expect(changesOnLeaving({ pending: {}, conflicts: {} })).toEqual({ lost: 0, kept: 0 });
    expect(changesOnLeaving({ pending: { m1: saving, m2: failed }, conflicts: { m3: conflict } })).toEqual({ lost: 3, kept: 0 });
    // A marker both pending and in conflict is one change.
    expect(changesOnLeaving({ pending: { m3: failed }, conflicts: { m3: conflict } })).toEqual({ lost: 1, kept: 0 });
    // An unsaved add is kept across leaving (state/setAsideStore.ts): not lost.
    expect(changesOnLeaving({ pending: { m1: failed, 'new-1': failed }, conflicts: {} }, new Set(['new-1']))).toEqual({ lost: 1, kept: 1 });
  });

  it('reads the bound commands: a failed move is lost, a failed add kept, nothing once saved', async () => {
    expect(changesOnLeavingNow()).toEqual({ lost: 0, kept: 0 });
    const { server } = bind([marker('m1')]);
    server.failNext('update', offline());
    await moveMarker('m1', { x: 7, y: 8 });
    expect(changesOnLeavingNow()).toEqual({ lost: 1, kept: 0 });
    server.failNext('add', offline());
    await placeMarker(5, 5);
    expect(changesOnLeavingNow()).toEqual({ lost: 1, kept: 1 });
    await retrySave('m1');
    await retrySave('new-1');
    expect(changesOnLeavingNow()).toEqual({ lost: 0, kept: 0 });
    bindEditor(null);
    expect(changesOnLeavingNow()).toEqual({ lost: 0, kept: 0 });
  });
});

describe('a marker deleted by another admin while it was dragged', () => {
  it('is noted for the dock until dismissed, and gone with the page', () => {
    expect(editor.goneWhileMoving).toBeNull();
    noteGoneWhileMoving('m1', 'Safe');
    expect(editor.goneWhileMoving).toEqual({ uid: 'm1', subCategory: 'Safe' });
    dismissGoneWhileMoving();
    expect(editor.goneWhileMoving).toBeNull();
    noteGoneWhileMoving('m1', null);
    resetEditor();
    expect(editor.goneWhileMoving).toBeNull();
  });
});

describe('a marker as the selection (`marker:{uid}`) in edit and move', () => {
  it('tells a marker\'s selection from a drawn shape\'s', () => {
    expect(markerSelection('m1')).toBe('marker:m1');
    expect(selectedMarkerUid('marker:m1')).toBe('m1');
    expect(selectedMarkerUid('shape-1')).toBeNull();
    expect(selectedMarkerUid(null)).toBeNull();
    expect(drawnShapeSelected({ selectedShape: 'shape-1' })).toBe(true);
    expect(drawnShapeSelected({ selectedShape: 'marker:m1' })).toBe(false);
    expect(drawnShapeSelected({ selectedShape: null })).toBe(false);
  });

  it('the marker opened in edit or move is selected, and no longer once its popup closes', () => {
    toggleEditMode();
    followOpenMarker('m1');
    expect(editor.selectedShape).toBe('marker:m1');
    followOpenMarker('m2');
    expect(editor.selectedShape).toBe('marker:m2');
    followOpenMarker(null);
    expect(editor.selectedShape).toBeNull();
    toggleMoveMode();
    followOpenMarker('m3');
    expect(editor.selectedShape).toBe('marker:m3');
  });

  it('never in pan or draw; leaving edit drops it; entering edit with a popup open selects its marker', () => {
    followOpenMarker('m1');
    expect(editor.selectedShape).toBeNull();
    selectTool('rect');
    followOpenMarker('m1');
    expect(editor.selectedShape).toBeNull();
    toggleEditMode();
    followOpenMarker('m1');
    expect(editor.selectedShape).toBe('marker:m1');
    toggleEditMode();
    followOpenMarker('m1');
    expect(editor.selectedShape).toBeNull();
  });

  it('a shape clicked while the popup stays open keeps the selection; cleared, the open marker has it again', () => {
    toggleEditMode();
    followOpenMarker('m1');
    selectShape('shape-1');
    followOpenMarker('m1');
    expect(editor.selectedShape).toBe('shape-1');
    // A second click on the open marker: the edit tool clears the selection, the popup stays.
    selectShape(null);
    followOpenMarker('m1');
    expect(editor.selectedShape).toBe('marker:m1');
  });

  it('a marker dragged in move keeps the selection when another\'s popup closes', () => {
    toggleMoveMode();
    followOpenMarker('m1');
    selectShape(markerSelection('m2'));
    followOpenMarker('m1');
    expect(editor.selectedShape).toBe('marker:m2');
    followOpenMarker(null);
    expect(editor.selectedShape).toBe('marker:m2');
  });
});
