import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccountUser } from '../../api/account';
import { DEFAULT_SETTINGS, SETTINGS_KEY, type MapSettings } from '../../domain/settings';
import { i18n } from '../../i18n';
import { closeSettings, closeUpsell, layout, setPanelsShown } from '../../state/layout';
import { resetSession, setSessionUser } from '../../state/session';
import { loadSettings, settings } from '../../state/settings';
import { memoryStorage, setStorageBackend } from '../../state/storage';
import { createLocalMarkerSource } from '../map/testing/localMarkerSource';
import { accountServer, type MockAccountServer } from '../map/testing/mapApi';
import { useFakeEngines, useMapPageServer } from '../map/testing/mapPageTest';
import { engineWithMarkers } from '../map/testing/readyMap';
import { renderRoute } from '../map/testing/renderRoute';

vi.mock('../../engine/index', () => import('../map/testing/engineModuleMock'));
vi.mock('../map/markerSource', () => ({ createMarkerSource: () => createLocalMarkerSource() }));

const markerList = [{ uid: 'm-safe', map: 'factory', category: 'Loot', subCategory: 'Safe', level: 1, geometry: { x: 500, y: 400 }, name: 'Safe' }];
const server = useMapPageServer({ markers: markerList });
useFakeEngines();

const account = (name: string, roles: Pick<AccountUser, 'pro' | 'admin'>): AccountUser => ({ name, ...roles, questsDone: [], questsHidden: [] });
const VISITOR = account('visitor', { pro: false, admin: false });
const PRO = account('pro', { pro: true, admin: false });
const ADMIN = account('admin', { pro: false, admin: true });

/** What the user chose before this page: not the defaults, so a change or a reset shows. */
const SAVED: MapSettings = { markerSize: 1.25, labels: 'hover', ownProgress: true, lookArrow: true, language: 'en' };

let storage: ReturnType<typeof memoryStorage>;
let accounts: MockAccountServer;
const stored = () => storage.data.get(SETTINGS_KEY);
const storedSettings = () => JSON.parse(stored() ?? 'null') as MapSettings | null;

/** Signs `user` in here and on the mocked server (which records every account request). */
function signedIn(user: AccountUser | null) {
  accounts = accountServer(user);
  server.use(...accounts.handlers);
  setSessionUser(user);
}

beforeEach(() => {
  storage = memoryStorage();
  storage.data.set(SETTINGS_KEY, JSON.stringify(SAVED));
  setStorageBackend(storage);
  loadSettings();
  setPanelsShown(true);
});
afterEach(async () => {
  resetSession();
  closeUpsell();
  closeSettings();
  vi.restoreAllMocks();
  if (i18n.language !== 'en') await i18n.changeLanguage('en');
  setStorageBackend(null);
  loadSettings();
});

async function renderMap() {
  const view = renderRoute('/map/factory');
  return { ...view, engine: await engineWithMarkers() };
}

const rightPanel = () => screen.getByRole('complementary', { name: 'Levels and quests' });
const settingsButton = () => within(rightPanel()).getByRole('button', { name: 'Settings' });
const settingsDialog = () => screen.getByRole('dialog', { name: 'Settings' });
/** Account requests other than the page asking who is signed in. */
const accountWrites = () => accounts.requests.filter((r) => r !== 'GET /api/be/user');

async function openWhereAmI() {
  await userEvent.click(screen.getByRole('button', { name: 'Where am I' }));
}

