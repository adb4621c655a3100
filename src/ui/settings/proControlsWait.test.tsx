/**
 * Settings and the look-arrow box used while the page still asks who is signed in: they wait
 * for the answer, so a pro user gets what they clicked for, not the upsell.
 */
import '../../i18n';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AccountUser } from '../../api/account';
import { setApiBase } from '../../api/client';
import { closeSettings, closeUpsell, layout } from '../../state/layout';
import { loadSession, resetSession } from '../../state/session';
import { resetSettings, settings, updateSettings } from '../../state/settings';
import { accountServer, setHint, TEST_API_BASE } from '../map/testing/mapApi';
import { SettingsButton } from '../panels/SettingsButton';
import { LookArrowToggle } from './LookArrowToggle';

const pro: AccountUser = { name: 'pro', pro: true, admin: false, questsDone: [], questsHidden: [] };
const server = setupServer();
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setApiBase(TEST_API_BASE);
});
afterEach(() => {
  server.resetHandlers();
  resetSession();
  resetSettings();
  closeUpsell();
  closeSettings();
  setHint(false);
});
afterAll(() => {
  server.close();
  setApiBase('');
});

/** GET /api/be/user answers `user` once `answer()` is called; the session is being asked. */
function slowSession(user: AccountUser | null) {
  let answer = () => undefined as void;
  const gate = new Promise<void>((resolve) => (answer = resolve));
  server.use(
    http.get(`${TEST_API_BASE}/api/be/user`, async () => {
      await gate;
      return user ? HttpResponse.json(user) : HttpResponse.json({ error: 'unauthorized', message: 'sign in first' }, { status: 401 });
    }),
    ...accountServer(user).handlers,
  );
  const loaded = loadSession();
  return async () => {
    answer();
    await act(() => loaded);
  };
}

describe('pro controls before the session is known', () => {
  it('Settings opens the settings for a pro user, never the upsell', async () => {
    const answer = slowSession(pro);
    render(<SettingsButton />);
    await userEvent.click(screen.getByRole('button', { name: /Settings/ }));
    expect(layout.upsellOpen).toBe(false);
    await answer();
    expect(layout.settingsOpen).toBe(true);
    expect(layout.upsellOpen).toBe(false);
  });

  it('the look-arrow box is switched on for a pro user, never the upsell', async () => {
    updateSettings({ lookArrow: false });
    const answer = slowSession(pro);
    render(<LookArrowToggle />);
    await userEvent.click(screen.getByRole('checkbox', { name: /Look direction arrow/i }));
    expect(layout.upsellOpen).toBe(false);
    await answer();
    expect(settings.lookArrow).toBe(true);
    expect(screen.getByRole('checkbox', { name: /Look direction arrow/i })).toBeChecked();
    expect(layout.upsellOpen).toBe(false);
  });

  it('a visitor gets the upsell once the answer says so, with nothing changed', async () => {
    updateSettings({ lookArrow: false });
    const answer = slowSession(null);
    render(<LookArrowToggle />);
    await userEvent.click(screen.getByRole('checkbox', { name: /Look direction arrow/i }));
    await answer();
    expect(layout.upsellOpen).toBe(true);
    expect(settings.lookArrow).toBe(false);
  });
});
