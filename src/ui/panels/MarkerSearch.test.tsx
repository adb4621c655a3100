/**
 * Find a marker on the whole map page (engine mocked, the marker worker's store in-process,
 * the API answered by msw): the keyboard finds a marker by name, type or quest and opens its
 * popup; rows of the same name say what tells them apart; the count is said.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAPS } from '../../domain/maps';
import type { Quest } from '../../domain/quests';
import { setLanguage } from '../../i18n';
import { filters, setCategoryHidden } from '../../state/filters';
import { resetLookups } from '../../state/items';
import { mapView } from '../../state/mapView';
import { quests, resetQuests } from '../../state/quests';
import { loadSession, resetSession } from '../../state/session';
import { resetSettings } from '../../state/settings';
import { createLocalMarkerSource } from '../map/testing/localMarkerSource';
import { accountServer, mapApiHandlers } from '../map/testing/mapApi';
import { useMapPage } from '../map/testing/mapPageTest';
import { renderReadyMap } from '../map/testing/readyMap';
import { SEARCH_RESULTS } from './MarkerSearch';

vi.mock('../../engine/index', () => import('../map/testing/engineModuleMock'));
vi.mock('../map/markerSource', async (original) => ({
  ...(await original<typeof import('../map/markerSource')>()),
  createMarkerSource: () => createLocalMarkerSource(),
}));

/** Factory's map pixels per game metre: the place hints' distances. */
const PX = MAPS.factory.transform.ratio;
const marker = (uid: string, subCategory: string, category: string, name: string, ruName: string, level = 1, at = { x: 100, y: 200 }, questUid?: string) => ({
  uid,
  map: 'factory',
  category,
  subCategory,
  level,
  geometry: at,
  name,
  name_l10n: { en: name, ru: ruName },
  ...(questUid ? { questUid } : {}),
});
const markerList = [
  marker('office-safe', 'Safe', 'Loot', 'Office safe', 'Сейф в офисе', 2, { x: 100 + 120 * PX, y: 200 }),
  marker('locker-safe', 'Safe', 'Loot', 'Locker room safe', 'Сейф в раздевалке', 1, { x: 100, y: 200 + 5 * PX }),
  marker('pumping-cache', 'Cache', 'Loot', 'Pumping station cache', 'Тайник у насосной', -1),
  marker('gate-3', 'PMC Extraction', 'Extractions', 'Gate 3', 'Ворота 3'),
  marker('cellars', 'Transition', 'Extractions', 'Cellars', 'Подвалы', 1, { x: 3000, y: 3000 }),
  marker('box-1', 'Weapon Box', 'Loot', 'Weapon box', 'Оружейный ящик', 1, { x: 100, y: 200 + 40 * PX }),
  marker('box-2', 'Weapon Box', 'Loot', 'Weapon box', 'Оружейный ящик', 2, { x: 3000, y: 3000 - 100 * PX }),
  marker('exit-key', 'Key Spawn', 'Keys', 'Exit stairs key', 'Ключ от лестницы', 1, { x: 3000, y: 3000 }),
  marker('folder', 'Quest', 'Quests', 'Folder with intel', 'Папка с разведданными', 1, { x: 3000, y: 3000 }, 'q-chemical'),
];
const questList: Quest[] = [
  { uid: 'q-chemical', name: 'Chemical - Part 1', ruName: 'Химия - Часть 1', trader: 'Skier', requiredForKappa: true, requiredForLightkeeper: false, wikiUrl: 'https://example.test/q' },
];

const server = useMapPage({ markers: markerList, quests: questList });

beforeEach(() => {
  resetQuests();
  resetLookups();
});
afterEach(async () => {
  resetSession();
  resetSettings();
  await setLanguage('en');
  vi.restoreAllMocks();
});

async function readyMap(fieldName = /find a marker/i) {
  await renderReadyMap();
  const field = screen.getByRole('combobox', { name: fieldName });
  await waitFor(() => expect(field).toBeEnabled());
  return field;
}

const listbox = () => screen.getByRole('listbox', { hidden: true });
/** The options' accessible names: what a screen reader says of each row. */
const optionNames = () => within(listbox()).queryAllByRole('option').map((o) => o.getAttribute('aria-label'));
const optionUids = () => optionNames().map((name) => name?.split(',')[0]);
/** The page's polite live region (LiveAnnouncer.tsx). */
const liveRegion = () => document.querySelector('.live-announcer')!;

