import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import { createEditorCommands } from '../../editor/commands';
import { fakeServer, fakeSink, flush, marker } from '../../editor/testing/fakes';
import { bindEditor, resetEditor } from '../../state/editor';
import { closeAccountDialog, layout } from '../../state/layout';
import { giveUpSignIn, resetSession, session } from '../../state/session';
import { KEPT_FOR_ADMIN_STORAGE_KEY } from '../../editor/keptChanges';
import { memoryStorage, setStorageBackend } from '../../state/storage';
import { discardKeptForAdmin, keptForAdmin, loadKeptForAdmin, resetKeptForAdmin, signInToSave, signedOutUids } from './signInToSave';

const admin = () => ({ name: 'admin', admin: true, pro: false, questsDone: [], questsHidden: [] });
const signedOut = () => new ApiError('/api/be/admin/marker', 401, 'unauthorized', 'sign in first');
const place = { mapX: 10, mapY: 20, level: 1, category: 'Keys', subCategory: 'Key Spawn' };

function setup() {
  const server = fakeServer();
  const stored = [server.seed(marker('m1'))];
  const page = fakeSink(stored);
  let n = 0;
  const commands = createEditorCommands({ api: server.api, sink: page.sink, mapId: 'customs', newUid: () => `new-${++n}` });
  bindEditor(commands);
  const stop = signInToSave(commands);
  return { server, page, commands, stop };
}

/** The tab's sessionStorage (and localStorage: their keys do not overlap), per test. */
let tab = memoryStorage();

beforeEach(() => {
  tab = memoryStorage();
  setStorageBackend(tab);
  resetSession();
  closeAccountDialog();
  session.user = admin();
  session.status = 'ready';
});

afterEach(() => {
  resetKeptForAdmin();
  resetEditor();
  resetSession();
  closeAccountDialog();
  setStorageBackend(null);
});

describe('a change refused because the session ended', () => {
  it('opens the sign-in dialog saying why (once for changes refused together); nothing is lost', async () => {
    const { server, commands } = setup();
    server.failNext('add', signedOut());
    server.failNext('update', signedOut());
    await Promise.all([commands.placeMarker(place), commands.moveMarker('m1', { x: 1, y: 1 })]);
    expect(signedOutUids(commands.getState()).sort()).toEqual(['m1', 'new-1']);
    expect(layout.accountDialog).toBe('signIn');
    expect(session.signInReason).toBe('saveAction');
    // The admin is not taken away: the editor and its changes stay.
    expect(session.user).toMatchObject({ admin: true });
  });

  it('sends every such change again once an admin signs in (here or in another tab)', async () => {
    const { server, commands } = setup();
    server.failNext('add', signedOut());
    await commands.placeMarker(place);
    session.user = admin(); // what signIn (or another tab's message) does
    await flush();
    await commands.settle();
    expect(commands.getState().pending).toEqual({});
    expect(server.stored.get('new-1')).toMatchObject({ version: 1 });
  });

  it('given up: the changes stay failed, and the next refusal (a Retry) asks again', async () => {
    const { server, commands } = setup();
    server.failNext('add', signedOut());
    await commands.placeMarker(place);
    closeAccountDialog();
    giveUpSignIn();
    expect(commands.getState().pending['new-1']).toMatchObject({ status: 'failed' });
    server.failNext('add', signedOut());
    await commands.retrySave('new-1');
    expect(layout.accountDialog).toBe('signIn');
    expect(session.signInReason).toBe('saveAction');
  });

  it('a sign-in without admin rights sends nothing', async () => {
    const { server, commands } = setup();
    server.failNext('add', signedOut());
    await commands.placeMarker(place);
    session.user = { name: 'bob', admin: false, pro: true, questsDone: [], questsHidden: [] };
    await flush();
    expect(server.stored.has('new-1')).toBe(false);
    expect(commands.getState().pending['new-1']).toMatchObject({ status: 'failed', error: { code: 'signedOut' } });
  });

  it('another failure (the server down) asks for nothing', async () => {
    const { server, commands } = setup();
    server.failNext('add');
    await commands.placeMarker(place);
    expect(layout.accountDialog).toBeNull();
    expect(session.signInReason).toBeNull();
  });
});

const pro = () => ({ name: 'bob', admin: false, pro: true, questsDone: [], questsHidden: [] });

/** What the map page does as the user changes: the editor closes (its stop, then dispose). */
function leaveEditor(commands: { dispose(): void }, stop: () => void) {
  stop();
  bindEditor(null);
  commands.dispose();
}

