// @vitest-environment jsdom
/**
 * What the page does before it knows who is signed in (GET /api/be/user slow or failed), and
 * how it picks up progress saved on another device: pro controls wait for the answer, a quest
 * action whose account check failed says so (no upsell), the limit notice says why it shows,
 * and the user is asked again when the tab comes back (throttled, never over a save).
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AccountUser } from '../api/account';
import { setApiBase } from '../api/client';
import type { Quest } from '../domain/quests';
import { accountServer, setHint, TEST_API_BASE } from '../ui/map/testing/mapApi';
import { closeAccountDialog, closeUpsell, layout } from './layout';
import { enforceQuestLimit, quests, resetQuests, runQuestActionAt, retryQuestAction, selectQuests, setQuestList, toggleQuest } from './quests';
import {
  ACCOUNT_UNCHECKED,
  loadSession,
  PROGRESS_REFRESH_MS,
  refreshProgress,
  resetSession,
  runQuestAction,
  session,
  sessionCheck,
  setSessionUser,
  SIGNED_IN_ROLE_KEY,
  signIn,
  signOut,
  tryProFeature,
} from './session';
import { memoryStorage, setStorageBackend, writeStored } from './storage';

const BASE = TEST_API_BASE;
const pro: AccountUser = { name: 'pro', pro: true, admin: false, questsDone: [], questsHidden: [] };
const quest = (uid: string): Quest => ({ uid, name: `Quest ${uid}`, ruName: `Квест ${uid}`, trader: 'Prapor', requiredForKappa: true, requiredForLightkeeper: false, wikiUrl: '' });

const server = setupServer();
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setApiBase(BASE);
});
beforeEach(() => {
  setStorageBackend(memoryStorage());
  resetQuests();
  setQuestList(['a', 'b', 'c', 'd', 'e'].map(quest));
});
afterEach(() => {
  server.resetHandlers();
  resetSession();
  resetQuests();
  setStorageBackend(null);
  closeUpsell();
  closeAccountDialog();
  setHint(false);
});
afterAll(() => {
  server.close();
  setApiBase('');
});

/** GET /api/be/user answers `user` only once `answer()` is called (a slow server). */
function slowUser(user: AccountUser | null) {
  const account = accountServer(user);
  let answer = () => undefined as void;
  const gate = new Promise<void>((resolve) => (answer = resolve));
  server.use(
    http.get(`${BASE}/api/be/user`, async () => {
      await gate;
      return user ? HttpResponse.json(user) : HttpResponse.json({ error: 'unauthorized', message: 'sign in first' }, { status: 401 });
    }),
    ...account.handlers,
  );
  return { account, answer };
}

describe('pro controls while the page asks who is signed in', () => {
  it('waits for the answer: a pro user gets the feature, not the upsell', async () => {
    const { answer } = slowUser(pro);
    void loadSession();
    expect(session.status).toBe('loading');
    expect(sessionCheck()).not.toBeNull();
    let opened = false;
    const done = tryProFeature('settings', () => (opened = true));
    expect(layout.upsellOpen).toBe(false);
    answer();
    await done;
    expect(opened).toBe(true);
    expect(layout.upsellOpen).toBe(false);
  });

  it('shows a visitor the upsell once the answer says so', async () => {
    const { answer } = slowUser(null);
    void loadSession();
    let opened = false;
    const done = tryProFeature('lookArrow', () => (opened = true));
    answer();
    await done;
    expect(opened).toBe(false);
    expect(layout.upsellOpen).toBe(true);
  });

  it('follows a fourth quest for a pro user once the answer comes, with no limit notice', async () => {
    const { answer } = slowUser(pro);
    void loadSession();
    for (const uid of ['a', 'b', 'c', 'd']) toggleQuest(uid);
    expect(quests.selected).toEqual(['a', 'b', 'c']);
    expect(quests.limitNotice).toBe(false);
    answer();
    await loadSession();
    await Promise.resolve();
    expect(quests.selected).toEqual(['a', 'b', 'c', 'd']);
    expect(quests.limitNotice).toBe(false);
  });

  it('refuses the fourth quest for a visitor once the answer comes', async () => {
    const { answer } = slowUser(null);
    void loadSession();
    for (const uid of ['a', 'b', 'c', 'd']) toggleQuest(uid);
    answer();
    await loadSession();
    await Promise.resolve();
    expect(quests.selected).toEqual(['a', 'b', 'c']);
    expect(quests.limitNotice).toBe(true);
    expect(quests.limitWhy).toEqual({ reason: 'refused' });
  });

  it('a quest action waits for the answer too: a pro user’s Complete is saved', async () => {
    const { account, answer } = slowUser(pro);
    void loadSession();
    const result = runQuestAction('complete', 'a');
    answer();
    expect(await result).toBe('saved');
    expect(layout.upsellOpen).toBe(false);
    expect(account.progressBodies).toEqual([{ done: { add: ['a'] } }]);
  });
});

