import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccountUser } from '../../api/account';
import type { LevelDef } from '../../domain/maps';
import type { Quest } from '../../domain/quests';
import { i18n, setLanguage } from '../../i18n';
import { filters, filtersKey, parseStoredFilters } from '../../state/filters';
import { resetLookups } from '../../state/items';
import { closeUpsell, setPanelsShown } from '../../state/layout';
import { mapView } from '../../state/mapView';
import { quests, resetQuests, toggleQuest } from '../../state/quests';
import { loadSession, resetSession, session, signOut } from '../../state/session';
import { resetSettings, updateSettings } from '../../state/settings';
import { readStored } from '../../state/storage';
import { createLocalMarkerSource } from '../map/testing/localMarkerSource';
import { LevelList } from './LevelList';
import { iconIndexOf, iconSpriteStyle } from '../../domain/icon-atlas';
import { accountServer, TEST_API_BASE as BASE } from '../map/testing/mapApi';
import { setSignedInHint, useMapPage } from '../map/testing/mapPageTest';
import { renderReadyMap as readyMap } from '../map/testing/readyMap';
import { engines, resetEngines } from '../map/testing/engineModuleMock';
import { renderRoute } from '../map/testing/renderRoute';

vi.mock('../../engine/index', () => import('../map/testing/engineModuleMock'));
vi.mock('../map/markerSource', () => ({ createMarkerSource: () => createLocalMarkerSource() }));


const quest = (uid: string, name: string, ruName: string): Quest => ({ uid, name, ruName, trader: 'Prapor', requiredForKappa: true, requiredForLightkeeper: false, wikiUrl: `https://wiki.test/${uid}` });
const questList = [
  quest('q-delivery', 'Delivery From the Past', 'Посылка из прошлого'),
  quest('q-checking', 'Checking', 'Проверка на вшивость'),
  quest('q-shortage', 'Shortage', 'Дефицит'),
  quest('q-debut', 'Debut', 'Дебют'),
];

let n = 0;
function marker(subCategory: string, category: string, over: Record<string, unknown> = {}) {
  n += 1;
  return { uid: `m${n}`, map: 'factory', category, subCategory, level: 1, geometry: { x: 100 + n, y: 200 }, name: `${subCategory} ${n}`, ...over };
}
const markerList = [
  marker('Safe', 'Loot'),
  marker('Safe', 'Loot'),
  marker('Cache', 'Loot', { level: 2 }),
  marker('PMC Extraction', 'Extractions'),
  marker('Quest', 'Quests', { questUid: 'q-delivery' }),
  marker('Quest', 'Quests', { questUid: 'q-checking' }),
  marker('Quest', 'Quests', { questUid: 'q-retired' }),
];

const server = useMapPage({ markers: markerList, quests: questList, questMaps: { 'q-delivery': ['customs', 'factory'], 'q-checking': ['customs'], 'q-debut': ['factory'] } });

beforeEach(() => {
  resetQuests();
  resetLookups();
});
afterEach(async () => {
  resetSession();
  resetSettings();
  setSignedInHint(false);
  setPanelsShown(true);
  closeUpsell();
  await setLanguage('en');
  vi.restoreAllMocks();
});

const renderMap = (path = '/map/factory') => renderRoute(path);

const passing = () => window.__map!.markers().map((m) => m.uid);

const proUser: AccountUser = { name: 'pro', pro: true, admin: false, questsDone: [], questsHidden: [] };

/** The mocked account server knows `user` (null: nobody signed in), and the page has asked it who is signed in. */
async function signedIn(user: AccountUser | null) {
  const account = accountServer(user);
  server.use(...account.handlers);
  await act(() => loadSession());
  return account;
}
const categories = () => screen.getByRole('complementary', { name: 'Categories' });
const rightPanel = () => screen.getByRole('complementary', { name: 'Levels and quests' });

