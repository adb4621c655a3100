/**
 * Settings and the look-arrow box where the server failed to say who is signed in (GET
 * /api/be/user 500 at page load and again on the use): the user may well be pro, so no upsell;
 * the control says the account could not be checked, with Try again, as a quest action does.
 */
import '../../i18n';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccountUser } from '../../api/account';
import { setLanguage } from '../../i18n';
import { closeSettings, closeUpsell, layout } from '../../state/layout';
import { loadSession, resetSession, session } from '../../state/session';
import { resetSettings, settings, updateSettings } from '../../state/settings';
import { accountServer, failingUserCheck, setHint } from '../map/testing/mapApi';
import { useTestServer } from '../map/testing/mapPageTest';
import { SettingsButton } from '../panels/SettingsButton';
import { LookArrowToggle } from './LookArrowToggle';

const pro: AccountUser = { name: 'pro', pro: true, admin: false, questsDone: [], questsHidden: [] };
const UNCHECKED = 'Your account could not be checked (the server did not answer), so nothing was changed.';

const server = useTestServer();

beforeEach(() => {
  // The failures are expected here: their warnings would only bury the test's output.
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(async () => {
  vi.restoreAllMocks();
  resetSession();
  resetSettings();
  closeUpsell();
  closeSettings();
  setHint(false);
  await setLanguage('en');
});

/** `user`'s server whose GET /api/be/user fails (500) until `recover()`; the page load's check failed. */
async function userCheckFails(user: AccountUser | null = pro) {
  const account = accountServer(user);
  // The page had the signed-in hint (a pro user's browser): it asked, and the server failed.
  setHint(true);
  const check = failingUserCheck();
  server.use(check.handler, ...account.handlers);
  await loadSession();
  expect(session.status).toBe('error');
  return { account, failed: check.failed, recover: check.recover };
}

describe('pro controls where the account could not be checked', () => {
  it('Settings says so with Try again, not the upsell; Try again opens the settings once the server answers', async () => {
    const { failed, recover } = await userCheckFails();
    render(<SettingsButton />);
    await userEvent.click(screen.getByRole('button', { name: /Settings/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent(UNCHECKED);
    expect(layout.upsellOpen).toBe(false);
    expect(layout.settingsOpen).toBe(false);
    // The click asked again (the page load's failure is not taken for "a visitor").
    expect(failed.count).toBe(2);
    recover();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(layout.settingsOpen).toBe(true));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(layout.upsellOpen).toBe(false);
  });

  it('the look-arrow box says so, stays unticked; Try again switches the arrow on once the server answers', async () => {
    updateSettings({ lookArrow: false });
    const { recover } = await userCheckFails();
    render(<LookArrowToggle />);
    await userEvent.click(screen.getByRole('checkbox', { name: /Look direction arrow/i }));
    expect(await screen.findByRole('alert')).toHaveTextContent(UNCHECKED);
    expect(layout.upsellOpen).toBe(false);
    expect(settings.lookArrow).toBe(false);
    recover();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(settings.lookArrow).toBe(true));
    expect(screen.getByRole('checkbox', { name: /Look direction arrow/i })).toBeChecked();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(layout.upsellOpen).toBe(false);
  });

  it('failing again keeps the note (and Try again in reach); Dismiss takes it away', async () => {
    await userCheckFails();
    render(<SettingsButton />);
    await userEvent.click(screen.getByRole('button', { name: /Settings/ }));
    await screen.findByRole('alert');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(session.status).toBe('error'));
    expect(screen.getByRole('alert')).toHaveTextContent(UNCHECKED);
    expect(layout.upsellOpen).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a visitor gets the upsell once the server answers', async () => {
    const { recover } = await userCheckFails(null);
    recover();
    render(<SettingsButton />);
    await userEvent.click(screen.getByRole('button', { name: /Settings/ }));
    await waitFor(() => expect(layout.upsellOpen).toBe(true));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(layout.settingsOpen).toBe(false);
  });

  it('says it in Russian', async () => {
    await setLanguage('ru');
    await userCheckFails();
    render(<SettingsButton />);
    await userEvent.click(screen.getByRole('button', { name: /Настройки/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Не удалось проверить ваш аккаунт (сервер не ответил), поэтому ничего не изменилось.');
    expect(screen.getByRole('button', { name: 'Повторить' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Закрыть' })).toBeInTheDocument();
  });
});
