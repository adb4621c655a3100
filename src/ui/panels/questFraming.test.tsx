/**
 * Showing a followed quest's markers (questFraming.ts, QuestList's Show and floors note) and the
 * Quests page's map link (`?follow=`, useQuestUrl.ts): it adds to what the tab follows there, at
 * the free limit with the swap named and Undo, and the map shows the quest's markers once drawn.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CanvasArea } from '../../domain/keep-in-view';
import type { Quest } from '../../domain/quests';
import { setLanguage } from '../../i18n';
import { filters, filtersKey } from '../../state/filters';
import { resetLookups } from '../../state/items';
import { setPanelsShown } from '../../state/layout';
import { mapView } from '../../state/mapView';
import { quests, resetQuests } from '../../state/quests';
import { resetSession } from '../../state/session';
import { writeStored } from '../../state/storage';
import { rememberView } from '../../state/viewMemory';
import { getMap } from '../../domain/maps';
import type { MarkerSource } from '../map/markerSource';
import { accountServer } from '../map/testing/mapApi';
import { setSignedInHint, useMapPage } from '../map/testing/mapPageTest';
import { renderReadyMap } from '../map/testing/readyMap';
import { engines, resetEngines } from '../map/testing/engineModuleMock';
import { createLocalMarkerSource } from '../map/testing/localMarkerSource';
import { provideQuestFraming, questFraming, resetQuestFraming } from './questFraming';

const made = vi.hoisted(() => ({ sources: [] as MarkerSource[], area: null as CanvasArea | null }));
vi.mock('../../engine/index', () => import('../map/testing/engineModuleMock'));
vi.mock('../map/markerSource', async (actual) => ({
  ...(await actual<typeof import('../map/markerSource')>()),
  createMarkerSource: () => {
    const source = createLocalMarkerSource();
    made.sources.push(source);
    return source;
  },
}));
// The canvas as a 1000 × 800 page with the right panel over x 700..1000 (jsdom lays nothing out).
vi.mock('../map/canvasArea', async (actual) => ({
  ...(await actual<typeof import('../map/canvasArea')>()),
  measureCanvasArea: () => made.area,
}));

const quest = (uid: string, name: string, ruName: string): Quest => ({ uid, name, ruName, trader: 'Prapor', requiredForKappa: false, requiredForLightkeeper: false, wikiUrl: '' });
const questList = [
  quest('q-depot', 'BP Depot', 'Склад ГСМ'),
  quest('q-checking', 'Checking', 'Проверка на вшивость'),
  quest('q-setup', 'Setup', 'Подстава'),
  quest('q-swag', 'Golden Swag', 'Золотая цепь'),
];
let n = 0;
function marker(questUid: string, level: number, x: number, y: number) {
  n += 1;
  return { uid: `m${n}`, map: 'factory', category: 'Quests', subCategory: 'Quest', level, geometry: { x, y }, name: `Quest ${n}`, questUid };
}
const markerList = [
  { uid: 'loot', map: 'factory', category: 'Loot', subCategory: 'Safe', level: 1, geometry: { x: 100, y: 100 }, name: 'Safe' },
  marker('q-depot', 3, 3000, 2500),
  marker('q-checking', 1, 3500, 300),
  marker('q-checking', 2, 3300, 400),
  marker('q-checking', 3, 3400, 500),
  marker('q-setup', 1, 200, 2800),
  marker('q-swag', 1, 3500, 3400),
];
const questMaps = { 'q-depot': ['factory'], 'q-checking': ['factory'], 'q-setup': ['factory'], 'q-swag': ['factory'] };
const server = useMapPage({ markers: markerList, quests: questList, questMaps });

beforeEach(() => {
  resetQuests();
  resetLookups();
  resetEngines();
  made.sources.length = 0;
  made.area = { width: 1000, height: 800, covers: [{ left: 700, top: 0, right: 1000, bottom: 800 }] };
  server.use(...accountServer(null).handlers);
});
afterEach(async () => {
  resetQuestFraming();
  resetSession();
  setSignedInHint(false);
  setPanelsShown(true);
  await setLanguage('en');
  sessionStorage.clear();
});

const rightPanel = () => screen.getByRole('complementary', { name: 'Levels and quests' });
const row = (name: string) => within(rightPanel()).getByRole('checkbox', { name }).closest('li')!;
/** Where a map point is on the fake engine's canvas. */
const onScreen = (x: number, y: number) => engines[0].toScreen(x, y);
/** Inside the part the panel leaves free. */
const inVisiblePart = (p: { x: number; y: number }) => p.x > 0 && p.x < 700 && p.y > 0 && p.y < 800;

