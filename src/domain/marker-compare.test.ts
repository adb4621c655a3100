import { describe, expect, it } from 'vitest';
import type { Marker } from './marker';
import { sameMarker, stableJson } from './marker-compare';

const base = { uid: 'a', map: 'customs', name: 'Safe', name_l10n: { en: 'Safe', ru: 'Сейф' }, level: 1, version: 3 } as unknown as Marker;

describe('sameMarker', () => {
  it('is true for the same content, whatever the key order or the version', () => {
    expect(sameMarker(base, { ...base })).toBe(true);
    expect(sameMarker(base, { version: 4, level: 1, name_l10n: { ru: 'Сейф', en: 'Safe' }, name: 'Safe', map: 'customs', uid: 'a' } as unknown as Marker)).toBe(true);
  });

  it('is false for any field changed, added or removed', () => {
    expect(sameMarker(base, { ...base, name: 'Safe ' })).toBe(false);
    expect(sameMarker(base, { ...base, name_l10n: { en: 'Safe' } })).toBe(false);
    expect(sameMarker(base, { ...base, questUid: 'q1' })).toBe(false);
  });
});

describe('stableJson', () => {
  it('sorts object keys at every depth and keeps array order', () => {
    expect(stableJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
  });
});
