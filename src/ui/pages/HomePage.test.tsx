import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../i18n';
import { renderRoute } from '../map/testing/renderRoute';

// The map page is not opened here; keep PixiJS (no WebGL in jsdom) out of the module graph.
vi.mock('../../engine/index', () => ({ createMapEngine: vi.fn() }));

afterEach(async () => {
  await setLanguage('en');
});

describe('home page language switch', () => {
  it('switches the page to Russian and back with the EN / RU buttons, by keyboard', async () => {
    renderRoute('/');
    const group = screen.getByRole('group', { name: 'Language' });
    const ru = within(group).getByRole('button', { name: 'RU Русский' });
    expect(ru).toHaveAttribute('aria-pressed', 'false');
    ru.focus();
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByRole('list', { name: 'Карты' })).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Язык' })).getByRole('button', { name: 'RU Русский' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(within(screen.getByRole('group', { name: 'Язык' })).getByRole('button', { name: 'EN English' }));
    expect(await screen.findByRole('list', { name: 'Maps' })).toBeInTheDocument();
  });
});
