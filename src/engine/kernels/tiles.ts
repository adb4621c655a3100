/**
 * Tile planning: which pyramid level to draw, which tiles cover the viewport (centre-out),
 * and which already-loaded tiles stand in for missing ones. Pure: returns plans, no effects.
 */
import type { TileRect } from '../../domain/tile-bundle';
import { TILE_SIZE, Z_ONE_TO_ONE, tileGrid, tileScale, type TileManifest } from '../../domain/tiles';
import type { CameraView } from './camera-view';
import { visibleMapRect, type ViewportSize } from './camera';

export interface TileCoord {
  z: number;
  x: number;
  y: number;
}

export function tileKey(layer: string, z: number, x: number, y: number): string {
  return `${layer}/${z}/${x}/${y}`;
}

/**
 * Numeric cache key of a tile of a floor: no string building in the per-frame planning.
 * x and y stay below 4096 (MAX_TILE_Z on a map under 32,768 px), z below 16.
 */
export function numKey(floorIndex: number, z: number, x: number, y: number): number {
  return ((floorIndex * 16 + z) * 4096 + x) * 4096 + y;
}

/** Inverse of numKey: the floor index and the tile's coordinates. */
export function splitNumKey(key: number): { floor: number; z: number; x: number; y: number } {
  const y = key % 4096;
  const x = Math.floor(key / 4096) % 4096;
  const floorAndZ = Math.floor(key / (4096 * 4096));
  return { floor: Math.floor(floorAndZ / 16), z: floorAndZ % 16, x, y };
}


/**
 * How far below the exact level a level may be used before the next (sharper) one is picked:
 * with 0.25, a tile is drawn at most 2^0.25 ≈ 1.19× enlarged on the device.
 */
export const SHARPNESS_SLACK = 0.25;

/** Pyramid level for a zoom on a display: texture pixels ≥ ~0.84 device pixels, clamped to the manifest. */
export function pickTileZ(zoom: number, dpr: number, manifest: Pick<TileManifest, 'minZ' | 'maxZ'>): number {
  const devicePerMap = Math.max(1e-9, zoom * (Number.isFinite(dpr) && dpr > 0 ? dpr : 1));
  const exact = Z_ONE_TO_ONE + Math.log2(devicePerMap);
  const z = Math.ceil(exact - SHARPNESS_SLACK);
  return Math.min(manifest.maxZ, Math.max(manifest.minZ, z));
}

/** A visible range (its rectangle: src/domain/tile-bundle.ts; empty when minX > maxX) and its tiles. */
export interface TileRange extends TileRect {
  /** Tiles of the range, nearest to the viewport centre first. */
  tiles: TileCoord[];
}

/** Tiles that cover the viewport at the level picked for zoom × dpr, sorted centre-out, clipped to the map. */
export function visibleTiles(
  view: CameraView,
  viewportCss: ViewportSize,
  dpr: number,
  manifest: Pick<TileManifest, 'minZ' | 'maxZ' | 'width' | 'height'>,
  z = pickTileZ(view.zoom, dpr, manifest),
): TileRange {
  const rect = visibleMapRect(view, viewportCss);
  const span = TILE_SIZE / tileScale(z);
  const grid = tileGrid(manifest.width, manifest.height, z);
  const minX = Math.max(0, Math.floor(rect.minX / span));
  const minY = Math.max(0, Math.floor(rect.minY / span));
  // A viewport edge exactly on a tile boundary does not need the next tile.
  const maxX = Math.min(grid.cols - 1, Math.ceil(rect.maxX / span) - 1);
  const maxY = Math.min(grid.rows - 1, Math.ceil(rect.maxY / span) - 1);
  const tiles: TileCoord[] = [];
  for (let y = minY; y <= maxY; y++) for (let x = minX; x <= maxX; x++) tiles.push({ z, x, y });
  const cx = view.x / span;
  const cy = view.y / span;
  const dist = (t: TileCoord) => (t.x + 0.5 - cx) ** 2 + (t.y + 0.5 - cy) ** 2;
  tiles.sort((a, b) => dist(a) - dist(b) || a.y - b.y || a.x - b.x);
  return { z, minX, maxX, minY, maxY, tiles };
}

