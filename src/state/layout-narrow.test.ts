import { afterEach, describe, expect, it, vi } from 'vitest';

/** The tab's sessionStorage, kept through the "reloads" below (the test runs without a DOM). */
const tab = new Map<string, string>();
const sessionStorage = {
  getItem: (key: string) => tab.get(key) ?? null,
  setItem: (key: string, value: string) => void tab.set(key, value),
  removeItem: (key: string) => void tab.delete(key),
};

/** The layout module read afresh (a reload) with the window at `narrow`. */
async function layoutWith(narrow: boolean) {
  vi.resetModules();
  vi.stubGlobal('sessionStorage', sessionStorage);
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: narrow && query === '(max-width: 600px)', media: query }));
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
