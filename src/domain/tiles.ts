/**
 * The tile pyramid contract shared by the server (which cuts and serves tiles) and the
 * engine (which picks and draws them). One pyramid per SVG layer (floor) of a map.
 *
 * Pyramid level z draws the map at scale 2^(z − Z_ONE_TO_ONE) tile pixels per map pixel:
 * z = 3 is 1:1, z = 0 is 1/8, z = 8 is 32×. Tiles are TILE_SIZE square; the last column and
 * row are cut short at the map's edge (a tile never reaches past the map).
 */
import type { MapDefinition } from './maps';

export const TILE_SIZE = 256;
export const Z_ONE_TO_ONE = 3;
export const MIN_TILE_Z = 0;
/** Deepest level ever served: enough for zoom 15 on a 2× display. */
export const MAX_TILE_Z = 8;
/** Levels cut ahead of time (at build or first start); deeper tiles are rendered on demand and cached. */
export const PREBUILT_MAX_Z = 3;

/** Id of the JSON block in a map page's head that holds its tile manifest (server/http/map-page-head.ts). */
export const INLINE_MANIFEST_ID = 'raidmap-tile-manifest';

/** The class of the poster in a map page's HTML (server/http/map-poster.ts writes it, src/ui/map/poster.ts adopts it). */
export const HTML_POSTER_CLASS = 'map-poster--html';
/** The Element Timing identifier of the poster's tiles, written by the server or the page. */
export const POSTER_TIMING = 'map-poster';

export interface TileManifest {
  map: string;
  /** Content hash of the map's source SVG and definition: part of every tile URL, so tiles cache forever. */
  version: string;
  tileSize: number;
  minZ: number;
  maxZ: number;
  prebuiltMaxZ: number;
  width: number;
  height: number;
  layers: string[];
  /** Image format of the tiles: file extension. */
  format: 'webp' | 'png';
}

/** Where a map's current tile manifest is served (`no-cache`: it names the version every tile URL holds). */
export function tileManifestPath(mapId: string): string {
  return `/tiles/${encodeURIComponent(mapId)}/manifest.json`;
}

/** A well-formed tile manifest (the page's and the engine's check of what the server sent). */
export function isTileManifest(value: unknown): value is TileManifest {
  const m = value as TileManifest;
  return (
    !!m && typeof m === 'object' && typeof m.map === 'string' && typeof m.version === 'string' &&
    [m.tileSize, m.minZ, m.maxZ, m.prebuiltMaxZ, m.width, m.height].every(Number.isFinite) &&
    Array.isArray(m.layers) && m.layers.every((l) => typeof l === 'string') && (m.format === 'webp' || m.format === 'png')
  );
}

export function tileScale(z: number): number {
  return 2 ** (z - Z_ONE_TO_ONE);
}

/** Deepest pyramid level this map needs: its max zoom on a 2× display, capped at MAX_TILE_Z. */
export function maxTileZ(map: Pick<MapDefinition, 'maxZoom'>): number {
  return Math.min(MAX_TILE_Z, Math.ceil(Z_ONE_TO_ONE + Math.log2(map.maxZoom * 2)));
}

export function tileGrid(width: number, height: number, z: number): { cols: number; rows: number } {
  const s = tileScale(z);
  return { cols: Math.ceil((width * s) / TILE_SIZE), rows: Math.ceil((height * s) / TILE_SIZE) };
}

/** The map-pixel rectangle a tile covers (clipped to the map). */
export function tileBounds(width: number, height: number, z: number, x: number, y: number) {
  const span = TILE_SIZE / tileScale(z);
  const minX = x * span;
  const minY = y * span;
  return { minX, minY, maxX: Math.min(width, minX + span), maxY: Math.min(height, minY + span) };
}

export function tilePath(m: Pick<TileManifest, 'map' | 'version' | 'format'>, layer: string, z: number, x: number, y: number): string {
  return `/tiles/${m.map}/${m.version}/${layer}/${z}/${x}/${y}.${m.format}`;
}
