/**
 * POST /api/be/user/progress (server/routes/user.ts, rules in ./progress.ts): the change form
 * applied to the stored lists (no lost update when two devices save at once), unknown quest
 * uids (only new ones refused), and the role rules, on each backend.
 */
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { builtSiteOptions } from '../testing/built-site';
import { testBackends } from '../testing/databases';
import { useRoleApp } from '../testing/role-app';

const quest = (uid: string) => ({ uid, name: uid, ruName: uid, trader: 'Prapor', requiredForKappa: false, requiredForLightkeeper: false, wikiUrl: `https://w/${uid}` });
const QUESTS = Array.from({ length: 12 }, (_, i) => quest(`Q${i}`));

describe.each(testBackends())('quest progress on $name', (backend) => {
  const server = useRoleApp(backend, (root) => ({ ...builtSiteOptions(root), tiles: false }), { seed: (repos) => repos.quests.insertMany(QUESTS) });

  const post = (body: unknown, cookie = server.cookies.pro) =>
    server.app.inject({ method: 'POST', url: '/api/be/user/progress', headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, payload: JSON.stringify(body) });
  const pro = async () => (await server.repos.users.getByName('pro1'))!;
  const reset = async (questsDone: string[] = [], questsHidden: string[] = []) => {
    await server.repos.users.setProgress((await pro()).id, { questsDone, questsHidden });
  };
  const ok = (res: LightMyRequestResponse) => {
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { questsDone: string[]; questsHidden: string[] };
  };

  it('keeps the role rules for the change form: 401, upsell 403, admin 403, pro 200', async () => {
    await reset();
    const change = { done: { add: ['Q1'] } };
    expect((await post(change, '')).statusCode).toBe(401);
    const visitor = await post(change, server.cookies.visitor);
    expect(visitor.statusCode).toBe(403);
    expect(visitor.json().message).toMatch(/pro feature/);
    const admin = await post(change, server.cookies.admin);
    expect(admin.statusCode).toBe(403);
    expect(admin.json().message).toMatch(/not available to admin/);
    expect((await server.repos.users.getByName('visitor1'))!.questsDone).toEqual([]);
    expect(ok(await post(change))).toMatchObject({ questsDone: ['Q1'], questsHidden: [] });
  });

  it('two devices saving at once both keep their change (done and hidden)', async () => {
    for (let round = 0; round < 3; round++) {
      await reset();
      const answers = await Promise.all([
        post({ done: { add: ['Q5'] } }),
        post({ done: { add: ['Q6'] } }),
        post({ hidden: { add: ['Q7'] } }),
        post({ done: { add: ['Q8'] }, hidden: { add: ['Q9'] } }),
      ]);
      for (const res of answers) expect(res.statusCode, res.body).toBe(200);
      const stored = await pro();
      expect([...stored.questsDone].sort()).toEqual(['Q5', 'Q6', 'Q8']);
      expect([...stored.questsHidden].sort()).toEqual(['Q7', 'Q9']);
    }
    // Completing one quest and reopening another at once.
    await reset(['Q1', 'Q2']);
    await Promise.all([post({ done: { remove: ['Q1'] } }), post({ done: { add: ['Q3'] } })]);
    expect((await pro()).questsDone).toEqual(expect.arrayContaining(['Q2', 'Q3']));
    expect((await pro()).questsDone).toHaveLength(2);
  });

  it('a quest that left the quest list: kept, removable, and no obstacle to other quests; a new unknown uid is refused', async () => {
    await reset(['stale'], ['stale-hidden']);
    expect(ok(await post({ done: { add: ['Q1'] } })).questsDone).toEqual(['stale', 'Q1']);
    // An older page sends the whole list, the stale uid in it.
    expect(ok(await post({ questsDone: ['stale', 'Q1', 'Q2'] })).questsDone).toEqual(['stale', 'Q1', 'Q2']);
    expect(ok(await post({ questsHidden: ['stale-hidden', 'Q3'] })).questsHidden).toEqual(['stale-hidden', 'Q3']);
    const refused = await post({ questsDone: ['stale', 'new-stale'] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('questsDone: unknown quest uid(s): "new-stale"');
    const refusedChange = await post({ done: { add: ['new-stale'] } });
    expect(refusedChange.statusCode).toBe(400);
    expect(refusedChange.json().message).toBe('done: unknown quest uid(s): "new-stale"');
    expect(ok(await post({ done: { remove: ['stale'] } })).questsDone).toEqual(['Q1', 'Q2']);
    expect(await pro()).toMatchObject({ questsDone: ['Q1', 'Q2'], questsHidden: ['stale-hidden', 'Q3'] });
  });

  it('answers 400 for bad shapes, nothing stored', async () => {
    await reset(['Q1']);
    for (const body of [
      { done: {} , questsDone: [] },
      { done: { add: 'Q1' } },
      { done: { add: [1] } },
      { done: { put: ['Q1'] } },
      { done: null },
      { done: { add: ['Q2'], remove: ['Q2'] } },
      { done: { add: Array(2001).fill('Q1') } },
      { hidden: { remove: [''] } },
      {},
    ]) {
      const res = await post(body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.json().message).toBeTruthy();
    }
    expect(await pro()).toMatchObject({ questsDone: ['Q1'], questsHidden: [] });
  });
});