/** The map page, once it handed its markers and engine to the framing (MapPage.tsx's useQuestFraming). */
async function readyFactory(path = '/map/factory') {
  const view = await renderReadyMap(path);
  await waitFor(() => expect(questFraming.mapId).toBe('factory'));
  return view;
}

describe('Show on a followed quest', () => {
  it('does not move the map when a quest is ticked; Show frames its floor’s markers in the visible part', async () => {
    await readyFactory();
    const before = engines[0].camera();
    await userEvent.click(await within(rightPanel()).findByRole('checkbox', { name: 'BP Depot' }));
    await waitFor(() => expect(within(row('BP Depot')).getByRole('button', { name: 'Show where “BP Depot” is on the map' })).toBeInTheDocument());
    // Ticking moved nothing; the note says where its marker is.
    expect(engines[0].camera()).toEqual(before);
    expect(mapView.level).toBe(1);
    expect(within(row('BP Depot')).getByText('1 on Level 3')).toBeInTheDocument();

    await userEvent.click(within(row('BP Depot')).getByRole('button', { name: /Show where/ }));
    await waitFor(() => expect(mapView.level).toBe(3));
    expect(inVisiblePart(onScreen(3000, 2500))).toBe(true);
    // On its floor now: nothing elsewhere to say.
    expect(within(row('BP Depot')).queryByText(/on Level/)).toBeNull();
  });

  it('keeps the current floor while it holds some, frames those, and counts the others', async () => {
    await readyFactory();
    await userEvent.click(await within(rightPanel()).findByRole('checkbox', { name: 'Checking' }));
    await waitFor(() => expect(within(row('Checking')).getByText('1 on Level 2, 1 on Level 3')).toBeInTheDocument());
    await userEvent.click(within(row('Checking')).getByRole('button', { name: /Show where/ }));
    await waitFor(() => expect(inVisiblePart(onScreen(3500, 300))).toBe(true));
    expect(mapView.level).toBe(1);
  });

  it('offers no Show for a quest not followed, nor while no map page hands in its markers', async () => {
    await readyFactory('/map/factory?quest=q-setup');
    await waitFor(() => expect(within(rightPanel()).getByRole('checkbox', { name: 'Setup' })).toBeChecked());
    await waitFor(() => expect(within(row('Setup')).getByRole('button', { name: /Show where/ })).toBeInTheDocument());
    // Taken back (the page left, or its source was replaced): no Show until one is handed in again.
    act(() => resetQuestFraming());
    await waitFor(() => expect(within(rightPanel()).queryByRole('button', { name: /Show where/ })).toBeNull());
    act(() => void provideQuestFraming({ mapId: 'factory', source: made.sources[0], engine: () => engines[0] ?? null }));
    await waitFor(() => expect(within(row('Setup')).getByRole('button', { name: /Show where/ })).toBeInTheDocument());
    expect(within(row('Checking')).queryByRole('button', { name: /Show where/ })).toBeNull();
  });

  it('says the floors in Russian', async () => {
    await readyFactory('/map/factory?quest=q-checking');
    await act(() => setLanguage('ru'));
    await screen.findByRole('checkbox', { name: 'Проверка на вшивость' }, { timeout: 3000 });
    const ruRow = () => screen.getByRole('checkbox', { name: 'Проверка на вшивость' }).closest('li')!;
    await waitFor(() => expect(within(ruRow()).getByText('2-й этаж: 1, 3-й этаж: 1')).toBeInTheDocument());
    expect(within(ruRow()).getByRole('button', { name: 'Показать на карте, где квест «Проверка на вшивость»' })).toBeInTheDocument();
  });
});

