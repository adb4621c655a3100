/** The top bar's Alt-click (spec §2): an admin shows / hides the point-history buttons; nobody else. */
import '../../i18n';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAPS } from '../../domain/maps';
import { layout, setPanelsShown } from '../../state/layout';
import { resetPoints } from '../../state/points';
import { resetSession, session, setSessionUser } from '../../state/session';
import { memoryStorage, setStorageBackend } from '../../state/storage';
import { TopBar } from '../topbar/TopBar';
import { PointTools } from './PointTools';

const admin = { pro: false, admin: true, questsDone: [], questsHidden: [] };

function renderBar() {
  return render(
    <MemoryRouter initialEntries={['/map/factory']}>
      <TopBar title="Factory" />
      <PointTools map={MAPS.factory} />
    </MemoryRouter>,
  );
}

beforeEach(() => {
  setStorageBackend(memoryStorage());
  session.status = 'ready';
});
afterEach(() => {
  resetSession();
  resetPoints();
  layout.pointTools = false;
  setPanelsShown(true);
  setStorageBackend(null);
});

describe('top bar Alt-click', () => {
  it('toggles the point tools for an admin', async () => {
    setSessionUser(admin);
    renderBar();
    const bar = screen.getByRole('banner');
    expect(screen.queryByRole('region', { name: 'Point history' })).toBeNull();

    const user = userEvent.setup();
    await user.keyboard('{Alt>}');
    await user.click(within(bar).getByRole('heading', { name: 'Factory' }));
    await user.keyboard('{/Alt}');
    expect(layout.pointTools).toBe(true);
    expect(await screen.findByRole('button', { name: 'Rec PointsHistory' })).toBeInTheDocument();

    fireEvent.click(bar, { altKey: true });
    expect(layout.pointTools).toBe(false);
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Point history' })).toBeNull());
  });

  it('an Alt-click on a button or link of the bar is the bar\'s: the control does not act', async () => {
    setSessionUser(admin);
    renderBar();
    const bar = screen.getByRole('banner');
    const user = userEvent.setup();
    await user.keyboard('{Alt>}');
    await user.click(within(bar).getByRole('button', { name: 'Hide panels' }));
    expect(layout.pointTools).toBe(true);
    expect(layout.panelsShown).toBe(true);
    const home = within(bar).getByRole('link', { name: /All maps/ });
    const followed = fireEvent.click(home, { altKey: true });
    await user.keyboard('{/Alt}');
    expect(layout.pointTools).toBe(false);
    // The link's default (navigation, or Chrome's download of an Alt-clicked link) is prevented.
    expect(followed).toBe(false);
  });

  it('ignores a click without Alt', async () => {
    setSessionUser(admin);
    renderBar();
    await userEvent.click(screen.getByRole('heading', { name: 'Factory' }));
    expect(layout.pointTools).toBe(false);
    // A plain click on a bar button does its own job only.
    await userEvent.click(screen.getByRole('button', { name: 'Hide panels' }));
    expect(layout.pointTools).toBe(false);
    expect(layout.panelsShown).toBe(false);
  });

  it('does nothing for a visitor or a pro user, who see no point tools', () => {
    renderBar();
    const bar = screen.getByRole('banner');
    fireEvent.click(bar, { altKey: true });
    expect(layout.pointTools).toBe(false);
    act(() => setSessionUser({ ...admin, admin: false, pro: true }));
    fireEvent.click(bar, { altKey: true });
    expect(layout.pointTools).toBe(false);
    expect(screen.queryByRole('region', { name: 'Point history' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Rec PointsHistory' })).toBeNull();
  });
});
