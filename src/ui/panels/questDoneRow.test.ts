/**
 * A completed quest's row (`.quest-list__item--done`, QuestList.tsx) reads as done and stays
 * readable: it is marked by a check mark before the title and a dimmer colour with WCAG AA
 * contrast (4.5:1) over the panel, plain or ticked; the row is not faded with opacity (0.5 gave
 * 4.2:1). jsdom applies no stylesheet, so the rules are read from panels.css.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const PANELS = readFileSync(join(__dirname, 'panels.css'), 'utf8');
const STYLES = readFileSync(join(__dirname, '..', 'styles.css'), 'utf8');

type Rgb = [r: number, g: number, b: number];

/** The declarations of every rule whose selector list is exactly `selector`, joined. */
function declarations(selector: string): string {
  const escaped = selector.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const rules = [...PANELS.matchAll(new RegExp(`(?:^|\\})\\s*${escaped}\\s*\\{([^}]*)\\}`, 'gm'))];
  return rules.map((match) => match[1]).join(';');
}

function variable(name: string): string {
  const match = new RegExp(`${name}:\\s*([^;]+);`).exec(STYLES);
  if (!match) throw new Error(`${name} is not set in styles.css`);
  return match[1].trim();
}

/** `#rrggbb` or `rgb(r, g, b)` / `rgba(r, g, b, a)` painted over `under`. */
function colour(value: string, under: Rgb = [0, 0, 0]): Rgb {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(value);
  if (hex) return [Number.parseInt(hex[1], 16), Number.parseInt(hex[2], 16), Number.parseInt(hex[3], 16)];
  const [r, g, b, a = 1] = /^rgba?\(([^)]+)\)$/.exec(value)![1].split(',').map(Number.parseFloat);
  return [r * a + under[0] * (1 - a), g * a + under[1] * (1 - a), b * a + under[2] * (1 - a)];
}

function contrast(a: Rgb, b: Rgb): number {
  const luminance = ([r, g, bl]: Rgb) => {
    const channel = (c: number) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(bl);
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

const DONE = '.quest-list__item--done';
const TITLE = `${DONE} .quest-list__label > span`;

describe('a completed quest row', () => {
  it('is not faded as a whole', () => {
    const opacity = /opacity:\s*([\d.]+)/.exec(declarations(DONE));
    expect(opacity === null || Number(opacity[1]) === 1).toBe(true);
  });

  it('puts a check mark before the title, left out of the checkbox name', () => {
    const before = declarations(`${TITLE}::before`);
    expect(before).toMatch(/content:\s*'✓[^']*'\s*\/\s*''/);
  });

  it('writes the title in a colour with 4.5:1 over the panel, plain and ticked', () => {
    const name = /color:\s*var\((--[\w-]+)\)/.exec(declarations(TITLE))?.[1];
    expect(name).toBeDefined();
    const text = colour(variable(name!));
    const panel = colour(variable('--bg-panel'));
    const ticked = colour(/\.quest-list__item--on\s*\{[^}]*background:\s*([^;]+);/.exec(PANELS)![1].trim(), panel);
    for (const background of [panel, ticked]) expect(contrast(text, background)).toBeGreaterThanOrEqual(4.5);
  });
});
