/**
 * The map page's top bar after a sign-in from its phone Menu, and its Quests link: the focus
 * never falls to the page's body, and the sign-in is heard (docs/DECISIONS.md "Focus after a
 * change of state").
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, setLanguage } from '../../i18n';
import { NARROW_QUERY, setPanelsShown } from '../../state/layout';
import { loadSession, resetSession, setSessionUser } from '../../state/session';
import { createLocalMarkerSource } from '../map/testing/localMarkerSource';
import { accountServer } from '../map/testing/mapApi';
import { setSignedInHint, useMapPage } from '../map/testing/mapPageTest';
import { renderRoute } from '../map/testing/renderRoute';

vi.mock('../../engine/index', () => import('../map/testing/engineModuleMock'));
vi.mock('../map/markerSource', () => ({ createMarkerSource: () => createLocalMarkerSource() }));

const server = useMapPage({ markers: [] });

/** The window at a phone's width (NARROW_QUERY matches) or a desktop's. */
function windowIs(narrow: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: narrow && query === NARROW_QUERY,
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  }));
}

beforeEach(() => setPanelsShown(true));
afterEach(async () => {
  vi.unstubAllGlobals();
  setSessionUser(null);
  resetSession();
  if (i18n.language !== 'en') await setLanguage('en');
});

/** Signs in as "pilot" from the bar's Menu: Menu, Sign in, the dialog's name, password and Sign in. */
async function signInFromMenu(signIn = 'Sign in', names = { name: 'Name', password: 'Password', menu: 'Menu' }) {
  const api = accountServer({ name: 'pilot', pro: false, admin: false, questsDone: [], questsHidden: [] }, 'demo-pass');
  server.use(...api.handlers);
  // Known to the server, signed out in this browser: no hint, so the page asks nothing at start.
  setSignedInHint(false);
  await loadSession();
  const user = userEvent.setup();
  renderRoute('/map/factory');
  const menu = screen.getByRole('button', { name: names.menu });
  const more = document.getElementById(menu.getAttribute('aria-controls')!)!;
  await user.click(menu);
  await user.click(within(more).getByRole('button', { name: signIn }));
  const dialog = screen.getByRole('dialog');
  // A press in the dialog is outside the bar: the Menu folds, the account button hides in it.
  await user.type(within(dialog).getByRole('textbox', { name: names.name }), 'pilot');
  await user.type(within(dialog).getByLabelText(names.password), 'demo-pass');
  await user.click(within(dialog).getByRole('button', { name: signIn }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  return { menu, more };
}

describe('top bar: a sign-in from the phone Menu', () => {
  it('puts the focus on Menu (the account button is folded in it) and says who is signed in', async () => {
    windowIs(true);
    const { menu } = await signInFromMenu();
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    await waitFor(() => expect(menu).toHaveFocus());
    // The map page's live region (LiveAnnouncer.tsx).
    expect(document.querySelector('.live-announcer')).toHaveTextContent('Signed in as pilot');
  });

  it('in Russian too', async () => {
    windowIs(true);
    await setLanguage('ru');
    const { menu } = await signInFromMenu('Войти', { name: 'Имя', password: 'Пароль', menu: 'Меню' });
    await waitFor(() => expect(menu).toHaveFocus());
    expect(document.querySelector('.live-announcer')).toHaveTextContent(i18n.t('account.menu.signedInAs', { name: 'pilot' }));
  });

  it('on a wide bar leaves the focus on the account button, which says the name itself', async () => {
    windowIs(false);
    const { more } = await signInFromMenu();
    const account = within(more).getByRole('button', { name: 'pilot' });
    await waitFor(() => expect(account).toHaveFocus());
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(account).toHaveFocus();
  });
});

describe('top bar: the Quests link', () => {
  it('leads to the Quests page, in the Menu (a row item on a wide bar)', async () => {
    renderRoute('/map/factory');
    const menu = screen.getByRole('button', { name: 'Menu' });
    const more = document.getElementById(menu.getAttribute('aria-controls')!)!;
    expect(within(more).getByRole('link', { name: 'Quests' })).toHaveAttribute('href', '/progression/quests');
  });

  it('in Russian: «Квесты»', async () => {
    await setLanguage('ru');
    renderRoute('/map/factory');
    expect(screen.getByRole('link', { name: 'Квесты' })).toHaveAttribute('href', '/progression/quests');
  });
});
