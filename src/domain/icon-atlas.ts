/**
 * The icon atlas: every subcategory's icon in one image, a cell each, in SUBCATEGORIES order.
 * The server draws it (`GET /icons/atlas.png[?v=<version>]`, server/http/icon-atlas.ts); the engine uploads it
 * as the marker sprites' one texture and the panels show their icons from it as a CSS sprite.
 * One PNG, decoded off the main thread, instead of 40 SVG documents that the page would
 * otherwise parse and rasterise on its main thread at start (about 150 ms on a slow laptop).
 */
import { SUBCATEGORIES } from './categories';

/** Pixel size of one icon cell (icons draw at ≤ 64 device px). */
export const ICON_CELL = 64;
/** Cells per row. */
export const ICON_COLUMNS = 8;
/** Where the server answers the atlas (below `/icons/`, beside the SVGs it is drawn from). */
export const ICON_ATLAS_PATH = '/icons/atlas.png';
/**
 * The name of the `<meta>` in a map page's head whose content is the atlas's current version
 * (a hash of its PNG; server/http/map-page-head.ts): the page asks for
 * `/icons/atlas.png?v=<version>`, which the server lets browsers keep for good.
 */
export const ICON_ATLAS_META = 'raidmap-icon-atlas';
/** What an atlas version looks like (base64url characters). */
export const ICON_ATLAS_VERSION = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The atlas's path: of one version (`?v=<version>`, cached for a year), or without a valid
 * version the plain path (revalidated on every use).
 */
export function iconAtlasPath(version?: string | null): string {
  return version && ICON_ATLAS_VERSION.test(version) ? `${ICON_ATLAS_PATH}?v=${version}` : ICON_ATLAS_PATH;
}

const indexById = new Map(SUBCATEGORIES.map((s, i) => [s.id, i]));

export interface AtlasSize {
  width: number;
  height: number;
  columns: number;
  rows: number;
}

/** The atlas's size for `count` icons (default: every subcategory). */
export function iconAtlasSize(count = SUBCATEGORIES.length): AtlasSize {
  const rows = Math.max(1, Math.ceil(count / ICON_COLUMNS));
  return { width: ICON_COLUMNS * ICON_CELL, height: rows * ICON_CELL, columns: ICON_COLUMNS, rows };
}

/** Top-left corner, in atlas pixels, of the cell of icon `index`. */
export function iconCell(index: number): { x: number; y: number } {
  return { x: (index % ICON_COLUMNS) * ICON_CELL, y: Math.floor(index / ICON_COLUMNS) * ICON_CELL };
}

/** The atlas index of a subcategory, or -1 when it is not one of SUBCATEGORIES. */
export function iconIndexOf(subCategoryId: string): number {
  return indexById.get(subCategoryId) ?? -1;
}

/**
 * CSS for showing icon `index` at `size` CSS px from an atlas of `size` (background-size and
 * background-position scale the whole atlas so one cell fills the box).
 */
export function iconSpriteStyle(index: number, size: number, atlas: AtlasSize = iconAtlasSize()): { backgroundSize: string; backgroundPosition: string } {
  const scale = size / ICON_CELL;
  const { x, y } = iconCell(index);
  return {
    backgroundSize: `${atlas.width * scale}px ${atlas.height * scale}px`,
    backgroundPosition: `${-x * scale}px ${-y * scale}px`,
  };
}