/** A move and a delete refused by a 401 (the session ended). */
async function refusedMoveAndDelete() {
  const context = setup();
  context.server.seed(marker('m2'));
  await context.page.sink.upsert(context.server.stored.get('m2')!);
  context.server.failNext('update', signedOut());
  context.server.failNext('delete', signedOut());
  await context.commands.moveMarker('m1', { x: 1, y: 1 });
  await context.commands.deleteMarker('m2');
  return context;
}

describe('changes refused so, when someone without admin rights signs in', () => {

  it('are kept on the page (still shown), and nothing is sent', async () => {
    const { server, page, commands, stop } = await refusedMoveAndDelete();
    session.user = pro();
    await flush();
    leaveEditor(commands, stop);
    expect(keptForAdmin.changes.map((change) => [change.uid, change.marker?.geometry ?? null])).toEqual([
      ['m1', { x: 1, y: 1 }],
      ['m2', null],
    ]);
    expect(page.markers.get('m1')?.geometry).toEqual({ x: 1, y: 1 });
    expect(server.stored.get('m1')).toMatchObject({ geometry: { x: 100, y: 200 }, version: 1 });
    expect(server.stored.has('m2')).toBe(true);
  });

  it('are sent once an admin signs in on the page again', async () => {
    const { server, page, commands, stop } = await refusedMoveAndDelete();
    session.user = pro();
    leaveEditor(commands, stop);
    session.user = admin();
    const next = createEditorCommands({ api: server.api, sink: page.sink, mapId: 'customs' });
    bindEditor(next);
    const stopNext = signInToSave(next);
    await flush();
    await next.settle();
    expect(server.stored.get('m1')).toMatchObject({ geometry: { x: 1, y: 1 }, version: 2 });
    expect(server.stored.has('m2')).toBe(false);
    expect(keptForAdmin.changes).toEqual([]);
    expect(next.getState().pending).toEqual({});
    stopNext();
  });

  it('Discard drops them, and the map shows the server’s markers again', async () => {
    const { server, page, commands, stop } = await refusedMoveAndDelete();
    session.user = null;
    leaveEditor(commands, stop);
    await discardKeptForAdmin('customs');
    expect(keptForAdmin.changes).toEqual([]);
    expect(page.markers.get('m1')).toMatchObject({ geometry: { x: 100, y: 200 }, version: 1 });
    expect(page.markers.get('m2')).toMatchObject({ version: 1 });
    expect(server.writes().map((write) => write.op)).toEqual(['update', 'delete']);
  });

  it('an admin leaving the map keeps nothing (the page asked first)', async () => {
    const { commands, stop } = await refusedMoveAndDelete();
    leaveEditor(commands, stop);
    expect(keptForAdmin.changes).toEqual([]);
  });
});

describe('changes kept for an admin, across a reload of the tab', () => {
  /** A move and a delete refused by a 401, then a pro signs in: both kept. */
  async function keptMoveAndDelete() {
    const context = await refusedMoveAndDelete();
    session.user = pro();
    leaveEditor(context.commands, context.stop);
    return context;
  }

  /** A fresh page of the map (its list read from the server) whose tab kept what it stored. */
  function reload(server: ReturnType<typeof fakeServer>) {
    resetEditor();
    keptForAdmin.changes = [];
    loadKeptForAdmin();
    return fakeSink([...server.stored.values()]);
  }

  it('stores them in the tab, with the version each was made on, and a reload has them again', async () => {
    const { server } = await keptMoveAndDelete();
    const stored = JSON.parse(tab.getItem(KEPT_FOR_ADMIN_STORAGE_KEY)!) as Record<string, unknown[]>;
    expect(Object.keys(stored)).toEqual(['customs']);
    expect(stored.customs).toEqual([expect.objectContaining({ uid: 'm1', basedOn: 1 }), expect.objectContaining({ uid: 'm2', marker: null, basedOn: 1 })]);
    expect(JSON.stringify(stored)).not.toMatch(/password|token/i);
    reload(server);
    expect(keptForAdmin.changes.map((change) => [change.uid, change.basedOn])).toEqual([
      ['m1', 1],
      ['m2', 1],
    ]);
  });

  it('an admin signing in after the reload has them sent, and the store is cleared', async () => {
    const { server } = await keptMoveAndDelete();
    const page = reload(server);
    session.user = admin();
    const next = createEditorCommands({ api: server.api, sink: page.sink, mapId: 'customs' });
    bindEditor(next);
    const stop = signInToSave(next);
    await flush();
    await next.settle();
    expect(server.stored.get('m1')).toMatchObject({ geometry: { x: 1, y: 1 }, version: 2 });
    expect(server.stored.has('m2')).toBe(false);
    expect(keptForAdmin.changes).toEqual([]);
    expect(tab.getItem(KEPT_FOR_ADMIN_STORAGE_KEY)).toBeNull();
    stop();
  });

  it('Discard clears the store (this map’s only); a reload then has nothing to offer', async () => {
    const { server } = await keptMoveAndDelete();
    const woods = { uid: 'w1', base: marker('w1', { map: 'woods', version: 1 }), marker: null, basedOn: 1 };
    keptForAdmin.changes = [...keptForAdmin.changes, woods];
    await discardKeptForAdmin('customs');
    expect(JSON.parse(tab.getItem(KEPT_FOR_ADMIN_STORAGE_KEY)!)).toEqual({ woods: [woods] });
    reload(server);
    expect(keptForAdmin.changes.map((change) => change.uid)).toEqual(['w1']);
  });

  it('bad or old stored data is ignored (nothing sent, nothing thrown)', async () => {
    const server = fakeServer();
    server.seed(marker('m1'));
    for (const text of ['{not json', '[1,2]', JSON.stringify({ customs: [{ uid: 'm1', base: { uid: 'm1' }, marker: null, basedOn: 1 }] })]) {
      tab.setItem(KEPT_FOR_ADMIN_STORAGE_KEY, text);
      const page = reload(server);
      expect(keptForAdmin.changes).toEqual([]);
      const next = createEditorCommands({ api: server.api, sink: page.sink, mapId: 'customs' });
      bindEditor(next);
      signInToSave(next)();
      await flush();
      expect(server.writes()).toEqual([]);
    }
  });
});

