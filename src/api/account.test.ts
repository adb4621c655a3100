// The progress change form (docs/SERVER.md "Quest progress"): one quest action is sent as the
// change it makes, never as a whole list that would write over another device's save.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { changeProgress, questActionChange } from './account';
import { setApiBase } from './client';

const BASE = 'http://api.test';
const bodies: unknown[] = [];
const server = setupServer(
  http.post(`${BASE}/api/be/user/progress`, async ({ request }) => {
    bodies.push(await request.json());
    return HttpResponse.json({ name: 'pro1', pro: true, admin: false, questsDone: ['Q5', 'Q6'], questsHidden: [] });
  }),
);

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setApiBase(BASE);
});
afterEach(() => {
  server.resetHandlers();
  bodies.length = 0;
});
afterAll(() => server.close());

describe('quest progress changes', () => {
  it('makes the change of each action', () => {
    expect(questActionChange('complete', 'Q1')).toEqual({ done: { add: ['Q1'] } });
    expect(questActionChange('reopen', 'Q1')).toEqual({ done: { remove: ['Q1'] } });
    expect(questActionChange('hide', 'Q1')).toEqual({ hidden: { add: ['Q1'] } });
    expect(questActionChange('show', 'Q1')).toEqual({ hidden: { remove: ['Q1'] } });
  });

  it('posts the change and answers the user as the server has it now', async () => {
    const user = await changeProgress({ done: { add: ['Q6'] } });
    expect(bodies).toEqual([{ done: { add: ['Q6'] } }]);
    expect(user).toEqual({ name: 'pro1', pro: true, admin: false, questsDone: ['Q5', 'Q6'], questsHidden: [] });
  });
});
