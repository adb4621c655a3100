/**
 * The side panels' text stays readable over any map: the panel background (--bg-panel in
 * styles.css) lets nothing of the map through, and every colour the panels write text in has
 * WCAG AA contrast (4.5:1) over it with the brightest (white) and darkest (black) map behind.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const STYLES = readFileSync(join(__dirname, '..', 'styles.css'), 'utf8');

type Rgba = [r: number, g: number, b: number, a: number];

/** The value of a custom property of :root, as written. */
function variable(name: string): string {
  const match = new RegExp(`${name}:\\s*([^;]+);`).exec(STYLES);
  if (!match) throw new Error(`${name} is not set in styles.css`);
  return match[1].trim();
}

/** `#rrggbb`, `rgb(r, g, b)` or `rgba(r, g, b, a)`. */
function parseColour(value: string): Rgba {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(value);
  if (hex) return [Number.parseInt(hex[1], 16), Number.parseInt(hex[2], 16), Number.parseInt(hex[3], 16), 1];
  const fn = /^rgba?\(([^)]+)\)$/.exec(value);
  if (!fn) throw new Error(`not a colour: ${value}`);
  const [r, g, b, a = 1] = fn[1].split(',').map((part) => Number.parseFloat(part));
  return [r, g, b, a];
}

/** `top` painted over the opaque `under`. */
function over(top: Rgba, under: Rgba): Rgba {
  const [r, g, b, a] = top;
  return [r * a + under[0] * (1 - a), g * a + under[1] * (1 - a), b * a + under[2] * (1 - a), 1];
}

function luminance([r, g, b]: Rgba): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

function contrast(a: Rgba, b: Rgba): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

const WHITE: Rgba = [255, 255, 255, 1];
const BLACK: Rgba = [0, 0, 0, 1];
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
