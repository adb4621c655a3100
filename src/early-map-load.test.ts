// @vitest-environment jsdom
/**
 * The map's first requests start before the app's modules evaluate (src/early-map-load.ts), in
 * the language i18next will start with; main.tsx must keep importing it before React and the UI.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const started: unknown[][] = [];
vi.mock('./ui/map/earlyLoad', () => ({ startEarlyMapLoad: (...args: unknown[]) => started.push(args) }));

afterEach(() => {
  started.length = 0;
  localStorage.clear();
  window.history.replaceState(null, '', '/');
  vi.resetModules();
});

describe('early-map-load', () => {
  it("starts the page's map load with its address and the stored language, as i18next starts", async () => {
    localStorage.setItem('map:settings', JSON.stringify({ language: 'ru' }));
    window.history.replaceState(null, '', '/map/customs?render=worker');
    await import('./early-map-load');
    const { initialLanguage } = await import('./i18n');
    expect(started).toEqual([['/map/customs', 'ru', '?render=worker']]);
    expect(initialLanguage()).toBe('ru');
  });

  it('uses the browser\'s language where nothing (or nothing valid) is stored, English where the browser asks for neither', async () => {
    localStorage.setItem('map:settings', '{not json');
    window.history.replaceState(null, '', '/map/woods');
    await import('./early-map-load');
    expect(started).toEqual([['/map/woods', 'en', '']]);

    vi.resetModules();
    started.length = 0;
    const languages = vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['uk-UA', 'ru-RU', 'en']);
    await import('./early-map-load');
    const { initialLanguage } = await import('./i18n');
    expect(started).toEqual([['/map/woods', 'ru', '']]);
    expect(initialLanguage()).toBe('ru');
    languages.mockRestore();
  });

  it('is imported by the entry before React and the UI, right after the no-eval guard', () => {
    const imports = [...readFileSync(resolve(__dirname, 'main.tsx'), 'utf8').matchAll(/^import (?:.* from )?'([^']+)';/gm)].map((m) => m[1]);
    expect(imports.slice(0, 2)).toEqual(['./domain/no-eval', './early-map-load']);
    expect(imports.indexOf('react')).toBeGreaterThan(1);
  });
});
