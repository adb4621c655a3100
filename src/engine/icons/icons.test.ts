import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FACTION_COLOURS, SUBCATEGORIES, slug } from '../../domain/categories';
import { CATEGORY_COLOURS, iconSvg } from './generate-icons';
import { GLYPHS } from './glyphs';

const iconsDir = resolve(fileURLToPath(import.meta.url), '../../../../assets/icons');

describe('marker icons', () => {
  it('has a committed 64×64 SVG for every subcategory, identical to the generator output', () => {
    for (const s of SUBCATEGORIES) {
      const file = join(iconsDir, `${slug(s.id)}.svg`);
      expect(existsSync(file), file).toBe(true);
      const svg = readFileSync(file, 'utf8');
      expect(svg).toMatch(/viewBox="0 0 64 64"/);
      expect(svg).toBe(iconSvg(s.id));
    }
  });

  it('colours extraction and spawn badges by faction, others by category', () => {
    for (const s of SUBCATEGORIES) {
      const svg = iconSvg(s.id);
      const colour = s.faction ? FACTION_COLOURS[s.faction] : CATEGORY_COLOURS[s.category];
      expect(colour, s.id).toBeTruthy();
      expect(svg).toContain(`fill="${colour}"`);
    }
    expect(iconSvg('Boss Spawn')).toContain(FACTION_COLOURS.boss);
    expect(iconSvg('PMC Extraction')).toContain(FACTION_COLOURS.pmc);
    expect(iconSvg('Scav Extraction')).toContain(FACTION_COLOURS.scav);
  });

  it('gives every subcategory its own glyph (faction pairs differ by colour or mark)', () => {
    const seen = new Map<string, string>();
    for (const s of SUBCATEGORIES) {
      const svg = iconSvg(s.id).replace(/<title>.*<\/title>/, '');
      expect(seen.has(svg), `${s.id} duplicates ${seen.get(svg)}`).toBe(false);
      seen.set(svg, s.id);
    }
    expect(Object.keys(GLYPHS).sort()).toEqual(SUBCATEGORIES.map((s) => s.id).sort());
  });

  it('rejects unknown subcategories clearly', () => {
    expect(() => iconSvg('Spaceship')).toThrow(/unknown subcategory "Spaceship"/);
  });
});