describe('a quest’s markers the category filters hide', () => {
  /** The uids the fake engine draws now (its filter: indices into the markers it was given). */
  const drawn = () => {
    const engine = engines[0];
    const given = engine.calls.filter((c) => c.method === 'setMarkers').at(-1)!.args[0] as { uids: string[] };
    return [...(engine.filter ?? [])].map((i) => given.uids[i]);
  };
 // Stored as the category panel stores them (each test has its own storage: useMapPage).
  const hideQuests = () => writeStored(filtersKey('factory'), JSON.stringify({ hiddenCategories: ['Quests'], hiddenSubCategories: [] }));
  const note = 'Turned back on in the filters to show this quest’s markers: Quests.';

  it('Show turns the filter back on, says so, and Undo hides them again', async () => {
    hideQuests();
    await readyFactory();
    expect(filters.hiddenCategories).toEqual(['Quests']);
    await userEvent.click(await within(rightPanel()).findByRole('checkbox', { name: 'BP Depot' }));
    // Followed, but the filter still hides its marker: nothing drawn, nothing said yet.
    await waitFor(() => expect(within(row('BP Depot')).getByRole('button', { name: /Show where/ })).toBeInTheDocument());
    expect(drawn()).not.toContain('m1');
    expect(within(rightPanel()).queryByText(note)).toBeNull();

    await userEvent.click(within(row('BP Depot')).getByRole('button', { name: /Show where/ }));
    await waitFor(() => expect(drawn()).toContain('m1'));
    expect(filters.hiddenCategories).toEqual([]);
    expect(inVisiblePart(onScreen(3000, 2500))).toBe(true);
    const shown = within(rightPanel()).getByText(note);
    expect(screen.getByRole('checkbox', { name: 'Quests' })).toBeChecked();

    await userEvent.click(within(shown.parentElement!).getByRole('button', { name: 'Undo' }));
    expect(filters.hiddenCategories).toEqual(['Quests']);
    await waitFor(() => expect(drawn()).not.toContain('m1'));
    await waitFor(() => expect(within(rightPanel()).queryByText(note)).toBeNull());
  });

  it('the Quests page’s map link does the same, named in Russian too; nothing is said where nothing hid them', async () => {
    hideQuests();
    await readyFactory('/map/factory?follow=q-swag');
    await waitFor(() => expect(drawn()).toContain('m6'));
    expect(filters.hiddenCategories).toEqual([]);
    await within(rightPanel()).findByText(note);
    await act(() => setLanguage('ru'));
    await waitFor(() => expect(screen.getByText('Чтобы показать метки квеста, в фильтрах снова включено: Квесты.')).toBeInTheDocument());
    // Hidden again from the category panel: the note goes (its Undo has nothing left to do).
    await userEvent.click(screen.getByRole('checkbox', { name: 'Квесты' }));
    await waitFor(() => expect(screen.queryByText(/снова включено/)).toBeNull());
    await act(() => setLanguage('en'));
    // Show while the filters hide nothing of the quest: nothing turned on, nothing said.
    await userEvent.click(screen.getByRole('checkbox', { name: 'Quests' }));
    await userEvent.click(within(row('Golden Swag')).getByRole('button', { name: /Show where/ }));
    await waitFor(() => expect(inVisiblePart(onScreen(3500, 3400))).toBe(true));
    expect(within(rightPanel()).queryByText(note)).toBeNull();
  });
});

describe('the Quests page’s map link (?follow=)', () => {
  const factory = getMap('factory')!;

  it('adds its quest to the ones the tab follows on that map, and shows its markers once the map is drawn', async () => {
    rememberView(factory, { quests: ['q-checking'] });
    const { router } = await readyFactory('/map/factory?follow=q-swag');
    await waitFor(() => expect(quests.selected).toEqual(['q-checking', 'q-swag']));
    await waitFor(() => expect(router.state.location.search).toBe('?quest=q-checking%2Cq-swag'));
    await waitFor(() => expect(inVisiblePart(onScreen(3500, 3400))).toBe(true));
  });

  it('at the free limit follows it in place of the quest followed longest, named with Undo', async () => {
    rememberView(factory, { quests: ['q-checking', 'q-depot', 'q-setup'] });
    const { router } = await readyFactory('/map/factory?follow=q-swag');
    await waitFor(() => expect(quests.selected).toEqual(['q-depot', 'q-setup', 'q-swag']));
    const note = await within(rightPanel()).findByText('“Golden Swag” is now followed in place of “Checking” (free visitors follow up to 3 quests).');
    expect(screen.queryByRole('dialog', { name: 'Quest limit' })).toBeNull();
    await userEvent.click(within(note.parentElement!).getByRole('button', { name: 'Undo' }));
    expect(quests.selected).toEqual(['q-checking', 'q-depot', 'q-setup']);
    await waitFor(() => expect(router.state.location.search).toBe('?quest=q-checking%2Cq-depot%2Cq-setup'));
    expect(within(rightPanel()).queryByText(/in place of/)).toBeNull();
  });

  it('a shared ?quest= link still replaces what was followed', async () => {
    rememberView(factory, { quests: ['q-checking'] });
    await readyFactory('/map/factory?quest=q-swag');
    await waitFor(() => expect(quests.selected).toEqual(['q-swag']));
  });
});
