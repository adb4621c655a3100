import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import type { Marker } from '../domain/marker';
import { checkImageFile, createEditorCommands, EditorError, MAX_IMAGE_BYTES, patchMarker, sameMarker, type EditorCommandsOptions, type KeptChange } from './commands';
import { fakeServer, fakeSink, flush, marker, offline } from './testing/fakes';

function setup(initial: Marker[] = [], options: Partial<EditorCommandsOptions> = {}) {
  const server = fakeServer();
  const stored = initial.map((m) => server.seed(m));
  const page = fakeSink(stored);
  let n = 0;
  const commands = createEditorCommands({ api: server.api, sink: page.sink, mapId: 'customs', newUid: () => `new-${++n}`, now: () => 1000, ...options });
  return { server, page, commands, stored };
}

const place = { mapX: 10.123456, mapY: 20.987654, level: 2, category: 'Keys', subCategory: 'Key Spawn' };

describe('placeMarker', () => {
  it('shows the marker at once, then replaces it with the server copy (its version)', async () => {
    const { server, page, commands } = setup();
    const release = server.hold();
    const saving = commands.placeMarker(place);
    await flush();
    expect(page.markers.get('new-1')).toMatchObject({ uid: 'new-1', map: 'customs', level: 2, category: 'Keys', subCategory: 'Key Spawn', geometry: { x: 10.1235, y: 20.9877 } });
    expect(page.markers.get('new-1')?.version).toBeUndefined();
    expect(commands.getState().pending['new-1']).toEqual({ status: 'saving', error: null });
    release();
    const saved = await saving;
    expect(saved).toMatchObject({ uid: 'new-1', version: 1 });
    expect(page.markers.get('new-1')?.version).toBe(1);
    expect(commands.getState().pending).toEqual({});
    expect(commands.getState()).toMatchObject({ canUndo: true, canRedo: false, undoLabel: 'placeMarker' });
    expect(server.writes()).toEqual([{ op: 'add', uid: 'new-1', body: expect.objectContaining({ uid: 'new-1', name: '', imgs: [] }) }]);
    expect(server.writes()[0].body).not.toHaveProperty('version');
  });

  it('keeps a marker whose save failed on the map, marked failed; a retry saves it', async () => {
    const { server, page, commands } = setup();
    server.failNext('add', offline());
    expect(await commands.placeMarker(place)).toBeNull();
    expect(page.markers.has('new-1')).toBe(true);
    expect(commands.getState().pending['new-1']).toEqual({ status: 'failed', error: expect.objectContaining({ code: 'offline' }) });
    await commands.retrySave('new-1');
    expect(commands.getState().pending).toEqual({});
    expect(page.markers.get('new-1')?.version).toBe(1);
    expect(server.writes().map((c) => c.op)).toEqual(['add', 'add']);
  });

  it('counts a 409 on retry with its own uid as saved (the first try got through, its answer was lost)', async () => {
    const { server, page, commands } = setup();
    server.failNext('add', offline(), true);
    expect(await commands.placeMarker(place)).toBeNull();
    expect(server.stored.has('new-1')).toBe(true);
    await commands.retrySave('new-1');
    expect(commands.getState().pending).toEqual({});
    expect(page.markers.get('new-1')?.version).toBe(1);
    // The second add answered 409 with the same marker: nothing more is sent.
    expect(server.writes().map((c) => c.op)).toEqual(['add', 'add']);
  });

  it('a change refused because the session ended (401) is kept, failed as signed out; a retry sends it again', async () => {
    const { server, page, commands } = setup();
    server.failNext('add', new ApiError('/api/be/admin/marker/add', 401, 'unauthorized', 'sign in first'));
    await commands.placeMarker(place);
    expect(commands.getState().pending['new-1']).toEqual({ status: 'failed', error: expect.objectContaining({ code: 'signedOut' }) });
    expect(page.markers.has('new-1')).toBe(true);
    await commands.retrySave('new-1');
    expect(server.stored.get('new-1')).toMatchObject({ version: 1 });
  });

  it('a 502 or 504 (the proxy in front could not reach the server, e.g. while it restarts) fails as unreached', async () => {
    const { server, commands } = setup();
    server.failNext('add', new ApiError('/api/be/admin/marker/add', 502, 'http_502', 'Bad Gateway'));
    await commands.placeMarker(place);
    server.failNext('add', new ApiError('/api/be/admin/marker/add', 504, 'http_504', 'Gateway Timeout'));
    await commands.placeMarker(place);
    expect(commands.getState().pending['new-1'].error).toMatchObject({ code: 'offline' });
    expect(commands.getState().pending['new-2'].error).toMatchObject({ code: 'offline' });
  });

  it('says what the server said when it refused', async () => {
    const { server, commands } = setup();
    server.failNext('add', new ApiError('/x', 400, 'bad_request', 'level: must be a whole number'));
    await commands.placeMarker(place);
    expect(commands.getState().pending['new-1'].error).toMatchObject({ code: 'saveFailed', message: 'Not saved: level: must be a whole number' });
  });

  it('discards a failed add: it leaves the map', async () => {
    const { server, page, commands } = setup();
    server.failNext('add');
    await commands.placeMarker(place);
    await commands.discardFailed('new-1');
    expect(page.markers.has('new-1')).toBe(false);
    expect(commands.getState().pending).toEqual({});
  });
});

