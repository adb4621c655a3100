import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { layout, NARROW_QUERY, setPanelsShown } from '../../state/layout';
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
afterEach(() => {
  vi.unstubAllGlobals();
  setPanelsShown(true);
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
