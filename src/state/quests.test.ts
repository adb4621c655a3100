import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccountUser } from '../api/account';
import { setApiBase } from '../api/client';
import type { Quest } from '../domain/quests';
import { accountServer, failingUserCheck, TEST_API_BASE } from '../ui/map/testing/mapApi';
import {
  closeLimitNotice,
  CUT_BY_LIMIT_KEY,
  enforceQuestLimit,
  followLinkedQuest,
  loadQuests,
  questFilterQuery,
  questMarks,
  quests,
  resetQuests,
  retryUncheckedQuest,
  runQuestActionAt,
  selectQuests,
  setQuestList,
  toggleQuest,
} from './quests';
import { closeUpsell, layout } from './layout';
import { loadSession, resetSession, session, SIGNED_IN_ROLE_KEY, signIn } from './session';
import { resetSettings, updateSettings } from './settings';
import { memoryStorage, readTabStored, setStorageBackend, writeStored } from './storage';

const BASE = TEST_API_BASE;
const quest = (uid: string): Quest => ({ uid, name: `Quest ${uid}`, ruName: `Квест ${uid}`, trader: 'Prapor', requiredForKappa: true, requiredForLightkeeper: false, wikiUrl: `https://wiki.test/${uid}` });
const list = ['a', 'b', 'c', 'd', 'e'].map(quest);

const server = setupServer(http.get(`${BASE}/api/be/quests`, () => HttpResponse.json({ quests: list })));
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setApiBase(BASE);
});
beforeEach(() => {
  setStorageBackend(memoryStorage());
  resetQuests();
});
afterEach(() => {
  server.resetHandlers();
  resetSession();
  resetSettings();
  setStorageBackend(null);
});
afterAll(() => {
  server.close();
  setApiBase('');
});

