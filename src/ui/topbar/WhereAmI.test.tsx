import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../i18n';
import { layout, NARROW_QUERY, setPanelsShown } from '../../state/layout';
import { player, setPlayerPosition } from '../../state/player';
import { createLocalMarkerSource } from '../map/testing/localMarkerSource';
import { useMapPage } from '../map/testing/mapPageTest';
import { renderRoute } from '../map/testing/renderRoute';

vi.mock('../../engine/index', () => import('../map/testing/engineModuleMock'));
vi.mock('../map/markerSource', () => ({ createMarkerSource: () => createLocalMarkerSource() }));

useMapPage({ markers: [{ uid: 'm-safe', map: 'factory', category: 'Loot', subCategory: 'Safe', level: 1, geometry: { x: 500, y: 400 }, name: 'Safe' }] });

/** The window at a phone's width (NARROW_QUERY matches) or a desktop's. */
function windowIs(narrow: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: narrow && query === NARROW_QUERY,
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  }));
}

const categories = () => screen.queryByRole('complementary', { name: 'Categories' });
const box = () => screen.queryByRole('textbox', { name: 'Screenshot file name' });

beforeEach(() => {
  setPanelsShown(true);
});
afterEach(async () => {
  vi.unstubAllGlobals();
  setPanelsShown(true);
  await setLanguage('en');
});

describe('where am I and the panels on a phone (they take turns)', () => {
  it('folds the panels when Where am I opens, and Menu › Show panels folds the box', async () => {
    windowIs(true);
    const user = userEvent.setup();
    renderRoute('/map/factory');
    expect(categories()).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Where am I' }));
    expect(box()).toBeInTheDocument();
    expect(layout.panelsShown).toBe(false);
    expect(categories()).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Menu' }));
    await user.click(screen.getByRole('button', { name: 'Show panels' }));
    expect(categories()).toBeInTheDocument();
    await waitFor(() => expect(box()).toBeNull());
    const whereAmI = screen.getByRole('button', { name: 'Where am I' });
    expect(whereAmI).toHaveAttribute('aria-expanded', 'false');
    // The menu item pressed is gone with the menu: the focus is on the button that opens the box again.
    expect(whereAmI).toHaveFocus();
  });

  it('keeps both on a wide window, where the panels sit beside the map', async () => {
    windowIs(false);
    const user = userEvent.setup();
    renderRoute('/map/factory');
    await user.click(screen.getByRole('button', { name: 'Where am I' }));
    expect(box()).toBeInTheDocument();
    expect(layout.panelsShown).toBe(true);
    expect(categories()).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Hide panels' }));
    await act(async () => setPanelsShown(true));
    expect(box()).toBeInTheDocument();
  });
});

describe("the box's width", () => {
  it('is held to the bar (max-width 100%): a phone on its side holds the bar to 100vw - 350px, under the box\'s 560 px', () => {
    const sheet = document.createElement('style');
    sheet.textContent = readFileSync(join(__dirname, 'topbar.css'), 'utf8');
    document.head.append(sheet);
    const rule = Array.from(sheet.sheet!.cssRules).find((r): r is CSSStyleRule => r instanceof CSSStyleRule && r.selectorText === '.where-am-i');
    sheet.remove();
    expect(rule?.style.getPropertyValue('max-width')).toBe('100%');
  });
});

const VALID = '2024-05-01[12-34]_23.45, 4, -90.12_0.12345, -0.54321, 0.11111, 0.82345_12.34 (0).png';
const AT_VALID = 'You are at X 23.45, Z -90.12, height 4.';

