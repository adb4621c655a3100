import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAPS } from '../../domain/maps';
import { lookArrowAngle, parseScreenshotName, playerToMap } from '../../domain/position';
import type { PlayerMarker } from '../../engine/types';
import { i18n, setLanguage } from '../../i18n';
import { closeAccountDialog, closeUpsell, layout, openUpsell, setPanelsShown } from '../../state/layout';
import { mapView } from '../../state/mapView';
import { player } from '../../state/player';
import { loadSession, resetSession, session, setSessionUser } from '../../state/session';
import type { FakeEngine } from '../map/testing/fakeEngine';
import { createLocalMarkerSource } from '../map/testing/localMarkerSource';
import { accountServer } from '../map/testing/mapApi';
import { setSignedInHint, useMapPage } from '../map/testing/mapPageTest';
import { engineWithMarkers } from '../map/testing/readyMap';
import { renderRoute } from '../map/testing/renderRoute';

vi.mock('../../engine/index', () => import('../map/testing/engineModuleMock'));
vi.mock('../map/markerSource', () => ({ createMarkerSource: () => createLocalMarkerSource() }));

const markerList = [{ uid: 'm-safe', map: 'factory', category: 'Loot', subCategory: 'Safe', level: 1, geometry: { x: 500, y: 400 }, name: 'Safe' }];

// q1 is in the quest list, so `?quest=q1` stays in the address (unknown quests are pruned).
const questQ1 = { uid: 'q1', name: 'Debut', ruName: 'Дебют', trader: 'Prapor', requiredForKappa: true, requiredForLightkeeper: false, wikiUrl: 'https://wiki.test/q1' };
const server = useMapPage({ markers: markerList, quests: [questQ1] });

const VALID = '2024-05-01[12-34]_23.45, 4, -90.12_0.12345, -0.54321, 0.11111, 0.82345_12.34 (0).png';
const factory = MAPS.factory;

beforeEach(() => {
  setPanelsShown(true);
});
afterEach(async () => {
  setSessionUser(null);
  resetSession();
  closeAccountDialog();
  closeUpsell();
  setSignedInHint(false);
  vi.restoreAllMocks();
  if (i18n.language !== 'en') await setLanguage('en');
});

const renderMap = (path = '/map/factory') => renderRoute(path);

const playerCalls = (engine: FakeEngine) =>
  engine.calls.filter((c) => c.method === 'setPlayer').map((c) => ({ marker: c.args[0] as PlayerMarker | null, ping: c.args[1] as boolean }));

