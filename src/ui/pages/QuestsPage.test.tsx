import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccountUser } from '../../api/account';
import { setLanguage } from '../../i18n';
import { resetLookups } from '../../state/items';
import { closeUpsell } from '../../state/layout';
import { resetQuests } from '../../state/quests';
import { resetSession, session } from '../../state/session';
import { accountServer, TEST_API_BASE as BASE } from '../map/testing/mapApi';
import { setSignedInHint, useTestServer } from '../map/testing/mapPageTest';
import { renderRoute } from '../map/testing/renderRoute';

const questList = [
  { uid: 'q-b', name: 'Bad Rep Evidence', ruName: 'Улики', trader: 'Prapor', requiredForKappa: true, requiredForLightkeeper: false, wikiUrl: 'https://wiki.example/Bad_Rep' },
  { uid: 'q-a', name: 'Acquaintance', ruName: 'Знакомство', trader: 'Jaeger', requiredForKappa: false, requiredForLightkeeper: true, wikiUrl: 'https://wiki.example/Acquaintance' },
  { uid: 'q-c', name: 'Checking', ruName: 'Проверка', trader: 'Therapist', requiredForKappa: false, requiredForLightkeeper: false, wikiUrl: '' },
];

const server = useTestServer(
  http.get(`${BASE}/api/be/quests`, () => HttpResponse.json({ quests: questList })),
  http.get(`${BASE}/api/be/quests/maps`, () => HttpResponse.json({ maps: { 'q-b': ['customs', 'factory'], 'q-a': ['woods'] } })),
);

beforeEach(() => {
  resetQuests();
  resetLookups();
});
afterEach(async () => {
  // The page keeps its filter in the history entry (questsPageMemory.ts): each test starts a fresh visit.
  window.history.replaceState(null, '');
  resetSession();
  closeUpsell();
  setSignedInHint(false);
  vi.restoreAllMocks();
  await setLanguage('en');
});

const renderAt = (path: string) => renderRoute(path).router;

const names = (label = 'Quests') => within(screen.getByRole('list', { name: label })).getAllByRole('heading').map((h) => h.textContent);