describe('move, save, copy, delete and undo', () => {
  it('moves in one step; undo sends the move back on the new version', async () => {
    const { server, page, commands } = setup([marker('m1')]);
    await commands.moveMarker('m1', { x: 150.55555, y: 250 });
    expect(page.markers.get('m1')).toMatchObject({ geometry: { x: 150.5556, y: 250 }, version: 2 });
    await commands.undo();
    expect(server.writes().map((c) => [c.op, c.version, c.body?.geometry])).toEqual([
      ['update', 1, { x: 150.5556, y: 250 }],
      ['update', 2, { x: 100, y: 200 }],
    ]);
    expect(page.markers.get('m1')).toMatchObject({ geometry: { x: 100, y: 200 }, version: 3 });
    expect(commands.getState()).toMatchObject({ canUndo: false, canRedo: true, redoLabel: 'moveMarker' });
    await commands.redo();
    expect(page.markers.get('m1')).toMatchObject({ geometry: { x: 150.5556, y: 250 }, version: 4 });
  });

  it('sends quick successive moves of one marker one after the other, each on the version before', async () => {
    const { server, page, commands } = setup([marker('m1')]);
    const first = commands.moveMarker('m1', { x: 1, y: 1 });
    const second = commands.moveMarker('m1', { x: 2, y: 2 });
    await Promise.all([first, second]);
    expect(server.writes().map((c) => [c.version, c.body?.geometry.x])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    expect(page.markers.get('m1')).toMatchObject({ geometry: { x: 2, y: 2 }, version: 3 });
    expect(commands.getState().conflict).toBeNull();
    await commands.undo();
    expect(page.markers.get('m1')?.geometry).toEqual({ x: 1, y: 1 });
    await commands.undo();
    expect(page.markers.get('m1')?.geometry).toEqual({ x: 100, y: 200 });
  });

  it('saves an edit on the version it was based on; undo restores only the fields it changed', async () => {
    const { server, page, commands, stored } = setup([marker('m1', { name: 'Old' })]);
    const saved = await commands.saveMarker({ ...stored[0], name: 'New', desc: 'Behind the door' });
    expect(saved).toMatchObject({ name: 'New', desc: 'Behind the door', version: 2 });
    // An image is uploaded after the edit: undoing the edit keeps it.
    await commands.uploadImage('m1', 0, new File(['x'], 'a.png', { type: 'image/png' }));
    expect(page.markers.get('m1')?.version).toBe(3);
    await commands.undo();
    expect(server.writes().at(-1)).toMatchObject({ op: 'update', version: 3 });
    expect(page.markers.get('m1')).toMatchObject({ name: 'Old', desc: '', imgs: [expect.objectContaining({ img: '/img/markers/m1-0-a.png' })], version: 4 });
  });

  it('copies every field to a new uid at a point', async () => {
    const { page, commands } = setup([marker('m1', { name: 'Safe', level: 3, itemsUid: ['i1'] })]);
    const copy = await commands.copyMarkerTo('m1', 5.55555, 6);
    expect(copy).toMatchObject({ uid: 'new-1', name: 'Safe', level: 3, itemsUid: ['i1'], geometry: { x: 5.5556, y: 6 }, version: 1 });
    expect(page.markers.get('m1')?.geometry).toEqual({ x: 100, y: 200 });
    await commands.undo();
    expect(page.markers.has('new-1')).toBe(false);
  });

  it('copies the fields an edit form shows over the page copy, the marker itself unchanged', async () => {
    const { server, page, commands } = setup([marker('m1', { name: 'Safe', level: 3, itemsUid: ['i1'] })]);
    const copy = await commands.copyMarkerTo('m1', 5, 6, { ...marker('m1', { name: 'Typed', level: 2 }), itemsUid: [] });
    expect(copy).toMatchObject({ uid: 'new-1', name: 'Typed', level: 2, itemsUid: [], geometry: { x: 5, y: 6 }, version: 1 });
    expect(page.markers.get('m1')).toMatchObject({ name: 'Safe', level: 3 });
    expect(server.writes().map((w) => w.op)).toEqual(['add']);
  });

  it('a copy placed by a click takes the floor shown (as a placed marker does); without one it keeps the source\'s', async () => {
    const { server, page, commands } = setup([marker('m1', { name: 'Safe', level: 3 })]);
    expect(await commands.copyMarkerTo('m1', 5, 6, undefined, 2)).toMatchObject({ uid: 'new-1', name: 'Safe', level: 2 });
    expect(await commands.copyMarkerTo('m1', 5, 6, marker('m1', { name: 'Typed', level: 3 }), -1)).toMatchObject({ uid: 'new-2', name: 'Typed', level: -1 });
    // An Alt-drag copy (no level given) stays on the source's floor.
    expect(await commands.copyMarkerTo('m1', 7, 8)).toMatchObject({ uid: 'new-3', level: 3 });
    expect(page.markers.get('m1')).toMatchObject({ level: 3 });
    expect(server.stored.get('new-1')).toMatchObject({ level: 2 });
  });

  it('deletes; undo adds it back with the same uid', async () => {
    const { server, page, commands } = setup([marker('m1', { name: 'Keep me' })]);
    expect(await commands.deleteMarker('m1')).toBe(true);
    expect(page.markers.has('m1')).toBe(false);
    expect(server.writes()[0]).toMatchObject({ op: 'delete', uid: 'm1', version: 1 });
    await commands.undo();
    expect(server.writes()[1]).toMatchObject({ op: 'add', uid: 'm1', body: expect.objectContaining({ name: 'Keep me' }) });
    expect(page.markers.get('m1')).toMatchObject({ uid: 'm1', name: 'Keep me', version: 3 });
    await commands.redo();
    expect(server.writes()[2]).toMatchObject({ op: 'delete', uid: 'm1', version: 3 });
    expect(server.stored.has('m1')).toBe(false);
  });

  it('puts a marker whose delete failed back, marked failed; a retry deletes it', async () => {
    const { server, page, commands } = setup([marker('m1')]);
    server.failNext('delete');
    expect(await commands.deleteMarker('m1')).toBe(false);
    expect(page.markers.has('m1')).toBe(true);
    expect(commands.getState().pending.m1).toMatchObject({ status: 'failed', error: { code: 'offline' } });
    await commands.retrySave('m1');
    expect(page.markers.has('m1')).toBe(false);
    expect(server.stored.has('m1')).toBe(false);
    expect(commands.getState().pending).toEqual({});
  });

  it('undoes two steps in order, then redoes them', async () => {
    const { page, commands } = setup([marker('m1')]);
    await commands.moveMarker('m1', { x: 1, y: 1 });
    await commands.saveMarker({ ...page.markers.get('m1')!, name: 'Named' });
    await commands.undo();
    expect(page.markers.get('m1')).toMatchObject({ name: '', geometry: { x: 1, y: 1 } });
    await commands.undo();
    expect(page.markers.get('m1')).toMatchObject({ name: '', geometry: { x: 100, y: 200 } });
    await commands.redo();
    await commands.redo();
    expect(page.markers.get('m1')).toMatchObject({ name: 'Named', geometry: { x: 1, y: 1 }, version: 7 });
  });

  it('a failed undo stays undone here, marked failed, and is retried (not undone twice)', async () => {
    const { server, page, commands } = setup([marker('m1')]);
    await commands.moveMarker('m1', { x: 1, y: 1 });
    server.failNext('update');
    await commands.undo();
    expect(page.markers.get('m1')?.geometry).toEqual({ x: 100, y: 200 });
    expect(commands.getState()).toMatchObject({ canUndo: false, canRedo: true, pending: { m1: { status: 'failed' } } });
    await commands.retrySave('m1');
    expect(server.stored.get('m1')).toMatchObject({ geometry: { x: 100, y: 200 }, version: 3 });
  });
});

describe('the map keeps what the admin put down (MarkerSink.keep)', () => {
  /** The page's log with the sink's `keep` calls in it, in order. */
  function keeping(initial: Marker[] = []) {
    const ctx = setup(initial);
    ctx.page.sink.keep = (uid) => void ctx.page.log.push(`keep ${uid}`);
    return ctx;
  }

  it('a placed, copied or moved marker is kept, told before it is shown', async () => {
    const { page, commands } = keeping([marker('m1')]);
    await commands.placeMarker(place);
    await commands.copyMarkerTo('m1', 5, 6);
    await commands.moveMarker('m1', { x: 7, y: 8 });
    const kept = page.log.flatMap((line, k) => (line.startsWith('keep') ? [[line, page.log[k + 1]]] : []));
    expect(kept).toEqual([
      ['keep new-1', 'upsert new-1 v-'],
      ['keep new-2', 'upsert new-2 v-'],
      ['keep m1', 'upsert m1 v1'],
    ]);
  });

  it('an undo or redo that moves a marker or brings a placed one back keeps it; one taking it away, an edit, a delete, a drop where it was and a remote change do not', async () => {
    const { page, commands, stored } = keeping([marker('m1'), marker('m2')]);
    await commands.placeMarker(place);
    await commands.moveMarker('m1', { x: 7, y: 8 });
    page.log.length = 0;
    await commands.undo(); // the move: m1 goes back
    await commands.undo(); // the placement: new-1 goes
    await commands.redo(); // new-1 is back
    expect(page.log.filter((line) => line.startsWith('keep'))).toEqual(['keep m1', 'keep new-1']);
    page.log.length = 0;
    await commands.saveMarker({ ...stored[1], name: 'Renamed' });
    await commands.moveMarker('m2', { x: 100, y: 200 }); // let go where it was: nothing changes
    await commands.deleteMarker('m2');
    await commands.applyRemote({ kind: 'upsert', map: 'customs', marker: { ...marker('r1'), version: 1 }, by: 'bob' });
    expect(page.log.filter((line) => line.startsWith('keep'))).toEqual([]);
  });

  it('works with a sink that has no map to keep it on', async () => {
    const { page, commands } = setup();
    expect(page.sink.keep).toBeUndefined();
    await commands.placeMarker(place);
    expect(page.markers.has('new-1')).toBe(true);
  });
});

describe('an undo of a delete after another admin brought the marker back', () => {
  it('leaves their marker as it is: no conflict, nothing of theirs overwritten, the step done', async () => {
    const { server, page, commands } = setup([marker('m1', { name: 'Safe', desc: '' })]);
    expect(await commands.deleteMarker('m1')).toBe(true);
    // Another admin adds it back (same uid), with a description of their own; this page does not hear it.
    const theirs = server.seed({ ...marker('m1', { name: 'Safe', desc: 'Behind the desk' }), version: 3 });
    const writes = server.calls.length;
    expect(await commands.undo()).toEqual({ uid: 'm1', removed: false });
    const state = commands.getState();
    expect(state.conflicts).toEqual([]);
    expect(state.pending).toEqual({});
    expect(server.stored.get('m1')).toEqual(theirs);
    expect(page.markers.get('m1')).toMatchObject({ desc: 'Behind the desk', version: theirs.version });
    // The add was refused (409): nothing after it was sent.
    expect(server.calls.slice(writes).map((c) => c.op)).toEqual(['add']);
  });
});

describe('an edit form open while this page changes its marker', () => {
  it('an undo or redo answers which marker it changed and whether it took it off the page (a form on it has nothing left)', async () => {
    const { server, commands } = setup([marker('m1', { name: 'Safe' })]);
    await commands.placeMarker(place);
    await commands.moveMarker('m1', { x: 5, y: 6 });
    await commands.deleteMarker('m1');
    await commands.copyMarkerTo('new-1', 1, 1);
    expect(await commands.undo()).toEqual({ uid: 'new-2', removed: true }); // the copy
    expect(await commands.undo()).toEqual({ uid: 'm1', removed: false }); // the delete: back
    expect(await commands.undo()).toEqual({ uid: 'm1', removed: false }); // the move
    expect(await commands.undo()).toEqual({ uid: 'new-1', removed: true }); // the place
    expect(server.stored.has('new-1')).toBe(false);
    expect(await commands.undo()).toBeNull(); // nothing left
    expect(await commands.redo()).toEqual({ uid: 'new-1', removed: false });
    await commands.redo();
    expect(await commands.redo()).toEqual({ uid: 'm1', removed: true }); // the delete again
  });
  it('a move made while the form was open is kept: the form’s changes go onto the moved marker, no conflict', async () => {
    const { server, page, commands, stored } = setup([marker('m1', { name: 'Old' })]);
    const base = stored[0];
    await commands.moveMarker('m1', { x: 5, y: 6 });
    expect(server.stored.get('m1')?.version).toBe(2);
    const saved = await commands.saveMarker({ ...base, name: 'Mine' }, base);
    expect(saved).toMatchObject({ name: 'Mine', geometry: { x: 5, y: 6 }, version: 3 });
    expect(server.writes().at(-1)).toMatchObject({ op: 'update', version: 2 });
    expect(commands.getState().conflicts).toEqual([]);
    expect(page.markers.get('m1')).toMatchObject({ name: 'Mine', geometry: { x: 5, y: 6 } });
    // One undo step takes the name back and leaves the move.
    await commands.undo();
    expect(server.stored.get('m1')).toMatchObject({ name: 'Old', geometry: { x: 5, y: 6 } });
  });

  it('an undo of the save before: the form’s typed language goes onto the undone marker, the undone one stays undone', async () => {
    const { server, page, commands } = setup([marker('m1')]);
    await commands.saveMarker({ ...page.markers.get('m1')!, name_l10n: { en: 'first save' } });
    // The form opens on the saved marker and the Russian name is typed; then the map's undo.
    const base = page.markers.get('m1')!;
    await commands.undo();
    expect(server.stored.get('m1')).toMatchObject({ name_l10n: {}, version: 3 });
    expect(await commands.pageCopy('m1')).toMatchObject({ name_l10n: {}, version: 3 });
    const saved = await commands.saveMarker({ ...base, name_l10n: { en: 'first save', ru: 'typed ru' } }, base);
    expect(saved).toMatchObject({ name_l10n: { ru: 'typed ru' }, desc_l10n: {}, version: 4 });
    expect(server.stored.get('m1')?.name_l10n).toEqual({ ru: 'typed ru' });
    expect(commands.getState().conflicts).toEqual([]);
  });

  it('a move still being saved is kept too', async () => {
    const { server, commands, stored } = setup([marker('m1')]);
    const base = stored[0];
    const release = server.hold();
    const moving = commands.moveMarker('m1', { x: 7, y: 8 });
    await flush();
    const saving = commands.saveMarker({ ...base, desc: 'Mine' }, base);
    release();
    await moving;
    expect(await saving).toMatchObject({ desc: 'Mine', geometry: { x: 7, y: 8 } });
    expect(commands.getState().conflicts).toEqual([]);
  });

  it('a form opened while a move was still being saved saves without a conflict', async () => {
    const { server, commands, stored } = setup([marker('m1')]);
    const release = server.hold();
    const moving = commands.moveMarker('m1', { x: 7, y: 8 });
    await flush();
    // The form's snapshot: the moved marker the page shows, still on version 1.
    const base = { ...stored[0], geometry: { x: 7, y: 8 } };
    release();
    await moving;
    expect(server.stored.get('m1')?.version).toBe(2);
    expect(await commands.saveMarker({ ...base, name: 'Mine' }, base)).toMatchObject({ name: 'Mine', geometry: { x: 7, y: 8 }, version: 3 });
    expect(commands.getState().conflicts).toEqual([]);
  });

  it('another admin’s change is still a conflict, form base or not (no lost update)', async () => {
    const { server, commands, stored } = setup([marker('m1')]);
    const base = stored[0];
    server.seed({ ...base, name: 'Theirs' });
    expect(await commands.saveMarker({ ...base, desc: 'Mine' }, base)).toBeNull();
    expect(commands.getState().conflict).toMatchObject({ uid: 'm1', theirs: { name: 'Theirs', version: 2 } });
    expect(server.stored.get('m1')).toMatchObject({ name: 'Theirs', desc: '' });
  });

  it('a change the page only read (form work restored after a reload, on a newer list) is a conflict too, not overwritten', async () => {
    const { server, page, commands, stored } = setup([marker('m1', { name: 'Base' })]);
    const base = stored[0];
    // Another admin renamed it while the work waited; this page's list has their version.
    const theirs = server.seed({ ...base, name: 'Theirs' });
    page.markers.set('m1', theirs);
    expect(await commands.saveMarker({ ...base, name: 'Mine' }, base)).toBeNull();
    expect(server.writes().at(-1)).toMatchObject({ op: 'update', version: 1 });
    expect(commands.getState().conflict).toMatchObject({ uid: 'm1', mine: { name: 'Mine' }, theirs: { name: 'Theirs', version: 2 } });
    expect(server.stored.get('m1')).toMatchObject({ name: 'Theirs', version: 2 });
  });
});

describe('conflicts', () => {
  it('a save refused with 409 becomes a conflict, theirs is shown; resolving with mine saves mine on their version', async () => {
    const { server, page, commands, stored } = setup([marker('m1', { name: 'Base' })]);
    const theirs = server.seed({ ...stored[0], desc: 'Their text' }); // another admin: version 2
    const draft = { ...stored[0], name: 'Mine' }; // edited from version 1
    expect(await commands.saveMarker(draft)).toBeNull();
    const { conflict } = commands.getState();
    expect(conflict).toMatchObject({ uid: 'm1', action: 'update', origin: 'save', mine: { name: 'Mine' }, theirs: { desc: 'Their text', version: 2 } });
    expect(page.markers.get('m1')).toEqual(theirs);
    expect(commands.getState().pending).toEqual({});
    const saved = await commands.resolveConflict('mine');
    expect(saved).toMatchObject({ name: 'Mine', version: 3 });
    expect(server.writes().at(-1)).toMatchObject({ op: 'update', version: 2 });
    expect(page.markers.get('m1')).toMatchObject({ name: 'Mine', version: 3 });
    expect(commands.getState().conflict).toBeNull();
  });

  it('resolving with theirs keeps theirs and sends nothing', async () => {
    const { server, page, commands, stored } = setup([marker('m1')]);
    const theirs = server.seed({ ...stored[0], name: 'Theirs' });
    await commands.saveMarker({ ...stored[0], name: 'Mine' });
    const writes = server.writes().length;
    expect(await commands.resolveConflict('theirs')).toEqual(theirs);
    expect(server.writes()).toHaveLength(writes);
    expect(page.markers.get('m1')).toEqual(theirs);
    expect(commands.getState().conflict).toBeNull();
  });

  it('keeps one conflict per marker; each is resolved by its uid, whatever waits before it', async () => {
    const { server, commands, stored } = setup([marker('b'), marker('c')]);
    server.seed({ ...stored[0], name: 'Their B' });
    server.seed({ ...stored[1], name: 'Their C' });
    await commands.saveMarker({ ...stored[0], name: 'My B' });
    await commands.saveMarker({ ...stored[1], name: 'My C' });
    const state = commands.getState();
    expect(state.conflict).toMatchObject({ uid: 'b' });
    expect(state.conflicts.map((c) => [c.uid, c.mine.name, c.theirs?.name])).toEqual([
      ['b', 'My B', 'Their B'],
      ['c', 'My C', 'Their C'],
    ]);
    // C's popup resolves C's conflict, not B's (the first).
    expect(await commands.resolveConflict('mine', 'c')).toMatchObject({ uid: 'c', name: 'My C', version: 3 });
    expect(server.stored.get('c')).toMatchObject({ name: 'My C' });
    expect(server.stored.get('b')).toMatchObject({ name: 'Their B' });
    expect(commands.getState().conflicts.map((c) => c.uid)).toEqual(['b']);
    expect(await commands.resolveConflict('theirs', 'nobody')).toBeNull();
    expect(commands.getState().conflicts.map((c) => c.uid)).toEqual(['b']);
  });

  it('a delete refused with 409 is a delete conflict; mine deletes on their version', async () => {
    const { server, page, commands, stored } = setup([marker('m1')]);
    // The page still has version 1; the server moved on.
    server.seed({ ...stored[0], name: 'Theirs' });
    expect(await commands.deleteMarker('m1')).toBe(false);
    expect(commands.getState().conflict).toMatchObject({ uid: 'm1', action: 'delete', theirs: { name: 'Theirs', version: 2 } });
    expect(page.markers.get('m1')).toMatchObject({ name: 'Theirs' });
    await commands.resolveConflict('mine');
    expect(server.writes().at(-1)).toMatchObject({ op: 'delete', version: 2 });
    expect(page.markers.has('m1')).toBe(false);
  });

  it('an update of a marker someone else deleted says so; a retry adds it back', async () => {
    const { server, page, commands } = setup([marker('m1')]);
    server.remove('m1');
    await commands.moveMarker('m1', { x: 5, y: 5 });
    expect(page.markers.get('m1')?.geometry).toEqual({ x: 5, y: 5 });
    expect(commands.getState().pending.m1).toEqual({
      status: 'failed',
      error: expect.objectContaining({ code: 'deletedElsewhere', message: 'Someone else deleted this marker. Save again to restore it.' }),
    });
    await commands.retrySave('m1');
    expect(server.stored.get('m1')).toMatchObject({ geometry: { x: 5, y: 5 }, version: 3 });
    expect(commands.getState().pending).toEqual({});
  });
});

describe('live changes', () => {
  it('ignores the echo of its own change, even when it comes before the answer', async () => {
    const { server, page, commands } = setup([marker('m1')]);
    const release = server.hold();
    const moving = commands.moveMarker('m1', { x: 9, y: 9 });
    await flush();
    const echo = commands.applyRemote({ kind: 'upsert', map: 'customs', marker: { ...marker('m1', { geometry: { x: 9, y: 9 } }), version: 2 }, by: 'me' });
    release();
    await moving;
    expect(await echo).toBe('ignored');
    expect(page.log.filter((l) => l.startsWith('upsert m1'))).toEqual(['upsert m1 v1', 'upsert m1 v2']);
    expect(commands.getState().conflict).toBeNull();
  });

  it('knows the versions it wrote or received, so their echoes can be dropped unread', async () => {
    const { commands } = setup([marker('m1')]);
    expect(commands.knowsVersion('m1', 2)).toBe(false);
    await commands.moveMarker('m1', { x: 9, y: 9 });
    expect(commands.knowsVersion('m1', 2)).toBe(true);
    expect(commands.knowsVersion('m1', 1)).toBe(true);
    expect(commands.knowsVersion('m1', 3)).toBe(false);
    expect(await commands.applyRemote({ kind: 'upsert', map: 'customs', marker: { ...marker('m1', { name: 'Remote' }), version: 3 }, by: 'bob' })).toBe('applied');
    expect(commands.knowsVersion('m1', 3)).toBe(true);
    expect(commands.knowsVersion('other', 1)).toBe(false);
  });

  it('applies newer remote changes, never as undo steps, and ignores other maps', async () => {
    const { page, commands } = setup([marker('m1'), marker('m2')]);
    expect(await commands.applyRemote({ kind: 'upsert', map: 'customs', marker: { ...marker('m1', { name: 'Remote' }), version: 2 }, by: 'bob' })).toBe('applied');
    expect(page.markers.get('m1')).toMatchObject({ name: 'Remote', version: 2 });
    expect(await commands.applyRemote({ kind: 'upsert', map: 'customs', marker: { ...marker('m1', { name: 'Old event' }), version: 2 }, by: 'bob' })).toBe('ignored');
    expect(await commands.applyRemote({ kind: 'remove', map: 'customs', uid: 'm2', version: 2, by: 'bob' })).toBe('applied');
    expect(page.markers.has('m2')).toBe(false);
    expect(await commands.applyRemote({ kind: 'upsert', map: 'woods', marker: { ...marker('w1'), map: 'woods', version: 1 }, by: 'bob' })).toBe('ignored');
    expect(commands.getState().canUndo).toBe(false);
  });

  it("applies another admin's delete without reading the marker (its read would be a 404)", async () => {
    const { page, commands } = setup([marker('m1')]);
    let reads = 0;
    const read = page.sink.get;
    page.sink.get = async (uid) => {
      reads += 1;
      return read(uid);
    };
    expect(await commands.applyRemote({ kind: 'remove', map: 'customs', uid: 'm1', version: 2, by: 'bob' })).toBe('applied');
    expect(reads).toBe(0);
    expect(page.markers.has('m1')).toBe(false);
  });

  it('ignores the echo of its own delete', async () => {
    const { page, commands } = setup([marker('m1')]);
    await commands.deleteMarker('m1');
    expect(await commands.applyRemote({ kind: 'remove', map: 'customs', uid: 'm1', version: 2, by: 'me' })).toBe('ignored');
    expect(page.log).toEqual(['remove m1']);
  });

  it('bases the next edit on a version that came live', async () => {
    const { server, commands } = setup([marker('m1')]);
    const remote = server.seed({ ...marker('m1'), name: 'Remote' });
    await commands.applyRemote({ kind: 'upsert', map: 'customs', marker: remote, by: 'bob' });
    await commands.moveMarker('m1', { x: 3, y: 3 });
    expect(server.writes()).toEqual([expect.objectContaining({ op: 'update', version: 2, body: expect.objectContaining({ name: 'Remote' }) })]);
    expect(commands.getState().conflict).toBeNull();
  });

  it('a remote change to the marker being edited becomes a conflict; the form is kept', async () => {
    let draft: Marker | null = null;
    const { server, page, commands, stored } = setup([marker('m1')], { editing: () => draft });
    draft = { ...stored[0], name: 'Typing…' };
    const theirs = server.seed({ ...stored[0], desc: 'Remote' });
    expect(await commands.applyRemote({ kind: 'upsert', map: 'customs', marker: theirs, by: 'bob' })).toBe('conflict');
    expect(commands.getState().conflict).toEqual({ uid: 'm1', mine: draft, theirs, action: 'update', origin: 'live' });
    expect(page.markers.get('m1')).toEqual(theirs);
    // 'mine' on a live conflict sends nothing: the form carries on from their version.
    expect(await commands.resolveConflict('mine')).toEqual(theirs);
    expect(server.writes()).toEqual([]);
  });

  it('a remote change to a marker whose save failed becomes a conflict', async () => {
    const { server, commands, stored } = setup([marker('m1')]);
    server.failNext('update');
    await commands.moveMarker('m1', { x: 4, y: 4 });
    const theirs = server.seed({ ...stored[0], name: 'Remote' });
    expect(await commands.applyRemote({ kind: 'upsert', map: 'customs', marker: theirs, by: 'bob' })).toBe('conflict');
    expect(commands.getState()).toMatchObject({ pending: {}, conflict: { uid: 'm1', origin: 'save', mine: { geometry: { x: 4, y: 4 } }, theirs: { name: 'Remote' } } });
    await commands.resolveConflict('mine');
    expect(server.stored.get('m1')).toMatchObject({ geometry: { x: 4, y: 4 }, version: 3 });
  });
});

describe('images', () => {
  it('checks the file type and size before sending', async () => {
    const { server, commands } = setup([marker('m1')]);
    await expect(commands.uploadImage('m1', 0, new File(['x'], 'a.gif', { type: 'image/gif' }))).rejects.toMatchObject({ code: 'fileType' });
    const big = { name: 'big.png', type: 'image/png', size: MAX_IMAGE_BYTES + 1 } as File;
    await expect(commands.uploadImage('m1', 0, big)).rejects.toBeInstanceOf(EditorError);
    expect(checkImageFile(big)).toMatchObject({ code: 'fileSize', message: 'Images must be 5 MB or smaller (this one is 5.0 MB).' });
    expect(checkImageFile({ name: 'photo.JPG', type: '', size: 10 })).toBeNull();
    expect(checkImageFile({ name: 'photo.webp', type: 'image/webp', size: MAX_IMAGE_BYTES })).toBeNull();
    expect(server.calls).toEqual([]);
  });

  it('uploads through the API, shows the server marker, and is not an undo step', async () => {
    const { page, commands } = setup([marker('m1')]);
    const progress: number[] = [];
    const saved = await commands.uploadImage('m1', 0, new File(['x'], 'a.webp', { type: 'image/webp' }), (f) => progress.push(f));
    expect(saved).toMatchObject({ version: 2, imgs: [{ img: '/img/markers/m1-0-a.webp' }] });
    expect(page.markers.get('m1')).toEqual(saved);
    expect(commands.getState().canUndo).toBe(false);
  });

  it('says readably why an upload failed', async () => {
    const { server, commands } = setup([marker('m1')]);
    server.failNext('upload', new ApiError('/u', 413, 'too_large', 'The image is too large'));
    await expect(commands.uploadImage('m1', 0, new File(['x'], 'a.png', { type: 'image/png' }))).rejects.toThrow('Upload failed: The image is too large');
  });

  it('an upload refused with 409 makes the stored marker the page’s copy: the form’s save on it is no second conflict', async () => {
    let form: { draft: Marker; base: Marker } | null = null;
    const { server, page, commands, stored } = setup([marker('m1', { imgs: [{ img: '/img/a.png', name: '', desc: '' }] })], { editing: () => form });
    // This page saved the marker (version 2); another admin then replaced its image (version 3), unheard here.
    const mine = await commands.saveMarker({ ...stored[0], name: 'Mine' }, stored[0]);
    const theirs = server.seed({ ...mine!, imgs: [{ img: '/img/b.png', name: '', desc: '' }] });
    const file = new File(['x'], 'c.png', { type: 'image/png' });
    await expect(commands.uploadImage('m1', 0, file, undefined, undefined, '/img/a.png')).rejects.toMatchObject({ status: 409 });
    // Their marker is shown, as their live change would be.
    expect(page.markers.get('m1')).toEqual(theirs);
    // The form goes on from theirs (ui/popup/uploadConflict.ts) with a typed change; their live event is known already.
    form = { draft: { ...theirs, desc: 'Typed' }, base: { ...theirs } };
    expect(await commands.applyRemote({ kind: 'upsert', map: 'customs', marker: theirs, by: 'bob' })).not.toBe('conflict');
    const saved = await commands.saveMarker(form.draft, form.base);
    expect(commands.getState().conflicts).toEqual([]);
    expect(saved).toMatchObject({ name: 'Mine', desc: 'Typed', imgs: [{ img: '/img/b.png' }], version: 4 });
    expect(server.writes().at(-1)).toMatchObject({ op: 'update', version: 3 });
  });

  it('an upload refused with 409 leaves a change of the marker still waiting here to become the conflict it is', async () => {
    const { server, page, commands, stored } = setup([marker('m1', { imgs: [{ img: '/img/a.png', name: '', desc: '' }] })]);
    server.failNext('update', offline());
    await commands.saveMarker({ ...stored[0], name: 'Mine' }, stored[0]);
    server.seed({ ...stored[0], imgs: [{ img: '/img/b.png', name: '', desc: '' }] });
    await expect(commands.uploadImage('m1', 0, new File(['x'], 'c.png', { type: 'image/png' }), undefined, undefined, '/img/a.png')).rejects.toMatchObject({ status: 409 });
    expect(page.markers.get('m1')).toMatchObject({ name: 'Mine', imgs: [{ img: '/img/a.png' }] });
    await commands.retrySave('m1');
    expect(commands.getState().conflict).toMatchObject({ uid: 'm1', mine: { name: 'Mine', imgs: [{ img: '/img/b.png' }] }, theirs: { version: 2 } });
  });

  it('tells a file the server found no image in (a renamed text file) as a wrong file type', async () => {
    const { server, commands } = setup([marker('m1')]);
    server.failNext('upload', new ApiError('/u', 400, 'not_image', 'base64: the file is not a PNG, JPEG or WebP image'));
    await expect(commands.uploadImage('m1', 0, new File(['hello'], 'fake.png', { type: 'image/png' }))).rejects.toMatchObject({ code: 'fileType' });
  });
});

describe('helpers', () => {
  it('compare markers without versions and patch only changed fields', () => {
    expect(sameMarker({ ...marker('a'), version: 1 }, { ...marker('a'), version: 5 })).toBe(true);
    expect(sameMarker(marker('a'), marker('a', { name: 'x' }))).toBe(false);
    const now = marker('a', { name: 'Now', desc: 'Kept', questUid: 'q1', version: 4 });
    const patched = patchMarker(now, marker('a', { name: 'After', questUid: 'q1' }), marker('a', { name: 'Before' }));
    expect(patched).toMatchObject({ name: 'Before', desc: 'Kept', version: 4 });
    expect(patched).not.toHaveProperty('questUid');
  });

  it('patch the text tables language by language', () => {
    const now = marker('a', { name_l10n: { en: 'Theirs', ru: 'Старое' }, desc_l10n: { en: 'Kept' } });
    const from = marker('a', { name_l10n: { en: 'Old', ru: 'Старое' }, desc_l10n: {} });
    const to = marker('a', { name_l10n: { en: 'Old', ru: 'Новое' }, desc_l10n: {} });
    expect(patchMarker(now, from, to)).toMatchObject({ name_l10n: { en: 'Theirs', ru: 'Новое' }, desc_l10n: { en: 'Kept' } });
    // A language removed is removed; other fields' objects still go whole.
    const gone = patchMarker(now, to, marker('a', { name_l10n: { en: 'Old' }, geometry: { x: 9, y: 9 } }));
    expect(gone.name_l10n).toEqual({ en: 'Theirs' });
    expect(gone.geometry).toEqual({ x: 9, y: 9 });
  });

  it('loads a marker history through the API', async () => {
    const { commands } = setup([marker('m1')]);
    expect(await commands.loadHistory('m1')).toEqual([expect.objectContaining({ uid: 'm1', action: 'add' })]);
  });

  it('tells subscribers about pending saves and undo', async () => {
    const { commands } = setup([marker('m1')]);
    const seen: string[] = [];
    commands.subscribe((s) => seen.push(`${Object.keys(s.pending).join(',')}|${s.canUndo}`));
    await commands.moveMarker('m1', { x: 1, y: 2 });
    expect(seen).toContain('m1|true');
    expect(seen.at(-1)).toBe('|true');
  });
});

describe('a reload of the whole list (after the live feed was broken)', () => {
  /** The page's copy replaced by the list as the server has it (what MapCanvas's resync does). */
  function reloadFrom(server: ReturnType<typeof setup>['server'], page: ReturnType<typeof setup>['page'], list = [...server.stored.values()]) {
    const copies = list.map((m) => JSON.parse(JSON.stringify(m)) as Marker);
    return async () => {
      page.markers.clear();
      for (const m of copies) page.markers.set(m.uid, m);
      return true;
    };
  }

  it('puts every unsaved change back on top of the list: still failed, and Retry saves it', async () => {
    const { server, page, commands, stored } = setup([marker('m1', { name: 'Edit me' }), marker('m2'), marker('m3')]);
    // The server is down: a place, an edit and a delete fail.
    server.failNext('add');
    await commands.placeMarker(place);
    server.failNext('update');
    await commands.saveMarker({ ...stored[0], name: 'Mine' });
    server.failNext('delete');
    await commands.deleteMarker('m2');
    const theirs = server.seed({ ...stored[2], name: 'Their change, missed while the feed was down' });
    const failed = commands.getState().pending;
    expect(Object.keys(failed).sort()).toEqual(['m1', 'm2', 'new-1']);

    await commands.reload(reloadFrom(server, page));

    // The unsaved marker stays, the unsaved edit shows the admin's version, the marker whose
    // delete failed shows as before (failed, Retry deletes it); the rest is the server's list.
    expect(page.markers.get('new-1')).toMatchObject({ uid: 'new-1', category: 'Keys', geometry: { x: 10.1235, y: 20.9877 } });
    expect(page.markers.get('m1')).toMatchObject({ name: 'Mine' });
    expect(page.markers.has('m2')).toBe(true);
    expect(page.markers.get('m3')).toEqual(theirs);
    expect(commands.getState().pending).toEqual(failed);
    expect(commands.getState().pending['new-1']).toEqual({ status: 'failed', error: expect.objectContaining({ code: 'offline' }) });

    await commands.retrySave('new-1');
    await commands.retrySave('m1');
    await commands.retrySave('m2');
    expect(commands.getState().pending).toEqual({});
    expect(server.stored.get('new-1')).toMatchObject({ version: 1, geometry: { x: 10.1235, y: 20.9877 } });
    expect(server.stored.get('m1')).toMatchObject({ name: 'Mine', version: 2 });
    expect(server.stored.has('m2')).toBe(false);
    expect(page.markers.get('m1')).toMatchObject({ name: 'Mine', version: 2 });
    expect(page.markers.has('m2')).toBe(false);
    // Undo still knows the steps.
    await commands.undo();
    expect(server.stored.has('m2')).toBe(true);
  });

  it('a change in flight stays; an answer heard while the list loaded is put back over the older list', async () => {
    const { server, page, commands } = setup([marker('m1'), marker('m2'), marker('m3')]);
    const release = server.hold();
    const moving = commands.moveMarker('m1', { x: 5, y: 5 });
    const deleting = commands.deleteMarker('m2');
    const placing = commands.placeMarker(place);
    await flush();
    const before = [...server.stored.values()];
    await commands.reload(async () => {
      // The list was read before the answers came; they come while it loads.
      release();
      await Promise.all([moving, deleting]);
      return reloadFrom(server, page, before)();
    });
    expect(page.markers.get('m1')).toMatchObject({ geometry: { x: 5, y: 5 }, version: 2 });
    expect(page.markers.has('m2')).toBe(false);
    expect(page.markers.has('new-1')).toBe(true);
    await placing;
    expect(page.markers.get('new-1')).toMatchObject({ version: 1 });
    expect(commands.getState().pending).toEqual({});
  });

  it('an edit form whose marker another admin changed while the feed was down gets the live conflict at once', async () => {
    let form: { draft: Marker; base: Marker } | null = null;
    const { server, page, commands, stored } = setup([marker('m1'), marker('m2')], { editing: () => form });
    form = { base: stored[0], draft: { ...stored[0], name: 'Typing…' } };
    const theirs = server.seed({ ...stored[0], desc: 'Their change, missed while the feed was down' });
    await commands.reload(reloadFrom(server, page));
    expect(commands.getState().conflicts).toEqual([{ uid: 'm1', mine: { ...theirs, name: 'Typing…' }, theirs, action: 'update', origin: 'live' }]);
    expect(server.writes()).toEqual([]);
    // Keep mine goes on from their version: the form's Save is then no conflict.
    await commands.resolveConflict('mine', 'm1');
    await commands.saveMarker({ ...theirs, name: 'Typing…' }, theirs);
    expect(server.stored.get('m1')).toMatchObject({ name: 'Typing…', desc: 'Their change, missed while the feed was down' });
  });

  it('the same for a marker deleted meanwhile; nothing for a form with nothing typed, nor for this page\'s own change', async () => {
    let form: { draft: Marker; base: Marker } | null = null;
    const { server, page, commands, stored } = setup([marker('m1'), marker('m2')], { editing: () => form });
    form = { base: stored[0], draft: { ...stored[0] } };
    server.seed({ ...stored[0], name: 'Theirs' });
    await commands.reload(reloadFrom(server, page));
    expect(commands.getState().conflicts).toEqual([]);
    // This page moved m2 while its form was open: its own version, no conflict.
    form = { base: stored[1], draft: { ...stored[1], name: 'Mine' } };
    await commands.moveMarker('m2', { x: 7, y: 7 });
    await commands.reload(reloadFrom(server, page));
    expect(commands.getState().conflicts).toEqual([]);
    server.stored.delete('m2');
    await commands.reload(reloadFrom(server, page));
    expect(commands.getState().conflicts).toEqual([expect.objectContaining({ uid: 'm2', theirs: null, origin: 'live', mine: expect.objectContaining({ name: 'Mine' }) })]);
  });

  it('names every change that failed because the server could not be reached (places, copies, moves, edits, deletes); retried after the reload, each is saved once', async () => {
    const { server, page, commands, stored } = setup([marker('m1', { name: 'Edit me' }), marker('m2'), marker('m3'), marker('m4')]);
    // The server is down: each change fails as unreached.
    server.failNext('add');
    await commands.placeMarker(place);
    server.failNext('add');
    await commands.copyMarkerTo('m4', 40, 40);
    server.failNext('update');
    await commands.moveMarker('m3', { x: 3, y: 3 });
    server.failNext('update');
    await commands.saveMarker({ ...stored[0], name: 'Mine' }, stored[0]);
    server.failNext('delete');
    await commands.deleteMarker('m2');
    expect(commands.unreachedChanges()).toEqual(['new-1', 'new-2', 'm3', 'm1', 'm2']);

    // It is back: the list is read from it again (the live feed came back), and the wiring retries them.
    await commands.reload(reloadFrom(server, page));
    for (const uid of commands.unreachedChanges()) await commands.retrySave(uid);
    await commands.settle();
    expect(commands.unreachedChanges()).toEqual([]);

    expect(commands.getState().pending).toEqual({});
    expect(server.stored.get('new-1')).toMatchObject({ version: 1, category: 'Keys' });
    expect(server.stored.get('new-2')).toMatchObject({ version: 1, geometry: { x: 40, y: 40 } });
    expect(server.stored.get('m3')).toMatchObject({ version: 2, geometry: { x: 3, y: 3 } });
    expect(server.stored.get('m1')).toMatchObject({ version: 2, name: 'Mine' });
    expect(server.stored.has('m2')).toBe(false);
    expect(page.markers.get('new-1')).toMatchObject({ version: 1 });
    expect(page.markers.has('m2')).toBe(false);
    // Each sent once more, no more.
    expect(server.writes().map((w) => `${w.op} ${w.uid}`).slice(5).sort()).toEqual(['add new-1', 'add new-2', 'delete m2', 'update m1', 'update m3']);
  });

  it('an add that reached the server before (its answer lost) is not doubled when it is sent again', async () => {
    const { server, page, commands } = setup([marker('m1')]);
    // Stored, but the answer never came: the page holds it as unreached.
    server.failNext('add', offline(), true);
    await commands.placeMarker(place);
    expect(commands.getState().pending['new-1']?.error?.code).toBe('offline');
    // The list read again holds it already.
    await commands.reload(reloadFrom(server, page));
    expect(commands.unreachedChanges()).toEqual(['new-1']);
    for (const uid of commands.unreachedChanges()) await commands.retrySave(uid);
    await commands.settle();
    expect(commands.getState().pending).toEqual({});
    expect([...server.stored.keys()].filter((uid) => uid === 'new-1')).toHaveLength(1);
    expect(server.stored.get('new-1')).toMatchObject({ version: 1 });
    expect(page.markers.get('new-1')).toMatchObject({ version: 1 });
    // The second add was answered 409 with its own uid: counted as saved, nothing written.
    expect(server.writes().map((w) => w.op)).toEqual(['add', 'add']);
  });

  it('does not name a change waiting for a sign-in, one the server refused, nor one still being saved', async () => {
    const { server, commands } = setup([marker('m1'), marker('m2'), marker('m3')]);
    server.failNext('update', new ApiError('/api/be/admin/marker', 401, 'unauthorized', 'sign in first'));
    await commands.moveMarker('m1', { x: 5, y: 5 });
    server.failNext('update', new ApiError('/api/be/admin/marker', 400, 'bad_request', 'level: must be a whole number'));
    await commands.moveMarker('m2', { x: 6, y: 6 });
    const release = server.hold();
    const moving = commands.moveMarker('m3', { x: 7, y: 7 });
    await flush();
    expect(Object.keys(commands.getState().pending)).toEqual(['m1', 'm2', 'm3']);
    expect(commands.unreachedChanges()).toEqual([]);
    release();
    await moving;
  });

  it('a reload given up puts nothing back', async () => {
    const { server, page, commands } = setup([marker('m1')]);
    server.failNext('update');
    await commands.moveMarker('m1', { x: 5, y: 5 });
    page.log.length = 0;
    await commands.reload(async () => false);
    expect(page.log).toEqual([]);
  });
});

describe('undo and redo after another admin changed the marker', () => {
  const removed = (uid: string, version: number) => ({ kind: 'remove' as const, map: 'customs' as const, uid, version, by: 'bob' });

  it('undo of a move of a marker another admin deleted does not bring it back silently', async () => {
    const { server, page, commands } = setup([marker('m1')]);
    await commands.moveMarker('m1', { x: 5, y: 5 });
    expect(await commands.applyRemote(removed('m1', server.remove('m1')))).toBe('applied');
    expect(page.markers.has('m1')).toBe(false);
    await commands.undo();
    // Shown here, failed as a save on a deleted marker is; nothing sent.
    expect(server.writes().map((w) => w.op)).toEqual(['update']);
    expect(server.stored.has('m1')).toBe(false);
    expect(page.markers.get('m1')?.geometry).toEqual({ x: 100, y: 200 });
    expect(commands.getState()).toMatchObject({ canRedo: true, pending: { m1: { status: 'failed', error: { code: 'deletedElsewhere' } } } });
    // Retry brings it back (same uid); discard would leave it deleted.
    await commands.retrySave('m1');
    expect(server.writes().at(-1)).toMatchObject({ op: 'add', uid: 'm1' });
    expect(server.stored.get('m1')).toMatchObject({ geometry: { x: 100, y: 200 } });
    expect(commands.getState().pending).toEqual({});
  });

  it('the same when the delete is not heard yet (the server answers 404), and discarding leaves it deleted', async () => {
    const { server, page, commands } = setup([marker('m1')]);
    await commands.moveMarker('m1', { x: 5, y: 5 });
    server.remove('m1');
    await commands.undo();
    expect(commands.getState().pending.m1).toMatchObject({ status: 'failed', error: { code: 'deletedElsewhere' } });
    expect(server.stored.has('m1')).toBe(false);
    await commands.discardFailed('m1');
    expect(page.markers.has('m1')).toBe(false);
    expect(server.writes().map((w) => w.op)).toEqual(['update', 'update']);
  });

  it('redo of an edit of a marker another admin deleted does not bring it back either', async () => {
    const { server, page, commands } = setup([marker('m1')]);
    await commands.moveMarker('m1', { x: 5, y: 5 });
    await commands.undo();
    expect(await commands.applyRemote(removed('m1', server.remove('m1')))).toBe('applied');
    await commands.redo();
    expect(server.stored.has('m1')).toBe(false);
    expect(page.markers.get('m1')?.geometry).toEqual({ x: 5, y: 5 });
    expect(commands.getState().pending.m1).toMatchObject({ status: 'failed', error: { code: 'deletedElsewhere' } });
  });

  it('undo of a place or a copy that another admin edited since is a delete conflict, not a silent delete', async () => {
    const { server, page, commands } = setup([marker('m1')]);
    await commands.placeMarker(place);
    await commands.copyMarkerTo('m1', 1, 1);
    for (const uid of ['new-2', 'new-1']) {
      const theirs = server.seed({ ...server.stored.get(uid)!, name: `Their ${uid}` });
      expect(await commands.applyRemote({ kind: 'upsert', map: 'customs', marker: theirs, by: 'bob' })).toBe('applied');
      await commands.undo();
      // Based on the version this page wrote (1): refused, their version stays and is shown.
      expect(server.writes().at(-1)).toMatchObject({ op: 'delete', uid, version: 1 });
      expect(server.stored.get(uid)).toMatchObject({ name: `Their ${uid}`, version: 2 });
      expect(page.markers.get(uid)).toMatchObject({ name: `Their ${uid}` });
      expect(commands.getState().conflicts.find((c) => c.uid === uid)).toMatchObject({ action: 'delete', origin: 'save', theirs: { name: `Their ${uid}` } });
    }
    // Keep mine: deleted on their version.
    await commands.resolveConflict('mine', 'new-1');
    expect(server.writes().at(-1)).toMatchObject({ op: 'delete', uid: 'new-1', version: 2 });
    expect(server.stored.has('new-1')).toBe(false);
    expect(page.markers.has('new-1')).toBe(false);
  });

  it('redo of a delete of a marker another admin edited since is a delete conflict', async () => {
    const { server, page, commands } = setup([marker('m1')]);
    await commands.deleteMarker('m1');
    await commands.undo(); // back with the same uid: version 3
    const theirs = server.seed({ ...server.stored.get('m1')!, name: 'Theirs' });
    await commands.applyRemote({ kind: 'upsert', map: 'customs', marker: theirs, by: 'bob' });
    await commands.redo();
    expect(server.writes().at(-1)).toMatchObject({ op: 'delete', version: 3 });
    expect(server.stored.get('m1')).toMatchObject({ name: 'Theirs', version: 4 });
    expect(page.markers.get('m1')).toMatchObject({ name: 'Theirs' });
    expect(commands.getState().conflict).toMatchObject({ uid: 'm1', action: 'delete' });
  });

  it('the same when their edit is not heard yet: the server refuses the delete', async () => {
    const { server, commands } = setup();
    await commands.placeMarker(place);
    server.seed({ ...server.stored.get('new-1')!, name: 'Theirs' });
    await commands.undo();
    expect(server.stored.get('new-1')).toMatchObject({ name: 'Theirs' });
    expect(commands.getState().conflict).toMatchObject({ uid: 'new-1', action: 'delete' });
  });

  it('this page’s own changes since (an upload, an edit) are no conflict', async () => {
    const { server, page, commands } = setup();
    await commands.placeMarker(place);
    await commands.uploadImage('new-1', 0, new File(['x'], 'a.png', { type: 'image/png' }));
    await commands.placeMarker({ ...place, mapX: 50 });
    await commands.saveMarker({ ...page.markers.get('new-2')!, name: 'Named' });
    await commands.undo(); // the edit
    await commands.undo(); // the second place
    await commands.undo(); // the first place (its image uploaded since)
    expect(server.stored.size).toBe(0);
    expect(commands.getState()).toMatchObject({ conflicts: [], pending: {} });
  });
});

describe('a marker whose full copy cannot be read (compact row only, server down)', () => {
  /** The page's sink, whose `get` fetches the full marker from the server: rejects while `down`. */
  function unreadable(initial: Marker[]) {
    const ctx = setup(initial);
    const read = ctx.page.sink.get;
    const reads = { down: true, count: 0 };
    ctx.page.sink.get = async (uid) => {
      reads.count += 1;
      if (reads.down) throw new ApiError('/api/be/markers/one', 0, 'network', 'Could not reach the server (Failed to fetch)');
      return read(uid);
    };
    return { ...ctx, reads };
  }

  it('keeps a move: failed offline (no rejection), Retry reads the marker then and sends the new position', async () => {
    const { server, page, commands, reads } = unreadable([marker('m1', { name: 'Keep' })]);
    await expect(commands.moveMarker('m1', { x: 300.123456, y: 400 })).resolves.toBeNull();
    expect(commands.getState().pending.m1).toEqual({ status: 'failed', error: expect.objectContaining({ code: 'offline', message: expect.stringContaining('could not be reached') }) });
    expect(server.writes()).toEqual([]);
    // Retry while still down: still failed, still kept.
    await commands.retrySave('m1');
    expect(commands.getState().pending.m1?.status).toBe('failed');

    reads.down = false;
    await commands.retrySave('m1');
    await commands.settle();
    expect(commands.getState().pending).toEqual({});
    expect(server.stored.get('m1')).toMatchObject({ name: 'Keep', geometry: { x: 300.1235, y: 400 }, version: 2 });
    expect(server.writes()).toEqual([expect.objectContaining({ op: 'update', uid: 'm1', version: 1 })]);
    expect(page.markers.get('m1')).toMatchObject({ geometry: { x: 300.1235, y: 400 }, version: 2 });
    // Made for real, it is an undo step like any move.
    expect(commands.getState()).toMatchObject({ canUndo: true, undoLabel: 'moveMarker' });
    await commands.undo();
    await commands.settle();
    expect(server.stored.get('m1')).toMatchObject({ geometry: { x: 100, y: 200 } });
  });

  it('a second move while down replaces the first; the marker\'s next change makes it first', async () => {
    const { server, commands, reads } = unreadable([marker('m1')]);
    await commands.moveMarker('m1', { x: 1, y: 1 });
    await commands.moveMarker('m1', { x: 2, y: 2 });
    expect(commands.getState().pending.m1?.status).toBe('failed');
    reads.down = false;
    await commands.moveMarker('m1', { x: 2, y: 2 }); // the same place: only the kept move is sent
    await commands.settle();
    expect(commands.getState().pending).toEqual({});
    expect(server.stored.get('m1')).toMatchObject({ geometry: { x: 2, y: 2 } });
  });

  it('a reload after the feed came back makes the kept move (read now), shown and sent', async () => {
    const { server, page, commands, reads } = unreadable([marker('m1')]);
    await commands.moveMarker('m1', { x: 5, y: 6 });
    reads.down = false;
    const list = [...server.stored.values()].map((m) => JSON.parse(JSON.stringify(m)) as Marker);
    await commands.reload(async () => {
      page.markers.clear();
      for (const m of list) page.markers.set(m.uid, m);
      return true;
    });
    await commands.settle();
    expect(commands.getState().pending).toEqual({});
    expect(server.stored.get('m1')).toMatchObject({ geometry: { x: 5, y: 6 }, version: 2 });
    expect(page.markers.get('m1')).toMatchObject({ geometry: { x: 5, y: 6 }, version: 2 });
  });

  it('a reload while the read still fails keeps the move failed', async () => {
    const { page, commands } = unreadable([marker('m1')]);
    await commands.moveMarker('m1', { x: 5, y: 6 });
    await commands.reload(async () => true);
    expect(commands.getState().pending.m1?.status).toBe('failed');
    expect(page.markers.get('m1')).toMatchObject({ geometry: { x: 100, y: 200 } });
    // Tried by the reload already: not named to be retried again after it.
    expect(commands.getState().pending.m1?.error?.code).toBe('offline');
    expect(commands.unreachedChanges()).toEqual([]);
  });

  it('keeps a delete: the marker stays, failed; Retry deletes it once it can be read', async () => {
    const { server, page, commands, reads } = unreadable([marker('m1')]);
    await expect(commands.deleteMarker('m1')).resolves.toBe(false);
    expect(page.markers.has('m1')).toBe(true);
    expect(commands.getState().pending.m1).toEqual({ status: 'failed', error: expect.objectContaining({ code: 'offline' }) });
    reads.down = false;
    await commands.retrySave('m1');
    expect(commands.getState().pending).toEqual({});
    expect(server.stored.has('m1')).toBe(false);
    expect(page.markers.has('m1')).toBe(false);
    expect(commands.getState().undoLabel).toBe('deleteMarker');
  });

  it('keeps a copy under its new uid (failed); Retry places it; discard drops it', async () => {
    const { server, page, commands, reads } = unreadable([marker('m1', { name: 'Source' })]);
    await expect(commands.copyMarkerTo('m1', 7, 8)).resolves.toBeNull();
    expect(commands.getState().pending['new-1']).toEqual({ status: 'failed', error: expect.objectContaining({ code: 'offline' }) });
    await commands.copyMarkerTo('m1', 9, 9);
    await commands.discardFailed('new-2');
    expect(Object.keys(commands.getState().pending)).toEqual(['new-1']);
    reads.down = false;
    await commands.retrySave('new-1');
    expect(commands.getState().pending).toEqual({});
    expect(server.stored.get('new-1')).toMatchObject({ uid: 'new-1', name: 'Source', geometry: { x: 7, y: 8 }, version: 1 });
    expect(page.markers.get('new-1')).toMatchObject({ version: 1 });
    expect(server.stored.has('new-2')).toBe(false);
  });

  it('a copy with the edit form\'s fields needs no read', async () => {
    const { server, commands } = unreadable([marker('m1', { name: 'Source' })]);
    const copied = await commands.copyMarkerTo('m1', 7, 8, marker('m1', { name: 'Typed' }));
    expect(copied).toMatchObject({ uid: 'new-1', name: 'Typed', geometry: { x: 7, y: 8 } });
    expect(server.stored.get('new-1')).toMatchObject({ name: 'Typed' });
  });

  it('a copy kept unread (failed) still takes the floor it was placed on when Retry places it', async () => {
    const { server, commands, reads } = unreadable([marker('m1', { name: 'Source', level: 3 })]);
    await expect(commands.copyMarkerTo('m1', 7, 8, undefined, 1)).resolves.toBeNull();
    reads.down = false;
    await commands.retrySave('new-1');
    expect(server.stored.get('new-1')).toMatchObject({ name: 'Source', level: 1 });
  });

  it('drops a kept move of a marker deleted meanwhile (nothing to move)', async () => {
    const { server, commands, reads } = unreadable([marker('m1')]);
    await commands.moveMarker('m1', { x: 5, y: 6 });
    reads.down = false;
    const version = server.remove('m1');
    await commands.applyRemote({ kind: 'remove', map: 'customs', uid: 'm1', version, by: 'bob' });
    await commands.retrySave('m1');
    expect(commands.getState().pending).toEqual({});
    expect(server.writes()).toEqual([]);
  });
});

describe('unsaved adds across a reload', () => {
  it('lists the markers this page placed or copied that the server has not confirmed', async () => {
    const { server, commands } = setup([marker('m1', { name: 'Source' })]);
    server.failNext('add');
    server.failNext('add');
    await commands.placeMarker(place);
    await commands.copyMarkerTo('m1', 7, 8);
    await commands.placeMarker({ ...place, mapX: 50 }); // saved
    await commands.saveMarker({ ...server.stored.get('m1')!, name: 'Edited offline' }); // an edit, not an add
    expect(commands.unsavedAdds().map((m) => [m.uid, m.name])).toEqual([
      ['new-1', ''],
      ['new-2', 'Source'],
    ]);
    // Undone: nothing left to add. Saved by a retry: confirmed.
    await commands.undo(); // the edit of m1
    await commands.undo(); // new-3's place
    await commands.undo(); // new-2's copy
    await commands.retrySave('new-1');
    expect(commands.unsavedAdds()).toEqual([]);
  });

  it('restores a kept marker as unsaved and sends its add; offline it stays, failed, with Retry', async () => {
    const { server, page, commands } = setup();
    const kept = marker('kept-1', { name: 'Placed before the reload' });
    server.failNext('add');
    const outcome = await commands.restoreAdds([kept]);
    expect(outcome).toEqual({ sent: ['kept-1'], onServer: [], kept: [] });
    await commands.settle();
    expect(page.markers.get('kept-1')).toMatchObject({ name: 'Placed before the reload' });
    expect(commands.getState().pending['kept-1']).toEqual({ status: 'failed', error: expect.objectContaining({ code: 'offline' }) });
    expect(commands.unsavedAdds().map((m) => m.uid)).toEqual(['kept-1']);
    await commands.retrySave('kept-1');
    expect(server.stored.get('kept-1')).toMatchObject({ name: 'Placed before the reload', version: 1 });
    expect(commands.unsavedAdds()).toEqual([]);
  });

  it('never re-adds a uid the loaded list holds (the add got through, its answer was lost)', async () => {
    const { server, page, commands } = setup([marker('kept-1', { name: 'Saved, then renamed by Bob' })]);
    const outcome = await commands.restoreAdds([marker('kept-1', { name: 'Placed before the reload' })]);
    await commands.settle();
    expect(outcome).toEqual({ sent: [], onServer: ['kept-1'], kept: [] });
    expect(server.writes()).toEqual([]);
    expect(page.markers.get('kept-1')).toMatchObject({ name: 'Saved, then renamed by Bob' });
    expect(commands.getState().pending).toEqual({});
  });

  it('takes the server’s copy where the add answers with the same uid (the list did not hold it yet)', async () => {
    const { server, page, commands } = setup();
    server.seed(marker('kept-1', { name: 'Saved, then renamed by Bob' }));
    await commands.restoreAdds([marker('kept-1', { name: 'Placed before the reload' })]);
    await commands.settle();
    expect(server.writes().map((w) => w.op)).toEqual(['add']);
    expect(server.stored.get('kept-1')).toMatchObject({ name: 'Saved, then renamed by Bob', version: 1 });
    expect(page.markers.get('kept-1')).toMatchObject({ name: 'Saved, then renamed by Bob', version: 1 });
    expect(commands.getState().pending).toEqual({});
  });

  it('counts a marker whose copy cannot be read as on the server; ignores another map’s', async () => {
    const { server, page, commands } = setup();
    page.sink.get = async () => {
      throw new ApiError('/api/be/markers/one', 0, 'network', 'Could not reach the server');
    };
    const outcome = await commands.restoreAdds([marker('kept-1'), marker('kept-2', { map: 'woods' })]);
    expect(outcome).toEqual({ sent: [], onServer: ['kept-1'], kept: [] });
    expect(server.writes()).toEqual([]);
  });
});

describe('conflicts that ask only when something would be lost (conflictfix)', () => {
  const upsert = (m: Marker) => ({ kind: 'upsert' as const, map: 'customs' as const, marker: m, by: 'bob' });

  it('undo of a place deletes no change another admin made since, even after the page wrote on top of it', async () => {
    // A places and moves; B sets the Russian name; A undoes the move (written on B's version),
    // then the place: the delete would take B's name with it, so it is a delete conflict.
    const { server, page, commands } = setup();
    await commands.placeMarker(place);
    await commands.moveMarker('new-1', { x: 50, y: 60 });
    const theirs = server.seed({ ...server.stored.get('new-1')!, name_l10n: { ru: 'Их' } });
    expect(await commands.applyRemote(upsert(theirs))).toBe('applied');
    await commands.undo(); // the move: restored on their version (v4), their name kept
    expect(server.stored.get('new-1')).toMatchObject({ version: 4, name_l10n: { ru: 'Их' }, geometry: { x: 10.1235, y: 20.9877 } });
    await commands.undo(); // the place
    expect(server.stored.get('new-1')).toMatchObject({ version: 4, name_l10n: { ru: 'Их' } });
    expect(page.markers.get('new-1')).toMatchObject({ name_l10n: { ru: 'Их' } });
    expect(commands.getState().conflicts).toEqual([
      expect.objectContaining({ uid: 'new-1', action: 'delete', cause: 'undo', origin: 'save', theirs: expect.objectContaining({ version: 4 }) }),
    ]);
    // "Mine" is the marker as this page placed it: the box lists their change (the Russian name).
    expect(commands.getState().conflict!.mine).toMatchObject({ name_l10n: {}, geometry: { x: 10.1235, y: 20.9877 } });
    // "Delete anyway": deleted on their version.
    await commands.resolveConflict('mine', 'new-1');
    expect(server.stored.has('new-1')).toBe(false);
    expect(commands.getState().conflicts).toEqual([]);
  });

  it('the same when their change came in only as part of this page’s own answer (the live event later, older)', async () => {
    const { server, commands } = setup();
    await commands.placeMarker(place);
    await commands.moveMarker('new-1', { x: 50, y: 60 });
    const theirs = server.seed({ ...server.stored.get('new-1')!, name: 'Theirs' }); // v3, not heard yet
    await commands.uploadImage('new-1', 0, new File(['x'], 'a.png', { type: 'image/png' })); // v4 includes it
    expect(await commands.applyRemote(upsert(theirs))).toBe('ignored');
    await commands.undo(); // the move
    await commands.undo(); // the place
    expect(server.stored.get('new-1')).toMatchObject({ name: 'Theirs' });
    expect(commands.getState().conflict).toMatchObject({ uid: 'new-1', action: 'delete', cause: 'undo' });
  });

  it('says what asked for a refused delete: the admin’s Delete, an undo of a place, a redo of a delete', async () => {
    const { server, commands, stored } = setup([marker('m1'), marker('m2')]);
    server.seed({ ...stored[0], desc: 'Theirs' });
    expect(await commands.deleteMarker('m1')).toBe(false);
    expect(commands.getState().conflicts.find((c) => c.uid === 'm1')).toMatchObject({ action: 'delete', cause: 'delete', mine: { desc: '' }, theirs: { desc: 'Theirs' } });
    await commands.deleteMarker('m2');
    await commands.undo(); // back (same uid)
    server.seed({ ...server.stored.get('m2')!, desc: 'Theirs' });
    await commands.redo();
    expect(commands.getState().conflicts.find((c) => c.uid === 'm2')).toMatchObject({ action: 'delete', cause: 'redo' });
    // An update conflict has no cause.
    const { server: s2, commands: c2, stored: st2 } = setup([marker('m3')]);
    s2.seed({ ...st2[0], desc: 'Theirs' });
    await c2.saveMarker({ ...st2[0], name: 'Mine' });
    expect(c2.getState().conflict).not.toHaveProperty('cause');
  });

  it('tells the versions this page wrote from another admin’s (a conflict resolved, its later writes are its own)', async () => {
    const { server, commands } = setup();
    await commands.placeMarker(place);
    const theirs = server.seed({ ...server.stored.get('new-1')!, name: 'Theirs' });
    await commands.applyRemote(upsert(theirs));
    await commands.undo();
    expect(commands.getState().conflict).toMatchObject({ cause: 'undo' });
    await commands.resolveConflict('theirs', 'new-1');
    await commands.saveMarker({ ...server.stored.get('new-1')!, desc: 'Mine too' });
    expect(commands.wroteVersion('new-1', 3)).toBe(true);
    expect(commands.wroteVersion('new-1', 2)).toBe(false);
  });

  it('an edit form with nothing typed follows another admin’s change: applied, no conflict', async () => {
    let form: { draft: Marker; base: Marker } | null = null;
    const { server, page, commands, stored } = setup([marker('m1')], { editing: () => form });
    form = { draft: { ...stored[0] }, base: { ...stored[0] } };
    const theirs = server.seed({ ...stored[0], desc: 'Theirs' });
    expect(await commands.applyRemote(upsert(theirs))).toBe('applied');
    expect(commands.getState().conflicts).toEqual([]);
    expect(page.markers.get('m1')).toMatchObject({ desc: 'Theirs', version: 2 });
    expect(commands.wroteVersion('m1', 2)).toBe(false);
    // A form with a typed change is still a conflict.
    form = { draft: { ...theirs, name: 'Typed' }, base: { ...theirs } };
    const again = server.seed({ ...theirs, desc: 'Again' });
    expect(await commands.applyRemote(upsert(again))).toBe('conflict');
    expect(commands.getState().conflict).toMatchObject({ uid: 'm1', origin: 'live', mine: { name: 'Typed', desc: 'Again' } });
  });
});

describe('changes kept while no admin is signed in (signedOutChanges / restoreChanges)', () => {
  const signedOut = () => new ApiError('/api/be/admin/marker', 401, 'unauthorized', 'sign in first');

  it('lists the moves, edits and deletes of stored markers refused by a 401, as they would be sent', async () => {
    const { server, commands } = setup([marker('m1'), marker('m2'), marker('m3', { name: 'Three' })]);
    server.failNext('update', signedOut());
    server.failNext('delete', signedOut());
    server.failNext('add', signedOut());
    server.failNext('update', offline());
    await commands.moveMarker('m1', { x: 5, y: 6 });
    await commands.deleteMarker('m2');
    await commands.placeMarker(place); // an add: kept with the unsaved adds, not here
    await commands.saveMarker({ ...server.stored.get('m3')!, name: 'Offline' }); // another reason
    const kept = commands.signedOutChanges();
    expect(kept).toEqual([
      { uid: 'm1', base: expect.objectContaining({ version: 1, geometry: { x: 100, y: 200 } }), marker: expect.objectContaining({ geometry: { x: 5, y: 6 } }), basedOn: 1 },
      { uid: 'm2', base: expect.objectContaining({ uid: 'm2', version: 1 }), marker: null, basedOn: 1 },
    ]);
  });

  it('another page of the map shows them and sends them; nothing is recorded as a step', async () => {
    const first = setup([marker('m1'), marker('m2')]);
    first.server.failNext('update', signedOut());
    first.server.failNext('delete', signedOut());
    await first.commands.moveMarker('m1', { x: 5, y: 6 });
    await first.commands.deleteMarker('m2');
    const kept = first.commands.signedOutChanges();

    const page = fakeSink([...first.server.stored.values()]);
    const commands = createEditorCommands({ api: first.server.api, sink: page.sink, mapId: 'customs' });
    expect(await commands.restoreChanges(kept)).toEqual(['m1', 'm2']);
    expect(page.markers.get('m1')?.geometry).toEqual({ x: 5, y: 6 });
    expect(page.markers.has('m2')).toBe(false);
    await commands.settle();
    expect(first.server.stored.get('m1')).toMatchObject({ geometry: { x: 5, y: 6 }, version: 2 });
    expect(first.server.stored.has('m2')).toBe(false);
    expect(commands.getState()).toMatchObject({ pending: {}, canUndo: false });
  });

  it('never overwrites another admin’s change made since (a conflict); another map’s are left out', async () => {
    const { server, commands } = setup([marker('m1')]);
    server.failNext('update', signedOut());
    await commands.moveMarker('m1', { x: 5, y: 6 });
    const kept = commands.signedOutChanges();
    server.seed({ ...server.stored.get('m1')!, name: 'Bob' }); // version 2

    const page = fakeSink([...server.stored.values()]);
    const next = createEditorCommands({ api: server.api, sink: page.sink, mapId: 'customs' });
    const other: KeptChange = { uid: 'w1', base: marker('w1', { map: 'woods', version: 1 }), marker: null, basedOn: 1 };
    expect(await next.restoreChanges([...kept, other])).toEqual(['m1']);
    await next.settle();
    expect(server.stored.get('m1')).toMatchObject({ name: 'Bob', geometry: { x: 100, y: 200 }, version: 2 });
    expect(next.getState().conflicts).toEqual([expect.objectContaining({ uid: 'm1', mine: expect.objectContaining({ geometry: { x: 5, y: 6 } }), theirs: expect.objectContaining({ name: 'Bob' }) })]);
    expect(page.markers.get('m1')).toMatchObject({ name: 'Bob', version: 2 });
  });

  it('leaves a marker the page has a change of its own for', async () => {
    const { server, commands } = setup([marker('m1')]);
    server.failNext('update', signedOut());
    await commands.moveMarker('m1', { x: 5, y: 6 });
    const kept = commands.signedOutChanges();
    server.failNext('update');
    await commands.moveMarker('m1', { x: 7, y: 8 }); // failed, offline: its own change
    expect(await commands.restoreChanges(kept)).toEqual([]);
    expect(commands.getState().pending.m1).toMatchObject({ status: 'failed', error: { code: 'offline' } });
  });
});

describe('a 403 (the session is no admin’s now) is met as an ended session', () => {
  it('fails the change as signedOut and keeps it for the next admin', async () => {
    const { server, commands } = setup([marker('m1')]);
    server.failNext('update', new ApiError('/api/be/admin/marker', 403, 'forbidden', 'this call is for admins only'));
    await commands.moveMarker('m1', { x: 5, y: 6 });
    expect(commands.getState().pending.m1).toMatchObject({ status: 'failed', error: { code: 'signedOut' } });
    expect(commands.signedOutChanges()).toEqual([expect.objectContaining({ uid: 'm1', marker: expect.objectContaining({ geometry: { x: 5, y: 6 } }), basedOn: 1 })]);
  });
});

describe('kept changes brought back after a reload, for a marker gone meanwhile', () => {
  it('meets the server’s 404 as a live change does: a move fails as deleted elsewhere, a delete is done', async () => {
    const first = setup([marker('m1'), marker('m2')]);
    first.server.failNext('update', new ApiError('/api/be/admin/marker', 401, 'unauthorized', 'sign in first'));
    first.server.failNext('delete', new ApiError('/api/be/admin/marker', 401, 'unauthorized', 'sign in first'));
    await first.commands.moveMarker('m1', { x: 5, y: 6 });
    await first.commands.deleteMarker('m2');
    // Through the store, as a reloaded page reads them; both markers deleted by another admin since.
    const kept = JSON.parse(JSON.stringify(first.commands.signedOutChanges())) as KeptChange[];
    first.server.remove('m1');
    first.server.remove('m2');

    const page = fakeSink([...first.server.stored.values()]);
    const commands = createEditorCommands({ api: first.server.api, sink: page.sink, mapId: 'customs' });
    expect(await commands.restoreChanges(kept)).toEqual(['m1', 'm2']);
    await commands.settle();
    expect(commands.getState().pending).toEqual({ m1: { status: 'failed', error: expect.objectContaining({ code: 'deletedElsewhere' }) } });
    expect(page.markers.get('m1')?.geometry).toEqual({ x: 5, y: 6 });
    expect(page.markers.has('m2')).toBe(false);
  });
});
