/**
 * Small real sample images for marker popups: one 480×270 WebP per subcategory and variant,
 * drawn from an SVG with the subcategory written on it, under `$DATA_DIR/uploads/sample/`.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { SUBCATEGORIES, slug, findSubCategory, FACTION_COLOURS } from '../../src/domain/categories';
import { SUBCATEGORY_RU } from './text';

export const SAMPLE_IMAGE_VARIANTS = 3;
export const SAMPLE_IMAGE_SIZE = { width: 480, height: 270 } as const;
/** URL prefix the server maps to `$DATA_DIR/uploads/sample/`. */
export const SAMPLE_IMAGE_URL_PREFIX = '/uploads/sample/';

const CATEGORY_COLOURS: Record<string, string> = {
  Markers: '#4a6fa5',
  Extractions: '#2f7d3b',
  Keys: '#b8860b',
  Miscellaneous: '#6b5b95',
  Quests: '#c0601a',
  Loot: '#5d6d3f',
  Spawns: '#7a2e2e',
};

export function sampleImageFile(subCategory: string, variant: number): string {
  return `${slug(subCategory)}-${variant}.webp`;
}

export function sampleImageUrl(subCategory: string, variant: number): string {
  return `${SAMPLE_IMAGE_URL_PREFIX}${sampleImageFile(subCategory, variant)}`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** The SVG source of one sample image (pure). */
export function sampleImageSvg(subCategory: string, variant: number): string {
  const sub = findSubCategory(subCategory);
  const base = CATEGORY_COLOURS[sub?.category ?? ''] ?? '#555555';
  const accent = sub?.faction ? FACTION_COLOURS[sub.faction] : '#e8e2c8';
  const { width, height } = SAMPLE_IMAGE_SIZE;
  // Each variant frames the "photo" differently so paging through images visibly changes it. It
  // carries no "1/3" of its own: a marker shows 1–3 of the variants, and the popup's own counter
  // ("1 / 2") is the one that counts them.
  const cx = [0, 120, 360, 240][variant] ?? 240;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${base}"/>
      <stop offset="1" stop-color="#15171a"/>
    </linearGradient>
  </defs>
  <rect width="${width}" height="${height}" fill="url(#bg)"/>
  <g opacity="0.25" stroke="#ffffff" stroke-width="1">
    ${Array.from({ length: 12 }, (_, i) => `<line x1="${i * 40}" y1="0" x2="${i * 40}" y2="${height}"/>`).join('')}
    ${Array.from({ length: 7 }, (_, i) => `<line x1="0" y1="${i * 40}" x2="${width}" y2="${i * 40}"/>`).join('')}
  </g>
  <circle cx="${cx}" cy="150" r="70" fill="none" stroke="${accent}" stroke-width="6"/>
  <circle cx="${cx}" cy="150" r="8" fill="${accent}"/>
  <rect x="0" y="0" width="${width}" height="64" fill="#000000" opacity="0.55"/>
  <text x="16" y="30" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="24" font-weight="bold" fill="#ffffff">${escapeXml(subCategory)}</text>
  <text x="16" y="54" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="16" fill="#d8d8d8">${escapeXml(SUBCATEGORY_RU[subCategory] ?? subCategory)}</text>
  <text x="${width - 16}" y="${height - 16}" text-anchor="end" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="16" fill="#ffffff">sample photo</text>
</svg>`;
}

export interface SampleImageResult {
  written: number;
  existing: number;
}

/**
 * Writes every sample image that is not on disk yet (idempotent) into `${uploadsDir}/sample/`.
 */
export async function ensureSampleImages(uploadsDir: string): Promise<SampleImageResult> {
  const dir = path.join(uploadsDir, 'sample');
  await fs.mkdir(dir, { recursive: true });
  const jobs = SUBCATEGORIES.flatMap((s) => Array.from({ length: SAMPLE_IMAGE_VARIANTS }, (_, k) => [s.id, k + 1] as const));
  let written = 0;
  let existing = 0;
  await Promise.all(
    jobs.map(async ([subCategory, variant]) => {
      const file = path.join(dir, sampleImageFile(subCategory, variant));
      try {
        await fs.access(file);
        existing++;
        return;
      } catch {
        // not there yet: render it
      }
      const tmp = `${file}.${process.pid}.tmp`;
      await sharp(Buffer.from(sampleImageSvg(subCategory, variant))).webp({ quality: 78 }).toFile(tmp);
      await fs.rename(tmp, file);
      written++;
    }),
  );
  return { written, existing };
}