describe('Find a marker', () => {
  it('finds markers by name from the keyboard and opens the chosen one, its popup focused', async () => {
    const user = userEvent.setup();
    const field = await readyMap();
    await user.click(field);
    await user.keyboard('SAFE');
    await waitFor(() => expect(optionNames()).toEqual(['Locker room safe, Main, by Gate 3', 'Office safe, Level 2, 120 m from Gate 3']));
    expect(field).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(field).toHaveAttribute('aria-activedescendant', within(listbox()).getAllByRole('option')[1].id);
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: /office safe/i });
    await waitFor(() => expect(dialog).toHaveFocus());
    expect(window.__map!.popup()).toBe('office-safe');
    expect(mapView.level).toBe(2); // the deep link's way: the marker's level is shown
    expect(field).toHaveAttribute('aria-expanded', 'false');
  });

  it('moves the focus to the new popup when another marker was open', async () => {
    const user = userEvent.setup();
    const field = await readyMap();
    await user.type(field, 'gate');
    await waitFor(() => expect(optionNames()).toHaveLength(1));
    await user.keyboard('{Enter}');
    await screen.findByRole('dialog', { name: /gate 3/i });
    await user.click(field);
    await user.clear(field);
    await user.type(field, 'locker');
    await waitFor(() => expect(optionUids()).toEqual(['Locker room safe']));
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: /locker room safe/i });
    await waitFor(() => expect(dialog).toHaveFocus());
  });

  it('finds a marker hidden by the filters, says so, and shows its category when chosen', async () => {
    const user = userEvent.setup();
    const field = await readyMap();
    act(() => setCategoryHidden('Loot', true));
    await user.type(field, 'cache');
    await waitFor(() => expect(optionNames()).toEqual(['Pumping station cache, Basement, hidden, will be shown, by Gate 3']));
    await user.keyboard('{Enter}');
    await screen.findByRole('dialog', { name: /pumping station cache/i });
    expect(filters.hiddenCategories).not.toContain('Loot');
    expect(mapView.level).toBe(-1);
  });

  it('says when nothing matches; Escape closes the list, then clears the field', async () => {
    const user = userEvent.setup();
    const field = await readyMap();
    await user.type(field, 'zzz');
    expect(await screen.findByText('No marker of this map matches that.')).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, 'gate 3');
    await waitFor(() => expect(optionNames()).toHaveLength(1));
    await user.keyboard('{Escape}');
    expect(field).toHaveAttribute('aria-expanded', 'false');
    expect(field).toHaveValue('gate 3');
    await user.keyboard('{Escape}');
    expect(field).toHaveValue('');
  });

  it('tries the other keyboard layout when the text finds nothing as typed, and says what it searched', async () => {
    const user = userEvent.setup();
    const field = await readyMap();
    // "safe" typed with the Russian layout on.
    await user.type(field, 'ыфау');
    await waitFor(() => expect(optionUids()).toEqual(['Locker room safe', 'Office safe']));
    const search = screen.getByRole('search');
    expect(within(search).getByText('Showing results for “safe”')).toBeVisible();
    expect(liveRegion()).toHaveTextContent('Showing results for “safe”. 2 markers');
    await user.keyboard('{Enter}');
    await screen.findByRole('dialog', { name: /locker room safe/i });

    // Found as typed: no switch, no line.
    await user.click(field);
    await user.clear(field);
    await user.type(field, 'gate');
    await waitFor(() => expect(optionUids()).toEqual(['Gate 3']));
    expect(within(search).queryByText(/Showing results for/)).toBeNull();
    // Nothing either way: the field's own line, as before.
    await user.clear(field);
    await user.type(field, 'zzz');
    expect(await screen.findByText('No marker of this map matches that.')).toBeInTheDocument();
    expect(within(search).queryByText(/Showing results for/)).toBeNull();
  });

  it('in Russian, "сейф" typed with the English layout on ("ctqa") finds the safes', async () => {
    const user = userEvent.setup();
    await act(() => setLanguage('ru'));
    const field = await readyMap(/найти метку/i);
    await user.type(field, 'ctqa');
    await waitFor(() => expect(optionUids()).toEqual(['Сейф в офисе', 'Сейф в раздевалке']));
    expect(within(screen.getByRole('search')).getByText('Показаны результаты по запросу «сейф»')).toBeVisible();
  });

  it('searches the labels as drawn in Russian', async () => {
    const user = userEvent.setup();
    await act(() => setLanguage('ru'));
    const field = await readyMap(/найти метку/i);
    await user.type(field, 'СЕЙФ В');
    await waitFor(() => expect(optionNames()).toEqual(['Сейф в офисе, 2-й этаж, 120 м от выхода «Ворота 3»', 'Сейф в раздевалке, Основной, у выхода «Ворота 3»']));
  });

  it('finds markers by what they are: "exit" finds the extractions, after the names that hold it', async () => {
    const user = userEvent.setup();
    const field = await readyMap();
    await user.type(field, 'exit');
    await waitFor(() => expect(optionUids()).toEqual(['Exit stairs key', 'Cellars', 'Gate 3']));
    // An extraction's name is its place: no hint.
    expect(optionNames()[2]).toBe('Gate 3, PMC Extraction, Main');
    await user.clear(field);
    await user.type(field, 'PMC extraction');
    await waitFor(() => expect(optionUids()).toEqual(['Gate 3']));
    await user.clear(field);
    await user.type(field, 'Keys');
    await waitFor(() => expect(optionUids()).toEqual(['Exit stairs key']));
    await user.keyboard('{Enter}');
    await screen.findByRole('dialog', { name: /exit stairs key/i });
  });

  it('finds the markers of a quest by its name, the quest named in the row', async () => {
    const user = userEvent.setup();
    const field = await readyMap();
    await user.type(field, 'chemical');
    // Its quest is not followed: the row says the marker is hidden, and what choosing it does.
    await waitFor(() => expect(optionNames()).toEqual(['Folder with intel, Quest, Main, Chemical - Part 1, hidden, choosing it follows its quest, by Cellars']));
  });

  it('tells rows of the same name apart by level and place, for the eye and the screen reader', async () => {
    const user = userEvent.setup();
    const field = await readyMap();
    await user.type(field, 'weapon box');
    await waitFor(() => expect(optionNames()).toEqual(['Weapon box, Main, 40 m from Gate 3', 'Weapon box, Level 2, 100 m from Cellars']));
    const rows = within(listbox()).getAllByRole('option');
    expect(rows[0]).toHaveTextContent('Weapon box' + 'Main' + '40 m from Gate 3');
    expect(rows[1]).toHaveTextContent('Level 2');
    expect(rows[0].querySelector('[data-icon="Weapon Box"]')).not.toBeNull();
  });

  it('gives extractions of the same name their coordinates (an extraction\'s name is its place only when it is its own)', async () => {
    const twin = marker('cellars-2', 'Transition', 'Extractions', 'Cellars', 'Подвалы', 1, { x: 1000, y: 1000 });
    server.use(...mapApiHandlers({ markers: [...markerList, twin], quests: questList }));
    const user = userEvent.setup();
    const field = await readyMap();
    await user.type(field, 'cellars');
    await waitFor(() => expect(optionNames()).toHaveLength(2));
    const [one, two] = optionNames();
    expect(one).toMatch(/^Cellars, Transition, Main, x -?\d+, z -?\d+$/);
    expect(two).toMatch(/^Cellars, Transition, Main, x -?\d+, z -?\d+$/);
    expect(one).not.toBe(two);
    // One of its own name says where it is: no place.
    await user.clear(field);
    await user.type(field, 'gate 3');
    await waitFor(() => expect(optionNames()).toEqual(['Gate 3, PMC Extraction, Main']));
  });

  it('finds by type names in Russian too', async () => {
    const user = userEvent.setup();
    await act(() => setLanguage('ru'));
    const field = await readyMap(/найти метку/i);
    await user.type(field, 'выход');
    await waitFor(() => expect(optionUids()).toEqual(['Ворота 3', 'Подвалы']));
    await user.clear(field);
    await user.type(field, 'оружейный');
    await waitFor(() => expect(optionNames()).toEqual(['Оружейный ящик, Основной, 40 м от выхода «Ворота 3»', 'Оружейный ящик, 2-й этаж, 100 м от выхода «Подвалы»']));
  });

  it('says how many markers matched in the page\'s live region', async () => {
    const user = userEvent.setup();
    const field = await readyMap();
    await user.type(field, 'safe');
    await waitFor(() => expect(optionNames()).toHaveLength(2));
    expect(liveRegion()).toHaveTextContent('2 markers');
    await user.clear(field);
    await user.type(field, 'Extractions');
    await waitFor(() => expect(optionNames()).toHaveLength(2));
    expect(liveRegion()).toHaveTextContent('2 markers');
    await user.clear(field);
    await user.type(field, 'cellars');
    await waitFor(() => expect(liveRegion()).toHaveTextContent('1 marker'));
  });

  it('shows the best rows of a big match and says how many there are in all', async () => {
    const crates = Array.from({ length: SEARCH_RESULTS + 5 }, (_, i) => marker(`crate-${i}`, 'Wooden Crate', 'Loot', `Crate ${String(i).padStart(2, '0')}`, `Ящик ${i}`));
    server.use(...mapApiHandlers({ markers: [...markerList, ...crates], quests: questList }));
    const user = userEvent.setup();
    const field = await readyMap();
    await user.type(field, 'loot');
    // The best rows, then "Show 10 more" (30 match in all).
    const options = () => within(listbox()).getAllByRole('option');
    await waitFor(() => expect(options()).toHaveLength(SEARCH_RESULTS + 1));
    const said = `${SEARCH_RESULTS + 5 + 5} markers, the first ${SEARCH_RESULTS} shown`;
    expect(liveRegion()).toHaveTextContent(said);
    expect(within(screen.getByRole('search')).getByText(said)).toBeVisible();
    expect(options().at(-1)).toHaveTextContent('Show 10 more');

    // From the keyboard: up from the field to the last option, Enter: the rest come, the first new one chosen.
    await user.keyboard('{ArrowUp}');
    expect(field).toHaveAttribute('aria-activedescendant', options().at(-1)!.id);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(options()).toHaveLength(SEARCH_RESULTS + 10));
    expect(screen.queryByText('Show 10 more')).toBeNull();
    expect(field).toHaveAttribute('aria-activedescendant', options()[SEARCH_RESULTS].id);
    expect(liveRegion()).toHaveTextContent('30 markers');
    // No dialog opened: Enter on "Show more" chose no marker.
    expect(screen.queryByRole('dialog')).toBeNull();

    // A new text starts at the first rows again.
    await user.type(field, ' ');
    await user.clear(field);
    await user.type(field, 'crate');
    await waitFor(() => expect(options()).toHaveLength(SEARCH_RESULTS + 1));
    expect(options().at(-1)).toHaveTextContent('Show 5 more');
  });
});

