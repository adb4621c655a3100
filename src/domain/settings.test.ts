import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, mergeSettings, parseSettings, preferredLanguage, startLanguage, storedLanguage } from './settings';

describe('map settings', () => {
  it('gives the defaults for nothing stored or something unreadable', () => {
    expect(parseSettings(null)).toEqual(DEFAULT_SETTINGS);
    expect(parseSettings('not json')).toEqual(DEFAULT_SETTINGS);
    expect(parseSettings('[1,2]')).toEqual(DEFAULT_SETTINGS);
    expect(parseSettings('null')).toEqual(DEFAULT_SETTINGS);
  });

  it('keeps each valid field and defaults each wrong one on its own', () => {
    const stored = JSON.stringify({ markerSize: 1.5, labels: 'loud', ownProgress: false, lookArrow: 'yes', language: 'ru', extra: 1 });
    expect(parseSettings(stored)).toEqual({ markerSize: 1.5, labels: 'auto', ownProgress: false, lookArrow: true, language: 'ru' });
  });

  it('clamps the marker size to its range and step', () => {
    expect(parseSettings('{"markerSize": 99}').markerSize).toBe(2);
    expect(parseSettings('{"markerSize": 0}').markerSize).toBe(0.5);
    expect(parseSettings('{"markerSize": 1.3}').markerSize).toBe(1.25);
    expect(parseSettings('{"markerSize": "big"}').markerSize).toBe(1);
  });

  it('merges a change with the same rules', () => {
    expect(mergeSettings(DEFAULT_SETTINGS, { labels: 'all', markerSize: 7 })).toEqual({ ...DEFAULT_SETTINGS, labels: 'all', markerSize: 2 });
  });
});

describe('the language the UI starts in', () => {
  it('takes the first of the browser\'s languages that is ours, by its primary subtag', () => {
    expect(preferredLanguage(['ru-RU', 'en-US'])).toBe('ru');
    expect(preferredLanguage(['uk', 'RU', 'en'])).toBe('ru');
    expect(preferredLanguage(['de-DE', 'en-GB', 'ru'])).toBe('en');
    expect(preferredLanguage(['en_US'])).toBe('en');
    expect(preferredLanguage(['de', 'fr'])).toBeNull();
    expect(preferredLanguage([])).toBeNull();
    expect(preferredLanguage(undefined)).toBeNull();
    // "rus" or "russian" are not a subtag of ours.
    expect(preferredLanguage(['rus', 'english'])).toBeNull();
  });

  it('reads the chosen language only where one was chosen', () => {
    expect(storedLanguage(JSON.stringify({ language: 'ru', markerSize: 2 }))).toBe('ru');
    expect(storedLanguage(JSON.stringify({ markerSize: 2 }))).toBeNull();
    expect(storedLanguage(JSON.stringify({ language: 'de' }))).toBeNull();
    expect(storedLanguage('{not json')).toBeNull();
    expect(storedLanguage('null')).toBeNull();
    expect(storedLanguage(null)).toBeNull();
  });

  it('is the user\'s choice, else the browser\'s, else English', () => {
    expect(startLanguage(JSON.stringify({ language: 'en' }), ['ru-RU'])).toBe('en');
    expect(startLanguage(null, ['ru-RU'])).toBe('ru');
    expect(startLanguage(JSON.stringify({ markerSize: 2 }), ['ru'])).toBe('ru');
    expect(startLanguage(null, ['ja'])).toBe('en');
  });
});
