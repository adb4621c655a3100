/**
 * `GET /icons/atlas.png`: every subcategory's icon (assets/icons/{slug}.svg) drawn into one PNG,
 * a 64 px cell each in SUBCATEGORIES order (layout in src/domain/icon-atlas.ts). The page loads
 * this one image instead of 40 SVGs: the browser decodes a PNG off the main thread, while each
 * SVG is a document it parses and rasterises on the main thread.
 *
 * Drawn with sharp on the first request and kept in memory; drawn again when an icon file
 * changes (its size or modification time), so an operator's new icon shows as the SVG does.
 * An icon that is missing or does not render gets the plain badge the engine drew before, and
 * the log names it once per drawing.
 *
 * Caching: the atlas's version is a hash of its PNG. A map page names it in its head
 * (`<meta name="raidmap-icon-atlas">`, `iconAtlasHead`, map-page-head.ts) and asks for
 * `/icons/atlas.png?v=<version>`, answered `immutable` for a year: new icons, or a deploy that
 * moves icons to other cells, give a new URL, so no browser draws a stale atlas. The plain URL
 * (an old page, a page without the meta) and a version that is not the current one are answered
 * with the current atlas, `no-cache` and its ETag, so they revalidate on every use.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { slug, SUBCATEGORIES } from '../../src/domain/categories';
import { ICON_ATLAS_META, ICON_ATLAS_PATH, ICON_CELL, iconAtlasSize, iconCell } from '../../src/domain/icon-atlas';
import { matchesIfNoneMatch } from './json-cache';

/** Cache-Control of the current version's URL and of any other (static-site.ts's IMMUTABLE and NO_CACHE; not imported, static-site imports this). */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const NO_CACHE = 'no-cache';

export interface IconAtlasImage {
  png: Buffer;
  /** Strong validator of the PNG's bytes (quoted). */
  etag: string;
  /** Version of the PNG's bytes for its URL (`?v=`): 16 base64url characters of the same hash. */
  version: string;
  /** Slugs drawn as the plain badge (file missing or not a renderable SVG). */
  fallback: string[];
}

