/**
 * The icons' image, without PixiJS: the server's atlas PNG when it loads with the layout's size,
 * else every subcategory's SVG drawn into one canvas (a failed one as a plain badge). The main
 * thread's engine makes its texture from it (icon-atlas.ts); a render worker gets it as an
 * ImageBitmap where it cannot use the PNG itself (SVGs decode only in the page).
 */
import { SUBCATEGORIES, slug } from '../domain/categories';
import { ICON_CELL, iconAtlasSize, iconCell } from '../domain/icon-atlas';

/** Pixel size of one icon cell in the atlas (icons draw at ≤ 64 device px). */
export const ATLAS_CELL = ICON_CELL;

async function loadImage(url: string, size?: number): Promise<HTMLImageElement> {
  const img = size ? new Image(size, size) : new Image();
  img.decoding = 'async';
  img.src = url;
  await img.decode();
  return img;
}

/** The atlas PNG at `url`, checked against the layout's size (throws with the reason when it is not usable). */
export async function loadAtlasImage(url: string): Promise<HTMLImageElement> {
  const img = await loadImage(url);
  checkAtlasSize(img.naturalWidth, img.naturalHeight);
  return img;
}

/** Throws unless an atlas image of this size fits the layout of src/domain/icon-atlas.ts. */
export function checkAtlasSize(width: number, height: number): void {
  const expected = iconAtlasSize();
  if (width !== expected.width || height !== expected.height) {
    throw new Error(`is ${width} × ${height} px, not ${expected.width} × ${expected.height}`);
  }
}

/** Every subcategory's SVG from `iconUrl` drawn into one canvas; `failed`: the slugs drawn as badges. */
export async function drawSvgAtlasCanvas(iconUrl: (slug: string) => string): Promise<{ canvas: HTMLCanvasElement; failed: string[] }> {
  const size = iconAtlasSize();
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('icon atlas: no 2D canvas context');
  const slugs = SUBCATEGORIES.map((s) => slug(s.id));
  const images = await Promise.allSettled(slugs.map((s) => loadImage(iconUrl(s), ATLAS_CELL)));
  const failed: string[] = [];
  images.forEach((result, i) => {
    const { x, y } = iconCell(i);
    if (result.status === 'fulfilled') {
      ctx.drawImage(result.value, x, y, ATLAS_CELL, ATLAS_CELL);
    } else {
      failed.push(slugs[i]);
      drawFallback(ctx, x, y);
    }
  });
  if (failed.length) console.warn(`raidmap: icons failed to load, drawn as plain badges: ${failed.join(', ')}`);
  return { canvas, failed };
}

function drawFallback(ctx: CanvasRenderingContext2D, x: number, y: number): void {
  ctx.beginPath();
  ctx.arc(x + ATLAS_CELL / 2, y + ATLAS_CELL / 2, ATLAS_CELL / 2 - 4, 0, Math.PI * 2);
  ctx.fillStyle = '#556070';
  ctx.fill();
  ctx.lineWidth = 4;
  ctx.strokeStyle = '#ffffff';
  ctx.stroke();
}

/** What the console says when the atlas PNG cannot be used. */
export function atlasWarning(atlasUrl: string, error: unknown): string {
  return `raidmap: the icon atlas ${atlasUrl} could not be used (${error instanceof Error ? error.message : 'failed to load'}); drawing the icons from their SVGs`;
}
