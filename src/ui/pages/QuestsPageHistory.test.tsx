/**
 * The Quests page keeps its filter in its history entry (questsPageMemory.ts), with the card a map
 * link left from: with the browser's own history (a browser router over jsdom's window.history),
 * Back after a map link shows the list as it was, scrolled as it was and focused on that link;
 * a fresh visit starts empty; Back again brings the filtered entry back.
 */
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBrowserRouter, RouterProvider } from 'react-router';
import '../../i18n';
import { resetLookups } from '../../state/items';
import { resetQuests } from '../../state/quests';
import { resetSession } from '../../state/session';
import { TEST_API_BASE as BASE } from '../map/testing/mapApi';
import { useTestServer } from '../map/testing/mapPageTest';
import { QuestsPage } from './QuestsPage';
import { memoryOf, withMemory } from './questsPageMemory';

const questList = [
  { uid: 'q-b', name: 'Bad Rep Evidence', ruName: 'Улики', trader: 'Prapor', requiredForKappa: true, requiredForLightkeeper: false, wikiUrl: 'https://wiki.example/Bad_Rep' },
  { uid: 'q-a', name: 'Acquaintance', ruName: 'Знакомство', trader: 'Jaeger', requiredForKappa: false, requiredForLightkeeper: true, wikiUrl: '' },
  { uid: 'q-c', name: 'Checking', ruName: 'Проверка', trader: 'Therapist', requiredForKappa: false, requiredForLightkeeper: false, wikiUrl: '' },
];

useTestServer(
  http.get(`${BASE}/api/be/quests`, () => HttpResponse.json({ quests: questList })),
  http.get(`${BASE}/api/be/quests/maps`, () => HttpResponse.json({ maps: { 'q-b': ['customs', 'factory'], 'q-a': ['woods'] } })),
);

const scrollTo = vi.fn();
beforeEach(() => {
  resetQuests();
  resetLookups();
  window.history.replaceState(null, '', '/');
  vi.stubGlobal('scrollTo', scrollTo);
  scrollTo.mockClear();
});
afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

/** The Quests page with the browser's history, a map page standing in for the real one. */
function renderWithHistory() {
  window.history.pushState(null, '', '/progression/quests');
  const router = createBrowserRouter([
    { path: '/progression/quests', element: <QuestsPage /> },
    { path: '/map/:mapId', element: <p>A map</p> },
  ]);
  render(<RouterProvider router={router} />);
  return router;
}

const box = () => screen.getByRole<HTMLInputElement>('searchbox', { name: 'Find a quest' });
const shownNames = () => within(screen.getByRole('list', { name: 'Quests' })).queryAllByRole('heading').map((h) => h.textContent);
const back = () => act(() => window.history.back());

describe('the Quests page in the history', () => {
  it('shows the filtered list after a map link and Back, scrolled as left and focused on the link; a fresh visit starts empty', async () => {
    const router = renderWithHistory();
    await screen.findByRole('list', { name: 'Quests' });
    await userEvent.type(box(), 'prapor');
    expect(shownNames()).toEqual(['Bad Rep Evidence']);
    // Typing replaces the entry's state: no new entry, the address unchanged, the router's keys kept.
    expect(memoryOf(window.history.state)).toEqual({ filter: 'prapor' });
    expect(window.history.state).toHaveProperty('idx');
    expect(window.location.pathname).toBe('/progression/quests');

    vi.spyOn(window, 'scrollY', 'get').mockReturnValue(640);
    await userEvent.click(await screen.findByRole('link', { name: 'Factory' }));
    await screen.findByText('A map');
    expect(window.location.pathname).toBe('/map/factory');
    vi.restoreAllMocks();

    await back();
    await waitFor(() => expect(box()).toHaveValue('prapor'));
    expect(shownNames()).toEqual(['Bad Rep Evidence']);
    await waitFor(() => expect(document.activeElement).toHaveAccessibleName('Factory'));
    expect(scrollTo).toHaveBeenCalledWith(0, 640);
    // The link left from is the card's Tab stop again.
    expect(screen.getByRole('link', { name: 'Factory' })).toHaveAttribute('tabindex', '0');

    // A fresh visit (a link to the page, a new entry): empty, every quest.
    await act(() => router.navigate('/progression/quests'));
    await waitFor(() => expect(box()).toHaveValue(''));
    expect(shownNames()).toEqual(['Acquaintance', 'Bad Rep Evidence', 'Checking']);

    // Back to the filtered entry.
    await back();
    await waitFor(() => expect(box()).toHaveValue('prapor'));
    expect(shownNames()).toEqual(['Bad Rep Evidence']);
  });

  it('starts empty on a fresh visit', async () => {
    renderWithHistory();
    await screen.findByRole('list', { name: 'Quests' });
    expect(box()).toHaveValue('');
    expect(shownNames()).toHaveLength(3);
    expect(scrollTo).not.toHaveBeenCalled();
  });
});

describe('memoryOf and withMemory', () => {
  it('keeps the router’s keys and reads back only what the page wrote', () => {
    const state = withMemory({ usr: { a: 1 }, key: 'k', idx: 3 }, { filter: 'x', from: 'q', control: 'map:woods', y: 12 });
    expect(state).toMatchObject({ usr: { a: 1 }, key: 'k', idx: 3 });
    expect(memoryOf(state)).toEqual({ filter: 'x', from: 'q', control: 'map:woods', y: 12 });
    expect(memoryOf(withMemory(null, { filter: '' }))).toEqual({ filter: '' });
    expect(memoryOf(null)).toBeNull();
    expect(memoryOf({ idx: 1 })).toBeNull();
    expect(memoryOf({ raidmapQuestsPage: { filter: 3 } })).toBeNull();
    expect(memoryOf({ raidmapQuestsPage: { filter: 'a', y: 'x' } })).toEqual({ filter: 'a' });
  });
});