describe('category panel', () => {
  it('lists every category and subcategory with icons and this map’s counts', async () => {
    await readyMap();
    const panel = categories();
    const safeRow = within(panel).getByRole('checkbox', { name: 'Safe' }).closest('li')!;
    await waitFor(() => expect(safeRow).toHaveTextContent(/Safe\s*2$/));
    // Its icon is the Safe cell of the icon atlas, a CSS sprite.
    const icon = safeRow.querySelector<HTMLElement>('.sub-category-icon')!;
    expect(icon.dataset.icon).toBe('Safe');
    expect(icon.style.backgroundImage).toBe(`url("${BASE}/icons/atlas.png")`);
    expect(icon.style.backgroundPosition).toBe(iconSpriteStyle(iconIndexOf('Safe'), 20).backgroundPosition);
    const lootRow = within(panel).getByRole('checkbox', { name: 'Loot' }).closest('div')!;
    expect(lootRow).toHaveTextContent(/Loot\s*3$/);
    expect(within(panel).getByRole('checkbox', { name: "Shturman's Stash" }).closest('li')).toHaveTextContent(/0$/);
    expect(within(panel).getAllByRole('checkbox')).toHaveLength(7 + 36);
  });

  it('toggles a category and a subcategory through the worker filter', async () => {
    await readyMap();
    await waitFor(() => expect(passing()).toEqual(['m1', 'm2', 'm3', 'm4']));
    const panel = categories();
    await userEvent.click(within(panel).getByRole('checkbox', { name: 'Loot' }));
    expect(filters.hiddenCategories).toEqual(['Loot']);
    await waitFor(() => expect(passing()).toEqual(['m4']));
    expect(within(panel).getByRole('checkbox', { name: 'Safe' })).not.toBeChecked();

    await userEvent.click(within(panel).getByRole('checkbox', { name: 'Cache' }));
    await waitFor(() => expect(passing()).toEqual(['m3', 'm4']));
    const loot = within(panel).getByRole('checkbox', { name: 'Loot' }) as HTMLInputElement;
    expect(loot.indeterminate).toBe(true);

    await userEvent.click(loot);
    await waitFor(() => expect(passing()).toEqual(['m1', 'm2', 'm3', 'm4']));
    await userEvent.click(within(panel).getByRole('checkbox', { name: 'PMC Extraction' }));
    await waitFor(() => expect(passing()).toEqual(['m1', 'm2', 'm3']));
  });

  it('hides every category with Hide all and brings them back with Show all, saved for the map', async () => {
    await readyMap();
    await waitFor(() => expect(passing()).toEqual(['m1', 'm2', 'm3', 'm4']));
    const panel = categories();
    await userEvent.click(within(panel).getByRole('button', { name: 'Hide all' }));
    await waitFor(() => expect(passing()).toEqual([]));
    for (const box of within(panel).getAllByRole('checkbox')) expect(box).not.toBeChecked();
    expect(parseStoredFilters(readStored(filtersKey('factory'))).hiddenCategories).toHaveLength(7);
    // Only one category: one more click.
    await userEvent.click(within(panel).getByRole('checkbox', { name: 'Extractions' }));
    await waitFor(() => expect(passing()).toEqual(['m4']));
    await userEvent.click(within(panel).getByRole('button', { name: 'Show all' }));
    await waitFor(() => expect(passing()).toEqual(['m1', 'm2', 'm3', 'm4']));
  });

  it('names Show all and Hide all in Russian', async () => {
    await readyMap();
    await act(() => setLanguage('ru'));
    const panel = screen.getByRole('complementary', { name: 'Категории' });
    expect(within(panel).getByRole('button', { name: 'Показать все' })).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Скрыть все' })).toBeInTheDocument();
  });

  it('hides with the panels', async () => {
    await readyMap();
    await act(async () => setPanelsShown(false));
    expect(screen.queryByRole('complementary', { name: 'Categories' })).toBeNull();
    expect(screen.queryByRole('complementary', { name: 'Levels and quests' })).toBeNull();
    await act(async () => setPanelsShown(true));
    expect(categories()).toBeInTheDocument();
  });
});

describe('levels', () => {
  it('lists the map’s levels as radios bound to the selected level', async () => {
    const { engine } = await readyMap();
    const group = within(rightPanel()).getByRole('group', { name: 'Levels' });
    expect(within(group).getAllByRole('radio').map((r) => r.closest('label')!.textContent)).toEqual(['Level 3', 'Level 2', 'Main', 'Basement']);
    expect(within(group).getByRole('radio', { name: 'Main' })).toBeChecked();
    await userEvent.click(within(group).getByRole('radio', { name: 'Level 2' }));
    expect(mapView.level).toBe(2);
    await waitFor(() => expect(engine.level).toBe(2));
    expect(window.__map!.level()).toBe(2);
    // Alt + wheel from the engine steps the level, clamped; the radios follow.
    await act(async () => engine.emit('levelstep', { direction: 1 }));
    await act(async () => engine.emit('levelstep', { direction: 1 }));
    expect(within(group).getByRole('radio', { name: 'Level 3' })).toBeChecked();
    expect(engine.level).toBe(3);
    await act(() => setLanguage('ru'));
    expect(within(group).getByRole('radio', { name: 'Подвал' })).not.toBeChecked();
    expect(within(group).getByRole('radio', { name: '3-й этаж' })).toBeChecked();
  });

  it('shows no level list for a map with one level', () => {
    const only: LevelDef = { num: 1, name: 'Main', visible: ['main'], hidden: [], blur: [], height: [-100, 100] };
    const { container } = render(<LevelList map={{ id: 'factory', levels: [only] }} />);
    expect(container).toBeEmptyDOMElement();
    expect(screen.queryByRole('radio')).toBeNull();
  });
});

