/**
 * One texture for every marker icon, and each icon a frame of it, so all marker sprites batch
 * together. The server's atlas PNG (src/domain/icon-atlas.ts) is uploaded as it is; when it
 * cannot be had (an older server, a failed request, a size that is not the layout's), the SVG
 * of each subcategory is drawn into one canvas instead, as before the atlas existed.
 */
import { CanvasSource, ImageSource, Rectangle, Texture, type TextureSource } from 'pixi.js';
import { SUBCATEGORIES, slug } from '../domain/categories';
import { ICON_CELL, iconAtlasSize, iconCell } from '../domain/icon-atlas';

/** Pixel size of one icon cell in the atlas (icons draw at ≤ 64 device px). */
export const ATLAS_CELL = ICON_CELL;

export interface IconAtlas {
  texture: Texture;
  /** Frame per icon index (index into SUBCATEGORIES). */
  frames: Texture[];
  /** Slugs whose SVG failed to load (drawn as a plain badge instead; empty with the server's atlas). */
  failed: string[];
  /** Where the icons came from: the server's atlas PNG, or the SVGs drawn in the page. */
  from: 'atlas' | 'svg';
  destroy(): void;
}

async function loadImage(url: string, size?: number): Promise<HTMLImageElement> {
  const img = size ? new Image(size, size) : new Image();
  img.decoding = 'async';
  img.src = url;
  await img.decode();
  return img;
}

function atlasOf(source: TextureSource, failed: string[], from: IconAtlas['from']): IconAtlas {
  const texture = new Texture({ source });
  const frames = SUBCATEGORIES.map((_, i) => new Texture({ source, frame: new Rectangle(iconCell(i).x, iconCell(i).y, ATLAS_CELL, ATLAS_CELL) }));
  return {
    texture,
    frames,
    failed,
    from,
    destroy() {
      for (const f of frames) f.destroy(false);
      texture.destroy(true);
    },
  };
}

/**
 * The icons' texture: the server's atlas at `atlasUrl` when given and it loads with the
 * layout's size, otherwise every SVG from `iconUrl` drawn into a canvas.
 */
export async function buildIconAtlas(iconUrl: (slug: string) => string, atlasUrl?: string): Promise<IconAtlas> {
  if (atlasUrl) {
    try {
      const img = await loadImage(atlasUrl);
      const expected = iconAtlasSize();
      if (img.naturalWidth !== expected.width || img.naturalHeight !== expected.height) {
        throw new Error(`is ${img.naturalWidth} × ${img.naturalHeight} px, not ${expected.width} × ${expected.height}`);
      }
      return atlasOf(new ImageSource({ resource: img, scaleMode: 'linear', autoGenerateMipmaps: true }), [], 'atlas');
    } catch (error) {
      console.warn(`raidmap: the icon atlas ${atlasUrl} could not be used (${error instanceof Error ? error.message : 'failed to load'}); drawing the icons from their SVGs`);
    }
  }
  return drawSvgAtlas(iconUrl);
}

async function drawSvgAtlas(iconUrl: (slug: string) => string): Promise<IconAtlas> {
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
  return atlasOf(new CanvasSource({ resource: canvas, scaleMode: 'linear', autoGenerateMipmaps: true }), failed, 'svg');
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