describe('quest selection', () => {
  it('cuts a longer list to 3, de-duplicated, and shows the notice', () => {
    selectQuests(['a', 'b', 'a', 'c', 'd']);
    expect(quests.selected).toEqual(['a', 'b', 'c']);
    expect(quests.limitNotice).toBe(true);
    closeLimitNotice();
    selectQuests(['b', 'b', 'a']);
    expect(quests.selected).toEqual(['b', 'a']);
    expect(quests.limitNotice).toBe(false);
  });

  it('ignores a fourth quest and shows the notice; unfollowing frees a place', () => {
    ['a', 'b', 'c'].forEach(toggleQuest);
    toggleQuest('d');
    expect(quests.selected).toEqual(['a', 'b', 'c']);
    expect(quests.limitNotice).toBe(true);
    closeLimitNotice();
    toggleQuest('b');
    toggleQuest('d');
    expect(quests.selected).toEqual(['a', 'c', 'd']);
    expect(quests.limitNotice).toBe(false);
  });

  it('lets a pro user follow more than 3', () => {
    session.user = { pro: true, admin: false, questsDone: [], questsHidden: [] };
    selectQuests(['a', 'b', 'c', 'd']);
    toggleQuest('e');
    expect(quests.selected).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(quests.limitNotice).toBe(false);
  });

  it('lets an admin follow more than 3 (a linked marker adds, nothing is cut), and cuts to 3 once signed out', () => {
    session.user = { pro: false, admin: true, questsDone: [], questsHidden: [] };
    selectQuests(['a', 'b', 'c', 'd']);
    toggleQuest('e');
    expect(quests.selected).toEqual(['a', 'b', 'c', 'd', 'e']);
    followLinkedQuest('f');
    expect(quests.selected).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    enforceQuestLimit();
    expect(quests.limitNotice).toBe(false);
    session.user = null;
    enforceQuestLimit();
    expect(quests.selected).toEqual(['a', 'b', 'c']);
    expect(quests.limitNotice).toBe(true);
  });

  it('follows again the quests cut when a pro session ended, once the user signs back in with no limit', () => {
    const proUser = { pro: true, admin: false, questsDone: [], questsHidden: [] };
    session.user = proUser;
    selectQuests(['a', 'b', 'c', 'd', 'e']);
    session.user = null;
    enforceQuestLimit();
    expect(quests.selected).toEqual(['a', 'b', 'c']);
    expect(quests.limitNotice).toBe(true);
    // As a visitor meanwhile: unfollows one.
    toggleQuest('b');
    session.user = { ...proUser };
    enforceQuestLimit();
    expect(quests.selected).toEqual(['a', 'c', 'd', 'e']);
    expect(quests.limitNotice).toBe(false);
    // Nothing kept aside any more: a later sign-in brings nothing back twice.
    session.user = { ...proUser };
    enforceQuestLimit();
    expect(quests.selected).toEqual(['a', 'c', 'd', 'e']);
  });

  it('keeps the cut quests aside through a visitor sign-in, and follows them again for an admin', () => {
    session.user = { pro: true, admin: false, questsDone: [], questsHidden: [] };
    selectQuests(['a', 'b', 'c', 'd']);
    session.user = null;
    enforceQuestLimit();
    session.user = { pro: false, admin: false, questsDone: [], questsHidden: [] };
    enforceQuestLimit();
    expect(quests.selected).toEqual(['a', 'b', 'c']);
    session.user = { pro: false, admin: true, questsDone: [], questsHidden: [] };
    enforceQuestLimit();
    expect(quests.selected).toEqual(['a', 'b', 'c', 'd']);
  });

  it('drops quests that are not in the list once it is known', () => {
    selectQuests(['a', 'gone']);
    expect(quests.selected).toEqual(['a', 'gone']);
    setQuestList(list);
    expect(quests.selected).toEqual(['a']);
    // Unknown ids do not take places from known ones.
    selectQuests(['x', 'y', 'z', 'a', 'b']);
    expect(quests.selected).toEqual(['a', 'b']);
    expect(quests.limitNotice).toBe(false);
  });

  it('gives the worker the followed quests, and the known uids once loaded', () => {
    selectQuests(['b']);
    expect(questFilterQuery()).toEqual({ selectedQuests: ['b'] });
    setQuestList(list);
    expect(questFilterQuery()).toEqual({ selectedQuests: ['b'], knownQuests: ['a', 'b', 'c', 'd', 'e'] });
  });

  it("follows a linked marker's quest without the notice, the oldest quest making room when 3 are followed", () => {
    selectQuests(['a', 'b']);
    followLinkedQuest('c');
    expect(quests.selected).toEqual(['a', 'b', 'c']);
    followLinkedQuest('b');
    expect(quests.selected).toEqual(['a', 'b', 'c']);
    followLinkedQuest('d');
    expect(quests.selected).toEqual(['b', 'c', 'd']);
    expect(quests.limitNotice).toBe(false);
  });

  it("adds a linked marker's quest to a pro user's quests, whatever their number", () => {
    session.user = { pro: true, admin: false, questsDone: [], questsHidden: [] };
    selectQuests(['a', 'b', 'c']);
    followLinkedQuest('d');
    expect(quests.selected).toEqual(['a', 'b', 'c', 'd']);
    expect(quests.limitNotice).toBe(false);
  });

  it('cuts a pro selection to 3 with the notice once the user is pro no longer', () => {
    session.user = { pro: true, admin: false, questsDone: [], questsHidden: [] };
    selectQuests(['a', 'b', 'c', 'd']);
    enforceQuestLimit();
    expect(quests.selected).toEqual(['a', 'b', 'c', 'd']);
    expect(quests.limitNotice).toBe(false);
    session.user = null;
    enforceQuestLimit();
    expect(quests.selected).toEqual(['a', 'b', 'c']);
    expect(quests.limitNotice).toBe(true);
    closeLimitNotice();
    enforceQuestLimit();
    expect(quests.limitNotice).toBe(false);
  });
});