describe('/progression/quests', () => {
  it('lists every quest sorted by name, with trader, flags, wiki and map links', async () => {
    renderAt('/progression/quests');
    // The page's chunk loads on the first visit (routes.tsx), then it says it is loading.
    await screen.findByText('Loading quests…');
    // The title is set by an effect, which runs after the commit that showed the text.
    await waitFor(() => expect(document.title).toBe('Quests - raidmap'));
    await screen.findByRole('list', { name: 'Quests' });
    expect(names()).toEqual(['Acquaintance', 'Bad Rep Evidence', 'Checking']);
    expect(screen.getByText('3 quests')).toBeInTheDocument();

    const bad = screen.getByRole('heading', { name: 'Bad Rep Evidence' }).closest('li')!;
    expect(bad).toHaveTextContent('Trader: Prapor');
    expect(within(bad).getByText('Kappa')).toBeInTheDocument();
    expect(within(bad).queryByText('Lightkeeper')).toBeNull();
    expect(within(bad).getByRole('link', { name: 'Wiki: Bad Rep Evidence (opens in a new tab)' })).toHaveAttribute('href', 'https://wiki.example/Bad_Rep');
    await waitFor(() => expect(within(bad).getByRole('link', { name: 'Customs' })).toHaveAttribute('href', '/map/customs?follow=q-b'));
    expect(within(bad).getByRole('link', { name: 'Factory' })).toHaveAttribute('href', '/map/factory?follow=q-b');

    const acq = screen.getByRole('heading', { name: 'Acquaintance' }).closest('li')!;
    expect(within(acq).getByText('Lightkeeper')).toBeInTheDocument();
    expect(within(acq).getByRole('link', { name: 'Woods' })).toHaveAttribute('href', '/map/woods?follow=q-a');

    const checking = screen.getByRole('heading', { name: 'Checking' }).closest('li')!;
    expect(within(checking).queryByRole('link')).toBeNull();
    expect(checking).toHaveTextContent('No markers yet');
    // A quest without markers is listed, so the intro does not say "every quest with markers".
    expect(screen.getByText('Every quest, with the maps where it has markers. Open a map to see where to go.')).toBeInTheDocument();
    expect(screen.queryByText(/Every quest with markers/)).toBeNull();
  });

  it("has a banner with the site's controls and a main with the quests; each wiki link says whose it is and that it opens a tab", async () => {
    renderAt('/progression/quests');
    await screen.findByRole('list', { name: 'Quests' });
    const banner = screen.getByRole('banner');
    const main = screen.getByRole('main');
    expect(within(banner).getByRole('button', { name: /^RU/ })).toBeInTheDocument();
    expect(within(main).queryByRole('button', { name: /^RU/ })).toBeNull();
    expect(within(main).getByRole('heading', { level: 1, name: 'Quests' })).toBeInTheDocument();
    expect(within(main).getByRole('list', { name: 'Quests' })).toBeInTheDocument();
    const wiki = within(main).getAllByRole('link', { name: /^Wiki/ });
    expect(wiki.map((link) => link.getAttribute('aria-label'))).toEqual(['Wiki: Acquaintance (opens in a new tab)', 'Wiki: Bad Rep Evidence (opens in a new tab)']);
    // The name starts with the words on screen (the link still reads "Wiki").
    expect(wiki.map((link) => link.textContent)).toEqual(['Wiki', 'Wiki']);
    expect(wiki.every((link) => link.getAttribute('target') === '_blank')).toBe(true);

    await act(() => setLanguage('ru'));
    await screen.findByRole('list', { name: 'Квесты' });
    expect(screen.getByRole('link', { name: 'Вики: Улики (откроется в новой вкладке)' })).toHaveAttribute('href', 'https://wiki.example/Bad_Rep');
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
    // The traders in Russian, as in the map's quest list.
    expect(screen.getByRole('heading', { name: 'Улики' }).closest('li')).toHaveTextContent('Торговец: Прапор');
  });

  it('switches the language from its own header, as the home page does', async () => {
    renderAt('/progression/quests');
    await screen.findByRole('list', { name: 'Quests' });
    await userEvent.click(screen.getByRole('button', { name: /^RU/ }));
    await screen.findByRole('list', { name: 'Квесты' });
    expect(screen.getByRole('heading', { name: 'Проверка' }).closest('li')).toHaveTextContent('Торговец: Терапевт');
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

describe('/progression/quests filter', () => {
  const status = () => screen.getByRole('status');
  const shownNames = () => within(screen.getByRole('list', { name: 'Quests' })).queryAllByRole('heading').map((h) => h.textContent);

  it('narrows the list by a name or a trader in either language, and says politely how many match', async () => {
    renderAt('/progression/quests');
    await screen.findByRole('list', { name: 'Quests' });
    const box = screen.getByRole('searchbox', { name: 'Find a quest' });
    expect(box).toHaveAccessibleDescription("Tab goes from quest to quest; ← and → reach a quest's buttons and links.");
    expect(status()).toHaveTextContent('3 quests');
    expect(status()).toHaveAttribute('role', 'status');

    await userEvent.type(box, 'EVIDENCE');
    expect(shownNames()).toEqual(['Bad Rep Evidence']);
    expect(status()).toHaveTextContent('1 of 3 quests');

    // The Russian name and the trader's Russian name on the English page.
    await userEvent.clear(box);
    await userEvent.type(box, 'знакомство');
    expect(shownNames()).toEqual(['Acquaintance']);
    await userEvent.clear(box);
    await userEvent.type(box, 'терапевт');
    expect(shownNames()).toEqual(['Checking']);
    await userEvent.clear(box);
    await userEvent.type(box, 'jaeger');
    expect(shownNames()).toEqual(['Acquaintance']);

    await userEvent.clear(box);
    await userEvent.type(box, 'zzz');
    expect(shownNames()).toEqual([]);
    expect(status()).toHaveTextContent('No quest matches “zzz”');

    await userEvent.clear(box);
    expect(shownNames()).toEqual(['Acquaintance', 'Bad Rep Evidence', 'Checking']);
    expect(status()).toHaveTextContent('3 quests');
  });

  it('filters in Russian, ё as е', async () => {
    await act(() => setLanguage('ru'));
    renderAt('/progression/quests');
    await screen.findByRole('list', { name: 'Квесты' });
    const box = screen.getByRole('searchbox', { name: 'Найти квест' });
    await userEvent.type(box, 'прапор');
    expect(within(screen.getByRole('list', { name: 'Квесты' })).getAllByRole('heading').map((h) => h.textContent)).toEqual(['Улики']);
    expect(screen.getByRole('status')).toHaveTextContent('Показано квестов: 1 из 3');
    await userEvent.clear(box);
    await userEvent.type(box, 'ЗНАКОМСТВО');
    expect(within(screen.getByRole('list', { name: 'Квесты' })).getAllByRole('heading').map((h) => h.textContent)).toEqual(['Знакомство']);
  });
});

describe('/progression/quests with quest progress', () => {
  const proUser: AccountUser = { name: 'pro', pro: true, admin: false, questsDone: ['q-b'], questsHidden: ['q-c'] };
  const card = (name: string) => screen.getByRole('heading', { name }).closest('li')!;

  function withAccount(user: AccountUser | null) {
    const account = accountServer(user);
    server.use(...account.handlers);
    return account;
  }

  it('asks who is signed in, dims completed quests, marks hidden ones, and saves actions for a pro user', async () => {
    const account = withAccount(proUser);
    renderAt('/progression/quests');
    await screen.findByRole('list', { name: 'Quests' });
    await waitFor(() => expect(card('Bad Rep Evidence')).toHaveClass('quests-page__quest--done'));
    expect(account.requests).toEqual(['GET /api/be/user']);
    expect(card('Bad Rep Evidence')).toHaveTextContent('Completed');
    expect(card('Checking')).toHaveClass('quests-page__quest--hidden');
    expect(card('Checking')).not.toHaveClass('quests-page__quest--done');
    expect(card('Checking')).toHaveTextContent('Hidden');
    expect(card('Acquaintance')).not.toHaveClass('quests-page__quest--done');
    expect(within(card('Bad Rep Evidence')).getByRole('button', { name: 'Reopen: Bad Rep Evidence' })).toBeInTheDocument();
    expect(within(card('Checking')).getByRole('button', { name: 'Show: Checking' })).toBeInTheDocument();

    await userEvent.click(within(card('Acquaintance')).getByRole('button', { name: 'Complete: Acquaintance' }));
    await waitFor(() => expect(card('Acquaintance')).toHaveClass('quests-page__quest--done'));
    expect(account.progressBodies).toEqual([{ done: { add: ['q-a'] } }]);
    expect(account.user?.questsDone).toEqual(['q-b', 'q-a']);
    expect(account.requests).toEqual(['GET /api/be/user', 'GET /api/be/user', 'POST /api/be/user/progress']);
    expect(within(card('Acquaintance')).getByRole('button', { name: 'Reopen: Acquaintance' })).toBeInTheDocument();
  });

  it('shows visitors the actions marked Pro: the upsell opens on the page and nothing is sent', async () => {
    const account = withAccount(null);
    renderAt('/progression/quests');
    await screen.findByRole('list', { name: 'Quests' });
    const acquaintance = card('Acquaintance');
    const hide = within(acquaintance).getByRole('button', { name: 'Hide: Acquaintance' });
    expect(hide).toHaveAccessibleDescription('A Pro feature');
    await userEvent.click(hide);
    const upsell = screen.getByRole('dialog', { name: 'raidmap Pro' });
    expect(upsell).toHaveTextContent('paid subscription');
    await userEvent.click(within(upsell).getByRole('button', { name: 'Got it' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(account.requests).toEqual([]);
    expect(session.user).toBeNull();
    expect(acquaintance).not.toHaveClass('quests-page__quest--hidden');
  });

  it('makes each card one Tab stop, its first map link (its main action), the other buttons and links reached with the arrow keys', async () => {
    withAccount(null);
    renderAt('/progression/quests');
    await screen.findByRole('list', { name: 'Quests' });
    const bad = await waitFor(() => within(card('Bad Rep Evidence')).getByRole('button', { name: 'Complete: Bad Rep Evidence' }));
    // One control of each card in the Tab order (was 5 in this one: Complete, Hide, Wiki, Customs, Factory).
    await waitFor(() => expect(within(card('Bad Rep Evidence')).getByRole('link', { name: 'Factory' })).toBeInTheDocument());
    const stops = ['Acquaintance', 'Bad Rep Evidence', 'Checking'].map((name) => [...card(name).querySelectorAll<HTMLElement>('a[href], button')].filter((el) => el.tabIndex === 0));
    expect(stops.map((found) => found.length)).toEqual([1, 1, 1]);
    // The map link, not the Pro-only ✓ whose Enter opens a visitor's upsell; a quest without
    // maps or wiki starts on its first button.
    expect(stops.map(([el]) => el.textContent || el.getAttribute('aria-label'))).toEqual(['Woods', 'Customs', 'Complete: Checking']);

    screen.getByRole('searchbox', { name: 'Find a quest' }).focus();
    await userEvent.tab();
    expect(document.activeElement).toHaveAccessibleName('Woods');
    await userEvent.tab();
    expect(document.activeElement).toHaveAccessibleName('Customs');
    await userEvent.keyboard('{ArrowRight}');
    expect(document.activeElement).toHaveAccessibleName('Factory');
    await userEvent.keyboard('{ArrowRight}');
    expect(document.activeElement).toHaveAccessibleName('Factory');
    await userEvent.keyboard('{Home}');
    expect(document.activeElement).toBe(bad);
    await userEvent.keyboard('{ArrowRight}');
    expect(document.activeElement).toHaveAccessibleName('Hide: Bad Rep Evidence');
    await userEvent.keyboard('{End}');
    expect(document.activeElement).toHaveAccessibleName('Factory');
    await userEvent.keyboard('{ArrowLeft}');
    expect(document.activeElement).toHaveAccessibleName('Customs');
    await userEvent.keyboard('{ArrowLeft}');
    expect(document.activeElement).toHaveAccessibleName(/^Wiki: Bad Rep Evidence/);
    await userEvent.tab();
    expect(document.activeElement).toHaveAccessibleName('Complete: Checking');
    // Back into the card: the control last used there.
    await userEvent.tab({ shift: true });
    expect(document.activeElement).toHaveAccessibleName(/^Wiki: Bad Rep Evidence/);
  });

  it('dims completed quests for a signed-in user without pro too', async () => {
    withAccount({ ...proUser, pro: false });
    renderAt('/progression/quests');
    await screen.findByRole('list', { name: 'Quests' });
    await waitFor(() => expect(card('Bad Rep Evidence')).toHaveClass('quests-page__quest--done'));
    expect(within(card('Bad Rep Evidence')).getByRole('button', { name: 'Reopen: Bad Rep Evidence' })).toHaveAccessibleDescription('A Pro feature');
  });

  it('shows admins neither progress nor actions', async () => {
    const account = withAccount({ ...proUser, name: 'admin', pro: false, admin: true });
    renderAt('/progression/quests');
    await screen.findByRole('list', { name: 'Quests' });
    await waitFor(() => expect(account.requests).toEqual(['GET /api/be/user']));
    await waitFor(() => expect(session.user?.admin).toBe(true));
    expect(card('Bad Rep Evidence')).not.toHaveClass('quests-page__quest--done');
    expect(card('Checking')).not.toHaveClass('quests-page__quest--hidden');
    expect(screen.queryByRole('button', { name: /^(Complete|Reopen|Hide|Show):/ })).toBeNull();
  });
});
