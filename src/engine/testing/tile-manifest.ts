/** A tile manifest of a map as the server would write it (version `v3`, levels 0–7, 0–3 prebuilt), for tests. */
import { MAPS } from '../../domain/maps';
import type { TileManifest } from '../../domain/tiles';

export function testTileManifest(map: keyof typeof MAPS): TileManifest {
  return {
    map,
    version: 'v3',
    tileSize: 256,
    minZ: 0,
    maxZ: 7,
    prebuiltMaxZ: 3,
    width: MAPS[map].size.width,
    height: MAPS[map].size.height,
    layers: [...MAPS[map].layers],
    format: 'webp',
  };
}
