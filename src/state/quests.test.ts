import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiBase } from '../api/client';
import type { Quest } from '../domain/quests';
import { closeLimitNotice, loadQuests, questFilterQuery, quests, resetQuests, selectQuests, setQuestList, toggleQuest } from './quests';
import { session } from './session';

const BASE = 'http://raidmap.test';
const quest = (uid: string): Quest => ({ uid, name: `Quest ${uid}`, ruName: `Квест ${uid}`, trader: 'Prapor', requiredForKappa: true, requiredForLightkeeper: false, wikiUrl: `https://wiki.test/${uid}` });
const list = ['a', 'b', 'c', 'd', 'e'].map(quest);

const server = setupServer(http.get(`${BASE}/api/be/quests`, () => HttpResponse.json({ quests: list })));
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setApiBase(BASE);
});
beforeEach(() => resetQuests());
afterEach(() => {
  server.resetHandlers();
  session.user = null;
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
