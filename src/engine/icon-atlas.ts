/**
 * One texture for every marker icon: the SVG of each subcategory is drawn into one canvas
 * at start-up, and each icon is a frame of that texture, so all marker sprites batch together.
 */
import { CanvasSource, Rectangle, Texture } from 'pixi.js';
import { SUBCATEGORIES, slug } from '../domain/categories';

/** Pixel size of one icon cell in the atlas (icons draw at ≤ 64 device px). */
export const ATLAS_CELL = 64;
const COLUMNS = 8;

export interface IconAtlas {
  texture: Texture;
  /** Frame per icon index (index into SUBCATEGORIES). */
  frames: Texture[];
  /** Slugs whose SVG failed to load (drawn as a plain badge instead). */
  failed: string[];
  destroy(): void;
}

async function loadImage(url: string): Promise<HTMLImageElement> {
  const img = new Image(ATLAS_CELL, ATLAS_CELL);
  img.decoding = 'async';
  img.src = url;
  await img.decode();
  return img;
}

export async function buildIconAtlas(iconUrl: (slug: string) => string): Promise<IconAtlas> {
  const rows = Math.ceil(SUBCATEGORIES.length / COLUMNS);
  const canvas = document.createElement('canvas');
  canvas.width = COLUMNS * ATLAS_CELL;
  canvas.height = rows * ATLAS_CELL;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('icon atlas: no 2D canvas context');
  const slugs = SUBCATEGORIES.map((s) => slug(s.id));
  const images = await Promise.allSettled(slugs.map((s) => loadImage(iconUrl(s))));
  const failed: string[] = [];
  images.forEach((result, i) => {
    const x = (i % COLUMNS) * ATLAS_CELL;
    const y = Math.floor(i / COLUMNS) * ATLAS_CELL;
    if (result.status === 'fulfilled') {
      ctx.drawImage(result.value, x, y, ATLAS_CELL, ATLAS_CELL);
    } else {
      failed.push(slugs[i]);
      drawFallback(ctx, x, y);
    }
  });
  if (failed.length) console.warn(`raidmap: icons failed to load, drawn as plain badges: ${failed.join(', ')}`);
  const source = new CanvasSource({ resource: canvas, scaleMode: 'linear', autoGenerateMipmaps: true });
  const texture = new Texture({ source });
  const frames = SUBCATEGORIES.map((_, i) => new Texture({
    source,
    frame: new Rectangle((i % COLUMNS) * ATLAS_CELL, Math.floor(i / COLUMNS) * ATLAS_CELL, ATLAS_CELL, ATLAS_CELL),
  }));
  return {
    texture,
    frames,
    failed,
    destroy() {
      for (const f of frames) f.destroy(false);
      texture.destroy(true);
    },
  };
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
