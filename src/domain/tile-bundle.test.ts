import { describe, expect, it } from 'vitest';
import { bundleEntries, bundleSize, decodeTileBundle, encodeTileBundle, MAX_BUNDLE_TILES, tileBundlePath } from './tile-bundle';

const bytes = (...values: number[]) => Uint8Array.from(values);
const buffer = (u: Uint8Array) => u.buffer.slice(u.byteOffset, u.byteOffset + u.byteLength) as ArrayBuffer;

describe('tile bundles', () => {
  it('list their tiles layer by layer, then row by row, then column by column', () => {
    const range = { z: 3, minX: 4, maxX: 5, minY: 1, maxY: 2 };
    expect(bundleEntries(['main', 'level2'], range).map((e) => `${e.layer}/${e.z}/${e.x}/${e.y}`)).toEqual([
      'main/3/4/1',
      'main/3/5/1',
      'main/3/4/2',
      'main/3/5/2',
      'level2/3/4/1',
      'level2/3/5/1',
      'level2/3/4/2',
      'level2/3/5/2',
    ]);
    expect(bundleSize(['main', 'level2'], range)).toBe(8);
  });

  it('have an address under the map and version', () => {
    expect(tileBundlePath({ map: 'customs', version: 'abc123' }, ['main', 'underground'], { z: 3, minX: 6, maxX: 12, minY: 3, maxY: 8 })).toBe(
      '/tiles/customs/abc123/bundle/main,underground/3/6-12/3-8.bin',
    );
  });

  it('round-trip their tiles, a missing one as null', () => {
    const tiles = [bytes(1, 2, 3), null, bytes(9), bytes(...Array.from({ length: 300 }, (_, i) => i % 256))];
    const decoded = decodeTileBundle(buffer(encodeTileBundle(tiles)));
    expect(decoded.map((t) => (t ? [...t] : null))).toEqual(tiles.map((t) => (t ? [...t] : null)));
  });

  it('round-trip an empty bundle', () => {
    expect(decodeTileBundle(buffer(encodeTileBundle([])))).toEqual([]);
  });

  it.each([
    ['too short', bytes(0x52, 0x4d, 0x54), /not a tile bundle: 3 bytes/],
    ['wrong magic', bytes(0x52, 0x4d, 0x54, 0x43, 0, 0, 0, 0), /wrong magic/],
    ['an entry length past the end', encodeTileBundle([bytes(1, 2, 3)]).slice(0, 13), /cut short in entry 0/],
    ['an entry header past the end', encodeTileBundle([bytes(1), bytes(2)]).slice(0, 14), /cut short at entry 1/],
    ['bytes after the last entry', Uint8Array.from([...encodeTileBundle([bytes(1)]), 7]), /1 bytes after its 1 entries/],
  ] as const)('refuse a body with %s', (_, body, message) => {
    expect(() => decodeTileBundle(buffer(body))).toThrow(message);
  });

  it('refuse a count over the limit before reading on', () => {
    const body = encodeTileBundle([]);
    new DataView(body.buffer).setUint32(4, MAX_BUNDLE_TILES + 1, true);
    expect(() => decodeTileBundle(buffer(body))).toThrow(/more than 256/);
  });
});
