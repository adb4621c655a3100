/**
 * Rasterising and encoding. resvg renders in a pool of child processes (render-pool.ts: a
 * resvg panic aborts its process, and must not take the server with it); sharp encodes on
 * the libuv thread pool, so the event loop only splices strings and moves buffers.
 */
import type { ResvgRenderOptions } from '@resvg/resvg-js';
import sharp from 'sharp';
import { FONT_OPTIONS } from './fonts';
import { renderPool } from './render-pool';
import { drawingPixels, regionSvg, type LayerSvg, type Region } from './svg-doc';
import type { PixelRect } from './tile-math';

/** RGBA pixels, premultiplied by alpha (as resvg leaves them). */
export interface RgbaImage {
  width: number;
  height: number;
  pixels: Buffer;
}


export function renderOptions(layer: LayerSvg): ResvgRenderOptions {
  return {
    fitTo: { mode: 'original' },
    // System fonts cost a few ms a render: load them only when there is text to draw
    // (normalised layers have none: their text is paths).
    font: layer.hasText ? FONT_OPTIONS : { loadSystemFonts: false },
    shapeRendering: 2,
    textRendering: 1,
    imageRendering: 0,
    logLevel: 'off',
  };
}

/**
 * Draws a map-pixel region of one layer. A layer missing from the source draws as
 * transparent, and so does the part of the region outside the drawing's place on the map
 * (whatever the drawing has beyond its viewBox). Rejects (the server lives on) when resvg
 * crashes or hangs on the region.
 */
export async function renderRegion(layer: LayerSvg, region: Region, mapSize: { width: number; height: number }): Promise<RgbaImage> {
  const { outWidth: width, outHeight: height } = region;
  const blank = (): RgbaImage => ({ width, height, pixels: Buffer.alloc(Math.max(0, width * height * 4)) });
  if (!layer.found || width <= 0 || height <= 0) return blank();
  const inside = drawingPixels(layer, region, mapSize);
  if (inside && (inside.right <= inside.left || inside.bottom <= inside.top)) return blank();
  const label = `a ${width}×${height} px region (map ${+region.mapX.toFixed(2)}, ${+region.mapY.toFixed(2)} at ${region.scale}×)`;
  const image = await renderPool().render(regionSvg(layer, region, mapSize), renderOptions(layer), label);
  if (image.width !== width || image.height !== height) {
    throw new Error(`resvg drew ${image.width}×${image.height} px where ${width}×${height} px were asked`);
  }
  if (inside) clearOutside(image.pixels, width, height, inside);
  return { width, height, pixels: image.pixels };
}

/** Makes every pixel outside the rectangle (right and bottom exclusive) transparent. */
function clearOutside(pixels: Buffer, width: number, height: number, r: { left: number; top: number; right: number; bottom: number }): void {
  const row = width * 4;
  pixels.fill(0, 0, r.top * row);
  pixels.fill(0, r.bottom * row, height * row);
  for (let y = r.top; y < r.bottom; y++) {
    pixels.fill(0, y * row, y * row + r.left * 4);
    pixels.fill(0, y * row + r.right * 4, (y + 1) * row);
  }
}

/** Whether every pixel of the rectangle is fully transparent. */
export function isTransparent(image: RgbaImage, rect: PixelRect): boolean {
  const { pixels, width } = image;
  for (let row = rect.top; row < rect.top + rect.height; row++) {
    const rowStart = (row * width + rect.left) * 4 + 3;
    const rowEnd = rowStart + rect.width * 4;
    for (let i = rowStart; i < rowEnd; i += 4) if (pixels[i] !== 0) return false;
  }
  return true;
}

const WEBP = { quality: 86, alphaQuality: 90, effort: 2 } as const;

const emptyTiles = new Map<string, Promise<Buffer>>();

/** A fully transparent WebP of the given size (tiny; shared). */
export function transparentWebp(width: number, height: number): Promise<Buffer> {
  const key = `${width}x${height}`;
  let tile = emptyTiles.get(key);
  if (!tile) {
    tile = sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).webp({ lossless: true }).toBuffer();
    emptyTiles.set(key, tile);
  }
  return tile;
}

/** Cuts one tile out of a rendered image and encodes it as WebP with alpha. */
export async function encodeTile(image: RgbaImage, rect: PixelRect): Promise<Buffer> {
  if (isTransparent(image, rect)) return transparentWebp(rect.width, rect.height);
  return sharp(image.pixels, { raw: { width: image.width, height: image.height, channels: 4, premultiplied: true } })
    .extract(rect)
    .webp(WEBP)
    .toBuffer();
}
