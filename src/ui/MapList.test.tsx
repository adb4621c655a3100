/**
 * The home page's map list (MapList.tsx `detailed`): a link to the Quests page above the cards,
 * the playable maps first and the test map last and marked, each card with its levels (no pixel
 * sizes); the short list of a not-found page keeps the spec's order.
 */
import { act, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { MAP_IDS } from '../domain/maps';
import { setLanguage } from '../i18n';
import { HOME_MAP_ORDER, MapList } from './MapList';

afterEach(async () => {
  await setLanguage('en');
});

function renderList(detailed: boolean) {
  const router = createMemoryRouter([{ path: '/', element: <MapList detailed={detailed} /> }]);
  render(<RouterProvider router={router} />);
}

describe('the home page map list', () => {
  it('links the Quests page, in both languages', async () => {
    renderList(true);
    expect(screen.getByText(/Looking for a quest\?/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'All quests and the maps they are on' })).toHaveAttribute('href', '/progression/quests');
    await act(() => setLanguage('ru'));
    expect(screen.getByText(/Ищете квест\?/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Все квесты и карты, где их выполнять' })).toHaveAttribute('href', '/progression/quests');
  });

  it('puts the test map last and marks it; the cards give levels, not pixel sizes', () => {
    renderList(true);
    const links = within(screen.getByRole('list', { name: 'Maps' })).getAllByRole('link');
    expect(links).toHaveLength(12);
    expect(links.map((a) => a.getAttribute('href'))).toEqual(HOME_MAP_ORDER.map((id) => `/map/${id}`));
    expect(links[0]).toHaveAttribute('href', '/map/ground-zero');
    expect(links.at(-1)).toHaveAttribute('href', '/map/dev');
    expect(links.at(-1)).toHaveAccessibleName('Dev');
    expect(links.at(-1)).toHaveAttribute('aria-description', 'Test map');
    expect(links.at(-1)).toHaveTextContent(/^DevTest map · 3 levels$/);
    expect(links[2]).toHaveTextContent('Customs5 levels');
    expect(screen.getByRole('list', { name: 'Maps' }).textContent).not.toMatch(/\d+ × \d+/);
  });

  it("keeps the spec's order and the bare names in a short list", () => {
    renderList(false);
    const links = within(screen.getByRole('list', { name: 'Maps' })).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual(MAP_IDS.map((id) => `/map/${id}`));
    expect(screen.queryByRole('link', { name: /quests/i })).toBeNull();
  });
});