describe('a change still saving as someone without admin rights signs in', () => {
  const pro = () => ({ name: 'bob', admin: false, pro: true, questsDone: [], questsHidden: [] });
  const forbidden = () => new ApiError('/api/be/admin/marker', 403, 'forbidden', 'this call is for admins only');

  function leaveEditor(commands: { dispose(): void }, stop: () => void) {
    stop();
    bindEditor(null);
    commands.dispose();
  }

  for (const [status, refusal] of [
    [401, signedOut],
    [403, forbidden],
  ] as const) {
    it(`is kept once its answer, a ${status}, comes`, async () => {
      const { server, page, commands, stop } = setup();
      const release = server.hold();
      void commands.moveMarker('m1', { x: 1, y: 1 });
      await flush();
      expect(commands.getState().pending.m1).toMatchObject({ status: 'saving' });
      server.failNext('update', refusal());
      session.user = pro();
      leaveEditor(commands, stop);
      expect(keptForAdmin.changes).toEqual([]);
      release();
      await flush();
      expect(keptForAdmin.changes).toEqual([expect.objectContaining({ uid: 'm1', marker: expect.objectContaining({ geometry: { x: 1, y: 1 } }), basedOn: 1 })]);
      expect(JSON.parse(tab.getItem(KEPT_FOR_ADMIN_STORAGE_KEY)!).customs).toHaveLength(1);
      expect(page.markers.get('m1')?.geometry).toEqual({ x: 1, y: 1 });
    });
  }

  it('is sent by the admin signed in again before its answer came, and only it', async () => {
    const { server, page, commands, stop } = setup();
    server.seed(marker('m2'));
    await page.sink.upsert(server.stored.get('m2')!);
    server.failNext('delete', signedOut());
    await commands.deleteMarker('m2'); // refused before: kept at once
    const release = server.hold();
    void commands.moveMarker('m1', { x: 1, y: 1 });
    await flush();
    server.failNext('update', signedOut());
    session.user = pro();
    leaveEditor(commands, stop);
    session.user = admin();
    const next = createEditorCommands({ api: server.api, sink: page.sink, mapId: 'customs' });
    bindEditor(next);
    const stopNext = signInToSave(next);
    release();
    await flush();
    await next.settle();
    await flush();
    await next.settle();
    expect(server.stored.get('m1')).toMatchObject({ geometry: { x: 1, y: 1 }, version: 2 });
    expect(server.stored.has('m2')).toBe(false);
    expect(server.writes().map((write) => write.op)).toEqual(['delete', 'update', 'delete', 'update']);
    expect(keptForAdmin.changes).toEqual([]);
    expect(next.getState()).toMatchObject({ pending: {}, conflicts: [] });
    stopNext();
  });

  it('one that goes through is not kept', async () => {
    const { server, commands, stop } = setup();
    const release = server.hold();
    void commands.moveMarker('m1', { x: 1, y: 1 });
    await flush();
    session.user = pro();
    leaveEditor(commands, stop);
    release();
    await flush();
    expect(server.stored.get('m1')).toMatchObject({ geometry: { x: 1, y: 1 }, version: 2 });
    expect(keptForAdmin.changes).toEqual([]);
  });
});