describe('the Settings button', () => {
  it('gives a visitor the upsell, and map:settings stays as it was', async () => {
    signedIn(VISITOR);
    await renderMap();
    const before = stored();
    await userEvent.click(settingsButton());
    expect(screen.getByRole('dialog', { name: 'raidmap Pro' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Settings' })).toBeNull();
    expect(layout.settingsOpen).toBe(false);
    expect(stored()).toBe(before);
    expect({ ...settings }).toEqual(SAVED);
    expect(accountWrites()).toEqual([]);
  });

  it('gives a signed-out visitor the upsell too', async () => {
    signedIn(null);
    await renderMap();
    await userEvent.click(settingsButton());
    expect(screen.getByRole('dialog', { name: 'raidmap Pro' })).toBeInTheDocument();
    expect(layout.settingsOpen).toBe(false);
    expect(storedSettings()).toEqual(SAVED);
  });

  it('is not shown to admins, and neither is the look-arrow toggle', async () => {
    signedIn(ADMIN);
    await renderMap();
    expect(within(rightPanel()).queryByRole('button', { name: /Settings/ })).toBeNull();
    await openWhereAmI();
    expect(screen.getByRole('textbox', { name: 'Screenshot file name' })).toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: /Look direction arrow/ })).toBeNull();
  });
});

