/**
 * Fetches tiles from the server under test and pastes them into one picture, for the
 * reference renderings of the tile tests.
 */
import sharp, { type OverlayOptions } from 'sharp';
import { tileGrid, tilePath, tileScale, TILE_SIZE, type TileManifest } from '../../src/domain/tiles';

export async function fetchManifest(baseUrl: string, mapId: string): Promise<TileManifest> {
  const response = await fetch(`${baseUrl}/tiles/${mapId}/manifest.json`);
  if (!response.ok) throw new Error(`manifest of ${mapId}: HTTP ${response.status}`);
  return (await response.json()) as TileManifest;
}

export interface MapRect {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/**
 * The map rectangle `rect` (map pixels) as pyramid level z draws it: a PNG at that level's
 * resolution, pasted from the level's tiles.
 */
export async function tileMosaic(baseUrl: string, manifest: TileManifest, layer: string, z: number, rect: MapRect): Promise<Buffer> {
  const s = tileScale(z);
  const grid = tileGrid(manifest.width, manifest.height, z);
  const left = Math.max(0, Math.floor(rect.minX * s));
  const top = Math.max(0, Math.floor(rect.minY * s));
  const right = Math.min(Math.ceil(manifest.width * s), Math.ceil(rect.maxX * s));
  const bottom = Math.min(Math.ceil(manifest.height * s), Math.ceil(rect.maxY * s));
  if (right <= left || bottom <= top) throw new Error(`empty rectangle ${JSON.stringify(rect)}`);
  const firstCol = Math.floor(left / TILE_SIZE);
  const lastCol = Math.min(grid.cols - 1, Math.floor((right - 1) / TILE_SIZE));
  const firstRow = Math.floor(top / TILE_SIZE);
  const lastRow = Math.min(grid.rows - 1, Math.floor((bottom - 1) / TILE_SIZE));

  const pieces: OverlayOptions[] = [];
  for (let y = firstRow; y <= lastRow; y += 1) {
    for (let x = firstCol; x <= lastCol; x += 1) {
      const url = `${baseUrl}${tilePath(manifest, layer, z, x, y)}`;
      const response = await fetch(url);
      if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
      const input = Buffer.from(await response.arrayBuffer());
      pieces.push({ input, left: (x - firstCol) * TILE_SIZE, top: (y - firstRow) * TILE_SIZE });
    }
  }
  const sheet = await sharp({
    create: {
      width: (lastCol - firstCol + 1) * TILE_SIZE,
      height: (lastRow - firstRow + 1) * TILE_SIZE,
      channels: 4,
      background: { r: 0, g: 0, b: 0, alpha: 1 },
    },
  })
    .composite(pieces)
    .png()
    .toBuffer();
  return sharp(sheet)
    .extract({ left: left - firstCol * TILE_SIZE, top: top - firstRow * TILE_SIZE, width: right - left, height: bottom - top })
    .png()
    .toBuffer();
}

/** Stretches a picture to the given size with bilinear filtering (what a GPU does to a low-zoom texture). */
export function stretch(png: Buffer, width: number, height: number): Promise<Buffer> {
  return sharp(png).resize(width, height, { kernel: 'linear', fit: 'fill' }).png().toBuffer();
}
