import { afterEach, describe, expect, it, vi } from 'vitest';

/** The layout module read afresh with the window at `narrow`. */
async function layoutWith(narrow: boolean) {
  vi.resetModules();
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: narrow && query === '(max-width: 600px)', media: query }));
  return (await import('./layout')).layout;
}

describe('layout on a phone', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('starts with the side panels hidden on a narrow window and shown on a wide one', async () => {
    expect((await layoutWith(true)).panelsShown).toBe(false);
    expect((await layoutWith(false)).panelsShown).toBe(true);
  });
});
