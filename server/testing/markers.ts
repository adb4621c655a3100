/** A plain stored marker for server tests: factory, Loot / Safe, level 1, no text or links. */
import type { Marker } from '../../src/domain/marker';

export function testMarker(uid: string, overrides: Partial<Marker> = {}): Marker {
  return {
    uid,
    map: 'factory',
    category: 'Loot',
    subCategory: 'Safe',
    level: 1,
    geometry: { x: 10, y: 20 },
    name: `Marker ${uid}`,
    desc: '',
    imgs: [],
    name_l10n: {},
    desc_l10n: {},
    questUid: null,
    itemsUid: [],
    ...overrides,
  };
}