describe('a quest action where the account could not be checked', () => {
  function failingUser() {
    const account = accountServer(pro);
    let fail = true;
    server.use(
      http.get(`${BASE}/api/be/user`, () => (fail ? HttpResponse.json({ error: 'internal', message: 'boom' }, { status: 500 }) : undefined)),
      ...account.handlers,
    );
    return { account, recover: () => (fail = false) };
  }

  it('asks again and, failing, says so at the action with no upsell', async () => {
    const { account } = failingUser();
    await loadSession();
    expect(session.status).toBe('error');
    expect(await runQuestActionAt('row-a', 'complete', 'a')).toBe('unchecked');
    expect(layout.upsellOpen).toBe(false);
    expect(session.progressError).toBe(ACCOUNT_UNCHECKED);
    expect(quests.progressErrorAt).toBe('row-a');
    expect(account.progressBodies).toEqual([]);
  });

  it('"Try again" saves it once the server answers', async () => {
    const { account, recover } = failingUser();
    await loadSession();
    await runQuestActionAt('row-a', 'complete', 'a');
    recover();
    expect(await retryQuestAction()).toBe('saved');
    expect(session.status).toBe('ready');
    expect(session.progressError).toBeNull();
    expect(account.progressBodies).toEqual([{ done: { add: ['a'] } }]);
    expect(layout.upsellOpen).toBe(false);
  });

  it('shows the upsell once the answer says nobody is signed in', async () => {
    const { recover } = failingUser();
    await loadSession();
    recover();
    server.use(http.get(`${BASE}/api/be/user`, () => HttpResponse.json({ error: 'unauthorized', message: 'sign in first' }, { status: 401 })));
    expect(await runQuestAction('complete', 'a')).toBe('upsell');
    expect(layout.upsellOpen).toBe(true);
  });
});

describe('a pro control where the account could not be checked', () => {
  /** A pro user's server whose GET /api/be/user fails (500, counted) until `recover()`; the page load's check failed. */
  async function failedAtLoad() {
    const account = accountServer(pro);
    const failed = { count: 0 };
    let fail = true;
    server.use(
      http.get(`${BASE}/api/be/user`, () => {
        if (!fail) return undefined;
        failed.count += 1;
        return HttpResponse.json({ error: 'internal', message: 'boom' }, { status: 500 });
      }),
      ...account.handlers,
    );
    await loadSession();
    expect(session.status).toBe('error');
    return { account, failed, recover: () => (fail = false) };
  }

  it('asks again and, failing, marks the control unchecked: no upsell, nothing done', async () => {
    const { failed } = await failedAtLoad();
    let opened = false;
    await tryProFeature('settings', () => (opened = true));
    expect(failed.count).toBe(2);
    expect(opened).toBe(false);
    expect(layout.upsellOpen).toBe(false);
    expect(session.uncheckedFeature).toBe('settings');
  });

  it('does what was asked once the server answers, and the mark goes', async () => {
    const { recover } = await failedAtLoad();
    await tryProFeature('lookArrow', () => undefined);
    expect(session.uncheckedFeature).toBe('lookArrow');
    recover();
    let opened = false;
    await tryProFeature('lookArrow', () => (opened = true));
    expect(opened).toBe(true);
    expect(session.status).toBe('ready');
    expect(session.uncheckedFeature).toBeNull();
  });

  it('a pro control and a quest action used together ask the server once', async () => {
    const { failed } = await failedAtLoad();
    await Promise.all([tryProFeature('settings', () => undefined), runQuestAction('complete', 'a')]);
    expect(failed.count).toBe(2);
    expect(session.uncheckedFeature).toBe('settings');
    expect(session.progressError).toBe(ACCOUNT_UNCHECKED);
  });

  it('finding the session ended asks for a sign-in, after which the control does what was asked', async () => {
    const { recover } = await failedAtLoad();
    writeStored(SIGNED_IN_ROLE_KEY, 'pro');
    recover();
    server.use(http.get(`${BASE}/api/be/user`, () => HttpResponse.json({ error: 'unauthorized', message: 'sign in first' }, { status: 401 })));
    let opened = false;
    await tryProFeature('settings', () => (opened = true));
    expect(layout.accountDialog).toBe('signIn');
    expect(session.signInReason).toBe('sessionEndedPro');
    expect(opened).toBe(false);
    expect(layout.upsellOpen).toBe(false);
    await signIn({ name: 'pro', password: 'demo-pass' });
    await Promise.resolve();
    expect(opened).toBe(true);
  });
});

describe('the limit notice says why it shows', () => {
  it('names the quests a sign-out set aside', async () => {
    server.use(...accountServer(pro).handlers);
    await loadSession();
    selectQuests(['a', 'b', 'c', 'd', 'e']);
    await signOut();
    enforceQuestLimit();
    expect(quests.selected).toEqual(['a', 'b', 'c']);
    expect(quests.limitWhy).toEqual({ reason: 'lostPro', setAside: ['d', 'e'] });
  });

  it('counts the quests of a link beyond the limit', () => {
    selectQuests(['a', 'b', 'c', 'd', 'e', 'a']);
    expect(quests.limitNotice).toBe(true);
    expect(quests.limitWhy).toEqual({ reason: 'link', total: 5 });
  });
});

