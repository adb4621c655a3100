import '../../i18n';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import type { AccountUser } from '../../api/account';
import type { Quest } from '../../domain/quests';
import { setLanguage } from '../../i18n';
import { closeUpsell, layout } from '../../state/layout';
import { resetQuests } from '../../state/quests';
import { resetSession, session, setSessionUser } from '../../state/session';
import { accountServer, TEST_API_BASE } from '../map/testing/mapApi';
import { useTestServer } from '../map/testing/mapPageTest';
import { QuestActions } from './QuestActions';

const quest: Quest = { uid: 'q-debut', name: 'Debut', ruName: 'Дебют', trader: 'Prapor', requiredForKappa: true, requiredForLightkeeper: false, wikiUrl: '' };
const pro: AccountUser = { name: 'pro', pro: true, admin: false, questsDone: [], questsHidden: [] };

const server = useTestServer();

afterEach(async () => {
  resetSession();
  resetQuests();
  closeUpsell();
  await setLanguage('en');
});

/** The mocked server knows `user`; the session already holds it (as after loadSession). */
function signedIn(user: AccountUser | null) {
  const account = accountServer(user);
  server.use(...account.handlers);
  setSessionUser(user && { ...user, questsDone: [...user.questsDone], questsHidden: [...user.questsHidden] });
  session.status = 'ready';
  return account;
}

const buttonNames = (container: HTMLElement) => within(container).queryAllByRole('button').map((b) => b.getAttribute('aria-label'));

