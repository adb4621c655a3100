/**
 * One texture for every marker icon, and each icon a frame of it, so all marker sprites batch
 * together. The server's atlas PNG (src/domain/icon-atlas.ts) is uploaded as it is; when it
 * cannot be had (an older server, a failed request, a size that is not the layout's), the SVG
 * of each subcategory is drawn into one canvas instead, as before the atlas existed.
 */
import { CanvasSource, ImageSource, Rectangle, Texture, type TextureSource } from 'pixi.js';
import { SUBCATEGORIES } from '../domain/categories';
import { iconCell } from '../domain/icon-atlas';
import { ATLAS_CELL, atlasWarning, checkAtlasSize, drawSvgAtlasCanvas, loadAtlasImage } from './icon-atlas-image';

export { ATLAS_CELL };

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
      const img = await loadAtlasImage(atlasUrl);
      return atlasOf(new ImageSource({ resource: img, scaleMode: 'linear', autoGenerateMipmaps: true }), [], 'atlas');
    } catch (error) {
      console.warn(atlasWarning(atlasUrl, error));
    }
  }
  const { canvas, failed } = await drawSvgAtlasCanvas(iconUrl);
  return atlasOf(new CanvasSource({ resource: canvas, scaleMode: 'linear', autoGenerateMipmaps: true }), failed, 'svg');
}

/** The render worker's atlas: the PNG fetched and decoded there, or the page's drawing of the SVGs. */
export async function fetchIconAtlas(atlasUrl: string): Promise<IconAtlas> {
  const response = await fetch(atlasUrl);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const bitmap = await createImageBitmap(await response.blob(), { premultiplyAlpha: 'premultiply' });
  try {
    checkAtlasSize(bitmap.width, bitmap.height);
  } catch (error) {
    bitmap.close();
    throw error;
  }
  return iconAtlasFromBitmap(bitmap, [], 'atlas');
}

/** An atlas texture made from an image of the atlas's layout. */
export function iconAtlasFromBitmap(bitmap: ImageBitmap, failed: string[], from: IconAtlas['from']): IconAtlas {
  return atlasOf(new ImageSource({ resource: bitmap, alphaMode: 'premultiplied-alpha', scaleMode: 'linear', autoGenerateMipmaps: true }), failed, from);
}