describe('a fourth quest where the account could not be checked', () => {
  const pro: AccountUser = { name: 'pro', pro: true, admin: false, questsDone: [], questsHidden: [] };

  afterEach(() => {
    closeUpsell();
    vi.restoreAllMocks();
  });

  /** `user`'s server whose GET /api/be/user fails (500) until `recover()`: the page load's check failed; 3 quests followed. */
  async function userCheckFails(user: AccountUser | null) {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const check = failingUserCheck(BASE);
    server.use(check.handler, ...accountServer(user).handlers);
    await loadSession();
    expect(session.status).toBe('error');
    ['a', 'b', 'c'].forEach(toggleQuest);
    return { failed: check.failed, recover: check.recover };
  }

  it('asks again; failing, says so instead of the limit notice (no pro offered); Try again follows it once the server says pro', async () => {
    const { failed, recover } = await userCheckFails(pro);
    toggleQuest('d');
    await vi.waitFor(() => expect(quests.uncheckedQuest).toBe('d'));
    expect(failed.count).toBe(2);
    expect(quests.selected).toEqual(['a', 'b', 'c']);
    expect(quests.limitNotice).toBe(false);
    expect(layout.upsellOpen).toBe(false);
    // Failing again keeps the note.
    await retryUncheckedQuest();
    expect(failed.count).toBe(3);
    expect(quests.uncheckedQuest).toBe('d');
    recover();
    await retryUncheckedQuest();
    expect(quests.selected).toEqual(['a', 'b', 'c', 'd']);
    expect(quests.uncheckedQuest).toBeNull();
    expect(quests.limitNotice).toBe(false);
    expect(layout.upsellOpen).toBe(false);
  });

  it('follows it where the question asked again answers pro (or admin)', async () => {
    const { recover } = await userCheckFails({ ...pro, pro: false, admin: true });
    recover();
    toggleQuest('d');
    await vi.waitFor(() => expect(quests.selected).toEqual(['a', 'b', 'c', 'd']));
    expect(quests.limitNotice).toBe(false);
    expect(quests.uncheckedQuest).toBeNull();
  });

  it('where the session turns out ended, asks for a sign-in (no notice); a pro sign-in follows it', async () => {
    writeStored(SIGNED_IN_ROLE_KEY, 'pro');
    const { recover } = await userCheckFails(pro);
    await fetch(`${BASE}/api/be/auth/logout`, { method: 'POST' });
    recover();
    toggleQuest('d');
    await vi.waitFor(() => expect(session.ended).toBe(true));
    expect(quests.limitNotice).toBe(false);
    expect(quests.uncheckedQuest).toBeNull();
    expect(quests.selected).toEqual(['a', 'b', 'c']);
    await signIn({ name: 'pro', password: 'demo-pass' });
    expect(quests.selected).toEqual(['a', 'b', 'c', 'd']);
    expect(quests.limitNotice).toBe(false);
  });

  it('gives a visitor the limit notice as before, once the server answers', async () => {
    const { recover } = await userCheckFails(null);
    recover();
    toggleQuest('d');
    await vi.waitFor(() => expect(quests.limitNotice).toBe(true));
    expect(quests.limitWhy).toEqual({ reason: 'refused' });
    expect(quests.selected).toEqual(['a', 'b', 'c']);
    expect(quests.uncheckedQuest).toBeNull();
  });
});

describe('own progress', () => {
  const pro = { name: 'pro', pro: true, admin: false, questsDone: ['a', 'c'], questsHidden: ['c', 'd'] };

  it('leaves the done and hidden quests off the map for a pro user with own progress on', () => {
    selectQuests(['a', 'b']);
    session.user = { ...pro };
    expect(questFilterQuery()).toEqual({ selectedQuests: ['a', 'b'], hiddenQuests: ['a', 'c', 'd'] });
    setQuestList(list);
    expect(questFilterQuery().hiddenQuests).toEqual(['a', 'c', 'd']);
    expect(questFilterQuery().knownQuests).toHaveLength(5);
  });

  it('hides nothing when own progress is off, or for visitors and admins whatever the setting says', () => {
    session.user = { ...pro };
    updateSettings({ ownProgress: false });
    expect(questFilterQuery()).not.toHaveProperty('hiddenQuests');
    updateSettings({ ownProgress: true });
    for (const user of [null, { ...pro, pro: false }, { ...pro, admin: true }]) {
      session.user = user;
      expect(questFilterQuery()).not.toHaveProperty('hiddenQuests');
    }
  });

  it('marks done and hidden quests for everyone but admins', () => {
    expect(questMarks({ ...pro }, 'c')).toEqual({ done: true, hidden: true });
    expect(questMarks({ ...pro }, 'a')).toEqual({ done: true, hidden: false });
    expect(questMarks({ ...pro }, 'b')).toEqual({ done: false, hidden: false });
    // A former pro user keeps seeing their own progress; an admin sees none.
    expect(questMarks({ ...pro, pro: false }, 'd')).toEqual({ done: false, hidden: true });
    expect(questMarks({ ...pro, admin: true }, 'a')).toEqual({ done: false, hidden: false });
    expect(questMarks(null, 'a')).toEqual({ done: false, hidden: false });
  });
});