describe('where am I keeps a good position', () => {
  it('the box opened again says where the player is; Enter in it, empty, changes nothing', async () => {
    windowIs(false);
    const user = userEvent.setup();
    renderRoute('/map/factory');
    const whereAmI = screen.getByRole('button', { name: 'Where am I' });
    await user.click(whereAmI);
    await user.click(box()!);
    await user.paste(VALID);
    const placed = { ...player.position! };
    expect(box()).toHaveAccessibleDescription(AT_VALID);

    await user.click(whereAmI);
    await user.click(whereAmI);
    expect(box()).toHaveValue('');
    expect(box()).toHaveFocus();
    expect(box()).toHaveAccessibleDescription(AT_VALID);
    const updates = player.updates;
    await user.keyboard('{Enter}');
    expect(player.position).toEqual(placed);
    expect(player.updates).toBe(updates);
    expect(box()).toHaveAccessibleDescription(AT_VALID);
  });

  it('a stray key and a click elsewhere applies nothing; Enter on text that is not a name says so and keeps the position', async () => {
    windowIs(false);
    const user = userEvent.setup();
    renderRoute('/map/factory#pos=10.5_-20_4');
    await waitFor(() => expect(player.position).toEqual({ x: 10.5, y: -20, z: 4, look: null }));
    const updates = player.updates;
    await user.click(screen.getByRole('button', { name: 'Where am I' }));
    expect(box()).toHaveAccessibleDescription('You are at X 10.5, Z -20, height 4.');
    await user.keyboard('x');
    await user.click(screen.getByRole('heading', { level: 1 }));
    expect(box()).not.toHaveFocus();
    expect(player.position).toEqual({ x: 10.5, y: -20, z: 4, look: null });
    expect(box()).toHaveAccessibleDescription('You are at X 10.5, Z -20, height 4.');

    await user.click(box()!);
    await user.keyboard('{Enter}');
    expect(box()).toHaveAccessibleDescription('That file name was not recognised: no position in it. Nothing was changed. Open Help to see what the name looks like.');
    expect(player.position).toEqual({ x: 10.5, y: -20, z: 4, look: null });
    expect(player.located).toBe(true);
    expect(player.updates).toBe(updates);
  });

  it('reads a typed name cut right after the position, on Enter or when the box is left', async () => {
    windowIs(false);
    const user = userEvent.setup();
    renderRoute('/map/factory');
    await user.click(screen.getByRole('button', { name: 'Where am I' }));
    await user.type(box()!, '2024-01-05[[14-02]_63.0, 1.5, -35.0{Enter}');
    expect(player.position).toEqual({ x: 63, y: -35, z: 1.5, look: null });
    expect(box()).toHaveAccessibleDescription('You are at X 63, Z -35, height 1.5.');
    await user.clear(box()!);
    await user.type(box()!, '2024-01-05[[14-02]_-20, 2, 30');
    await user.click(screen.getByRole('heading', { level: 1 }));
    expect(player.position).toEqual({ x: -20, y: 30, z: 2, look: null });
  });

  it('says what looks wrong in a name typed with the Russian layout on, or with decimal commas, in both languages', async () => {
    windowIs(false);
    const user = userEvent.setup();
    renderRoute('/map/factory');
    await user.click(screen.getByRole('button', { name: 'Where am I' }));
    await user.type(box()!, '2024-01-05х14-02ъ_163ю0б 1ю5б -35ю0{Enter}');
    expect(box()).toHaveAccessibleDescription(/^That file name was not recognised: it has “б” and “ю” where the game writes “,” and “.”, as if typed with the Russian keyboard layout on\. Nothing was changed\./);
    expect(player.position).toBeNull();
    await user.clear(box()!);
    await user.type(box()!, '2024-01-05[[14-02]_163,0, 1,5, -35,0{Enter}');
    expect(box()).toHaveAccessibleDescription(/decimal commas \(1,5\) where the game writes points \(1\.5\)\. Nothing was changed\./);
    await act(() => setLanguage('ru'));
    expect(screen.getByRole('textbox', { name: 'Имя файла скриншота' })).toHaveAccessibleDescription('Имя файла не распознано: в числах десятичные запятые (1,5), а игра пишет точки (1.5). Ничего не изменено. Откройте «Помощь», чтобы увидеть, как выглядит имя.');
  });
});

describe('where am I when the position comes from elsewhere', () => {
  it('a #pos= link or the live feed drops the name the box applied (the hint says the new position); a name being typed stays', async () => {
    windowIs(false);
    const user = userEvent.setup();
    const { router } = renderRoute('/map/factory');
    await user.click(screen.getByRole('button', { name: 'Where am I' }));
    await user.click(box()!);
    await user.paste(VALID);
    expect(box()).toHaveValue(VALID);
    expect(box()).toHaveAccessibleDescription(AT_VALID);

    // A #pos= link opened in this page moves the player: the old name goes.
    await act(() => router.navigate('/map/factory#pos=10.5_-20_4'));
    await waitFor(() => expect(player.position).toEqual({ x: 10.5, y: -20, z: 4, look: null }));
    await waitFor(() => expect(box()).toHaveValue(''));
    expect(box()).toHaveAccessibleDescription('You are at X 10.5, Z -20, height 4.');

    // A name not recognised, then the live feed moves the player: its "not recognised" goes too.
    await user.click(box()!);
    await user.keyboard('nonsense{Enter}');
    expect(box()).toHaveAccessibleDescription(/^That file name was not recognised/);
    await act(async () => setPlayerPosition({ x: 30, y: 40, z: 2, look: null }));
    expect(box()).toHaveValue('');
    expect(box()).toHaveAccessibleDescription('You are at X 30, Z 40, height 2.');

    // Text being typed (not applied yet) is the user's: it stays while the feed moves the player.
    await user.click(box()!);
    await user.keyboard('2024-01-05');
    await act(async () => setPlayerPosition({ x: 31, y: 40, z: 2, look: null }));
    expect(box()).toHaveValue('2024-01-05');
    expect(box()).toHaveAccessibleDescription('You are at X 31, Z 40, height 2.');
    // The box's own name is not dropped by its own update.
    await user.clear(box()!);
    await user.paste(VALID);
    await act(async () => {});
    expect(box()).toHaveValue(VALID);
    expect(box()).toHaveAccessibleDescription(AT_VALID);
  });
});

describe('where am I from the phone Menu', () => {
  it('folds the Menu sheet when Where am I opens, the focus in the box', async () => {
    windowIs(true);
    const user = userEvent.setup();
    renderRoute('/map/factory');
    const menu = screen.getByRole('button', { name: 'Menu' });
    await user.click(menu);
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    await user.click(screen.getByRole('button', { name: 'Where am I' }));
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect(document.getElementById(menu.getAttribute('aria-controls')!)).not.toHaveClass('topbar__more--open');
    expect(box()).toHaveFocus();
  });
});
