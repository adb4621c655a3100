// @vitest-environment jsdom
/**
 * Text fields and links of the pages (not the map page: ui/panels/touchLayout.test.ts) on a touch
 * screen: 16 px text in a field (a phone's browser zooms the page into smaller) and 44 px targets
 * (docs/DECISIONS.md "Touch screens"). jsdom lays nothing out, so this reads the rules through its
 * CSS parser and takes the value the page would: the last rule in source order for the selector,
 * outside any media query or in a touch one. A base rule after the touch one wins with the same
 * weight (the sign-in fields' `font: inherit` did, 15 px): looking at the touch rule alone missed it.
 * The real sizes on a 390×844 touch screen are for the e2e (tapSize).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const UI = join(__dirname, '..');
const TOUCH = 'pointer: coarse';

/** The value `property` takes for `selector` in `file`: on a touch screen (`touch`) or with a mouse. */
function cascaded(file: string, selector: string, property: string, touch: boolean): string {
  const element = document.createElement('style');
  element.textContent = readFileSync(join(UI, file), 'utf8');
  document.head.append(element);
  let value = '';
  const visit = (rules: CSSRuleList, media: string) => {
    for (const rule of Array.from(rules)) {
      if (rule instanceof CSSMediaRule) visit(rule.cssRules, rule.media.mediaText);
      else if (rule instanceof CSSStyleRule && rule.selectorText.split(',').some((s) => s.trim() === selector)) {
        const applies = media === '' || (touch && media.includes(TOUCH));
        const set = rule.style.getPropertyValue(property);
        if (applies && set) value = set;
      }
    }
  };
  visit(element.sheet!.cssRules, '');
  element.remove();
  return value;
}

const px = (value: string) => (value.endsWith('px') ? Number.parseFloat(value) : Number.NaN);

describe('text fields on a touch screen', () => {
  it.each([
    ['account/account.css', '.account-dialog__input'],
    ['pages/quests-page.css', '.quests-page__filter input'],
    ['pilot/pilot-page.css', '.pilot-input'],
    ['pilot/pilot-page.css', '.pilot-field select'],
  ])('%s %s: 16 px text and 44 px tall, whatever comes after', (file, selector) => {
    expect(cascaded(file, selector, 'font-size', true)).toBe('16px');
    expect(px(cascaded(file, selector, 'min-height', true))).toBeGreaterThanOrEqual(44);
  });

  it('keeps the compact sizes with a mouse', () => {
    expect(cascaded('pages/quests-page.css', '.quests-page__filter input', 'min-height', false)).toBe('36px');
    expect(cascaded('pages/quests-page.css', '.quests-page__filter input', 'font-size', false)).toBe('inherit');
    expect(cascaded('account/account.css', '.account-dialog__input', 'font-size', false)).toBe('inherit');
  });
});

describe("the Quests page's links on a touch screen", () => {
  it.each(['.quests-page__map', '.quests-page__meta a'])('%s is a 44 px target, and no taller with a mouse', (selector) => {
    expect(px(cascaded('pages/quests-page.css', selector, 'min-height', true))).toBeGreaterThanOrEqual(44);
    expect(px(cascaded('pages/quests-page.css', selector, 'min-width', true))).toBeGreaterThanOrEqual(44);
    expect(cascaded('pages/quests-page.css', selector, 'min-height', false)).toBe('');
  });

  it('lets neighbouring targets meet without overlapping (the margin gives back the padding, within half the gap)', () => {
    const padding = px(cascaded('pages/quests-page.css', '.quests-page__map', 'padding-left', true));
    expect(cascaded('pages/quests-page.css', '.quests-page__map', 'margin-left', true)).toBe(`-${padding}px`);
    // `gap: <row> <column>` (jsdom does not split it into its longhands).
    const gap = px(cascaded('pages/quests-page.css', '.quests-page__maps', 'gap', false).split(' ').at(-1)!);
    expect(2 * padding).toBeLessThanOrEqual(gap);
  });
});

describe("the Quests page's focus", () => {
  it('marks the card holding the focus, and tints the focused link', () => {
    expect(cascaded('pages/quests-page.css', '.quests-page__quest:has(:focus-visible)', 'border-color', false)).toBe('var(--accent)');
    expect(cascaded('pages/quests-page.css', '.quests-page__quest a:focus-visible', 'background', false)).not.toBe('');
  });
});
