/**
 * The admin's status bar stays readable over any map (WCAG AA, 4.5:1 for its 10–11 px text): its
 * background is translucent, so each text colour is checked over the bar painted on the whitest
 * and the darkest art (white, black), with any opacity of the text's own rule taken in. Every rule
 * of admin.css that styles the bar or a part of it (`.admin-status…`) with a colour, a background
 * or an opacity is read, in media queries too, so a new one cannot slip past.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BLACK, contrast, over, parseColour, WHITE, withOpacity, type Rgba } from '../../domain/colour-contrast';

const ADMIN = readFileSync(join(__dirname, 'admin.css'), 'utf8');
const STYLES = readFileSync(join(__dirname, '..', 'styles.css'), 'utf8');

/** Each innermost rule: its selectors and declarations (comments dropped; @media blocks looked into). */
function rules(css: string): { selectors: string[]; decls: Record<string, string> }[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  return [...text.matchAll(/([^{}]+)\{([^{}]*)\}/g)].map(([, head, body]) => ({
    selectors: head.split(',').map((s) => s.trim()),
    decls: Object.fromEntries(
      body
        .split(';')
        .map((d) => d.split(':'))
        .filter((parts) => parts.length >= 2)
        .map(([prop, ...value]) => [prop.trim(), value.join(':').trim()]),
    ),
  }));
}

/** A colour as written, `var(--x)` looked up among styles.css's custom properties. */
function colour(value: string): Rgba {
  const ref = /^var\((--[\w-]+)\)$/.exec(value);
  if (!ref) return parseColour(value);
  const match = new RegExp(`${ref[1]}:\\s*([^;]+);`).exec(STYLES);
  if (!match) throw new Error(`${ref[1]} is not set in styles.css`);
  return parseColour(match[1]);
}

const barRules = rules(ADMIN).filter((rule) => rule.selectors.some((s) => s.startsWith('.admin-status')));
const only = (selector: string) => barRules.filter((rule) => rule.selectors.includes(selector));

const bar = only('.admin-status');
const backgrounds = bar.flatMap((rule) => (rule.decls.background ? [colour(rule.decls.background)] : []));
const barText = bar.map((rule) => rule.decls.color).find(Boolean);

describe('the admin status bar over a busy map', () => {
  it('has one background and a text colour of its own', () => {
    expect(backgrounds).toHaveLength(1);
    expect(barText).toBeDefined();
  });

  // The labels (.admin-status__key) have no rule of their own: the bar's colour. The values theirs.
  const texts: [part: string, colour: Rgba][] = [['the labels', colour(barText!)]];
  for (const rule of barRules) {
    if (rule.selectors.includes('.admin-status')) continue;
    if (rule.decls.color) texts.push([rule.selectors.join(', '), colour(rule.decls.color)]);
  }
  // An opacity on any part of the bar fades its text (and a part inside it): take the lowest.
  const opacities = barRules.flatMap((rule) => (rule.decls.opacity ? [Number.parseFloat(rule.decls.opacity)] : []));
  const opacity = Math.min(1, ...opacities);

  it.each(texts)('%s have 4.5:1 over the bar, whatever map is under it', (_part, text) => {
    for (const map of [WHITE, BLACK]) {
      const under = over(backgrounds[0], map);
      expect(contrast(over(withOpacity(text, opacity), under), under)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('checks the values too', () => {
    expect(texts.map(([part]) => part)).toContain('.admin-status__value');
  });
});