describe('Find a marker and quest markers', () => {
  // Quests a visitor follows: the free limit is 3.
  const followedList: Quest[] = ['BP Depot', 'Supplier', 'Gunsmith - Part 1'].map((name, i) => ({ ...questList[0], uid: `q-${i}`, name, ruName: name }));

  it("a visitor at the free limit: the row names the quest that gives its place, the popup says it with Undo, and Undo puts it back", async () => {
    server.use(...mapApiHandlers({ markers: markerList, quests: [...questList, ...followedList] }));
    const user = userEvent.setup();
    await renderReadyMap('/map/factory?quest=q-0,q-1,q-2');
    const field = screen.getByRole('combobox', { name: /find a marker/i });
    await waitFor(() => expect(field).toBeEnabled());
    await waitFor(() => expect(quests.selected).toEqual(['q-0', 'q-1', 'q-2']));
    await user.type(field, 'folder');
    await waitFor(() => expect(optionNames()).toEqual(['Folder with intel, Quest, Main, Chemical - Part 1, hidden, choosing it follows its quest in place of “BP Depot”, by Cellars']));
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: /folder with intel/i });
    expect(quests.selected).toEqual(['q-1', 'q-2', 'q-chemical']);
    expect(quests.limitNotice).toBe(false);
    // Not silent: the popup (and the page's live region) name both quests.
    const said = 'To show this marker, “Chemical - Part 1” is now followed in place of “BP Depot” (free visitors follow up to 3 quests).';
    expect(dialog).toHaveTextContent(said);
    await waitFor(() => expect(liveRegion()).toHaveTextContent(said));
    await user.click(within(dialog).getByRole('button', { name: 'Undo' }));
    expect(quests.selected).toEqual(['q-0', 'q-1', 'q-2']);
    // Its marker left the map with its quest: its popup closes.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says nothing of a swap when the quest is followed or there is room', async () => {
    server.use(...mapApiHandlers({ markers: markerList, quests: [...questList, ...followedList] }));
    const user = userEvent.setup();
    await renderReadyMap('/map/factory?quest=q-0,q-1');
    const field = screen.getByRole('combobox', { name: /find a marker/i });
    await waitFor(() => expect(field).toBeEnabled());
    await user.type(field, 'folder');
    await waitFor(() => expect(optionNames()[0]).toContain('hidden, choosing it follows its quest, by Cellars'));
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: /folder with intel/i });
    expect(quests.selected).toEqual(['q-0', 'q-1', 'q-chemical']);
    expect(within(dialog).queryByRole('button', { name: 'Undo' })).toBeNull();
  });

  it("a pro user's completed quest: the row says its marker stays hidden, the popup says why, with Mark not done", async () => {
    const account = accountServer({ name: 'pro', pro: true, admin: false, questsDone: ['q-chemical'], questsHidden: [] });
    server.use(...account.handlers);
    await act(() => loadSession());
    const user = userEvent.setup();
    const field = await readyMap();
    await user.type(field, 'folder');
    await waitFor(() => expect(optionNames()).toEqual(['Folder with intel, Quest, Main, Chemical - Part 1, hidden: you completed its quest, by Cellars']));
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: /folder with intel/i });
    expect(dialog).toHaveTextContent('You completed this quest, so its markers are hidden on the map.');
    await user.click(within(dialog).getByRole('button', { name: 'Mark not done' }));
    await waitFor(() => expect(account.user?.questsDone).toEqual([]));
    // Not done any more: drawn, and the note is gone.
    await waitFor(() => expect(within(dialog).queryByText(/You completed this quest/)).toBeNull());
  });
});