describe('progress saved on another device', () => {
  async function signedIn() {
    const account = accountServer(pro);
    server.use(...account.handlers);
    await loadSession();
    return account;
  }

  it('is picked up when the tab comes back, at most every 30 s', async () => {
    const account = await signedIn();
    const now = Date.now();
    account.user = { ...pro, questsDone: ['a'] };
    // Just loaded: not asked again so soon.
    expect(await refreshProgress(now)).toBe(false);
    expect(await refreshProgress(now + PROGRESS_REFRESH_MS)).toBe(true);
    expect(session.user?.questsDone).toEqual(['a']);
    account.user = { ...pro, questsDone: ['a', 'b'] };
    expect(await refreshProgress(now + PROGRESS_REFRESH_MS + 1000)).toBe(false);
    expect(session.user?.questsDone).toEqual(['a']);
  });

  it('is asked for on visibilitychange once listening', async () => {
    const account = await signedIn();
    account.user = { ...pro, questsDone: ['c'] };
    const asked = account.requests.length;
    // Long enough after the page load.
    const realNow = Date.now;
    Date.now = () => realNow() + PROGRESS_REFRESH_MS + 1;
    try {
      document.dispatchEvent(new Event('visibilitychange'));
      await expect.poll(() => session.user?.questsDone).toEqual(['c']);
    } finally {
      Date.now = realNow;
    }
    expect(account.requests.slice(asked)).toEqual(['GET /api/be/user']);
  });

  it('asks nothing while a quest action is saved, and never replaces a newer user', async () => {
    const account = await signedIn();
    const later = Date.now() + PROGRESS_REFRESH_MS;
    session.pendingQuest = 'a';
    const asked = account.requests.length;
    expect(await refreshProgress(later)).toBe(false);
    expect(account.requests.length).toBe(asked);
    session.pendingQuest = null;

    // The answer arrives after a save here changed the user: the save's answer stays.
    account.user = { ...pro, questsDone: ['old'] };
    const refresh = refreshProgress(later);
    setSessionUser({ ...pro, questsDone: ['saved-here'] });
    expect(await refresh).toBe(false);
    expect(session.user?.questsDone).toEqual(['saved-here']);
  });

  it('counts the 30 s from the refresh asked, not from the clock (a refresh sets it once)', async () => {
    const account = await signedIn();
    // Far from the real clock: a refresh that took the wall clock's time would be found out.
    const at = Date.now() + 10 * PROGRESS_REFRESH_MS;
    expect(await refreshProgress(at)).toBe(true);
    const asked = account.requests.length;
    expect(await refreshProgress(at + PROGRESS_REFRESH_MS - 1)).toBe(false);
    expect(account.requests.length).toBe(asked);
    expect(await refreshProgress(at + PROGRESS_REFRESH_MS)).toBe(true);
    expect(account.requests.length).toBe(asked + 1);
  });

  it('a refresh that failed is throttled too: the server is not asked on every return', async () => {
    const account = await signedIn();
    const at = Date.now() + PROGRESS_REFRESH_MS;
    let calls = 0;
    server.use(
      http.get(`${BASE}/api/be/user`, () => {
        calls += 1;
        return HttpResponse.json({ error: 'internal', message: 'boom' }, { status: 500 });
      }),
    );
    expect(await refreshProgress(at)).toBe(false);
    expect(calls).toBe(1);
    expect(await refreshProgress(at + 1000)).toBe(false);
    expect(calls).toBe(1);
    server.resetHandlers(...account.handlers);
    account.user = { ...pro, questsDone: ['b'] };
    expect(await refreshProgress(at + PROGRESS_REFRESH_MS)).toBe(true);
    expect(session.user?.questsDone).toEqual(['b']);
  });

  it('never over a save in flight: asks nothing while it is saved, and a refresh asked before it is dropped', async () => {
    const account = await signedIn();
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.post(`${BASE}/api/be/user/progress`, async () => {
        await gate;
        return undefined;
      }),
    );
    const later = Date.now() + PROGRESS_REFRESH_MS;
    // A refresh on its way when the save starts: its answer (the progress before the save) is dropped.
    const early = refreshProgress(later);
    const saving = runQuestAction('complete', 'a');
    await expect.poll(() => account.requests.filter((r) => r === 'GET /api/be/user').length).toBe(3);
    expect(session.pendingQuest).toBe('a');
    expect(await early).toBe(false);
    const asked = account.requests.length;
    expect(await refreshProgress(later + PROGRESS_REFRESH_MS)).toBe(false);
    expect(account.requests.length).toBe(asked);
    release();
    expect(await saving).toBe('saved');
    expect(session.user?.questsDone).toEqual(['a']);
    // The save was the server's last word: the next refresh waits 30 s from it.
    expect(await refreshProgress(Date.now() + 1000)).toBe(false);
  });

  it('asks nothing for a visitor who is not signed in', async () => {
    const account = accountServer(null);
    server.use(...account.handlers);
    await loadSession();
    const asked = account.requests.length;
    expect(await refreshProgress(Date.now() + PROGRESS_REFRESH_MS)).toBe(false);
    expect(account.requests.length).toBe(asked);
  });
});