/** The badge for an icon that cannot be drawn: a grey disc with a white ring. */
const FALLBACK_SVG = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="${ICON_CELL}" height="${ICON_CELL}"><circle cx="${ICON_CELL / 2}" cy="${ICON_CELL / 2}" r="${ICON_CELL / 2 - 4}" fill="#556070" stroke="#ffffff" stroke-width="4"/></svg>`,
);

/** One icon, rendered to a cell: the SVG at the density that makes its larger side one cell. */
async function renderCell(svg: Buffer): Promise<Buffer> {
  const meta = await sharp(svg).metadata();
  if (meta.format !== 'svg' || !meta.width || !meta.height) throw new Error('not an SVG image');
  const density = Math.min(2400, Math.max(1, (72 * ICON_CELL) / Math.max(meta.width, meta.height)));
  return sharp(svg, { density })
    .resize(ICON_CELL, ICON_CELL, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer();
}

/** Draws the atlas of `slugs` (in cell order) from the SVGs in `iconsDir`. */
export async function drawIconAtlas(iconsDir: string, slugs: readonly string[]): Promise<IconAtlasImage> {
  const fallback: string[] = [];
  const cells = await Promise.all(
    slugs.map(async (s) => {
      try {
        return await renderCell(await fs.readFile(path.join(iconsDir, `${s}.svg`)));
      } catch {
        fallback.push(s);
        return renderCell(FALLBACK_SVG);
      }
    }),
  );
  const size = iconAtlasSize(slugs.length);
  const png = await sharp({ create: { width: size.width, height: size.height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite(cells.map((input, i) => ({ input, left: iconCell(i).x, top: iconCell(i).y })))
    .png({ compressionLevel: 9 })
    .toBuffer();
  const hash = createHash('sha256').update(png).digest('base64url');
  return { png, etag: `"${hash.slice(0, 27)}"`, version: hash.slice(0, 16), fallback: fallback.sort() };
}

/** The atlas of every subcategory, drawn once and again only when an icon file changes. */
export class IconAtlasCache {
  private drawn?: { fingerprint: string; image: Promise<IconAtlasImage>; done?: IconAtlasImage };
  private readonly slugs = SUBCATEGORIES.map((s) => slug(s.id));

  constructor(
    private readonly iconsDir: string,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** Sizes and modification times of the icon files: what the drawing depends on. */
  private async fingerprint(): Promise<string> {
    const stats = await Promise.all(
      this.slugs.map((s) =>
        fs.stat(path.join(this.iconsDir, `${s}.svg`)).then(
          (st) => `${st.size}:${st.mtimeMs}`,
          () => '-',
        ),
      ),
    );
    return stats.join(',');
  }

  async get(): Promise<IconAtlasImage> {
    return this.current(await this.fingerprint()).image;
  }

  /**
   * The atlas of the icons as they are now if it is drawn already, else undefined (and its
   * drawing is started, for the request that will follow): never waits for a drawing.
   */
  async ready(): Promise<IconAtlasImage | undefined> {
    return this.current(await this.fingerprint()).done;
  }

  /** The drawing for `fingerprint`, started when there is none. */
  private current(fingerprint: string): { image: Promise<IconAtlasImage>; done?: IconAtlasImage } {
    if (this.drawn?.fingerprint !== fingerprint) {
      const image = drawIconAtlas(this.iconsDir, this.slugs);
      const drawn: NonNullable<IconAtlasCache['drawn']> = { fingerprint, image };
      this.drawn = drawn;
      image.then(
        (img) => {
          drawn.done = img;
          if (img.fallback.length) this.log?.warn({ icons: img.fallback }, `icon atlas: drawn as plain badges (missing or not an SVG): ${img.fallback.join(', ')}`);
        },
        () => {
          if (this.drawn === drawn) this.drawn = undefined; // the next request tries again
        },
      );
    }
    return this.drawn;
  }
}

const caches = new Map<string, IconAtlasCache>();

/**
 * The one atlas cache of an icons folder in this process: the route and the map pages' head
 * share its drawing (and its version).
 */
export function iconAtlasCacheOf(iconsDir: string, log?: FastifyBaseLogger): IconAtlasCache {
  const key = path.resolve(iconsDir);
  let cache = caches.get(key);
  if (!cache) {
    cache = new IconAtlasCache(key, log);
    caches.set(key, cache);
  }
  return cache;
}

/**
 * For a map page's head: `<meta name="raidmap-icon-atlas" content="<version>">` naming the
 * current atlas, so the page asks for its versioned URL. Empty (the page then uses the plain,
 * revalidated URL) when the atlas is not drawn yet (its drawing is started then, not waited
 * for: the page is not held up), when the folder is missing (no atlas route) or on any error.
 */
export function iconAtlasHead(iconsDir: string, log?: FastifyBaseLogger): () => Promise<string> {
  return async () => {
    try {
      if (!(await fs.stat(iconsDir)).isDirectory()) return '';
      const atlas = await iconAtlasCacheOf(iconsDir, log).ready();
      return atlas ? `<meta name="${ICON_ATLAS_META}" content="${atlas.version}">` : '';
    } catch {
      return '';
    }
  };
}

/**
 * Registers `GET /icons/atlas.png`: with `?v=` the current version, cached for a year
 * (`immutable`); otherwise `no-cache`; an ETag on both.
 */
export function registerIconAtlas(app: FastifyInstance, iconsDir: string): void {
  const cache = iconAtlasCacheOf(iconsDir, app.log);
  app.get(ICON_ATLAS_PATH, async (request, reply) => {
    const atlas = await cache.get();
    const asked = (request.query as Record<string, unknown> | undefined)?.v;
    // A version the atlas no longer has (an old page, icons changed meanwhile) must not keep the
    // current picture under its URL: only the current one is immutable.
    reply.header('etag', atlas.etag).header('cache-control', asked === atlas.version ? IMMUTABLE : NO_CACHE);
    if (matchesIfNoneMatch(request.headers['if-none-match'], atlas.etag.slice(1, -1))) return reply.code(304).send();
    return reply.header('content-type', 'image/png').send(atlas.png);
  });
}
