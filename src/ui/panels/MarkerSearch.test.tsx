/**
 * Find a marker on the whole map page (engine mocked, the marker worker's store in-process,
 * the API answered by msw): the keyboard finds a marker by name and opens its popup.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiBase } from '../../api/client';
import { setLanguage } from '../../i18n';
import { filters, setCategoryHidden } from '../../state/filters';
import { resetLookups } from '../../state/items';
import { mapView } from '../../state/mapView';
import { resetQuests } from '../../state/quests';
import { resetSession } from '../../state/session';
import { resetSettings } from '../../state/settings';
import { memoryStorage, setStorageBackend } from '../../state/storage';
import { createLocalMarkerSource } from '../map/testing/localMarkerSource';
import { TEST_API_BASE as BASE, mapApiHandlers } from '../map/testing/mapApi';
import { engines, resetEngines } from '../map/testing/engineModuleMock';
import { renderRoute } from '../map/testing/renderRoute';

vi.mock('../../engine/index', () => import('../map/testing/engineModuleMock'));
vi.mock('../map/markerSource', async (original) => ({
  ...(await original<typeof import('../map/markerSource')>()),
  createMarkerSource: () => createLocalMarkerSource(),
}));

const marker = (uid: string, subCategory: string, category: string, name: string, ruName: string, level = 1) => ({
  uid,
  map: 'factory',
  category,
  subCategory,
  level,
  geometry: { x: 100, y: 200 },
  name,
  name_l10n: { en: name, ru: ruName },
});
const markerList = [
  marker('office-safe', 'Safe', 'Loot', 'Office safe', 'Сейф в офисе', 2),
  marker('locker-safe', 'Safe', 'Loot', 'Locker room safe', 'Сейф в раздевалке'),
  marker('pumping-cache', 'Cache', 'Loot', 'Pumping station cache', 'Тайник у насосной', -1),
  marker('gate-3', 'PMC Extraction', 'Extractions', 'Gate 3', 'Ворота 3'),
];

const server = setupServer(...mapApiHandlers({ markers: markerList, quests: [] }));

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setApiBase(BASE);
});
beforeEach(() => {
  setStorageBackend(memoryStorage());
  resetEngines();
  resetQuests();
  resetLookups();
});
afterEach(async () => {
  server.resetHandlers();
  resetSession();
  resetSettings();
  setStorageBackend(null);
  await setLanguage('en');
  vi.restoreAllMocks();
});
afterAll(() => {
  server.close();
  setApiBase('');
});

async function readyMap(fieldName = /find a marker/i) {
  renderRoute('/map/factory');
  await waitFor(() => expect(engines[0]?.columns ?? null).not.toBeNull());
  act(() => engines[0].emit('ready', undefined));
  await waitFor(() => expect(window.__map?.ready).toBe(true));
  const field = screen.getByRole('combobox', { name: fieldName });
  await waitFor(() => expect(field).toBeEnabled());
  return field;
}

const listbox = () => screen.getByRole('listbox', { hidden: true });
const optionNames = () => within(listbox()).queryAllByRole('option').map((o) => o.textContent);

describe('Find a marker', () => {
  it('finds markers by name from the keyboard and opens the chosen one, its popup focused', async () => {
    const user = userEvent.setup();
    const field = await readyMap();
    await user.click(field);
    await user.keyboard('SAFE');
    await waitFor(() => expect(optionNames()).toEqual(['Locker room safeMain', 'Office safeLevel 2']));
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
    await waitFor(() => expect(optionNames()).toEqual(['Locker room safeMain']));
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: /locker room safe/i });
    await waitFor(() => expect(dialog).toHaveFocus());
  });

  it('finds a marker hidden by the filters, says so, and shows its category when chosen', async () => {
    const user = userEvent.setup();
    const field = await readyMap();
    act(() => setCategoryHidden('Loot', true));
    await user.type(field, 'cache');
    await waitFor(() => expect(optionNames()).toEqual(['Pumping station cacheBasement · hidden, will be shown']));
    await user.keyboard('{Enter}');
    await screen.findByRole('dialog', { name: /pumping station cache/i });
    expect(filters.hiddenCategories).not.toContain('Loot');
    expect(mapView.level).toBe(-1);
  });

  it('says when nothing matches; Escape closes the list, then clears the field', async () => {
    const user = userEvent.setup();
    const field = await readyMap();
    await user.type(field, 'zzz');
    expect(await screen.findByText('No marker of this map has that name.')).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, 'gate');
    await waitFor(() => expect(optionNames()).toHaveLength(1));
    await user.keyboard('{Escape}');
    expect(field).toHaveAttribute('aria-expanded', 'false');
    expect(field).toHaveValue('gate');
    await user.keyboard('{Escape}');
    expect(field).toHaveValue('');
  });

  it('searches the labels as drawn in Russian', async () => {
    const user = userEvent.setup();
    await act(() => setLanguage('ru'));
    const field = await readyMap(/найти метку/i);
    await user.type(field, 'СЕЙФ В');
    await waitFor(() => expect(optionNames()).toEqual(['Сейф в офисе2-й этаж', 'Сейф в раздевалкеОсновной']));
  });
});
