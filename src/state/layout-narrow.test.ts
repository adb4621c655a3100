import { afterEach, describe, expect, it, vi } from 'vitest';

/** The tab's sessionStorage, kept through the "reloads" below (the test runs without a DOM). */
const tab = new Map<string, string>();
const sessionStorage = {
  getItem: (key: string) => tab.get(key) ?? null,
  setItem: (key: string, value: string) => void tab.set(key, value),
  removeItem: (key: string) => void tab.delete(key),
};

type Size = { width: number; height: number };
const PHONE: Size = { width: 390, height: 844 };
const DESKTOP: Size = { width: 1280, height: 800 };
/** A phone turned on its side: wide enough for the desktop's panels, too short for them and a map. */
const PHONE_SIDEWAYS: Size = { width: 844, height: 390 };

/** Whether a media query list of `(max-width: …px)` / `(max-height: …px)` features matches a window. */
function matchesAt(size: Size, query: string): boolean {
  return query.split(',').some((part) => {
    const feature = /\(max-(width|height):\s*(\d+)px\)/.exec(part);
    if (!feature) throw new Error(`the stub reads only max-width / max-height: ${part}`);
    return size[feature[1] as 'width' | 'height'] <= Number(feature[2]);
  });
}

/** The layout module read afresh (a reload) with the window at `narrow` (a phone) or a desktop's size, or at `size`. */
async function layoutWith(narrow: boolean | Size) {
  const size = narrow === true ? PHONE : narrow === false ? DESKTOP : narrow;
  vi.resetModules();
  vi.stubGlobal('sessionStorage', sessionStorage);
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: matchesAt(size, query), media: query }));
  return (await import('./layout')).layout;
}

describe('layout on a phone', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
    tab.clear();
  });

  it('starts with the side panels hidden on a narrow window and shown on a wide one', async () => {
    expect((await layoutWith(true)).panelsShown).toBe(false);
    expect((await layoutWith(false)).panelsShown).toBe(true);
  });

  it('starts with them hidden on a phone turned on its side too (both panels and the dock left no map)', async () => {
    const sideways = await layoutWith(PHONE_SIDEWAYS);
    expect(sideways.panelsShown).toBe(false);
    const { isNarrowWindow, setPanelsShown } = await import('./layout');
    expect(isNarrowWindow()).toBe(true);
    setPanelsShown(true);
    expect(sessionStorage.getItem('map:panels')).toBeNull();
  });

  it('keeps panels hidden on a wide window through a reload of the tab, not on a phone', async () => {
    const wide = await layoutWith(false);
    const { togglePanels } = await import('./layout');
    togglePanels();
    expect(wide.panelsShown).toBe(false);
    expect(sessionStorage.getItem('map:panels')).toBe('hidden');
    // Reloaded: still hidden on a wide window; a phone starts hidden anyway.
    expect((await layoutWith(false)).panelsShown).toBe(false);
    expect((await layoutWith(true)).panelsShown).toBe(false);
    // Shown again: the tab forgets the choice.
    const again = await layoutWith(false);
    (await import('./layout')).togglePanels();
    expect(again.panelsShown).toBe(true);
    expect(sessionStorage.getItem('map:panels')).toBeNull();
    expect((await layoutWith(false)).panelsShown).toBe(true);
  });

  it('does not keep what a phone does with its sheets', async () => {
    const narrow = await layoutWith(true);
    const { setPanelsShown } = await import('./layout');
    setPanelsShown(true);
    setPanelsShown(false);
    expect(narrow.panelsShown).toBe(false);
    expect(sessionStorage.getItem('map:panels')).toBeNull();
    expect((await layoutWith(false)).panelsShown).toBe(true);
  });
});
