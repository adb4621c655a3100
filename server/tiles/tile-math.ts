/**
 * Pixel math of the tile pyramid (server side), on top of the shared contract in
 * src/domain/tiles.ts. Level z of a map is an image of levelPixelSize(width, height, z)
 * pixels; tile (x, y) is the 256-px square at (x·256, y·256) of that image, cut short at
 * the right and bottom edges. Tiles are rendered in metatiles of METATILE × METATILE tiles.
 */
import { MIN_TILE_Z, TILE_SIZE, tileGrid, tileScale } from '../../src/domain/tiles';

/** Tiles per metatile side: one render makes up to 4 × 4 tiles. */
export const METATILE = 4;

export interface PixelRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface TileAddress {
  z: number;
  x: number;
  y: number;
}

/** Size in pixels of the whole map drawn at level z (rounded up, so the edge tiles hold the map's edge). */
export function levelPixelSize(mapWidth: number, mapHeight: number, z: number): { width: number; height: number } {
  const s = tileScale(z);
  return { width: Math.ceil(mapWidth * s - 1e-9), height: Math.ceil(mapHeight * s - 1e-9) };
}

/** Whether (z, x, y) is a tile of this map's pyramid (z within [MIN_TILE_Z, maxZ], x and y inside the grid). */
export function isTileInRange(mapWidth: number, mapHeight: number, maxZ: number, t: TileAddress): boolean {
  if (!Number.isInteger(t.z) || !Number.isInteger(t.x) || !Number.isInteger(t.y)) return false;
  if (t.z < MIN_TILE_Z || t.z > maxZ || t.x < 0 || t.y < 0) return false;
  const { cols, rows } = tileGrid(mapWidth, mapHeight, t.z);
  return t.x < cols && t.y < rows;
}

/** The pixels of level z that tile (x, y) holds: 256 square, or less at the right and bottom edges. */
export function tilePixelRect(mapWidth: number, mapHeight: number, t: TileAddress): PixelRect {
  const level = levelPixelSize(mapWidth, mapHeight, t.z);
  const left = t.x * TILE_SIZE;
  const top = t.y * TILE_SIZE;
  return { left, top, width: Math.min(TILE_SIZE, level.width - left), height: Math.min(TILE_SIZE, level.height - top) };
}

export interface Metatile {
  z: number;
  /** Metatile column and row: tiles x in [mx·4, mx·4 + 4). */
  mx: number;
  my: number;
  /** The pixels of level z it covers. */
  rect: PixelRect;
  /** The tiles inside it (those of the grid only), row by row. */
  tiles: TileAddress[];
}

export function metatileOf(mapWidth: number, mapHeight: number, t: TileAddress): Metatile {
  return metatileAt(mapWidth, mapHeight, t.z, Math.floor(t.x / METATILE), Math.floor(t.y / METATILE));
}

export function metatileAt(mapWidth: number, mapHeight: number, z: number, mx: number, my: number): Metatile {
  const { cols, rows } = tileGrid(mapWidth, mapHeight, z);
  const level = levelPixelSize(mapWidth, mapHeight, z);
  const tiles: TileAddress[] = [];
  for (let y = my * METATILE; y < Math.min(rows, (my + 1) * METATILE); y++) {
    for (let x = mx * METATILE; x < Math.min(cols, (mx + 1) * METATILE); x++) tiles.push({ z, x, y });
  }
  const left = mx * METATILE * TILE_SIZE;
  const top = my * METATILE * TILE_SIZE;
  const rect = {
    left,
    top,
    width: Math.max(0, Math.min(METATILE * TILE_SIZE, level.width - left)),
    height: Math.max(0, Math.min(METATILE * TILE_SIZE, level.height - top)),
  };
  return { z, mx, my, rect, tiles };
}

/** Every metatile of level z, row by row. */
export function metatilesOfLevel(mapWidth: number, mapHeight: number, z: number): Metatile[] {
  const { cols, rows } = tileGrid(mapWidth, mapHeight, z);
  const out: Metatile[] = [];
  for (let my = 0; my < Math.ceil(rows / METATILE); my++) {
    for (let mx = 0; mx < Math.ceil(cols / METATILE); mx++) out.push(metatileAt(mapWidth, mapHeight, z, mx, my));
  }
  return out;
}
