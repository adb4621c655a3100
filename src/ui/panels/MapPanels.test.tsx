import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiBase } from '../../api/client';
import type { LevelDef } from '../../domain/maps';
import type { Quest } from '../../domain/quests';
import type { EngineOptions } from '../../engine/types';
import { setLanguage } from '../../i18n';
import { filters } from '../../state/filters';
import { resetLookups } from '../../state/items';
import { closeUpsell, setPanelsShown } from '../../state/layout';
import { mapView } from '../../state/mapView';
import { quests, resetQuests } from '../../state/quests';
import { session } from '../../state/session';
import { memoryStorage, setStorageBackend } from '../../state/storage';
import { createFakeEngine, type FakeEngine } from '../map/testing/fakeEngine';
import { createLocalMarkerSource } from '../map/testing/localMarkerSource';
import { routes } from '../routes';
import { LevelList } from './LevelList';
import { TEST_API_BASE as BASE, mapApiHandlers } from '../map/testing/mapApi';

const engines: FakeEngine[] = [];
vi.mock('../../engine/index', () => ({
  createMapEngine: vi.fn(async (options: EngineOptions) => {
    const engine = createFakeEngine();
    options.container.appendChild(document.createElement('canvas'));
    engines.push(engine);
    return engine;
  }),
}));
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

const server = setupServer(...mapApiHandlers({ markers: markerList, quests: questList, questMaps: { 'q-delivery': ['customs', 'factory'], 'q-checking': ['customs'], 'q-debut': ['factory'] } }));

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setApiBase(BASE);
});
beforeEach(() => {
  setStorageBackend(memoryStorage());
  engines.length = 0;
  resetQuests();
  resetLookups();
});
afterEach(async () => {
  server.resetHandlers();
  setStorageBackend(null);
  session.user = null;
  setPanelsShown(true);
  closeUpsell();
  await setLanguage('en');
  vi.restoreAllMocks();
});
afterAll(() => {
  server.close();
  setApiBase('');
});

function renderMap(path = '/map/factory') {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(<RouterProvider router={router} />);
  return { router, ...view };
}

async function readyMap(path?: string) {
  const view = renderMap(path);
  await waitFor(() => expect(engines[0]?.columns ?? null).not.toBeNull());
  act(() => engines[0].emit('ready', undefined));
  await waitFor(() => expect(window.__map?.ready).toBe(true));
  return { ...view, engine: engines[0] };
}

const passing = () => window.__map!.markers().map((m) => m.uid);
const categories = () => screen.getByRole('complementary', { name: 'Categories' });
const rightPanel = () => screen.getByRole('complementary', { name: 'Levels and quests' });

describe('category panel', () => {
  it('lists every category and subcategory with icons and this map’s counts', async () => {
    await readyMap();
    const panel = categories();
    const safeRow = within(panel).getByRole('checkbox', { name: 'Safe' }).closest('li')!;
    await waitFor(() => expect(safeRow).toHaveTextContent(/Safe\s*2$/));
    expect(safeRow.querySelector('img')?.getAttribute('src')).toBe(`${BASE}/icons/safe.svg`);
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

  it('can show only the quests with markers on this map, and always the followed ones', async () => {
    await readyMap();
    await waitFor(() => expect(questNames()).toHaveLength(4));
    await userEvent.click(within(rightPanel()).getByRole('checkbox', { name: 'Checking' }));
    const only = within(rightPanel()).getByRole('checkbox', { name: 'Only quests on this map' });
    expect(only).not.toBeChecked();
    await waitFor(() => expect(screen.getByText('Shortage').closest('li')).toHaveAttribute('title', 'No markers on this map'));
    await userEvent.click(only);
    expect(questNames()).toEqual(['Checking', 'Debut', 'Delivery From the Past']);
    await userEvent.click(within(rightPanel()).getByRole('checkbox', { name: 'Checking' }));
    expect(questNames()).toEqual(['Debut', 'Delivery From the Past']);
    await userEvent.click(only);
    expect(questNames()).toHaveLength(4);
  });

  it('shows a followed quest’s markers and drops markers of unknown quests', async () => {
    const { router } = await readyMap();
    await waitFor(() => expect(questNames()).toHaveLength(4));
    expect(passing()).toEqual(['m1', 'm2', 'm3', 'm4']);
    await userEvent.click(within(rightPanel()).getByRole('checkbox', { name: 'Delivery From the Past' }));
    await waitFor(() => expect(passing()).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']));
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

  it('selects ?quest= on load: de-duplicated, cut to 3, with the notice', async () => {
    const { router } = await readyMap('/map/factory?quest=q-debut,q-shortage,q-checking,q-delivery,q-debut');
    await waitFor(() => expect(window.__map!.selectedQuests()).toEqual(['q-debut', 'q-shortage', 'q-checking']));
    await waitFor(() => expect(router.state.location.search).toBe('?quest=q-debut%2Cq-shortage%2Cq-checking'));
    const notice = screen.getByRole('dialog', { name: 'Quest limit' });
    await userEvent.click(within(notice).getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(passing()).toContain('m6'));
  });

  it('lets a pro user follow more than 3', async () => {
    session.user = { pro: true, admin: false, questsDone: [], questsHidden: [] };
    await readyMap('/map/factory?quest=q-debut,q-shortage,q-checking,q-delivery');
    await waitFor(() => expect(window.__map!.selectedQuests()).toHaveLength(4));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(within(rightPanel()).getByText('4 followed')).toBeInTheDocument();
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
    engines.length = 0;
    await readyMap();
    expect(within(rightPanel()).queryByRole('button', { name: 'Settings' })).toBeNull();
  });
});
