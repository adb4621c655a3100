/**
 * Writes assets/icons/{slug}.svg for every subcategory: a white glyph on a coloured badge,
 * 64×64 viewBox. Extraction and spawn badges take their faction colour (FACTION_COLOURS);
 * other categories share one colour per category. Extractions are round, spawns hexagonal,
 * quests a pin, everything else a rounded square, so categories differ by shape as well.
 *
 * Run once after changing a glyph: `npx tsx src/engine/icons/generate-icons.ts` (commit the SVGs).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FACTION_COLOURS, SUBCATEGORIES, slug } from '../../domain/categories';
import { GLYPHS } from './glyphs';

export const CATEGORY_COLOURS: Record<string, string> = {
  Markers: '#2f6fd6',
  Keys: '#c99512',
  Miscellaneous: '#7b4fc9',
  Quests: '#e8750c',
  Loot: '#8a5a2b',
};

type Shape = 'circle' | 'hexagon' | 'pin' | 'square';

const SHAPES: Record<string, Shape> = { Extractions: 'circle', Spawns: 'hexagon', Quests: 'pin', Markers: 'pin' };

function badge(shape: Shape, fill: string): string {
  const stroke = 'stroke="#ffffff" stroke-width="3" stroke-linejoin="round"';
  switch (shape) {
    case 'circle':
      return `<circle cx="32" cy="32" r="28.5" fill="${fill}" ${stroke}/>`;
    case 'hexagon':
      return `<polygon points="32,3 57,17.5 57,46.5 32,61 7,46.5 7,17.5" fill="${fill}" ${stroke}/>`;
    case 'pin':
      return `<path d="M32 61 C32 61 8 38 8 25 A24 24 0 0 1 56 25 C56 38 32 61 32 61 Z" fill="${fill}" ${stroke}/>`;
    case 'square':
      return `<rect x="4.5" y="4.5" width="55" height="55" rx="12" fill="${fill}" ${stroke}/>`;
  }
}

export function iconSvg(subCategory: string): string {
  const def = SUBCATEGORIES.find((s) => s.id === subCategory);
  if (!def) throw new Error(`unknown subcategory "${subCategory}"`);
  const glyph = GLYPHS[subCategory];
  if (!glyph) throw new Error(`no glyph for subcategory "${subCategory}"`);
  const fill = def.faction ? FACTION_COLOURS[def.faction] : CATEGORY_COLOURS[def.category];
  const shape = SHAPES[def.category] ?? 'square';
  // A pin's round head is higher than the badge centre: lift the glyph into it.
  const lift = shape === 'pin' ? ' transform="translate(6.4 -0.6) scale(0.8)"' : '';
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">',
    `<title>${def.id.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</title>`,
    badge(shape, fill),
    `<g fill="none" stroke="#ffffff" stroke-width="3.5" stroke-linecap="round" stroke-linejoin="round"${lift}>${glyph}</g>`,
    '</svg>',
    '',
  ].join('\n');
}

export function writeIcons(outDir: string): string[] {
  mkdirSync(outDir, { recursive: true });
  return SUBCATEGORIES.map((s) => {
    const file = join(outDir, `${slug(s.id)}.svg`);
    writeFileSync(file, iconSvg(s.id));
    return file;
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
  const files = writeIcons(join(root, 'assets/icons'));
  console.log(`wrote ${files.length} icons to assets/icons`);
}
