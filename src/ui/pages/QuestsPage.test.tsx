import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiBase } from '../../api/client';
import { setLanguage } from '../../i18n';
import { resetLookups } from '../../state/items';
import { resetQuests } from '../../state/quests';
import { routes } from '../routes';

const BASE = 'http://raidmap.test';
const questList = [
  { uid: 'q-b', name: 'Bad Rep Evidence', ruName: 'Улики', trader: 'Prapor', requiredForKappa: true, requiredForLightkeeper: false, wikiUrl: 'https://wiki.example/Bad_Rep' },
  { uid: 'q-a', name: 'Acquaintance', ruName: 'Знакомство', trader: 'Jaeger', requiredForKappa: false, requiredForLightkeeper: true, wikiUrl: 'https://wiki.example/Acquaintance' },
  { uid: 'q-c', name: 'Checking', ruName: 'Проверка', trader: 'Therapist', requiredForKappa: false, requiredForLightkeeper: false, wikiUrl: '' },
];

const server = setupServer(
  http.get(`${BASE}/api/be/quests`, () => HttpResponse.json({ quests: questList })),
  http.get(`${BASE}/api/be/quests/maps`, () => HttpResponse.json({ maps: { 'q-b': ['customs', 'factory'], 'q-a': ['woods'] } })),
);

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setApiBase(BASE);
});
beforeEach(() => {
  resetQuests();
  resetLookups();
});
afterEach(async () => {
  server.resetHandlers();
  vi.restoreAllMocks();
  await setLanguage('en');
});
afterAll(() => {
  server.close();
  setApiBase('');
});

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

const names = (label = 'Quests') => within(screen.getByRole('list', { name: label })).getAllByRole('heading').map((h) => h.textContent);

describe('/progression/quests', () => {
  it('lists every quest sorted by name, with trader, flags, wiki and map links', async () => {
    renderAt('/progression/quests');
    expect(document.title).toBe('Quests - raidmap');
    expect(screen.getByRole('status')).toHaveTextContent('Loading quests…');
    await screen.findByRole('list', { name: 'Quests' });
    expect(names()).toEqual(['Acquaintance', 'Bad Rep Evidence', 'Checking']);
    expect(screen.getByText('3 quests')).toBeInTheDocument();

    const bad = screen.getByRole('heading', { name: 'Bad Rep Evidence' }).closest('li')!;
    expect(bad).toHaveTextContent('Trader: Prapor');
    expect(within(bad).getByText('Kappa')).toBeInTheDocument();
    expect(within(bad).queryByText('Lightkeeper')).toBeNull();
    expect(within(bad).getByRole('link', { name: 'Wiki' })).toHaveAttribute('href', 'https://wiki.example/Bad_Rep');
    await waitFor(() => expect(within(bad).getByRole('link', { name: 'Customs' })).toHaveAttribute('href', '/map/customs?quest=q-b'));
    expect(within(bad).getByRole('link', { name: 'Factory' })).toHaveAttribute('href', '/map/factory?quest=q-b');

    const acq = screen.getByRole('heading', { name: 'Acquaintance' }).closest('li')!;
    expect(within(acq).getByText('Lightkeeper')).toBeInTheDocument();
    expect(within(acq).getByRole('link', { name: 'Woods' })).toHaveAttribute('href', '/map/woods?quest=q-a');

    const checking = screen.getByRole('heading', { name: 'Checking' }).closest('li')!;
    expect(within(checking).queryByRole('link')).toBeNull();
    expect(checking).toHaveTextContent('No markers yet');
  });

  it('highlights and scrolls to ?quest=', async () => {
    const scrolled: string[] = [];
    Element.prototype.scrollIntoView = vi.fn(function (this: Element) {
      scrolled.push(this.id);
    });
    renderAt('/progression/quests?quest=q-c,q-b');
    await screen.findByRole('list', { name: 'Quests' });
    const highlighted = document.querySelectorAll('[aria-current="true"]');
    expect([...highlighted].map((el) => el.getAttribute('data-uid'))).toEqual(['q-b', 'q-c']);
    expect(screen.getByRole('heading', { name: 'Acquaintance' }).closest('li')).not.toHaveAttribute('aria-current');
    await waitFor(() => expect(scrolled).toEqual(['quest-q-b']));
  });

  it('sorts by the Russian name in Russian', async () => {
    await act(() => setLanguage('ru'));
    renderAt('/progression/quests');
    await screen.findByRole('list', { name: 'Квесты' });
    expect(names('Квесты')).toEqual(['Знакомство', 'Проверка', 'Улики']);
    expect(document.title).toBe('Квесты - raidmap');
  });

  it('says when the list cannot be loaded, and tries again', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    server.use(http.get(`${BASE}/api/be/quests`, () => HttpResponse.json({ error: 'down', message: 'down' }, { status: 503 }), { once: true }));
    renderAt('/progression/quests');
    expect(await screen.findByRole('alert')).toHaveTextContent('The quest list could not be loaded');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('list', { name: 'Quests' });
    expect(names()).toHaveLength(3);
  });
});
