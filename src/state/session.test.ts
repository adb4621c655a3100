import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AccountUser } from '../api/account';
import { setApiBase } from '../api/client';
import { accountServer, TEST_API_BASE } from '../ui/map/testing/mapApi';
import { closeAccountDialog, closeUpsell, layout, setPanelsShown, togglePanels } from './layout';
import { currentPlayer, player, setPlayerPosition } from './player';
import {
  giveUpSignIn,
  isPro,
  loadSession,
  resetSession,
  runQuestAction,
  session,
  sessionCan,
  SESSION_CHANNEL,
  setSessionUser,
  SIGNED_IN_ROLE_KEY,
  signIn,
  signOut,
  type SessionMessage,
} from './session';
import { memoryStorage, readStored, setStorageBackend, writeStored } from './storage';

const server = setupServer();

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setApiBase(TEST_API_BASE);
});
afterEach(() => {
  server.resetHandlers();
  resetSession();
  setStorageBackend(null);
  closeUpsell();
  closeAccountDialog();
  setPanelsShown(true);
  setPlayerPosition(null);
});
afterAll(() => {
  server.close();
  setApiBase('');
});

describe('session', () => {
  it('is a visitor until someone signs in: not pro, the look arrow an upsell', () => {
    expect(isPro()).toBe(false);
    expect(sessionCan('lookArrow')).toBe(false);
    expect(sessionCan('view')).toBe(true);
  });

  it('knows a pro user, and that an admin is not pro', () => {
    setSessionUser({ pro: true, admin: false, questsDone: [], questsHidden: [] });
    expect(isPro()).toBe(true);
    expect(sessionCan('lookArrow')).toBe(true);
    setSessionUser({ pro: true, admin: true, questsDone: [], questsHidden: [] });
    expect(isPro()).toBe(false);
  });
});

describe('other tabs', () => {
  const pro: AccountUser = { name: 'pro', pro: true, admin: false, questsDone: [], questsHidden: [] };

  /** Another tab of the site: what it hears, and a way to speak. */
  function otherTab() {
    const heard: SessionMessage[] = [];
    const ch = new BroadcastChannel(SESSION_CHANNEL);
    ch.onmessage = (event: MessageEvent<SessionMessage>) => heard.push(event.data);
    return { heard, say: (message: SessionMessage) => ch.postMessage(message), close: () => ch.close() };
  }

  it('tells them of a sign-in, saved quest progress and a sign-out, each with the user now signed in', async () => {
    const account = accountServer(pro);
    server.use(...account.handlers);
    const tab = otherTab();
    try {
      await signIn({ name: 'pro', password: 'demo-pass' });
      await expect.poll(() => tab.heard.at(-1)).toEqual({ type: 'user', user: expect.objectContaining({ name: 'pro', questsDone: [] }) });
      expect(await runQuestAction('complete', 'q1')).toBe('saved');
      await expect.poll(() => tab.heard.at(-1)).toEqual({ type: 'user', user: expect.objectContaining({ name: 'pro', questsDone: ['q1'] }) });
      await signOut();
      await expect.poll(() => tab.heard.at(-1)).toEqual({ type: 'user', user: null });
    } finally {
      tab.close();
    }
  });

  it('takes the user another tab signed in or out, once listening', async () => {
    server.use(...accountServer(null).handlers);
    await loadSession();
    const tab = otherTab();
    try {
      tab.say({ type: 'user', user: { ...pro, questsDone: ['q9'] } });
      await expect.poll(() => session.user?.questsDone).toEqual(['q9']);
      expect(isPro()).toBe(true);
      tab.say({ type: 'user', user: null });
      await expect.poll(() => session.user).toBeNull();
      expect(session.status).toBe('ready');
    } finally {
      tab.close();
    }
  });
});

describe('layout', () => {
  it('shows the panels at first and toggles them', () => {
    expect(layout.panelsShown).toBe(true);
    togglePanels();
    expect(layout.panelsShown).toBe(false);
    togglePanels();
    expect(layout.panelsShown).toBe(true);
  });
});

