import '../../i18n';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAPS } from '../../domain/maps';
import { resetEditor } from '../../state/editor';
import { layout, setPanelsShown, togglePointTools } from '../../state/layout';
import { points, resetPoints } from '../../state/points';
import { cancelEdit, resetPopup, showPopupFor, startEdit } from '../../state/popup';
import type { Marker } from '../../domain/marker';
import { resetSession, setSessionUser } from '../../state/session';
import { memoryStorage, setStorageBackend } from '../../state/storage';
import { AdminDock } from './AdminDock';

const admin = { pro: false, admin: true, questsDone: [], questsHidden: [] };

beforeEach(() => {
  setStorageBackend(memoryStorage());
  resetEditor();
});
afterEach(() => {
  resetSession();
  resetEditor();
  resetPoints();
  resetPopup();
  layout.pointTools = false;
  setPanelsShown(true);
  setStorageBackend(null);
});

describe('AdminDock', () => {
  it('stacks the point tools (when toggled), the tools panel and the status bar for an admin', async () => {
    setSessionUser(admin);
    const { container } = render(<AdminDock map={MAPS.factory} camera={{ x: 10, y: 20, zoom: 1.5 }} />);
    const dock = container.firstElementChild as HTMLElement;
    expect(dock).toHaveClass('admin-dock', 'admin-dock--panels');
    expect(screen.getByRole('region', { name: 'Editor tools' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Editor status' })).toHaveTextContent('zoom 1.5000');
    expect(screen.queryByRole('region', { name: 'Point history' })).toBeNull();
    // The map's points are loaded while the dock is there, even with the buttons hidden.
    expect(points.mapId).toBe('factory');

    act(() => togglePointTools());
    expect(await screen.findByRole('region', { name: 'Point history' })).toBeInTheDocument();
    const regions = screen.getAllByRole('region').map((r) => r.getAttribute('aria-label'));
    expect(regions).toEqual(['Point history', 'Editor tools', 'Editor status']);

    // With the side panels hidden the dock spans the page.
    act(() => setPanelsShown(false));
    await waitFor(() => expect(dock).not.toHaveClass('admin-dock--panels'));
  });

  it('yields to an open edit form (admin.css hides it on a narrow or short window) and comes back as it was', async () => {
    setSessionUser(admin);
    const { container } = render(<AdminDock map={MAPS.factory} camera={null} />);
    const dock = container.firstElementChild as HTMLElement;
    const toggle = screen.getByRole('button', { expanded: true });
    // The admin folds the tools before opening the form.
    act(() => toggle.click());
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(dock).not.toHaveClass('admin-dock--form-open');

    // The popup in view mode leaves the dock be; its edit form marks it.
    act(() => showPopupFor('m1'));
    expect(dock).not.toHaveClass('admin-dock--form-open');
    act(() => startEdit(marker));
    await waitFor(() => expect(dock).toHaveClass('admin-dock--form-open'));
    // Hidden, not unmounted: the tools keep their state.
    expect(screen.getByRole('region', { name: 'Editor tools' })).toBeInTheDocument();

    act(() => cancelEdit());
    await waitFor(() => expect(dock).not.toHaveClass('admin-dock--form-open'));
    expect(screen.getByRole('button', { expanded: false })).toBe(toggle);

    // Closing the popup from the form gives the room back too.
    act(() => startEdit(marker));
    await waitFor(() => expect(dock).toHaveClass('admin-dock--form-open'));
    act(() => showPopupFor(null));
    await waitFor(() => expect(dock).not.toHaveClass('admin-dock--form-open'));
  });
});

const marker = { uid: 'm1', version: 1 } as unknown as Marker;