export function parentTile(t: TileCoord): TileCoord {
  return { z: t.z - 1, x: Math.floor(t.x / 2), y: Math.floor(t.y / 2) };
}

export function childTiles(t: TileCoord, grid: { cols: number; rows: number }): TileCoord[] {
  const out: TileCoord[] = [];
  for (let dy = 0; dy < 2; dy++) {
    for (let dx = 0; dx < 2; dx++) {
      const x = t.x * 2 + dx;
      const y = t.y * 2 + dy;
      if (x < grid.cols && y < grid.rows) out.push({ z: t.z + 1, x, y });
    }
  }
  return out;
}

/** Every tile of the pyramid's coarsest level (a few: the whole map in one screenful or less). */
export function baseTiles(manifest: Pick<TileManifest, 'minZ' | 'width' | 'height'>): TileCoord[] {
  const z = manifest.minZ;
  const grid = tileGrid(manifest.width, manifest.height, z);
  const out: TileCoord[] = [];
  for (let y = 0; y < grid.rows; y++) for (let x = 0; x < grid.cols; x++) out.push({ z, x, y });
  return out;
}

export interface CoverPlan {
  /** Tiles to draw, coarse levels first (so finer ones paint over them). */
  draw: TileCoord[];
  /** Wanted tiles not loaded yet (to fetch). */
  missing: TileCoord[];
  /** Missing tiles with no loaded parent or child to stand in: a blank area until they load. */
  uncovered: TileCoord[];
}

/** Numeric key of a tile within one layer (x, y < 4096, z < 16, as numKey). */
const coordKey = (t: TileCoord) => (t.z * 4096 + t.x) * 4096 + t.y;

/**
 * For each wanted tile: draw it if loaded; otherwise draw the nearest loaded ancestor (up to
 * `maxUp` levels) and any loaded descendants (up to `maxDown` levels), so the area is never blank
 * while the wanted tile loads (Leaflet's grid layer behaviour). Runs on every camera change
 * that needs other tiles: numeric keys and two reused arrays, no per-tile strings or closures.
 */
export function planCover(
  wanted: TileCoord[],
  isLoaded: (t: TileCoord) => boolean,
  manifest: Pick<TileManifest, 'minZ' | 'maxZ' | 'width' | 'height'>,
  maxUp = 4,
  maxDown = 2,
): CoverPlan {
  const draw = new Map<number, TileCoord>();
  const missing: TileCoord[] = [];
  const uncovered: TileCoord[] = [];
  let level: TileCoord[] = [];
  let deeper: TileCoord[] = [];
  for (const t of wanted) {
    if (isLoaded(t)) {
      draw.set(coordKey(t), t);
      continue;
    }
    missing.push(t);
    let covered = false;
    let partly = false;
    // Children first: sharper than a parent; a fully covered area needs no parent.
    level.length = 0;
    level.push(t);
    for (let d = 1; d <= maxDown && t.z + d <= manifest.maxZ; d++) {
      const grid = tileGrid(manifest.width, manifest.height, t.z + d);
      deeper.length = 0;
      let loaded = 0;
      for (const c of level) {
        for (let dy = 0; dy < 2; dy++) {
          for (let dx = 0; dx < 2; dx++) {
            const x = c.x * 2 + dx;
            const y = c.y * 2 + dy;
            if (x >= grid.cols || y >= grid.rows) continue;
            const child = { z: c.z + 1, x, y };
            deeper.push(child);
            if (isLoaded(child)) {
              draw.set(coordKey(child), child);
              loaded++;
            }
          }
        }
      }
      [level, deeper] = [deeper, level];
      if (loaded > 0) partly = true;
      if (loaded === level.length && level.length > 0) {
        covered = true;
        break;
      }
    }
    if (covered) continue;
    let p = t;
    let parentFound = false;
    for (let u = 1; u <= maxUp && p.z > manifest.minZ; u++) {
      p = parentTile(p);
      if (isLoaded(p)) {
        draw.set(coordKey(p), p);
        parentFound = true;
        break;
      }
    }
    if (!parentFound && !partly) uncovered.push(t);
  }
  const ordered = [...draw.values()].sort((a, b) => a.z - b.z);
  return { draw: ordered, missing, uncovered };
}