describe('QuestActions', () => {
  it('renders nothing for an admin', () => {
    const account = signedIn({ ...pro, pro: false, admin: true, questsDone: ['q-debut'] });
    const { container } = render(<QuestActions quest={quest} variant="popup" />);
    expect(container).toBeEmptyDOMElement();
    expect(account.requests).toEqual([]);
  });

  it('renders nothing while the session is still loading, then the controls of the role', async () => {
    signedIn(pro);
    session.status = 'loading';
    const { container } = render(<QuestActions quest={quest} variant="row" />);
    expect(container).toBeEmptyDOMElement();
    await act(async () => {
      session.status = 'ready';
    });
    expect(buttonNames(container)).toEqual(['Complete: Debut', 'Hide: Debut']);
  });

  it('shows a visitor both buttons marked Pro; each opens the upsell and nothing is sent', async () => {
    const account = signedIn(null);
    render(<QuestActions quest={quest} variant="page" />);
    const group = screen.getByRole('group', { name: 'Progress: Debut' });
    expect(group).toHaveClass('quest-actions--upsell');
    expect(group).toHaveTextContent('Pro');
    const complete = within(group).getByRole('button', { name: 'Complete: Debut' });
    const hide = within(group).getByRole('button', { name: 'Hide: Debut' });
    expect(complete).toHaveAccessibleDescription('A Pro feature');
    expect(hide).toHaveAttribute('title', 'Hide this quest (a Pro feature)');
    // A visitor is never kept waiting by someone else's save.
    await act(async () => {
      session.pendingQuest = 'q-other';
    });
    expect(complete).toBeEnabled();
    await userEvent.click(complete);
    expect(layout.upsellOpen).toBe(true);
    closeUpsell();
    await userEvent.click(hide);
    expect(layout.upsellOpen).toBe(true);
    expect(account.requests).toEqual([]);
  });

  it('gives a pro user Reopen / Show for a done, hidden quest, and flips them once saved', async () => {
    const account = signedIn({ ...pro, questsDone: ['q-debut'], questsHidden: ['q-debut'] });
    render(<QuestActions quest={quest} variant="row" />);
    const group = screen.getByRole('group', { name: 'Progress: Debut' });
    expect(group).not.toHaveClass('quest-actions--upsell');
    expect(group).not.toHaveTextContent('Pro');
    expect(buttonNames(group)).toEqual(['Reopen: Debut', 'Show: Debut']);
    expect(within(group).getByRole('button', { name: 'Reopen: Debut' })).toHaveAttribute('title', 'Mark as not completed');
    await userEvent.click(within(group).getByRole('button', { name: 'Show: Debut' }));
    await waitFor(() => expect(buttonNames(group)).toEqual(['Reopen: Debut', 'Hide: Debut']));
    expect(account.progressBodies).toEqual([{ hidden: { remove: ['q-debut'] } }]);
    expect(account.user?.questsHidden).toEqual([]);
    await userEvent.click(within(group).getByRole('button', { name: 'Reopen: Debut' }));
    await waitFor(() => expect(buttonNames(group)).toEqual(['Complete: Debut', 'Hide: Debut']));
    expect(account.progressBodies[1]).toEqual({ done: { remove: ['q-debut'] } });
    expect(account.user?.questsDone).toEqual([]);
    expect(layout.upsellOpen).toBe(false);
  });

  it('keeps the focus on the button whose action flipped (Hide to Show, Complete to Reopen), and says which action started', async () => {
    signedIn(pro);
    const started: string[] = [];
    render(<QuestActions quest={quest} variant="row" onAction={(action) => started.push(action)} />);
    const group = screen.getByRole('group', { name: 'Progress: Debut' });
    const hide = within(group).getByRole('button', { name: 'Hide: Debut' });
    await userEvent.click(hide);
    await waitFor(() => expect(buttonNames(group)).toEqual(['Complete: Debut', 'Show: Debut']));
    expect(within(group).getByRole('button', { name: 'Show: Debut' })).toHaveFocus();
    const complete = within(group).getByRole('button', { name: 'Complete: Debut' });
    complete.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(buttonNames(group)).toEqual(['Reopen: Debut', 'Show: Debut']));
    expect(within(group).getByRole('button', { name: 'Reopen: Debut' })).toHaveFocus();
    expect(started).toEqual(['hide', 'complete']);
  });

  it('gives the focus back when a browser dropped it from the disabled button during the save', async () => {
    signedIn(pro);
    render(<QuestActions quest={quest} variant="row" />);
    const hide = screen.getByRole('button', { name: 'Hide: Debut' });
    // A slow save (the handler waits, then lets the account server answer).
    server.use(http.post(`${TEST_API_BASE}/api/be/user/progress`, () => delay(200), { once: true }));
    hide.focus();
    hide.click();
    // While it saves the focus is dropped, as Chromium does with a focused button that becomes disabled.
    hide.blur();
    expect(hide).not.toHaveFocus();
    await waitFor(() => expect(hide).toBeDisabled());
    await waitFor(() => expect(hide).toHaveAccessibleName('Show: Debut'));
    await waitFor(() => expect(hide).toHaveFocus());
  });

  it('disables a pro user’s buttons while any quest is being saved', async () => {
    signedIn(pro);
    render(<QuestActions quest={quest} variant="popup" />);
    const group = screen.getByRole('group', { name: 'Progress: Debut' });
    await act(async () => {
      session.pendingQuest = 'q-debut';
    });
    expect(group).toHaveAttribute('aria-busy', 'true');
    within(group).getAllByRole('button').forEach((b) => expect(b).toBeDisabled());
    await act(async () => {
      session.pendingQuest = 'q-other';
    });
    expect(group).not.toHaveAttribute('aria-busy');
    within(group).getAllByRole('button').forEach((b) => expect(b).toBeDisabled());
    await act(async () => {
      session.pendingQuest = null;
    });
    within(group).getAllByRole('button').forEach((b) => expect(b).toBeEnabled());
  });

  it('shows a failed save only where the action was taken, until dismissed or the next action', async () => {
    const account = signedIn(pro);
    server.use(http.post(`${TEST_API_BASE}/api/be/user/progress`, () => HttpResponse.json({ error: 'internal', message: 'progress could not be stored' }, { status: 500 }), { once: true }));
    render(
      <>
        <section aria-label="list">
          <QuestActions quest={quest} variant="row" />
        </section>
        <section aria-label="popup">
          <QuestActions quest={quest} variant="popup" />
        </section>
      </>,
    );
    const list = screen.getByRole('region', { name: 'list' });
    const popup = screen.getByRole('region', { name: 'popup' });
    await userEvent.click(within(popup).getByRole('button', { name: 'Complete: Debut' }));
    const alert = await within(popup).findByRole('alert');
    expect(alert).toHaveTextContent('Your progress could not be saved: progress could not be stored');
    expect(within(list).queryByRole('alert')).toBeNull();
    expect(session.user?.questsDone).toEqual([]);

    // The next action (from the list) clears it; this one is saved.
    await userEvent.click(within(list).getByRole('button', { name: 'Complete: Debut' }));
    await waitFor(() => expect(buttonNames(list)).toEqual(['Reopen: Debut', 'Hide: Debut']));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(account.progressBodies).toEqual([{ done: { add: ['q-debut'] } }]);
    expect(account.user?.questsDone).toEqual(['q-debut']);

    server.use(http.post(`${TEST_API_BASE}/api/be/user/progress`, () => HttpResponse.json({ error: 'internal', message: 'still down' }, { status: 500 }), { once: true }));
    await userEvent.click(within(list).getByRole('button', { name: 'Hide: Debut' }));
    const second = await within(list).findByRole('alert');
    expect(second).toHaveTextContent('still down');
    expect(within(popup).queryByRole('alert')).toBeNull();
    await userEvent.click(within(second).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(session.progressError).toBeNull();
  });

  it('names the quest and the actions in Russian', async () => {
    signedIn({ ...pro, questsDone: ['q-debut'] });
    await act(() => setLanguage('ru'));
    render(<QuestActions quest={quest} variant="popup" />);
    const group = screen.getByRole('group', { name: 'Прогресс: Дебют' });
    expect(buttonNames(group)).toEqual(['Вернуть в работу: Дебют', 'Скрыть: Дебют']);
    expect(within(group).getByRole('button', { name: 'Скрыть: Дебют' })).toHaveAttribute('title', 'Скрыть этот квест');
  });
});
