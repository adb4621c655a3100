import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, SETTINGS_KEY, type MapSettings } from '../domain/settings';
import { i18n, setLanguage } from '../i18n';
import { effectiveSettings, loadSettings, resetSettings, settings, updateSettings } from './settings';
import { memoryStorage, setStorageBackend } from './storage';

let storage: ReturnType<typeof memoryStorage>;
const stored = () => storage.data.get(SETTINGS_KEY);
const storedSettings = () => JSON.parse(stored() ?? 'null') as MapSettings | null;

const visitor = { pro: false, admin: false };
const pro = { pro: true, admin: false };
const admin = { pro: false, admin: true };
const proAdmin = { pro: true, admin: true };

beforeEach(() => {
  storage = memoryStorage();
  setStorageBackend(storage);
  loadSettings();
});
afterEach(async () => {
  if (i18n.language !== 'en') await i18n.changeLanguage('en');
  setStorageBackend(null);
});

describe('updateSettings', () => {
  it('stores the whole settings as JSON under map:settings and updates the proxy', () => {
    updateSettings({ markerSize: 1.5, labels: 'all' });
    expect(storedSettings()).toEqual({ ...DEFAULT_SETTINGS, markerSize: 1.5, labels: 'all' });
    expect(settings.markerSize).toBe(1.5);
    expect(settings.labels).toBe('all');
    updateSettings({ ownProgress: false });
    expect(storedSettings()).toEqual({ ...DEFAULT_SETTINGS, markerSize: 1.5, labels: 'all', ownProgress: false });
  });

  it('clamps the marker size to its range and step, and refuses unknown values', () => {
    updateSettings({ markerSize: 7 });
    expect(settings.markerSize).toBe(2);
    updateSettings({ markerSize: 0.1 });
    expect(settings.markerSize).toBe(0.5);
    updateSettings({ markerSize: 1.3 });
    expect(settings.markerSize).toBe(1.25);
    expect(storedSettings()?.markerSize).toBe(1.25);
    updateSettings({ labels: 'everything' as MapSettings['labels'] });
    expect(settings.labels).toBe('auto');
  });

  it('switches the UI language with the language setting', async () => {
    updateSettings({ language: 'ru' });
    await vi.waitFor(() => expect(i18n.language).toBe('ru'));
    expect(storedSettings()?.language).toBe('ru');
  });
});

describe('resetSettings', () => {
  it('removes map:settings, returns to the defaults and the UI to English', async () => {
    updateSettings({ markerSize: 2, labels: 'hover', ownProgress: false, lookArrow: false, language: 'ru' });
    await vi.waitFor(() => expect(i18n.language).toBe('ru'));
    resetSettings();
    expect(storage.data.has(SETTINGS_KEY)).toBe(false);
    expect({ ...settings }).toEqual(DEFAULT_SETTINGS);
    await vi.waitFor(() => expect(i18n.language).toBe('en'));
    // Going back to English does not write the key again.
    expect(storage.data.has(SETTINGS_KEY)).toBe(false);
  });
});

describe('loadSettings', () => {
  it('reads what is stored, each bad field falling back to its default', () => {
    storage.data.set(SETTINGS_KEY, JSON.stringify({ markerSize: 1.75, labels: 'nope', lookArrow: false }));
    loadSettings();
    expect({ ...settings }).toEqual({ ...DEFAULT_SETTINGS, markerSize: 1.75, lookArrow: false });
  });
});

describe('effectiveSettings', () => {
  const chosen: MapSettings = { markerSize: 1.75, labels: 'all', ownProgress: true, lookArrow: true, language: 'ru' };

  it('gives a pro user what they chose', () => {
    expect(effectiveSettings(pro, chosen)).toEqual(chosen);
    expect(effectiveSettings(pro, { ...chosen, ownProgress: false, lookArrow: false })).toMatchObject({ ownProgress: false, lookArrow: false });
  });

  it('gives visitors, signed in or not, the defaults for everything but the language', () => {
    const expected = { markerSize: 1, labels: 'auto', ownProgress: false, lookArrow: false, language: 'ru' };
    expect(effectiveSettings(null, chosen)).toEqual(expected);
    expect(effectiveSettings(visitor, chosen)).toEqual(expected);
  });

  it('gives admins (pro or not) neither the pro settings nor own progress or the arrow', () => {
    const expected = { markerSize: 1, labels: 'auto', ownProgress: false, lookArrow: false, language: 'ru' };
    expect(effectiveSettings(admin, chosen)).toEqual(expected);
    expect(effectiveSettings(proAdmin, chosen)).toEqual(expected);
  });

  it('reads the stored settings by default', () => {
    updateSettings({ markerSize: 0.75, lookArrow: false });
    expect(effectiveSettings(pro)).toMatchObject({ markerSize: 0.75, lookArrow: false });
    expect(effectiveSettings(visitor)).toMatchObject({ markerSize: 1, lookArrow: false });
  });
});

describe('the top bar language switch', () => {
  it('updates settings.language and keeps the other stored settings', async () => {
    updateSettings({ markerSize: 1.5, labels: 'hover', lookArrow: false });
    await setLanguage('ru');
    expect(settings.language).toBe('ru');
    expect(storedSettings()).toEqual({ ...DEFAULT_SETTINGS, markerSize: 1.5, labels: 'hover', lookArrow: false, language: 'ru' });
    expect(settings.markerSize).toBe(1.5);
    await setLanguage('en');
    expect(settings.language).toBe('en');
    expect(storedSettings()).toMatchObject({ markerSize: 1.5, labels: 'hover', language: 'en' });
  });
});

describe('another tab', () => {
  it("a change is written over what is stored now: another tab's newer choices stay", () => {
    updateSettings({ markerSize: 2, labels: 'all' });
    // Another tab, which had loaded the settings before, unticks the look arrow (and changed nothing else).
    storage.data.set(SETTINGS_KEY, JSON.stringify({ ...DEFAULT_SETTINGS, markerSize: 2, labels: 'all', lookArrow: false }));
    updateSettings({ ownProgress: false });
    expect(storedSettings()).toEqual({ ...DEFAULT_SETTINGS, markerSize: 2, labels: 'all', lookArrow: false, ownProgress: false });
    expect({ ...settings }).toEqual({ ...DEFAULT_SETTINGS, markerSize: 2, labels: 'all', lookArrow: false, ownProgress: false });
  });

  it("another tab's language stays when this one changes something else", () => {
    storage.data.set(SETTINGS_KEY, JSON.stringify({ ...DEFAULT_SETTINGS, language: 'ru' }));
    updateSettings({ markerSize: 1.5 });
    expect(storedSettings()).toEqual({ ...DEFAULT_SETTINGS, markerSize: 1.5, language: 'ru' });
  });

  it('a storage that keeps nothing still keeps this page its changes', () => {
    setStorageBackend({ getItem: () => null, setItem: () => undefined, removeItem: () => undefined });
    updateSettings({ markerSize: 2 });
    updateSettings({ labels: 'hover' });
    expect({ ...settings }).toMatchObject({ markerSize: 2, labels: 'hover' });
  });
});
