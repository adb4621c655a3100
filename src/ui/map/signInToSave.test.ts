import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import { createEditorCommands } from '../../editor/commands';
import { fakeServer, fakeSink, flush, marker } from '../../editor/testing/fakes';
import { bindEditor, resetEditor } from '../../state/editor';
import { closeAccountDialog, layout } from '../../state/layout';
import { giveUpSignIn, resetSession, session } from '../../state/session';
import { signInToSave, signedOutUids } from './signInToSave';

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

beforeEach(() => {
  resetSession();
  closeAccountDialog();
  session.user = admin();
  session.status = 'ready';
});

afterEach(() => {
  resetEditor();
  resetSession();
  closeAccountDialog();
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
