/**
 * The map settings in two tabs: the other tab's write reaches this one through the window's
 * `storage` event (jsdom: real localStorage, the event dispatched as a browser would).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, SETTINGS_KEY, type MapSettings } from '../domain/settings';
import { i18n } from '../i18n';
import { loadSettings, settings, updateSettings } from './settings';

/** What the browser does in this tab when another tab writes (or, null, removes) `map:settings`. */
function otherTabWrites(value: Partial<MapSettings> | null, key: string | null = SETTINGS_KEY): void {
  const old = localStorage.getItem(SETTINGS_KEY);
  const text = value === null ? null : JSON.stringify({ ...DEFAULT_SETTINGS, ...value });
  if (text === null) localStorage.removeItem(SETTINGS_KEY);
  else localStorage.setItem(SETTINGS_KEY, text);
  window.dispatchEvent(new StorageEvent('storage', { key, oldValue: old, newValue: text, storageArea: localStorage }));
}

const stored = () => JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? 'null') as MapSettings | null;

beforeEach(() => {
  localStorage.clear();
  loadSettings();
});
afterEach(async () => {
  localStorage.clear();
  if (i18n.language !== 'en') await i18n.changeLanguage('en');
  loadSettings();
});

describe('settings across tabs', () => {
  it("this tab shows the other tab's marker size and labels at once, without writing", () => {
    otherTabWrites({ markerSize: 2, labels: 'all' });
    expect(settings).toMatchObject({ markerSize: 2, labels: 'all' });
    expect(stored()).toEqual({ ...DEFAULT_SETTINGS, markerSize: 2, labels: 'all' });
  });

  it("unticking the arrow here keeps the other tab's marker size and labels (the probe's steps)", () => {
    otherTabWrites({ markerSize: 2, labels: 'all' });
    updateSettings({ lookArrow: false });
    expect(stored()).toEqual({ ...DEFAULT_SETTINGS, markerSize: 2, labels: 'all', lookArrow: false });
  });

  it("follows the other tab's language, and its reset", async () => {
    otherTabWrites({ language: 'ru', markerSize: 1.5 });
    await vi.waitFor(() => expect(i18n.language).toBe('ru'));
    expect(settings.language).toBe('ru');
    otherTabWrites(null);
    expect(settings.markerSize).toBe(DEFAULT_SETTINGS.markerSize);
    await vi.waitFor(() => expect(i18n.language).toBe('en'));
    expect(localStorage.getItem(SETTINGS_KEY)).toBeNull();
  });

  it('another key, or sessionStorage, changes nothing; clearing the whole storage does', () => {
    updateSettings({ markerSize: 1.5 });
    localStorage.setItem('map:other', '1');
    window.dispatchEvent(new StorageEvent('storage', { key: 'map:other', storageArea: localStorage }));
    sessionStorage.setItem(SETTINGS_KEY, JSON.stringify({ ...DEFAULT_SETTINGS, markerSize: 0.5 }));
    localStorage.setItem(SETTINGS_KEY, JSON.stringify({ ...DEFAULT_SETTINGS, markerSize: 0.75 }));
    window.dispatchEvent(new StorageEvent('storage', { key: SETTINGS_KEY, storageArea: sessionStorage }));
    expect(settings.markerSize).toBe(1.5);
    localStorage.clear();
    window.dispatchEvent(new StorageEvent('storage', { key: null, storageArea: localStorage }));
    expect(settings.markerSize).toBe(DEFAULT_SETTINGS.markerSize);
    sessionStorage.clear();
  });
});
