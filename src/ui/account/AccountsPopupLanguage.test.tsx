/** The accounts popup's failed pro switch follows an EN↔RU switch made while it shows. */
import '../../i18n';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../i18n';
import { TEST_API_BASE as BASE } from '../map/testing/mapApi';
import { useMemoryStorage, useTestServer } from '../map/testing/mapPageTest';
import { AccountsPopup } from './AccountsPopup';

const server = useTestServer();
useMemoryStorage();

afterEach(async () => {
  await setLanguage('en');
});

describe('the failed pro switch', () => {
  it('is said again in the language switched to after it showed, naming the account and the server\'s words', async () => {
    server.use(
      http.get(`${BASE}/api/be/admin/users`, () => HttpResponse.json({ users: [{ name: 'alice', pro: false, admin: false }] })),
      http.post(`${BASE}/api/be/admin/users/pro`, () => HttpResponse.json({ error: 'internal', message: 'database down' }, { status: 500 })),
    );
    render(<AccountsPopup onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Accounts' });
    const alice = await within(dialog).findByRole('checkbox', { name: 'Pro for alice' });
    await userEvent.click(alice);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Pro could not be changed for alice: database down');
    await act(async () => setLanguage('ru'));
    await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent('Не удалось изменить pro для alice: database down'));
    expect(within(dialog).getByRole('alert')).not.toHaveTextContent(/could not be changed/);
    // The switch is left as it was.
    expect(within(dialog).getByRole('checkbox', { name: /alice/ })).not.toBeChecked();
  });

  it('says a network failure by its kind in the page\'s language, not the browser\'s English', async () => {
    server.use(
      http.get(`${BASE}/api/be/admin/users`, () => HttpResponse.json({ users: [{ name: 'alice', pro: false, admin: false }] })),
      http.post(`${BASE}/api/be/admin/users/pro`, () => HttpResponse.error()),
    );
    await setLanguage('ru');
    render(<AccountsPopup onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(await within(dialog).findByRole('checkbox', { name: /alice/ }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(/^Не удалось изменить pro для alice: /);
    expect(alert).not.toHaveTextContent(/fetch|network|error/i);
  });
});
