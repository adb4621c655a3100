/**
 * Where the keyboard focus goes when the top bar's Menu folds or its live indicator goes away
 * (docs/DECISIONS.md "Focus after a change of state"): never to the page's body.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, setLanguage } from '../../i18n';
import { setPanelsShown } from '../../state/layout';
import { loadSession, resetSession, setSessionUser } from '../../state/session';
import { pilot, PILOT_CODE_KEY, PILOT_GONE_KEY, resetPilot } from '../../state/pilot';
import { writeStored } from '../../state/storage';
import { createLocalMarkerSource } from '../map/testing/localMarkerSource';
import { accountServer } from '../map/testing/mapApi';
import { useMapPage } from '../map/testing/mapPageTest';
import { renderRoute } from '../map/testing/renderRoute';

vi.mock('../../engine/index', () => import('../map/testing/engineModuleMock'));
vi.mock('../map/markerSource', () => ({ createMarkerSource: () => createLocalMarkerSource() }));

const server = useMapPage({ markers: [] });

const CODE = 'ABCDE23456';

beforeEach(() => {
  setPanelsShown(true);
  resetPilot();
});
afterEach(async () => {
  resetPilot();
  setSessionUser(null);
  resetSession();
  if (i18n.language !== 'en') await setLanguage('en');
});

/** The map page's Menu button and the drop-down it folds. */
function menuParts() {
  const menu = screen.getByRole('button', { name: 'Menu' });
  return { menu, more: document.getElementById(menu.getAttribute('aria-controls')!)! };
}

describe('top bar Menu (the phone bar): a disclosure', () => {
  it('Escape with the focus on an item folds it and puts the focus back on Menu', async () => {
    const user = userEvent.setup();
    renderRoute('/map/factory');
    const { menu, more } = menuParts();
    menu.focus();
    await user.keyboard('{Enter}');
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    await user.tab();
    expect(within(more).getByRole('button', { name: 'Hide panels' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    await waitFor(() => expect(menu).toHaveFocus());
  });

  it('Escape in the account menu inside it folds both and ends on Menu, not on the hidden account button', async () => {
    const api = accountServer({ name: 'pilot', pro: false, admin: false, questsDone: [], questsHidden: [] });
    server.use(...api.handlers);
    await loadSession();
    const user = userEvent.setup();
    renderRoute('/map/factory');
    const { menu, more } = menuParts();
    await user.click(menu);
    await user.click(await within(more).findByRole('button', { name: 'pilot' }));
    expect(within(more).getByRole('menuitem', { name: 'Sign out' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    await waitFor(() => expect(menu).toHaveFocus());
  });

  it('a choice in it (Hide panels) folds it with the focus on Menu', async () => {
    const user = userEvent.setup();
    renderRoute('/map/factory');
    const { menu, more } = menuParts();
    await user.click(menu);
    await user.click(within(more).getByRole('button', { name: 'Hide panels' }));
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    await waitFor(() => expect(menu).toHaveFocus());
  });

  it('Escape or a press elsewhere while the focus is outside it leaves the focus where it is', async () => {
    const user = userEvent.setup();
    renderRoute('/map/factory');
    const { menu } = menuParts();
    await user.click(menu);
    const home = screen.getByRole('link', { name: /Home|All maps/ });
    home.focus();
    await user.keyboard('{Escape}');
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect(home).toHaveFocus();
  });
});

describe('top bar live indicator', () => {
  it('Forget this code (a feed that ended) takes the indicator away and the focus to Where am I', async () => {
    writeStored(PILOT_CODE_KEY, CODE);
    writeStored(PILOT_GONE_KEY, CODE);
    const user = userEvent.setup();
    renderRoute('/map/factory');
    const live = await screen.findByRole('button', { name: /No live feed with code ABCDE-23456/ });
    await user.click(live);
    await user.click(screen.getByRole('button', { name: 'Forget this code' }));
    expect(pilot.code).toBeNull();
    expect(screen.queryByRole('button', { name: /No live feed/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Where am I' })).toHaveFocus();
  });

  it('in Russian too', async () => {
    await setLanguage('ru');
    writeStored(PILOT_CODE_KEY, CODE);
    writeStored(PILOT_GONE_KEY, CODE);
    const user = userEvent.setup();
    renderRoute('/map/factory');
    await user.click(await screen.findByRole('button', { name: /Нет трансляции позиции с кодом ABCDE-23456/ }));
    await user.click(screen.getByRole('button', { name: 'Забыть этот код' }));
    expect(screen.getByRole('button', { name: i18n.t('topbar.whereAmI') })).toHaveFocus();
  });
});