describe('quest actions from a place of the page', () => {
  it('remembers where a failed action came from, so the error shows there only', async () => {
    const account = accountServer({ name: 'pro', pro: true, admin: false, questsDone: [], questsHidden: [] });
    server.use(...account.handlers);
    session.user = { ...account.user! };
    server.use(http.post(`${BASE}/api/be/user/progress`, () => HttpResponse.json({ error: 'internal', message: 'the database is away' }, { status: 500 }), { once: true }));
    expect(await runQuestActionAt('popup', 'complete', 'a')).toBe('failed');
    expect(quests.progressErrorAt).toBe('popup');
    expect(session.progressError).toBe('the database is away');
    expect(await runQuestActionAt('row-b', 'hide', 'b')).toBe('saved');
    // A later success clears the error; where it was no longer matters.
    expect(session.progressError).toBeNull();
    expect(session.user?.questsHidden).toEqual(['b']);
    expect(account.progressBodies).toEqual([{ hidden: { add: ['b'] } }]);
  });

  it('shows the error of an action carried out after a sign-in (the session had ended) at its place', async () => {
    const pro = { name: 'pro', pro: true, admin: false, questsDone: [], questsHidden: [] };
    const account = accountServer(pro);
    server.use(...account.handlers);
    session.user = { ...pro };
    account.user = null;
    expect(await runQuestActionAt('row-a', 'complete', 'a')).toBe('signedOut');
    expect(quests.progressErrorAt).toBeNull();
    server.use(http.post(`${BASE}/api/be/user/progress`, () => HttpResponse.json({ error: 'internal', message: 'the database is away' }, { status: 500 }), { once: true }));
    account.user = { ...pro };
    await signIn({ name: 'pro', password: 'demo-pass' });
    await vi.waitFor(() => expect(quests.progressErrorAt).toBe('row-a'));
    expect(session.progressError).toBe('the database is away');
  });
});

describe('a pro session found ended on a reload', () => {
  const proUser = { pro: true, admin: false, questsDone: [], questsHidden: [] };

  it('cuts to 3 without the limit notice (the sign-in dialog says why), keeps the cut quests for the tab, and follows them again on a sign-in', () => {
    session.ended = true;
    selectQuests(['a', 'b', 'c', 'd', 'e']);
    expect(quests.selected).toEqual(['a', 'b', 'c']);
    expect(quests.limitNotice).toBe(false);
    expect(quests.cutByLimit).toEqual(['d', 'e']);
    expect(JSON.parse(readTabStored(CUT_BY_LIMIT_KEY)!)).toEqual(['d', 'e']);
    session.ended = false;
    session.user = { ...proUser };
    enforceQuestLimit();
    expect(quests.selected).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(quests.cutByLimit).toEqual([]);
    expect(readTabStored(CUT_BY_LIMIT_KEY)).toBeNull();
  });

  it('keeps nothing aside for a visitor whose link is cut (no session ended)', () => {
    selectQuests(['a', 'b', 'c', 'd']);
    expect(quests.limitNotice).toBe(true);
    expect(quests.cutByLimit).toEqual([]);
    session.user = { ...proUser };
    enforceQuestLimit();
    expect(quests.selected).toEqual(['a', 'b', 'c']);
  });

  it('still has the cut quests after another reload, and follows them again on a sign-in', async () => {
    const storage = memoryStorage();
    setStorageBackend(storage);
    session.ended = true;
    selectQuests(['a', 'b', 'c', 'd', 'e']);
    // A new page in the same tab: fresh modules over the same storage.
    vi.resetModules();
    const fresh = {
      storage: await import('./storage'),
      session: await import('./session'),
    };
    fresh.storage.setStorageBackend(storage);
    const reloaded = await import('./quests');
    expect(reloaded.quests.cutByLimit).toEqual(['d', 'e']);
    reloaded.selectQuests(['a', 'b', 'c']);
    fresh.session.session.user = { ...proUser };
    reloaded.enforceQuestLimit();
    expect(reloaded.quests.selected).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(storage.data.has(CUT_BY_LIMIT_KEY)).toBe(false);
  });
});

describe('quest cache', () => {
  it('loads once from the server and reuses the list', async () => {
    let calls = 0;
    server.use(http.get(`${BASE}/api/be/quests`, () => {
      calls += 1;
      return HttpResponse.json({ quests: list });
    }));
    await Promise.all([loadQuests(), loadQuests()]);
    await loadQuests();
    expect(calls).toBe(1);
    expect(quests.status).toBe('ready');
    expect(quests.list.map((q) => q.uid)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('reports a failure without throwing', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    server.use(http.get(`${BASE}/api/be/quests`, () => HttpResponse.json({ error: 'internal', message: 'down' }, { status: 500 })));
    await loadQuests();
    expect(quests.status).toBe('error');
    expect(quests.list).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });
});