describe('the settings popup (pro)', () => {
  it('shows the stored settings and a note that changes apply at once', async () => {
    signedIn(PRO);
    await renderMap();
    await userEvent.click(settingsButton());
    const dialog = settingsDialog();
    const size = within(dialog).getByRole('slider', { name: 'Marker size' });
    expect(size).toHaveValue('1.25');
    expect(size).toHaveAttribute('min', '0.5');
    expect(size).toHaveAttribute('max', '2');
    expect(size).toHaveAttribute('step', '0.25');
    expect(within(dialog).getByText('×1.25')).toBeInTheDocument();
    const labels = within(dialog).getByRole('radiogroup', { name: 'Labels' });
    expect(within(labels).getAllByRole('radio').map((r) => r.closest('label')!.textContent)).toEqual([
      'Extractions and hovered markers',
      'All markers',
      'Only the hovered marker',
    ]);
    expect(within(labels).getByRole('radio', { name: 'Only the hovered marker' })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: 'Use my quest progress' })).toHaveAccessibleDescription(/hidden quests leave the quest list/);
    expect(within(dialog).getByRole('checkbox', { name: 'Look direction arrow' })).toBeChecked();
    expect(within(dialog).getByRole('combobox', { name: 'Language' })).toHaveValue('en');
    expect(within(dialog).getAllByRole('option').map((o) => o.textContent)).toEqual(['English', 'Русский']);
    expect(dialog).toHaveTextContent('Changes apply at once and are kept on this device.');
    expect(within(dialog).queryByRole('button', { name: /save/i })).toBeNull();
  });

  it('applies and stores each change at once: marker size, labels, own progress, look arrow, language', async () => {
    signedIn(PRO);
    const { engine } = await renderMap();
    await userEvent.click(settingsButton());
    const dialog = settingsDialog();

    fireEvent.change(within(dialog).getByRole('slider', { name: 'Marker size' }), { target: { value: '1.75' } });
    expect(storedSettings()?.markerSize).toBe(1.75);
    expect(await within(dialog).findByText('×1.75')).toBeInTheDocument();
    await waitFor(() => expect(engine.markerScale).toBe(1.75));

    await userEvent.click(within(dialog).getByRole('radio', { name: 'All markers' }));
    expect(storedSettings()?.labels).toBe('all');
    await waitFor(() => expect(engine.labelMode).toBe('all'));

    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Use my quest progress' }));
    expect(storedSettings()?.ownProgress).toBe(false);
    expect(within(dialog).getByRole('checkbox', { name: 'Use my quest progress' })).not.toBeChecked();

    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Look direction arrow' }));
    expect(storedSettings()?.lookArrow).toBe(false);

    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Language' }), 'Русский');
    expect(storedSettings()).toEqual({ markerSize: 1.75, labels: 'all', ownProgress: false, lookArrow: false, language: 'ru' });
    await waitFor(() => expect(i18n.language).toBe('ru'));
    const ruDialog = await screen.findByRole('dialog', { name: 'Настройки' });
    expect(within(ruDialog).getByRole('slider', { name: 'Размер меток' })).toHaveValue('1.75');
    expect(within(ruDialog).getByText('×1,75')).toBeInTheDocument();
    expect(accountWrites()).toEqual([]);
  });

  it('on a touch screen (no hover) names the label modes by the tapped marker, and they keep their values', async () => {
    // A phone: the primary pointer cannot hover; every other media query answers as on a desktop.
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener: () => undefined, removeEventListener: () => undefined }));
    try {
      signedIn(PRO);
      const { engine } = await renderMap();
      await userEvent.click(settingsButton());
      const labels = within(settingsDialog()).getByRole('radiogroup', { name: 'Labels' });
      expect(within(labels).getAllByRole('radio').map((r) => r.closest('label')!.textContent)).toEqual([
        'Extractions and the tapped marker',
        'All markers',
        'Only the tapped marker',
      ]);
      expect(within(labels).getByRole('radio', { name: 'Only the tapped marker' })).toBeChecked();
      await userEvent.click(within(labels).getByRole('radio', { name: 'Extractions and the tapped marker' }));
      expect(storedSettings()?.labels).toBe('auto');
      await waitFor(() => expect(engine.labelMode).toBe('auto'));
      await act(() => i18n.changeLanguage('ru'));
      const ruLabels = within(await screen.findByRole('dialog', { name: 'Настройки' })).getByRole('radiogroup', { name: 'Подписи' });
      expect(within(ruLabels).getAllByRole('radio').map((r) => r.closest('label')!.textContent)).toEqual(['Выходы и нажатая метка', 'Все метки', 'Только нажатая метка']);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('follows the top bar language switch', async () => {
    signedIn(PRO);
    await renderMap();
    await userEvent.click(settingsButton());
    await userEvent.click(within(screen.getByRole('group', { name: 'Language' })).getByRole('button', { name: 'RU Русский' }));
    const dialog = await screen.findByRole('dialog', { name: 'Настройки' });
    expect(within(dialog).getByRole('combobox', { name: 'Язык' })).toHaveValue('ru');
    expect(storedSettings()).toEqual({ ...SAVED, language: 'ru' });
  });

  it('resets only when the reset is confirmed', async () => {
    signedIn(PRO);
    await renderMap();
    await userEvent.click(settingsButton());
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    await userEvent.click(within(settingsDialog()).getByRole('button', { name: 'Reset' }));
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(confirm).toHaveBeenCalledWith('Confirm reset?');
    expect(storedSettings()).toEqual(SAVED);
    expect({ ...settings }).toEqual(SAVED);
    expect(within(settingsDialog()).getByRole('radio', { name: 'Only the hovered marker' })).toBeChecked();

    confirm.mockReturnValue(true);
    await userEvent.click(within(settingsDialog()).getByRole('button', { name: 'Reset' }));
    expect(confirm).toHaveBeenCalledTimes(2);
    expect(confirm).toHaveBeenLastCalledWith('Confirm reset?');
    expect(storage.data.has(SETTINGS_KEY)).toBe(false);
    expect({ ...settings }).toEqual(DEFAULT_SETTINGS);
    const dialog = settingsDialog();
    expect(within(dialog).getByRole('slider', { name: 'Marker size' })).toHaveValue('1');
    expect(within(dialog).getByRole('radio', { name: 'Extractions and hovered markers' })).toBeChecked();
  });

  it('asks "Сбросить настройки?" in a Russian page', async () => {
    signedIn(PRO);
    await renderMap();
    await userEvent.click(settingsButton());
    await userEvent.click(within(screen.getByRole('group', { name: 'Language' })).getByRole('button', { name: 'RU Русский' }));
    const dialog = await screen.findByRole('dialog', { name: 'Настройки' });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Сбросить' }));
    expect(confirm).toHaveBeenCalledWith('Сбросить настройки?');
  });

  it('takes the UI back to English on reset, without writing map:settings again', async () => {
    storage.data.set(SETTINGS_KEY, JSON.stringify({ ...SAVED, language: 'ru' }));
    loadSettings();
    await i18n.changeLanguage('ru');
    signedIn(PRO);
    await renderMap();
    await userEvent.click(within(screen.getByRole('complementary', { name: 'Уровни и квесты' })).getByRole('button', { name: 'Настройки' }));
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Настройки' })).getByRole('button', { name: 'Сбросить' }));
    expect(await screen.findByRole('dialog', { name: 'Settings' })).toBeInTheDocument();
    expect(i18n.language).toBe('en');
    expect(storage.data.has(SETTINGS_KEY)).toBe(false);
  });

  it('closes with Close and when the map page is left', async () => {
    signedIn(PRO);
    const { unmount } = await renderMap();
    await userEvent.click(settingsButton());
    await userEvent.click(within(settingsDialog()).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog', { name: 'Settings' })).toBeNull();
    expect(layout.settingsOpen).toBe(false);
    await userEvent.click(settingsButton());
    expect(layout.settingsOpen).toBe(true);
    unmount();
    expect(layout.settingsOpen).toBe(false);
  });

  it('closes itself when the session stops being pro', async () => {
    signedIn(PRO);
    await renderMap();
    await userEvent.click(settingsButton());
    expect(settingsDialog()).toBeInTheDocument();
    act(() => setSessionUser(VISITOR));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Settings' })).toBeNull());
    expect(layout.settingsOpen).toBe(false);
    // Pro again: the popup does not come back by itself.
    act(() => setSessionUser(PRO));
    expect(screen.queryByRole('dialog', { name: 'Settings' })).toBeNull();
    expect(storedSettings()).toEqual(SAVED);
  });
});

