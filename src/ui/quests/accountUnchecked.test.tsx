/**
 * A pro user's Complete where GET /api/be/user failed: no upsell (they may well be pro); the
 * place says the account could not be checked, with Try again, which saves once the server answers.
 */
import '../../i18n';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { AccountUser } from '../../api/account';
import type { Quest } from '../../domain/quests';
import { setLanguage } from '../../i18n';
import { closeUpsell, layout } from '../../state/layout';
import { resetQuests } from '../../state/quests';
import { loadSession, resetSession, session } from '../../state/session';
import { accountServer, failingUserCheck, setHint } from '../map/testing/mapApi';
import { useTestServer } from '../map/testing/mapPageTest';
import { QuestActions } from './QuestActions';

const quest: Quest = { uid: 'q-debut', name: 'Debut', ruName: 'Дебют', trader: 'Prapor', requiredForKappa: true, requiredForLightkeeper: false, wikiUrl: '' };
const pro: AccountUser = { name: 'pro', pro: true, admin: false, questsDone: [], questsHidden: [] };

const server = useTestServer();

afterEach(async () => {
  resetSession();
  resetQuests();
  closeUpsell();
  setHint(false);
  await setLanguage('en');
});

/** A pro user's server whose GET /api/be/user fails (500) until `recover()`. */
async function userCheckFails() {
  const account = accountServer(pro);
  const check = failingUserCheck();
  server.use(check.handler, ...account.handlers);
  await loadSession();
  expect(session.status).toBe('error');
  return { account, recover: check.recover };
}

describe('quest actions where the account could not be checked', () => {
  it('say so with Try again, not the upsell; Try again saves once the server answers', async () => {
    const { account, recover } = await userCheckFails();
    render(<QuestActions quest={quest} variant="popup" />);
    await userEvent.click(screen.getByRole('button', { name: 'Complete: Debut' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your account could not be checked (the server did not answer), so nothing was changed.');
    expect(layout.upsellOpen).toBe(false);
    recover();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(account.progressBodies).toEqual([{ done: { add: ['q-debut'] } }]);
    expect(account.user?.questsDone).toEqual(['q-debut']);
    expect(await screen.findByRole('button', { name: 'Reopen: Debut' })).toBeInTheDocument();
    expect(layout.upsellOpen).toBe(false);
  });

  it('say it in Russian', async () => {
    await setLanguage('ru');
    await userCheckFails();
    render(<QuestActions quest={quest} variant="popup" />);
    await userEvent.click(screen.getAllByRole('button', { name: /Дебют/ })[0]);
    expect(await screen.findByRole('alert')).toHaveTextContent('Не удалось проверить ваш аккаунт (сервер не ответил), поэтому ничего не изменилось.');
    expect(screen.getByRole('button', { name: 'Повторить' })).toBeInTheDocument();
  });
});