describe('top bar', () => {
  it('toggles both side panels, the label following', async () => {
    renderMap();
    await userEvent.click(screen.getByRole('button', { name: 'Hide panels' }));
    expect(layout.panelsShown).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Show panels' }));
    expect(layout.panelsShown).toBe(true);
    expect(screen.getByRole('button', { name: 'Hide panels' })).toBeInTheDocument();
  });

  it("folds Show panels, full screen, language and account behind Menu (a phone's compact bar), closed again by a choice, Escape or a press outside", async () => {
    renderMap();
    const menu = screen.getByRole('button', { name: 'Menu' });
    const more = document.getElementById(menu.getAttribute('aria-controls')!)!;
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect(within(more).getByRole('button', { name: 'Hide panels' })).toBeInTheDocument();
    expect(more.querySelector('.account-menu')).not.toBeNull();
    expect(within(more).getByRole('group', { name: 'Language' })).toBeInTheDocument();
    expect(more).not.toHaveClass('topbar__more--open');

    await userEvent.click(menu);
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    expect(more).toHaveClass('topbar__more--open');
    await userEvent.click(within(more).getByRole('button', { name: 'Hide panels' }));
    expect(layout.panelsShown).toBe(false);
    expect(menu).toHaveAttribute('aria-expanded', 'false');

    await userEvent.click(menu);
    await userEvent.keyboard('{Escape}');
    expect(menu).toHaveAttribute('aria-expanded', 'false');

    await userEvent.click(menu);
    await userEvent.pointer({ keys: '[MouseLeft]', target: document.body });
    expect(menu).toHaveAttribute('aria-expanded', 'false');
  });

  it('enters and leaves full screen through the Fullscreen API, the label following the state', async () => {
    let element: Element | null = null;
    const change = () => document.dispatchEvent(new Event('fullscreenchange'));
    Object.defineProperty(document, 'fullscreenElement', { configurable: true, get: () => element });
    const request = vi.fn(async () => {
      element = document.documentElement;
      change();
    });
    const exit = vi.fn(async () => {
      element = null;
      change();
    });
    document.documentElement.requestFullscreen = request;
    document.exitFullscreen = exit;
    try {
      renderMap();
      await userEvent.click(screen.getByRole('button', { name: 'Full screen' }));
      expect(request).toHaveBeenCalledTimes(1);
      await userEvent.click(await screen.findByRole('button', { name: 'Exit full screen' }));
      expect(exit).toHaveBeenCalledTimes(1);
      expect(await screen.findByRole('button', { name: 'Full screen' })).toBeInTheDocument();
      // Leaving with the browser's own Esc also updates the label.
      await userEvent.click(screen.getByRole('button', { name: 'Full screen' }));
      act(() => {
        element = null;
        change();
      });
      expect(screen.getByRole('button', { name: 'Full screen' })).toBeInTheDocument();
    } finally {
      Reflect.deleteProperty(document.documentElement, 'requestFullscreen');
      Reflect.deleteProperty(document, 'exitFullscreen');
      Reflect.deleteProperty(document, 'fullscreenElement');
    }
  });

  it('switches the language of the labels to Russian and back', async () => {
    renderMap();
    const group = screen.getByRole('group', { name: 'Language' });
    expect(within(group).getByRole('button', { name: 'EN English' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(within(group).getByRole('button', { name: 'RU Русский' }));
    expect(await screen.findByRole('button', { name: 'Скрыть панели' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Где я' })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Язык' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('ru');
    await userEvent.click(screen.getByRole('button', { name: 'EN English' }));
    expect(await screen.findByRole('button', { name: 'Hide panels' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('en');
  });
});

describe('language switch', () => {
  it('names each button in its own language (lang set), keeps EN / RU visible and marks the current one', async () => {
    renderMap();
    const buttons = () => within(screen.getByRole('group', { name: /^(Language|Язык)$/ })).getAllByRole('button');
    expect(buttons().map((b) => [b.textContent, b.getAttribute('aria-label'), b.getAttribute('lang'), b.getAttribute('aria-pressed')])).toEqual([
      ['EN', 'EN English', 'en', 'true'],
      ['RU', 'RU Русский', 'ru', 'false'],
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'RU Русский' }));
    await screen.findByRole('group', { name: 'Язык' });
    // The names stay in their own language whatever the UI's; the pressed one follows.
    expect(buttons().map((b) => [b.textContent, b.getAttribute('aria-label'), b.getAttribute('aria-pressed')])).toEqual([
      ['EN', 'EN English', 'false'],
      ['RU', 'RU Русский', 'true'],
    ]);
  });
});

describe('account menu in the top bar', () => {
  it('ends the row with "Sign in" for a visitor; the upsell\'s "Sign in" opens the dialog and signing in shows the account', async () => {
    const api = accountServer({ name: 'pro', pro: true, admin: false, questsDone: [], questsHidden: [] }, 'demo-pass');
    server.use(...api.handlers);
    // Signed out in this browser: no signed-in hint, so the session is known at once.
    setSignedInHint(false);
    await loadSession();
    renderMap();
    const bar = screen.getByRole('banner');
    const signIn = within(bar).getByRole('button', { name: 'Sign in' });
    const row = bar.querySelector('.topbar__row');
    expect(row?.lastElementChild?.contains(signIn)).toBe(true);

    act(() => openUpsell());
    const upsell = await screen.findByRole('dialog', { name: 'raidmap Pro' });
    await userEvent.click(within(upsell).getByRole('button', { name: 'Sign in' }));
    expect(screen.queryByRole('dialog', { name: 'raidmap Pro' })).toBeNull();
    const dialog = screen.getByRole('dialog', { name: 'Sign in' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'pro');
    await userEvent.type(within(dialog).getByLabelText('Password'), 'demo-pass{Enter}');

    const account = await within(bar).findByRole('button', { name: 'pro Pro' });
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(account).toHaveFocus());
    expect(session.user?.pro).toBe(true);
    expect(api.requests).toEqual(['POST /api/be/auth/login']);
  });

  it('shows the account of a signed-in admin with its badge', async () => {
    const api = accountServer({ name: 'admin', pro: false, admin: true, questsDone: [], questsHidden: [] });
    server.use(...api.handlers);
    await loadSession();
    renderMap();
    expect(await within(screen.getByRole('banner')).findByRole('button', { name: 'admin Admin' })).toHaveAttribute('aria-haspopup', 'menu');
    expect(api.requests).toEqual(['GET /api/be/user']);
  });
});

describe('where am I', () => {
  it('reveals the file-name box; a pasted name moves the player, pings, picks the level by height and centres', async () => {
    renderMap();
    const engine = await engineWithMarkers();
    const button = screen.getByRole('button', { name: 'Where am I' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('textbox', { name: 'Screenshot file name' })).toBeNull();
    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const box = screen.getByRole('textbox', { name: 'Screenshot file name' });
    await userEvent.click(box);
    await userEvent.paste(VALID);

    const expected = parseScreenshotName(VALID);
    expect(player.position).toEqual(expected);
    expect(window.__map?.player()).toEqual(expected);
    expect(box).toHaveValue(VALID);
    expect(box).toHaveAccessibleDescription('You are at X 23.45, Z -90.12, height 4.');
    await waitFor(() => expect(mapView.level).toBe(2));
    await waitFor(() => expect(engine.level).toBe(2));

    const target = playerToMap(expected, factory);
    await waitFor(() => expect(playerCalls(engine).at(-1)).toEqual({ marker: { mapX: target.mapX, mapY: target.mapY, arrowAngle: null }, ping: true }));
    // Zoomed in (2 > start zoom 0.7): the view is centred on the player.
    expect(engine.camera()).toMatchObject({ x: target.mapX, y: target.mapY });
  });

  it('resets to 0, 0, 0 with no look and says so when the name is not recognised', async () => {
    renderMap();
    const engine = await engineWithMarkers();
    await userEvent.click(screen.getByRole('button', { name: 'Where am I' }));
    await userEvent.click(screen.getByRole('textbox', { name: 'Screenshot file name' }));
    await userEvent.paste(VALID);
    await waitFor(() => expect(mapView.level).toBe(2));
    const placed = engine.camera();
    await userEvent.clear(screen.getByRole('textbox', { name: 'Screenshot file name' }));
    await userEvent.paste('holiday photo.png');
    expect(player.position).toEqual({ x: 0, y: 0, z: 0, look: null });
    expect(window.__map?.player()).toEqual({ x: 0, y: 0, z: 0, look: null });
    expect(screen.getByRole('textbox', { name: 'Screenshot file name' })).toHaveAccessibleDescription(/^That file name was not recognised/);
    const origin = playerToMap({ x: 0, y: 0, z: 0, look: null }, factory);
    await waitFor(() => expect(playerCalls(engine).at(-1)?.marker).toEqual({ mapX: origin.mapX, mapY: origin.mapY, arrowAngle: null }));
    // Not a place the player is at: the level the last name chose and the view stay (height 0
    // would pick factory's main level; zoomed in, the view would centre on 0, 0).
    expect(mapView.level).toBe(2);
    expect(engine.camera()).toEqual(placed);
  });

  it('says a position that cannot be on this map and changes nothing (another map, a made-up 1e308)', async () => {
    renderMap();
    const engine = await engineWithMarkers();
    await userEvent.click(screen.getByRole('button', { name: 'Where am I' }));
    const box = screen.getByRole('textbox', { name: 'Screenshot file name' });
    await userEvent.click(box);
    await userEvent.paste(VALID);
    await waitFor(() => expect(mapView.level).toBe(2));
    const placed = { position: player.position, camera: engine.camera(), level: mapView.level };
    for (const [name, shown] of [
      ['2024-05-01[12-34]_5000.5, 0, -9000_0.1, -0.5, 0.1, 0.8_12.34 (0).png', 'X 5000.5, Z -9000 is not on Factory'],
      ['2024-05-01[12-34]_1e308, 2, -1e308_0.1, -0.5, 0.1, 0.8_12.34 (0).png', 'X 1.00e+308, Z -1.00e+308 is not on Factory'],
    ]) {
      await userEvent.clear(box);
      await userEvent.paste(name);
      expect(box).toHaveAccessibleDescription(`${shown}: is the position from another map? Nothing was changed.`);
      expect(player.position).toEqual(placed.position);
      expect(mapView.level).toBe(placed.level);
      expect(engine.camera()).toEqual(placed.camera);
    }
  });

  it('applies a typed name on Enter', async () => {
    renderMap();
    await userEvent.click(screen.getByRole('button', { name: 'Where am I' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Screenshot file name' }), '2024-01-01[[00-00]_1.5, -2, 3_0, 0, 0, 1_0 (0).png');
    expect(player.position).toBeNull();
    await userEvent.keyboard('{Enter}');
    expect(player.position).toEqual({ x: 1.5, y: 3, z: -2, look: 0 });
  });

  it('folds the box on Escape and gives the focus back to Where am I', async () => {
    renderMap();
    const button = screen.getByRole('button', { name: 'Where am I' });
    await userEvent.click(button);
    expect(screen.getByRole('textbox', { name: 'Screenshot file name' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('textbox', { name: 'Screenshot file name' })).toBeNull();
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();
  });

  it('shows the look arrow to pro users only', async () => {
    setSessionUser({ pro: true, admin: false, questsDone: [], questsHidden: [] });
    renderMap();
    const engine = await engineWithMarkers();
    await userEvent.click(screen.getByRole('button', { name: 'Where am I' }));
    await userEvent.click(screen.getByRole('textbox', { name: 'Screenshot file name' }));
    await userEvent.paste(VALID);
    const look = parseScreenshotName(VALID).look;
    await waitFor(() => expect(playerCalls(engine).at(-1)?.marker?.arrowAngle).toBe(lookArrowAngle(look, factory)));
    expect(playerCalls(engine).at(-1)?.marker?.arrowAngle).not.toBeNull();
    act(() => setSessionUser(null));
    await waitFor(() => expect(playerCalls(engine).at(-1)).toMatchObject({ marker: { arrowAngle: null }, ping: false }));
  });

  it('opens the help popup with the four position hints and the /pilot link', async () => {
    const { router } = renderMap();
    await userEvent.click(screen.getByRole('button', { name: 'Where am I' }));
    await userEvent.click(screen.getByRole('button', { name: 'Help' }));
    const dialog = screen.getByRole('dialog', { name: 'Where am I: finding your position' });
    const images = within(dialog).getAllByRole('img');
    expect(images).toHaveLength(4);
    for (const img of images) expect(img.getAttribute('src')).toMatch(/^\/public-images\/pos-hints\/\d-[a-z-]+\.svg$/);
    expect(images[0]).toHaveAccessibleName(/Screenshot key/);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Help' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('link', { name: 'Live position feed' }));
    // The pilot page's chunk loads on the first visit: the navigation ends when it is in.
    await waitFor(() => expect(router.state.location.pathname).toBe('/pilot'));
    expect(await screen.findByRole('heading', { name: 'Live position feed', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the maps' })).toHaveAttribute('href', '/');
  });

  it('shows the Russian position hints (pos-hints/ru/) when the page is switched to Russian', async () => {
    renderMap();
    await userEvent.click(within(screen.getByRole('group', { name: 'Language' })).getByRole('button', { name: 'RU Русский' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Где я' }));
    await userEvent.click(screen.getByRole('button', { name: 'Помощь' }));
    const dialog = screen.getByRole('dialog', { name: 'Где я: как найти свою позицию' });
    const images = within(dialog).getAllByRole('img');
    expect(images.map((img) => img.getAttribute('src'))).toEqual([
      '/public-images/pos-hints/ru/1-screenshot-key.svg',
      '/public-images/pos-hints/ru/2-screenshots-folder.svg',
      '/public-images/pos-hints/ru/3-copy-file-name.svg',
      '/public-images/pos-hints/ru/4-paste-in-raidmap.svg',
    ]);
    expect(images[0]).toHaveAccessibleName(/клавишей скриншота/);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('#pos= hash', () => {
  it('sets the player on load and is removed from the address, path and query kept', async () => {
    const { router } = renderMap('/map/factory?quest=q1#pos=10.5_-20_4');
    const engine = await engineWithMarkers();
    expect(player.position).toEqual({ x: 10.5, y: -20, z: 4, look: null });
    await waitFor(() => expect(router.state.location.hash).toBe(''));
    expect(router.state.location.pathname).toBe('/map/factory');
    expect(router.state.location.search).toBe('?quest=q1');
    await waitFor(() => expect(engine.level).toBe(2));
    await waitFor(() => expect(playerCalls(engine).some((c) => c.ping && c.marker !== null)).toBe(true));
  });

  it('sets nothing unless it has exactly three numbers, says so in the open box and leaves the address', async () => {
    const { router } = renderMap('/map/factory?quest=q1#pos=1_two');
    await engineWithMarkers();
    expect(player.position).toBeNull();
    expect(window.__map?.player()).toBeNull();
    await waitFor(() => expect(router.state.location.hash).toBe(''));
    expect(router.state.location.search).toBe('?quest=q1');
    expect(screen.getByRole('button', { name: 'Where am I' })).toHaveAttribute('aria-expanded', 'true');
    // In the box's status line, read by a screen reader.
    expect(screen.getByText(/The link's position “1_two” is not three numbers \(#pos=x_y_z\)/)).toHaveAttribute('role', 'status');
    // The box did not take the keyboard: the visitor did not ask for it.
    expect(screen.getByLabelText('Screenshot file name')).not.toHaveFocus();
    // A name pasted next replaces the message with its own result.
    await userEvent.click(screen.getByLabelText('Screenshot file name'));
    await userEvent.paste('not a screenshot');
    expect(screen.queryByText(/The link's position/)).toBeNull();
    expect(screen.getByText(/That file name was not recognised/)).toBeInTheDocument();
  });

  it('sets nothing from three numbers that cannot be on this map, says so and leaves the address', async () => {
    const { router } = renderMap('/map/factory#pos=1e308_0_5');
    await engineWithMarkers();
    expect(player.position).toBeNull();
    expect(window.__map?.player()).toBeNull();
    await waitFor(() => expect(router.state.location.hash).toBe(''));
    // Worded for a link as well as a screenshot: no screenshot was involved here.
    expect(screen.getByText('X 1.00e+308, Z 0 is not on Factory: is the position from another map? Nothing was changed.')).toHaveAttribute('role', 'status');
  });

  it('leaves any other hash alone', async () => {
    const { router } = renderMap('/map/factory#main');
    await engineWithMarkers();
    expect(player.position).toBeNull();
    expect(router.state.location.hash).toBe('#main');
    expect(screen.getByRole('button', { name: 'Where am I' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('quotes a long bad position cut short', async () => {
    renderMap(`/map/factory#pos=${'9'.repeat(80)}`);
    await engineWithMarkers();
    expect(screen.getByText(new RegExp(`“${'9'.repeat(39)}…”`))).toBeInTheDocument();
  });

  it('is forgotten when the map page closes', async () => {
    const { unmount } = renderMap('/map/factory#pos=1_2_3');
    await waitFor(() => expect(player.position).toEqual({ x: 1, y: 2, z: 3, look: null }));
    unmount();
    expect(player.position).toBeNull();
  });
});
