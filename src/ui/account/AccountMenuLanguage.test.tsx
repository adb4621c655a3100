/** The account menu's own notices follow an EN↔RU switch made while they show. */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../i18n';
import { resetSession } from '../../state/session';
import { App } from '../App';
import { accountServer, TEST_API_BASE as BASE } from '../map/testing/mapApi';
import { setSignedInHint, useMemoryStorage, useTestServer } from '../map/testing/mapPageTest';
import { routes } from '../routes';

// The map page is not opened here; keep PixiJS (no WebGL in jsdom) out of the module graph.
vi.mock('../../engine/index', () => ({ createMapEngine: vi.fn() }));

const server = useTestServer();
useMemoryStorage();

afterEach(async () => {
  setSignedInHint(false);
  resetSession();
  await setLanguage('en');
});

describe('the sign-out notice', () => {
  it('is said again in the language switched to after it showed', async () => {
    server.use(...accountServer({ name: 'pro', pro: true, admin: false, questsDone: [], questsHidden: [] }, 'demo-pass').handlers);
    server.use(http.post(`${BASE}/api/be/auth/logout`, () => HttpResponse.error()));
    render(<App router={createMemoryRouter(routes, { initialEntries: ['/'] })} />);
    await userEvent.click(await screen.findByRole('button', { name: 'pro Pro' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Sign out' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('You are signed out on this page, but the server could not be told');
    await userEvent.click(within(screen.getByRole('group', { name: 'Language' })).getByRole('button', { name: 'RU Русский' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('На этой странице вы вышли, но сервер не получил запрос (нет связи с сервером).');
    expect(screen.getByRole('alert')).not.toHaveTextContent(/signed out/);
  });
});
