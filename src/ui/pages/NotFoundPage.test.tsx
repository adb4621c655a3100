import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../i18n';
import { renderRoute } from '../map/testing/renderRoute';
import { routes } from '../routes';

// The map page is not opened here; keep PixiJS (no WebGL in jsdom) out of the module graph.
vi.mock('../../engine/index', () => ({ createMapEngine: vi.fn() }));

afterEach(async () => {
  await setLanguage('en');
});

/** Switches to Russian with the page's own RU button, then back with EN. */
async function switchThere(english: string, russian: string) {
  await userEvent.click(within(screen.getByRole('group', { name: 'Language' })).getByRole('button', { name: 'RU Русский' }));
  expect(await screen.findByRole('heading', { level: 1, name: russian })).toBeInTheDocument();
  expect(within(screen.getByRole('group', { name: 'Язык' })).getByRole('button', { name: 'RU Русский' })).toHaveAttribute('aria-pressed', 'true');
  await userEvent.click(within(screen.getByRole('group', { name: 'Язык' })).getByRole('button', { name: 'EN English' }));
  expect(await screen.findByRole('heading', { level: 1, name: english })).toBeInTheDocument();
}

describe('language switch on the pages that say something went wrong', () => {
  it('the not-found page has EN / RU in its header, next to the link home', async () => {
    renderRoute('/nope/x');
    const header = screen.getByRole('banner');
    expect(within(header).getByRole('link', { name: 'raidmap' })).toHaveAttribute('href', '/');
    expect(within(header).getByRole('group', { name: 'Language' })).toBeInTheDocument();
    await switchThere('Page not found', 'Страница не найдена');
  });

  it('so has the page for an unknown map id', async () => {
    renderRoute('/map/nonexistent');
    await userEvent.click(within(screen.getByRole('group', { name: 'Language' })).getByRole('button', { name: 'RU Русский' }));
    expect(await screen.findByText(/Карты «nonexistent» не существует/)).toBeInTheDocument();
  });

  it('the error page has it too, outside its alert (which says only what went wrong)', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    function Boom(): never {
      throw new Error('render failed');
    }
    const withBoom: RouteObject[] = [{ errorElement: routes[0].errorElement, children: [{ path: '/boom', element: <Boom /> }] }];
    render(<RouterProvider router={createMemoryRouter(withBoom, { initialEntries: ['/boom'] })} />);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Something went wrong');
    expect(within(alert).queryByRole('button')).toBeNull();
    expect(screen.getByRole('main')).toContainElement(alert);
    await switchThere('Something went wrong', 'Что-то пошло не так');
    quiet.mockRestore();
  });
});