describe('quests', () => {
  const questNames = () => within(document.querySelector<HTMLElement>('.quest-list__items')!).getAllByRole('checkbox').map((c) => c.closest('label')!.textContent);

  it('sorts by name, and by Russian name in ru', async () => {
    await readyMap();
    await waitFor(() => expect(questNames()).toEqual(['Checking', 'Debut', 'Delivery From the Past', 'Shortage']));
    await act(() => setLanguage('ru'));
    await waitFor(() => expect(questNames()).toEqual(['Дебют', 'Дефицит', 'Посылка из прошлого', 'Проверка на вшивость']));
  });

  it('draws the rows once the map has drawn its first view, not before', async () => {
    renderMap();
    await waitFor(() => expect(engines[0]?.columns ?? null).not.toBeNull());
    await waitFor(() => expect(quests.status).toBe('ready'));
    // The header is there; the rows wait for the map.
    expect(within(rightPanel()).getByRole('heading', { name: 'Quests' })).toBeInTheDocument();
    expect(document.querySelector('.quest-list__items')).toBeNull();
    act(() => engines[0].emit('ready', undefined));
    await waitFor(() => expect(questNames()).toHaveLength(4));
  });

  it('can show only the quests with markers on this map, and always the followed ones', async () => {
    await readyMap();
    await waitFor(() => expect(questNames()).toHaveLength(4));
    await userEvent.click(within(rightPanel()).getByRole('checkbox', { name: 'Checking' }));
    const only = within(rightPanel()).getByRole('checkbox', { name: 'Only quests on this map' });
    expect(only).not.toBeChecked();
    await waitFor(() => expect(screen.getByText('Shortage').closest('li')).toHaveAttribute('title', 'No markers on this map'));
    // Followed, a quest with no markers here says so in its row (it still takes a followed slot);
    // one not followed keeps the tooltip only.
    expect(screen.getByText('Checking').closest('li')?.querySelector('.quest-list__elsewhere')).toHaveTextContent('No markers on this map');
    expect(screen.getByText('Shortage').closest('li')?.querySelector('.quest-list__elsewhere')).toBeNull();
    await userEvent.click(only);
    expect(questNames()).toEqual(['Checking', 'Debut', 'Delivery From the Past']);
    await userEvent.click(within(rightPanel()).getByRole('checkbox', { name: 'Checking' }));
    expect(questNames()).toEqual(['Debut', 'Delivery From the Past']);
    await userEvent.click(only);
    expect(questNames()).toHaveLength(4);
  });

  it('keeps "Only quests on this map" across a reload and a switch of map', async () => {
    const first = await readyMap();
    await waitFor(() => expect(questNames()).toHaveLength(4));
    await userEvent.click(within(rightPanel()).getByRole('checkbox', { name: 'Only quests on this map' }));
    expect(questNames()).toEqual(['Debut', 'Delivery From the Past']);
    first.unmount();

    // A reload: a new page on the same storage.
    resetEngines();
    const { router } = await readyMap();
    expect(within(rightPanel()).getByRole('checkbox', { name: 'Only quests on this map' })).toBeChecked();
    await waitFor(() => expect(questNames()).toEqual(['Debut', 'Delivery From the Past']));

    // Another map: still on, now with that map's quests.
    await act(() => router.navigate('/map/customs'));
    await waitFor(() => expect(questNames()).toEqual(['Checking', 'Delivery From the Past']));
    expect(within(rightPanel()).getByRole('checkbox', { name: 'Only quests on this map' })).toBeChecked();
  });

  it('shows a followed quest’s markers and drops markers of unknown quests', async () => {
    const { router } = await readyMap();
    await waitFor(() => expect(questNames()).toHaveLength(4));
    expect(passing()).toEqual(['m1', 'm2', 'm3', 'm4']);
    // Quest markers counted but none drawn: the Quests category says why, until a quest is followed.
    const note = 'Quest markers show for the quests you follow (in the quest list).';
    expect(within(categories()).getByText(note)).toBeInTheDocument();
    await userEvent.click(within(rightPanel()).getByRole('checkbox', { name: 'Delivery From the Past' }));
    await waitFor(() => expect(passing()).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']));
    expect(within(categories()).queryByText(note)).toBeNull();
    expect(window.__map!.selectedQuests()).toEqual(['q-delivery']);
    expect(router.state.location.search).toBe('?quest=q-delivery');
    await userEvent.click(within(rightPanel()).getByRole('checkbox', { name: 'Checking' }));
    await waitFor(() => expect(passing()).toEqual(['m1', 'm2', 'm3', 'm4', 'm5', 'm6']));
    expect(within(rightPanel()).getByText('2 of 3 followed')).toBeInTheDocument();
    await userEvent.click(within(rightPanel()).getByRole('checkbox', { name: 'Delivery From the Past' }));
    await waitFor(() => expect(passing()).toEqual(['m1', 'm2', 'm3', 'm4', 'm6']));
    expect(router.state.location.search).toBe('?quest=q-checking');
  });

  it('ignores a fourth quest and shows the limit notice, which offers Pro', async () => {
    await readyMap();
    await waitFor(() => expect(questNames()).toHaveLength(4));
    const panel = rightPanel();
    for (const name of ['Checking', 'Debut', 'Shortage']) await userEvent.click(within(panel).getByRole('checkbox', { name }));
    expect(screen.queryByRole('dialog')).toBeNull();
    const fourth = within(panel).getByRole('checkbox', { name: 'Delivery From the Past' });
    await userEvent.click(fourth);
    expect(fourth).not.toBeChecked();
    expect(quests.selected).toEqual(['q-checking', 'q-debut', 'q-shortage']);
    const notice = screen.getByRole('dialog', { name: 'Quest limit' });
    expect(notice).toHaveTextContent('up to 3 quests');
    expect(notice.style.maxWidth).toBe('280px');
    await userEvent.click(within(notice).getByRole('button', { name: 'About Pro' }));
    expect(screen.queryByRole('dialog', { name: 'Quest limit' })).toBeNull();
    expect(screen.getByRole('dialog', { name: 'raidmap Pro' })).toBeInTheDocument();
    expect(quests.selected).toHaveLength(3);
  });

  /** A pro user's server whose GET /api/be/user fails (500) until `recover()`; the page load's check failed; 3 quests followed. */
  async function fourthWhereUncheckable() {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    let failing = true;
    server.use(
      http.get(`${BASE}/api/be/user`, () => (failing ? HttpResponse.json({ error: 'internal', message: 'boom' }, { status: 500 }) : undefined)),
      ...accountServer(proUser).handlers,
    );
    await act(() => loadSession());
    await readyMap();
    expect(session.status).toBe('error');
    await waitFor(() => expect(questNames()).toHaveLength(4));
    const panel = screen.getByRole('complementary', { name: i18n.t('panels.rightPanel') });
    act(() => ['q-checking', 'q-debut', 'q-shortage'].forEach(toggleQuest));
    return { panel, recover: () => (failing = false) };
  }

  it('a fourth quest where the account could not be checked says so with Try again, not About Pro; Try again follows it once the server says pro', async () => {
    const { panel, recover } = await fourthWhereUncheckable();
    await userEvent.click(within(panel).getByRole('checkbox', { name: 'Delivery From the Past' }));
    const notice = await screen.findByRole('dialog', { name: 'Quest limit' });
    expect(notice).toHaveTextContent('Following more than 3 quests at once needs Pro.Your account could not be checked (the server did not answer), so nothing was changed.');
    expect(within(notice).queryByRole('button', { name: 'About Pro' })).toBeNull();
    expect(notice.style.maxWidth).toBe('280px');
    expect(quests.selected).toEqual(['q-checking', 'q-debut', 'q-shortage']);
    recover();
    await userEvent.click(within(notice).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(quests.selected).toEqual(['q-checking', 'q-debut', 'q-shortage', 'q-delivery']));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(within(panel).getByRole('checkbox', { name: 'Delivery From the Past' })).toBeChecked();
  });

  it('says it in Russian, and Close takes it away with nothing followed', async () => {
    await setLanguage('ru');
    const { panel } = await fourthWhereUncheckable();
    await userEvent.click(within(panel).getByRole('checkbox', { name: 'Посылка из прошлого' }));
    const notice = await screen.findByRole('dialog', { name: 'Лимит квестов' });
    expect(notice).toHaveTextContent('Следить более чем за 3 квестами одновременно можно только с Pro.Не удалось проверить ваш аккаунт (сервер не ответил), поэтому ничего не изменилось.');
    expect(within(notice).getByRole('button', { name: 'Повторить' })).toBeInTheDocument();
    expect(within(notice).queryByRole('button', { name: 'О Pro' })).toBeNull();
    await userEvent.click(within(notice).getByRole('button', { name: /Закрыть/ }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(quests.selected).toHaveLength(3);
  });

  it('selects ?quest= on load: de-duplicated, cut to 3, with the notice', async () => {
    server.use(...accountServer(null).handlers);
    const { router } = await readyMap('/map/factory?quest=q-debut,q-shortage,q-checking,q-delivery,q-debut');
    await waitFor(() => expect(window.__map!.selectedQuests()).toEqual(['q-debut', 'q-shortage', 'q-checking']));
    await waitFor(() => expect(router.state.location.search).toBe('?quest=q-debut%2Cq-shortage%2Cq-checking'));
    const notice = screen.getByRole('dialog', { name: 'Quest limit' });
    // It says what the link did, not "unfollow one to pick another" (the visitor picked nothing).
    expect(notice).toHaveTextContent('This link follows 4 quests; without Pro the first 3 are followed.');
    await userEvent.click(within(notice).getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(passing()).toContain('m6'));
  });

  it('reads a repeated quest parameter as one list, and names them once in the address', async () => {
    server.use(...accountServer(null).handlers);
    const { router } = await readyMap('/map/factory?quest=q-debut&quest=q-shortage,q-checking');
    await waitFor(() => expect(window.__map!.selectedQuests()).toEqual(['q-debut', 'q-shortage', 'q-checking']));
    await waitFor(() => expect(router.state.location.search).toBe('?quest=q-debut%2Cq-shortage%2Cq-checking'));
  });

  it('lets a pro user follow more than 3', async () => {
    await signedIn(proUser);
    await readyMap('/map/factory?quest=q-debut,q-shortage,q-checking,q-delivery');
    await waitFor(() => expect(window.__map!.selectedQuests()).toHaveLength(4));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(within(rightPanel()).getByText('4 followed')).toBeInTheDocument();
  });

  /**
   * A pro user following 4 quests whose session ends elsewhere (expired, signed out in another
   * browser), found by Complete: the sign-in dialog it opens.
   */
  async function proSessionEnds() {
    await signedIn(proUser);
    await readyMap('/map/factory?quest=q-debut,q-shortage,q-checking,q-delivery');
    await waitFor(() => expect(window.__map!.selectedQuests()).toHaveLength(4));
    const complete = await within(rightPanel()).findByRole('button', { name: 'Complete: Debut' });
    await fetch(`${BASE}/api/be/auth/logout`, { method: 'POST' });
    await userEvent.click(complete);
    return screen.findByRole('dialog', { name: 'Sign in' });
  }

  it('a pro session that ended asks for a sign-in alone, and signing back in follows every quest again', async () => {
    const dialog = await proSessionEnds();
    await waitFor(() => expect(window.__map!.selectedQuests()).toHaveLength(3));
    // Only the sign-in: the limit notice does not stack under it.
    expect(screen.getAllByRole('dialog')).toEqual([dialog]);
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'pro');
    await userEvent.type(within(dialog).getByLabelText('Password'), 'demo-pass');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(window.__map!.selectedQuests()).toEqual(['q-debut', 'q-shortage', 'q-checking', 'q-delivery']));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(rightPanel()).getByText('4 followed')).toBeInTheDocument();
  });

  it('a pro session that ended and a sign-in given up shows the limit notice then', async () => {
    await proSessionEnds();
    await userEvent.keyboard('{Escape}');
    expect(await screen.findByRole('dialog', { name: 'Quests set aside' })).toHaveTextContent(
      'Signed out: without Pro only 3 quests can be followed at once. This one was set aside: Delivery From the Past. It comes back when you sign in with Pro again.',
    );
    expect(window.__map!.selectedQuests()).toEqual(['q-debut', 'q-shortage', 'q-checking']);
  });

  it('lets an admin follow more than 3, with no limit in the head', async () => {
    await signedIn({ ...proUser, name: 'admin', pro: false, admin: true });
    await readyMap('/map/factory?quest=q-debut,q-shortage,q-checking,q-delivery');
    await waitFor(() => expect(window.__map!.selectedQuests()).toHaveLength(4));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(within(rightPanel()).getByText('4 followed')).toBeInTheDocument();
  });

  it('applies a link of more than 3 quests only once it knows who is signed in: a pro user is not cut', async () => {
    const account = accountServer(proUser);
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.get(`${BASE}/api/be/user`, async () => {
        await answered;
        return HttpResponse.json(account.user);
      }),
      ...account.handlers,
    );
    const { router } = await readyMap('/map/factory?quest=q-debut,q-shortage,q-checking,q-delivery');
    // The page asked who is signed in and waits: nothing followed or cut yet, the link kept.
    expect(session.status).toBe('loading');
    expect(quests.selected).toEqual([]);
    expect(router.state.location.search).toBe('?quest=q-debut,q-shortage,q-checking,q-delivery');
    expect(screen.queryByRole('dialog')).toBeNull();
    // Nor are quest actions shown before the role is known.
    expect(within(rightPanel()).queryByRole('button', { name: 'Complete: Debut' })).toBeNull();
    answer();
    await waitFor(() => expect(window.__map!.selectedQuests()).toEqual(['q-debut', 'q-shortage', 'q-checking', 'q-delivery']));
    expect(quests.limitNotice).toBe(false);
    expect(screen.queryByRole('dialog')).toBeNull();
    // The row's actions render once React has the role; the quests may be followed a render before.
    expect(await within(rightPanel()).findByRole('button', { name: 'Complete: Debut' })).toHaveAccessibleDescription('Mark as completed');
    await waitFor(() => expect(passing()).toEqual(['m1', 'm2', 'm3', 'm4', 'm5', 'm6']));
  });

  it('applies a link within the limit at once, without asking who is signed in', async () => {
    const account = accountServer(null);
    server.use(...account.handlers);
    await readyMap('/map/factory?quest=q-debut,q-checking');
    await waitFor(() => expect(window.__map!.selectedQuests()).toEqual(['q-debut', 'q-checking']));
    expect(session.status).toBe('unknown');
    expect(account.requests).toEqual([]);
  });

  it('cuts to 3 with the notice when a pro user signs out', async () => {
    await signedIn(proUser);
    const { router } = await readyMap('/map/factory?quest=q-debut,q-shortage,q-checking,q-delivery');
    await waitFor(() => expect(quests.selected).toHaveLength(4));
    await act(() => signOut());
    await waitFor(() => expect(quests.selected).toEqual(['q-debut', 'q-shortage', 'q-checking']));
    // It says what happened and which quest was set aside, not "unfollow one to pick another".
    const notice = screen.getByRole('dialog', { name: 'Quests set aside' });
    expect(notice).toHaveTextContent('Signed out: without Pro only 3 quests can be followed at once.');
    expect(notice).toHaveTextContent('This one was set aside: Delivery From the Past. It comes back when you sign in with Pro again.');
    expect(notice).not.toHaveTextContent('Unfollow one');
    await waitFor(() => expect(router.state.location.search).toBe('?quest=q-debut%2Cq-shortage%2Cq-checking'));
    expect(within(rightPanel()).getByText('3 of 3 followed')).toBeInTheDocument();
  });
});

