/**
 * The API a map page calls, mocked for component tests (msw): the factory manifest, a marker
 * list, the quest and item caches and the quest → maps lookup. Tests pass only what they vary.
 */
import { http, HttpResponse } from 'msw';
import type { Item, Quest } from '../../../domain/quests';
import type { TileManifest } from '../../../domain/tiles';

export const TEST_API_BASE = 'http://raidmap.test';

export const factoryManifest: TileManifest = {
  map: 'factory', version: 'abc', tileSize: 256, minZ: 0, maxZ: 8, prebuiltMaxZ: 3,
  width: 3600, height: 3600, layers: ['basement', 'main', 'level2', 'level3'], format: 'webp',
};

export interface MapApiFixture {
  markers: unknown[];
  quests?: Quest[];
  items?: Item[];
  questMaps?: Record<string, string[]>;
}

export function mapApiHandlers({ markers, quests = [], items = [], questMaps = {} }: MapApiFixture) {
  const base = TEST_API_BASE;
  return [
    http.get(`${base}/tiles/factory/manifest.json`, () => HttpResponse.json(factoryManifest)),
    http.get(`${base}/api/be/markers/list`, () => HttpResponse.json({ markers })),
    http.get(`${base}/api/be/quests`, () => HttpResponse.json({ quests })),
    http.get(`${base}/api/be/items`, () => HttpResponse.json({ items })),
    http.get(`${base}/api/be/quests/maps`, () => HttpResponse.json({ maps: questMaps })),
  ];
}
