/**
 * The side panels' text stays readable over any map: the panel background (--bg-panel in
 * styles.css) lets nothing of the map through, and every colour the panels write text in has
 * WCAG AA contrast (4.5:1) over it with the brightest (white) and darkest (black) map behind.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BLACK, contrast, over, parseColour, WHITE } from '../../domain/colour-contrast';

const STYLES = readFileSync(join(__dirname, '..', 'styles.css'), 'utf8');

/** The value of a custom property of :root, as written. */
function variable(name: string): string {
  const match = new RegExp(`${name}:\\s*([^;]+);`).exec(STYLES);
  if (!match) throw new Error(`${name} is not set in styles.css`);
  return match[1].trim();
}

const panel = parseColour(variable('--bg-panel'));

describe('the side panels over a busy map', () => {
  it('let nothing of the map show through', () => {
    // Over white and over black the panel comes out the same (within one level of 255).
    const onWhite = over(panel, WHITE);
    const onBlack = over(panel, BLACK);
    for (let i = 0; i < 3; i++) expect(Math.abs(onWhite[i] - onBlack[i])).toBeLessThanOrEqual(1);
  });

  it.each(['--text', '--text-dim', '--accent', '--accent-strong', '--danger'])('%s text has 4.5:1 over the panel, whatever is under it', (name) => {
    const text = parseColour(variable(name));
    for (const map of [WHITE, BLACK]) expect(contrast(text, over(panel, map))).toBeGreaterThanOrEqual(4.5);
  });
});