describe('the look-direction arrow toggle (where am I)', () => {
  it('is marked Pro for visitors: a click opens the upsell and changes nothing', async () => {
    storage.data.set(SETTINGS_KEY, JSON.stringify({ ...SAVED, lookArrow: false }));
    loadSettings();
    signedIn(VISITOR);
    await renderMap();
    await openWhereAmI();
    const toggle = screen.getByRole('checkbox', { name: 'Look direction arrow' });
    expect(toggle).not.toBeChecked();
    expect(toggle).toHaveAccessibleDescription('A Pro feature');
    expect(toggle.closest('label')).toHaveTextContent('Pro');
    const before = stored();
    await userEvent.click(toggle);
    expect(screen.getByRole('dialog', { name: 'raidmap Pro' })).toBeInTheDocument();
    expect(toggle).not.toBeChecked();
    expect(stored()).toBe(before);
    expect(settings.lookArrow).toBe(false);
    expect(accountWrites()).toEqual([]);
  });

  it('is unchecked for a signed-out visitor even when the stored setting is on; the keyboard opens the upsell too', async () => {
    signedIn(null);
    await renderMap();
    await openWhereAmI();
    const toggle = screen.getByRole('checkbox', { name: 'Look direction arrow' });
    expect(settings.lookArrow).toBe(true);
    expect(toggle).not.toBeChecked();
    toggle.focus();
    await userEvent.keyboard(' ');
    expect(layout.upsellOpen).toBe(true);
    expect(toggle).not.toBeChecked();
    expect(storedSettings()).toEqual(SAVED);
  });

  it('switches the setting for a pro user, the same one as in the settings popup', async () => {
    signedIn(PRO);
    await renderMap();
    await openWhereAmI();
    const toggle = screen.getByRole('checkbox', { name: 'Look direction arrow' });
    expect(toggle).toBeChecked();
    expect(toggle).not.toHaveAccessibleDescription();
    await userEvent.click(toggle);
    expect(toggle).not.toBeChecked();
    expect(storedSettings()).toEqual({ ...SAVED, lookArrow: false });
    expect(layout.upsellOpen).toBe(false);
    await userEvent.click(settingsButton());
    expect(within(settingsDialog()).getByRole('checkbox', { name: 'Look direction arrow' })).not.toBeChecked();
    await userEvent.click(within(settingsDialog()).getByRole('checkbox', { name: 'Look direction arrow' }));
    expect(toggle).toBeChecked();
    expect(storedSettings()?.lookArrow).toBe(true);
  });
});
