import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, mergeSettings, parseSettings } from './settings';

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