describe('quest progress in the quest list', () => {
  const row = (uid: string) => document.querySelector<HTMLElement>(`li.quest-list__item[data-quest-uid="${uid}"]`)!;
  const listed = () => [...document.querySelectorAll('li.quest-list__item')].map((li) => li.getAttribute('data-quest-uid'));

  it('shows visitors the actions marked Pro: a click opens the upsell and sends nothing', async () => {
    const account = accountServer(null);
    server.use(...account.handlers);
    await readyMap('/map/factory?quest=q-checking');
    await waitFor(() => expect(listed()).toHaveLength(4));
    const checking = row('q-checking');
    const complete = within(checking).getByRole('button', { name: 'Complete: Checking' });
    expect(complete).toHaveAccessibleDescription('A Pro feature');
    expect(complete).toHaveAttribute('title', 'Mark as completed (a Pro feature)');
    await userEvent.click(within(checking).getByRole('button', { name: 'Hide: Checking' }));
    expect(screen.getByRole('dialog', { name: 'raidmap Pro' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Got it' }));
    await userEvent.click(complete);
    expect(screen.getByRole('dialog', { name: 'raidmap Pro' })).toBeInTheDocument();
    expect(account.requests).toEqual([]);
    expect(checking).not.toHaveClass('quest-list__item--done');
    expect(listed()).toHaveLength(4);
    expect(quests.selected).toEqual(['q-checking']);
  });

  it('lets a pro user complete and reopen: done rows dimmed, their markers off the map with own progress', async () => {
    const account = await signedIn({ ...proUser, questsDone: ['q-checking'] });
    await readyMap('/map/factory?quest=q-delivery,q-checking');
    await waitFor(() => expect(listed()).toHaveLength(4));
    expect(row('q-checking')).toHaveClass('quest-list__item--done');
    expect(row('q-checking')).toHaveTextContent('Completed');
    expect(row('q-delivery')).not.toHaveClass('quest-list__item--done');
    expect(within(row('q-checking')).queryByRole('button', { name: 'Complete: Checking' })).toBeNull();
    // Followed but done: its marker (m6) stays off the map.
    await waitFor(() => expect(passing()).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']));

    const before = account.requests.length;
    await userEvent.click(within(row('q-delivery')).getByRole('button', { name: 'Complete: Delivery From the Past' }));
    await waitFor(() => expect(row('q-delivery')).toHaveClass('quest-list__item--done'));
    expect(account.requests.slice(before)).toEqual(['GET /api/be/user', 'POST /api/be/user/progress']);
    expect(account.progressBodies).toEqual([{ done: { add: ['q-delivery'] } }]);
    expect(account.user?.questsDone).toEqual(['q-checking', 'q-delivery']);
    await waitFor(() => expect(passing()).toEqual(['m1', 'm2', 'm3', 'm4']));

    await userEvent.click(within(row('q-checking')).getByRole('button', { name: 'Reopen: Checking' }));
    await waitFor(() => expect(row('q-checking')).not.toHaveClass('quest-list__item--done'));
    expect(account.progressBodies[1]).toEqual({ done: { remove: ['q-checking'] } });
    expect(account.user?.questsDone).toEqual(['q-delivery']);
    await waitFor(() => expect(passing()).toEqual(['m1', 'm2', 'm3', 'm4', 'm6']));
    expect(quests.selected).toEqual(['q-delivery', 'q-checking']);
  });

  it('leaves hidden quests out with own progress, with a toggle to bring them back and show them again', async () => {
    const account = await signedIn({ ...proUser, questsHidden: ['q-shortage'] });
    await readyMap();
    await waitFor(() => expect(listed()).toEqual(['q-checking', 'q-debut', 'q-delivery']));
    await userEvent.click(within(rightPanel()).getByRole('button', { name: 'Show hidden quests (1)' }));
    expect(listed()).toEqual(['q-checking', 'q-debut', 'q-delivery', 'q-shortage']);
    expect(row('q-shortage')).toHaveClass('quest-list__item--hidden');
    expect(row('q-shortage')).toHaveTextContent('Hidden');

    await userEvent.click(within(row('q-shortage')).getByRole('button', { name: 'Show: Shortage' }));
    await waitFor(() => expect(row('q-shortage')).not.toHaveClass('quest-list__item--hidden'));
    expect(account.progressBodies).toEqual([{ hidden: { remove: ['q-shortage'] } }]);
    expect(account.user?.questsHidden).toEqual([]);
    // The toggle keeps its line (its coming and going would move the rows under the pointer).
    expect(within(rightPanel()).getByRole('button', { name: 'Hide hidden quests' })).toHaveAttribute('aria-pressed', 'true');

    // Hidden again while the hidden quests are shown: it stays until they are put away.
    await userEvent.click(within(row('q-debut')).getByRole('button', { name: 'Hide: Debut' }));
    await waitFor(() => expect(row('q-debut')).toHaveClass('quest-list__item--hidden'));
    await userEvent.click(within(rightPanel()).getByRole('button', { name: 'Hide hidden quests' }));
    expect(listed()).toEqual(['q-checking', 'q-delivery', 'q-shortage']);
    expect(within(rightPanel()).getByRole('button', { name: 'Show hidden quests (1)' })).toBeInTheDocument();
  });

  it('keeps a row hidden from the list in place, Show where Hide was and the focus on it, until the hidden quests are put away', async () => {
    const account = await signedIn(proUser);
    await readyMap('/map/factory?quest=q-debut');
    await waitFor(() => expect(listed()).toEqual(['q-checking', 'q-debut', 'q-delivery', 'q-shortage']));
    // Nothing hidden: no "Show hidden quests (0)".
    expect(within(rightPanel()).queryByRole('button', { name: /hidden quests/ })).toBeNull();
    const hide = within(row('q-debut')).getByRole('button', { name: 'Hide: Debut' });
    await userEvent.click(hide);
    await waitFor(() => expect(row('q-debut')).toHaveClass('quest-list__item--hidden'));
    expect(account.progressBodies).toEqual([{ hidden: { add: ['q-debut'] } }]);
    expect(account.user?.questsHidden).toEqual(['q-debut']);
    // Nothing moved: the same rows in the same order, the undo in the same button, the focus on it.
    expect(listed()).toEqual(['q-checking', 'q-debut', 'q-delivery', 'q-shortage']);
    const show = within(row('q-debut')).getByRole('button', { name: 'Show: Debut' });
    expect(show).toBe(hide);
    expect(show).toHaveFocus();
    // A second press (Enter, or a double click) is the undo, never another quest's Hide.
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(row('q-debut')).not.toHaveClass('quest-list__item--hidden'));
    expect(account.progressBodies[1]).toEqual({ hidden: { remove: ['q-debut'] } });
    expect(account.user?.questsHidden).toEqual([]);
    expect(within(row('q-debut')).getByRole('button', { name: 'Hide: Debut' })).toHaveFocus();

    // Hidden again: still in place, and no toggle comes (its line would move every row): nothing is out of the list.
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(row('q-debut')).toHaveClass('quest-list__item--hidden'));
    expect(listed()).toEqual(['q-checking', 'q-debut', 'q-delivery', 'q-shortage']);
    expect(within(rightPanel()).queryByRole('button', { name: /hidden quests/ })).toBeNull();
  });

  it('counts a followed hidden quest apart and brings it back into view to be unfollowed', async () => {
    await signedIn({ ...proUser, questsHidden: ['q-debut'] });
    await readyMap('/map/factory?quest=q-delivery,q-checking,q-debut');
    await waitFor(() => expect(listed()).toEqual(['q-checking', 'q-delivery', 'q-shortage']));
    const head = () => rightPanel().querySelector('.quest-list__followed')!;
    // Two ticked rows are seen, and the third followed quest is said to be hidden.
    expect(document.querySelectorAll('li.quest-list__item--on')).toHaveLength(2);
    expect(head()).toHaveTextContent(/^2 followed, 1 hidden$/);
    // Hiding does not unfollow: the selection (and the address) keeps it.
    expect(quests.selected).toEqual(['q-delivery', 'q-checking', 'q-debut']);

    await userEvent.click(within(rightPanel()).getByRole('button', { name: '1 hidden: show the followed quest you hid' }));
    expect(within(rightPanel()).getByRole('button', { name: 'Hide hidden quests' })).toBeInTheDocument();
    const box = within(row('q-debut')).getByRole('checkbox', { name: 'Debut' });
    await waitFor(() => expect(box).toHaveFocus());
    expect(box).toBeChecked();
    await userEvent.keyboard(' ');
    expect(quests.selected).toEqual(['q-delivery', 'q-checking']);
    expect(head()).toHaveTextContent(/^2 followed$/);

    // Hidden from its row while followed: counted apart at once, its row still in place.
    await userEvent.click(within(rightPanel()).getByRole('button', { name: 'Hide hidden quests' }));
    await userEvent.click(within(row('q-checking')).getByRole('button', { name: 'Hide: Checking' }));
    await waitFor(() => expect(head()).toHaveTextContent(/^1 followed, 1 hidden$/));
    expect(row('q-checking')).toHaveClass('quest-list__item--on', 'quest-list__item--hidden');
  });

  it('marks hidden quests but keeps them, and their markers, while own progress is off', async () => {
    updateSettings({ ownProgress: false });
    await signedIn({ ...proUser, questsDone: ['q-checking'], questsHidden: ['q-delivery'] });
    await readyMap('/map/factory?quest=q-delivery,q-checking');
    await waitFor(() => expect(listed()).toHaveLength(4));
    expect(row('q-delivery')).toHaveClass('quest-list__item--hidden');
    expect(row('q-checking')).toHaveClass('quest-list__item--done');
    expect(within(rightPanel()).queryByRole('button', { name: /hidden quests/ })).toBeNull();
    await waitFor(() => expect(passing()).toEqual(['m1', 'm2', 'm3', 'm4', 'm5', 'm6']));
    await act(async () => updateSettings({ ownProgress: true }));
    await waitFor(() => expect(passing()).toEqual(['m1', 'm2', 'm3', 'm4']));
    expect(listed()).toEqual(['q-checking', 'q-debut', 'q-shortage']);
  });

  it('shows a failed save in the row it came from, with Dismiss; the buttons wait meanwhile', async () => {
    await signedIn(proUser);
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.post(`${BASE}/api/be/user/progress`, async () => {
        await answered;
        return HttpResponse.json({ error: 'internal', message: 'progress could not be stored' }, { status: 500 });
      }),
    );
    await readyMap();
    await waitFor(() => expect(listed()).toHaveLength(4));
    await userEvent.click(within(row('q-debut')).getByRole('button', { name: 'Complete: Debut' }));
    await waitFor(() => expect(within(row('q-debut')).getByRole('button', { name: 'Complete: Debut' })).toBeDisabled());
    expect(within(row('q-shortage')).getByRole('button', { name: 'Hide: Shortage' })).toBeDisabled();
    expect(within(row('q-debut')).getByRole('group')).toHaveAttribute('aria-busy', 'true');
    answer();
    const alert = await within(row('q-debut')).findByRole('alert');
    expect(alert).toHaveTextContent('Your progress could not be saved: progress could not be stored');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(row('q-debut')).not.toHaveClass('quest-list__item--done');
    expect(within(row('q-debut')).getByRole('button', { name: 'Complete: Debut' })).toBeEnabled();
    await userEvent.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(session.progressError).toBeNull();
  });

  it('shows admins no quest actions and no dimming', async () => {
    const account = await signedIn({ ...proUser, name: 'admin', pro: false, admin: true, questsDone: ['q-checking'], questsHidden: ['q-debut'] });
    await readyMap();
    await waitFor(() => expect(listed()).toHaveLength(4));
    expect(within(rightPanel()).queryByRole('button', { name: /^(Complete|Reopen|Hide|Show):/ })).toBeNull();
    expect(row('q-checking')).not.toHaveClass('quest-list__item--done');
    expect(row('q-debut')).not.toHaveClass('quest-list__item--hidden');
    expect(account.requests).toEqual(['GET /api/be/user']);
  });
});

describe('settings', () => {
  it('is marked Pro for visitors and opens the upsell popup, changing nothing', async () => {
    await readyMap();
    const button = within(rightPanel()).getByRole('button', { name: 'Settings' });
    expect(button).toHaveTextContent('Pro');
    expect(button).toHaveAccessibleDescription('A Pro feature');
    const before = JSON.stringify({ filters, level: mapView.level, quests: quests.selected });
    await userEvent.click(button);
    const dialog = screen.getByRole('dialog', { name: 'raidmap Pro' });
    expect(dialog).toHaveTextContent('paid subscription');
    expect(dialog).toHaveTextContent('more than 3 quests');
    expect(dialog).toHaveTextContent('where you look');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Got it' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(JSON.stringify({ filters, level: mapView.level, quests: quests.selected })).toBe(before);
  });

  it('is not marked Pro for pro users, and admins do not see it', async () => {
    session.user = { pro: true, admin: false, questsDone: [], questsHidden: [] };
    const { unmount } = await readyMap();
    expect(within(rightPanel()).getByRole('button', { name: 'Settings' })).not.toHaveTextContent('Pro');
    unmount();
    session.user = { pro: false, admin: true, questsDone: [], questsHidden: [] };
    resetEngines();
    await readyMap();
    expect(within(rightPanel()).queryByRole('button', { name: 'Settings' })).toBeNull();
  });
});