describe('player', () => {
  it('counts every update and hands out copies', () => {
    const before = player.updates;
    setPlayerPosition({ x: 1, y: 2, z: 3, look: 45 });
    setPlayerPosition({ x: 1, y: 2, z: 3, look: 45 });
    expect(player.updates).toBe(before + 2);
    const copy = currentPlayer();
    expect(copy).toEqual({ x: 1, y: 2, z: 3, look: 45 });
    copy!.x = 99;
    expect(player.position?.x).toBe(1);
    setPlayerPosition(null);
    expect(currentPlayer()).toBeNull();
  });
});

describe('quest actions', () => {
  const pro: AccountUser = { name: 'pro', pro: true, admin: false, questsDone: ['q-old'], questsHidden: ['q-gone'] };

  /** A mocked account server that knows `user`, with the session signed in as `signedInAs` (default: the same user). */
  function signedIn(user: AccountUser | null, signedInAs: AccountUser | null = user) {
    const account = accountServer(user);
    server.use(...account.handlers);
    setSessionUser(signedInAs && { ...signedInAs, questsDone: [...signedInAs.questsDone], questsHidden: [...signedInAs.questsHidden] });
    return account;
  }

  it('shows a signed-out visitor the upsell and sends nothing', async () => {
    const account = signedIn(null);
    expect(await runQuestAction('complete', 'q1')).toBe('upsell');
    expect(layout.upsellOpen).toBe(true);
    expect(account.requests).toEqual([]);
    expect(session.user).toBeNull();
  });

  it('shows a signed-in user without pro the upsell and sends nothing', async () => {
    const visitor = { ...pro, name: 'visitor', pro: false };
    const account = signedIn(visitor);
    for (const action of ['complete', 'reopen', 'hide', 'show'] as const) {
      closeUpsell();
      expect(await runQuestAction(action, 'q-old')).toBe('upsell');
      expect(layout.upsellOpen).toBe(true);
    }
    expect(account.requests).toEqual([]);
    expect(session.user).toEqual(visitor);
  });

  it('gives an admin no such action: nothing sent, no upsell', async () => {
    const account = signedIn({ ...pro, name: 'admin', pro: false, admin: true });
    expect(await runQuestAction('hide', 'q1')).toBe('notShown');
    expect(layout.upsellOpen).toBe(false);
    expect(account.requests).toEqual([]);
  });

  it('refreshes a pro user first, saves only the change, and takes the server’s answer', async () => {
    // Another tab completed q-other meanwhile: the refresh picks it up and the save keeps it.
    const account = signedIn({ ...pro, questsDone: ['q-old', 'q-other'] }, pro);
    const pending = runQuestAction('complete', 'q1');
    expect(session.pendingQuest).toBe('q1');
    expect(await pending).toBe('saved');
    expect(account.requests).toEqual(['GET /api/be/user', 'POST /api/be/user/progress']);
    expect(account.progressBodies).toEqual([{ done: { add: ['q1'] } }]);
    expect(session.user).toEqual(account.user);
    expect(session.user?.questsDone).toEqual(['q-old', 'q-other', 'q1']);
    expect(session.pendingQuest).toBeNull();

    expect(await runQuestAction('show', 'q-gone')).toBe('saved');
    expect(account.progressBodies[1]).toEqual({ hidden: { remove: ['q-gone'] } });
    expect(await runQuestAction('hide', 'q2')).toBe('saved');
    expect(account.progressBodies[2]).toEqual({ hidden: { add: ['q2'] } });
    expect(await runQuestAction('reopen', 'q-old')).toBe('saved');
    expect(account.progressBodies[3]).toEqual({ done: { remove: ['q-old'] } });
    expect(session.user).toEqual({ ...pro, questsDone: ['q-other', 'q1'], questsHidden: ['q2'] });
    expect(session.progressError).toBeNull();
  });

  it('saves nothing when the refresh finds the user no longer pro, and shows the upsell', async () => {
    const account = signedIn({ ...pro, pro: false }, pro);
    expect(await runQuestAction('complete', 'q1')).toBe('upsell');
    expect(account.requests).toEqual(['GET /api/be/user']);
    expect(session.user?.pro).toBe(false);
    expect(session.user?.questsDone).toEqual(['q-old']);
    expect(layout.upsellOpen).toBe(true);
    expect(session.pendingQuest).toBeNull();
  });

  it('saves nothing when the refresh finds the session ended, and asks to sign in again', async () => {
    const account = signedIn(pro);
    server.use(http.get(`${TEST_API_BASE}/api/be/user`, () => HttpResponse.json({ error: 'unauthorized', message: 'sign in first' }, { status: 401 })));
    expect(await runQuestAction('complete', 'q1')).toBe('signedOut');
    expect(account.progressBodies).toEqual([]);
    expect(session.user).toBeNull();
    expect(layout.accountDialog).toBe('signIn');
    expect(layout.upsellOpen).toBe(false);
    // The dialog says why.
    expect(session.signInReason).toBe('saveAction');
    expect(session.ended).toBe(true);
  });

  /** A pro session that ended on the server while the page still shows the user. */
  function sessionEnded(user: AccountUser) {
    const account = signedIn(user, pro);
    account.user = null;
    return account;
  }

  it('carries out the action that found the session ended once the user signs back in', async () => {
    const account = sessionEnded(pro);
    expect(await runQuestAction('complete', 'q1')).toBe('signedOut');
    account.user = { ...pro };
    await signIn({ name: 'pro', password: 'demo-pass' });
    await expect.poll(() => account.progressBodies).toEqual([{ done: { add: ['q1'] } }]);
    await expect.poll(() => session.user?.questsDone).toEqual(['q-old', 'q1']);
    expect(session.signInReason).toBeNull();
    expect(session.ended).toBe(false);
    // Once: a later sign-in carries out nothing more.
    await signIn({ name: 'pro', password: 'demo-pass' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(account.progressBodies).toHaveLength(1);
  });

  it('shows the upsell instead, and saves nothing, when the account signed back into is not pro', async () => {
    const visitor = { ...pro, name: 'visitor', pro: false };
    const account = sessionEnded(visitor);
    expect(await runQuestAction('hide', 'q1')).toBe('signedOut');
    account.user = { ...visitor };
    await signIn({ name: 'visitor', password: 'demo-pass' });
    await expect.poll(() => layout.upsellOpen).toBe(true);
    expect(account.progressBodies).toEqual([]);
  });

  it('drops the action when the sign-in is given up', async () => {
    const account = sessionEnded(pro);
    expect(await runQuestAction('complete', 'q1')).toBe('signedOut');
    giveUpSignIn();
    expect(session.signInReason).toBeNull();
    expect(session.ended).toBe(false);
    account.user = { ...pro };
    await signIn({ name: 'pro', password: 'demo-pass' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(account.progressBodies).toEqual([]);
    expect(account.requests).not.toContain('POST /api/be/user/progress');
  });
  it('reports a failed save with the server’s message and leaves the user as it was', async () => {
    const account = signedIn(pro);
    server.use(http.post(`${TEST_API_BASE}/api/be/user/progress`, () => HttpResponse.json({ error: 'internal', message: 'progress could not be stored' }, { status: 500 })));
    expect(await runQuestAction('complete', 'q1')).toBe('failed');
    expect(session.progressError).toBe('progress could not be stored');
    expect(session.user).toEqual(pro);
    expect(session.pendingQuest).toBeNull();
    expect(account.requests).toEqual(['GET /api/be/user']);
  });

  it('reports a failed refresh and sends no save', async () => {
    const account = signedIn(pro);
    server.use(http.get(`${TEST_API_BASE}/api/be/user`, () => HttpResponse.json({ error: 'unavailable', message: 'the server is restarting' }, { status: 503 })));
    expect(await runQuestAction('hide', 'q1')).toBe('failed');
    expect(session.progressError).toBe('the server is restarting');
    expect(session.user).toEqual(pro);
    expect(account.progressBodies).toEqual([]);
  });

  it('answers busy while another action is being saved', async () => {
    const account = signedIn(pro);
    const first = runQuestAction('complete', 'q1');
    expect(await runQuestAction('complete', 'q2')).toBe('busy');
    expect(await first).toBe('saved');
    expect(account.progressBodies).toEqual([{ done: { add: ['q1'] } }]);
  });

  it('keeps what another device saved between the refresh and the save: both changes stay', async () => {
    const account = signedIn(pro);
    // The refresh answers the lists as they were; this device's save waits until the other
    // device (another page signed into the same account) has completed q2 and hidden q3.
    let release = () => {};
    const otherDeviceDone = new Promise<void>((resolve) => (release = resolve));
    const before = structuredClone(account.user);
    server.use(
      http.get(`${TEST_API_BASE}/api/be/user`, async () => {
        const answer = structuredClone(before);
        await otherDeviceDone;
        return HttpResponse.json(answer);
      }, { once: true }),
    );
    const mine = runQuestAction('complete', 'q1');
    await expect.poll(() => session.pendingQuest).toBe('q1');
    const other = await fetch(`${TEST_API_BASE}/api/be/user/progress`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ done: { add: ['q2'] }, hidden: { add: ['q3'] } }),
    });
    expect(other.status).toBe(200);
    release();
    expect(await mine).toBe('saved');
    expect(account.user?.questsDone).toEqual(['q-old', 'q2', 'q1']);
    expect(account.user?.questsHidden).toEqual(['q-gone', 'q3']);
    expect(session.user).toEqual(account.user);
  });
});

describe('a session that ended before the page loaded', () => {
  const pro: AccountUser = { name: 'pro', pro: true, admin: false, questsDone: [], questsHidden: [] };
  beforeEach(() => setStorageBackend(memoryStorage()));

  it('remembers who was signed in, and forgets it on a sign-out', async () => {
    server.use(...accountServer(pro).handlers);
    await loadSession();
    expect(readStored(SIGNED_IN_ROLE_KEY)).toBe('pro');
    await signOut();
    expect(readStored(SIGNED_IN_ROLE_KEY)).toBeNull();
    expect(session.ended).toBe(false);
  });

  it('says that a pro session ended and asks for a sign-in, where a pro user was signed in', async () => {
    writeStored(SIGNED_IN_ROLE_KEY, 'pro');
    server.use(...accountServer(null).handlers);
    await loadSession();
    expect(session.user).toBeNull();
    expect(session.ended).toBe(true);
    expect(session.signInReason).toBe('sessionEndedPro');
    expect(layout.accountDialog).toBe('signIn');
  });

  it('says so for another account too, without the Pro words', async () => {
    writeStored(SIGNED_IN_ROLE_KEY, 'visitor');
    server.use(...accountServer(null).handlers);
    await loadSession();
    expect(session.signInReason).toBe('sessionEnded');
  });

  it('asks nothing of a visitor who never signed in, or who signed out', async () => {
    server.use(...accountServer(null).handlers);
    await loadSession();
    expect(session.ended).toBe(false);
    expect(session.signInReason).toBeNull();
    expect(layout.accountDialog).toBeNull();
  });

  it('is not said again once the user gives up signing in, and ends with a sign-in', async () => {
    writeStored(SIGNED_IN_ROLE_KEY, 'pro');
    const account = accountServer(null);
    server.use(...account.handlers);
    await loadSession();
    giveUpSignIn();
    expect(session.ended).toBe(false);
    expect(readStored(SIGNED_IN_ROLE_KEY)).toBeNull();

    // Another reload with the sign-in given up: a visitor.
    resetSession();
    closeAccountDialog();
    setStorageBackend(memoryStorage());
    writeStored(SIGNED_IN_ROLE_KEY, 'pro');
    await loadSession();
    expect(session.ended).toBe(true);
    account.user = null;
    server.use(...accountServer(pro).handlers);
    await signIn({ name: 'pro', password: 'demo-pass' });
    expect(session.ended).toBe(false);
    expect(session.signInReason).toBeNull();
    expect(readStored(SIGNED_IN_ROLE_KEY)).toBe('pro');
  });
});
