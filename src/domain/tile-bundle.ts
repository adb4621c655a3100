/**
 * A tile bundle (issue 11, the first second): the tiles of a rectangle of one pyramid level, for
 * one or more floors, in one response. A map's first view needs about fifty tiles; each
 * `fetch()` of its own costs the render worker's thread about 2 ms before its WebGL context
 * (docs/PERFORMANCE.md, "Fourteenth session"), and the server and the network service as much
 * again. The bundle is one request; the worker cuts it into the same images.
 *
 * Address: `/tiles/{map}/{version}/bundle/{layers}/{z}/{x0}-{x1}/{y0}-{y1}.bin`, layers joined by
 * commas. Only prebuilt levels (z ≤ prebuiltMaxZ) are bundled: they are on disk once the map's
 * build is done, so a bundle never waits for a render.
 *
 * Body: the magic `RMTB`, the entry count (u32, little-endian), then per entry its byte length
 * (u32; 0 for a tile the server did not have) and its bytes. Entries run layer by layer, then
 * row by row, then column by column (`bundleEntries`). Pure: the server writes it, the render
 * worker reads it.
 */
import type { TileManifest } from './tiles';

/** The most tiles one bundle may hold (a 1920×1080 first view of four floors is about 100). */
export const MAX_BUNDLE_TILES = 256;
const MAGIC = [0x52, 0x4d, 0x54, 0x42]; // "RMTB"

/** A rectangle of one pyramid level: inclusive columns and rows. */
export interface TileRect {
  z: number;
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
}

export interface BundleEntry {
  layer: string;
  z: number;
  x: number;
  y: number;
}

/** The tiles of a bundle, in its order. */
export function bundleEntries(layers: readonly string[], range: TileRect): BundleEntry[] {
  const entries: BundleEntry[] = [];
  for (const layer of layers) {
    for (let y = range.minY; y <= range.maxY; y++) {
      for (let x = range.minX; x <= range.maxX; x++) entries.push({ layer, z: range.z, x, y });
    }
  }
  return entries;
}

/** How many tiles a bundle of `layers` over `range` holds. */
export function bundleSize(layers: readonly string[], range: TileRect): number {
  return layers.length * (range.maxX - range.minX + 1) * (range.maxY - range.minY + 1);
}

/** The bundle's path (absolute from the server's root, as tilePath). */
export function tileBundlePath(m: Pick<TileManifest, 'map' | 'version'>, layers: readonly string[], range: TileRect): string {
  return `/tiles/${m.map}/${m.version}/bundle/${layers.join(',')}/${range.z}/${range.minX}-${range.maxX}/${range.minY}-${range.maxY}.bin`;
}

/** The body of a bundle: `tiles[i]` is entry i's bytes, null for a tile not had. */
export function encodeTileBundle(tiles: readonly (Uint8Array | null)[]): Uint8Array {
  let size = 8;
  for (const t of tiles) size += 4 + (t?.byteLength ?? 0);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out.set(MAGIC, 0);
  view.setUint32(4, tiles.length, true);
  let at = 8;
  for (const t of tiles) {
    view.setUint32(at, t?.byteLength ?? 0, true);
    at += 4;
    if (t) {
      out.set(t, at);
      at += t.byteLength;
    }
  }
  return out;
}

/**
 * The entries of a bundle's body: views into `buffer` (no copies), null for a tile the server did
 * not have. Throws on a body that is not a bundle or is cut short.
 */
export function decodeTileBundle(buffer: ArrayBuffer): (Uint8Array | null)[] {
  if (buffer.byteLength < 8) throw new Error(`not a tile bundle: ${buffer.byteLength} bytes`);
  const bytes = new Uint8Array(buffer);
  if (MAGIC.some((b, i) => bytes[i] !== b)) throw new Error('not a tile bundle: wrong magic');
  const view = new DataView(buffer);
  const count = view.getUint32(4, true);
  if (count > MAX_BUNDLE_TILES) throw new Error(`tile bundle of ${count} tiles, more than ${MAX_BUNDLE_TILES}`);
  const out: (Uint8Array | null)[] = [];
  let at = 8;
  for (let i = 0; i < count; i++) {
    if (at + 4 > buffer.byteLength) throw new Error(`tile bundle cut short at entry ${i} of ${count}`);
    const length = view.getUint32(at, true);
    at += 4;
    if (at + length > buffer.byteLength) throw new Error(`tile bundle cut short in entry ${i} of ${count}`);
    out.push(length === 0 ? null : new Uint8Array(buffer, at, length));
    at += length;
  }
  if (at !== buffer.byteLength) throw new Error(`tile bundle has ${buffer.byteLength - at} bytes after its ${count} entries`);
  return out;
}
