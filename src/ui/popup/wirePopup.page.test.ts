// @vitest-environment jsdom
/** wirePopup with the page's own window: the admin dock's published height counts, and its changes re-place the popup. */
import { afterEach, describe, expect, it } from 'vitest';
import { popup, resetPopup, setPopupAnchor, setPopupBoxHeight } from '../../state/popup';
import { createFakeEngine } from '../map/testing/fakeEngine';
import { publishedDockHeight, wirePopup } from './wirePopup';

const root = () => document.documentElement;
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  resetPopup();
  root().style.removeProperty('--admin-dock-height');
  root().style.removeProperty('--topbar-bottom');
});

describe('wirePopup in the page', () => {
  it('reads the dock height AdminDock publishes for popup.css', () => {
    expect(publishedDockHeight(root())).toBe(0);
    root().style.setProperty('--admin-dock-height', '212px');
    expect(publishedDockHeight(root())).toBe(212);
  });

  it('moves the popup off its marker when the dock under it grows, and back when it goes', async () => {
    const size = { width: window.innerWidth, height: window.innerHeight };
    // The marker sits 220 px above the window's bottom: clear of a 150 px popup at the bottom.
    const engine = createFakeEngine(size, { x: 500, y: 400, zoom: 1 });
    const off = wirePopup(engine);
    setPopupBoxHeight(150);
    setPopupAnchor({ x: 500, y: 400 + size.height / 2 - 220 });
    await tick();
    expect(popup.placement).toBe('bottom');
    // The editor tools open: the popup docks 100 px higher, over the marker.
    root().style.setProperty('--admin-dock-height', '100px');
    await tick();
    expect(popup.placement).toBe('top');
    root().style.removeProperty('--admin-dock-height');
    await tick();
    expect(popup.placement).toBe('bottom');
    off();
    // Unwired, the dock no longer moves it.
    root().style.setProperty('--admin-dock-height', '100px');
    await tick();
    expect(popup.placement).toBe('bottom');
  });

  it('counts where the top bar ends as TopBar publishes it: a top popup that would reach the marker gives way to a side', async () => {
    const size = { width: window.innerWidth, height: window.innerHeight };
    const engine = createFakeEngine(size, { x: 500, y: 400, zoom: 1 });
    const off = wirePopup(engine);
    setPopupBoxHeight(150);
    // The marker at the middle, 91 px above the window's bottom: under a bottom popup, clear of a top one.
    setPopupAnchor({ x: 500, y: 400 + size.height / 2 - 91 });
    await tick();
    expect(popup.placement).toBe('top');
    // The bar wraps down to 100 px above the marker: the top popup below it would cover the marker.
    root().style.setProperty('--topbar-bottom', `${size.height - 191}px`);
    await tick();
    expect(popup.placement).toBe('left');
    off();
  });
});
