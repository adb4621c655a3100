// @vitest-environment jsdom
/**
 * The phone and touch rules of the map page's stylesheets. jsdom lays nothing out, so these
 * read the rules themselves through the browser's CSS parser (jsdom's CSSOM); the real sizes
 * on a 390×844 touch screen are checked in e2e/touch-layout.e2e.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const UI = join(__dirname, '..');
const SHEETS = ['panels/panels.css', 'topbar/topbar.css', 'quests/quest-actions.css', 'account/account.css'];

interface FoundRule {
  media: string;
  style: CSSStyleDeclaration;
}

/** Every style rule of `file` whose selector list names `selector`, with the media query it sits in ('' for none). */
function rulesFor(file: string, selector: string): FoundRule[] {
  const element = document.createElement('style');
  element.textContent = readFileSync(join(UI, file), 'utf8');
  document.head.append(element);
  const found: FoundRule[] = [];
  const visit = (rules: CSSRuleList, media: string) => {
    for (const rule of Array.from(rules)) {
      if (rule instanceof CSSMediaRule) visit(rule.cssRules, rule.media.mediaText);
      else if (rule instanceof CSSStyleRule && rule.selectorText.split(',').some((s) => s.trim() === selector)) found.push({ media, style: rule.style });
    }
  };
  visit(element.sheet!.cssRules, '');
  element.remove();
  return found;
}

/** The value `property` takes for `selector` in `file` under a media query containing `media` ('' : outside any). */
function valueOf(file: string, selector: string, property: string, media: string): string {
  const rules = rulesFor(file, selector).filter((r) => (media === '' ? r.media === '' : r.media.includes(media)));
  // The last rule that sets it wins, as in the page.
  return rules.map((r) => r.style.getPropertyValue(property)).filter(Boolean).at(-1) ?? '';
}

const px = (value: string) => (value.endsWith('px') ? Number.parseFloat(value) : Number.NaN);

describe('the quest panel on a phone', () => {
  const PHONE = 'max-width: 600px';

  it('scrolls rather than cutting its own controls off, everywhere', () => {
    const overflows = rulesFor(SHEETS[0], '.map-panel--right').flatMap((r) => [r.style.getPropertyValue('overflow'), r.style.getPropertyValue('overflow-y')]);
    expect(overflows).not.toContain('hidden');
  });

  it('keeps the quest list whole (the panel scrolls it) instead of shrinking it to no row', () => {
    // flex: none (the parser gives the longhands).
    expect(valueOf(SHEETS[0], '.map-panel--right > .quest-list', 'flex-shrink', PHONE)).toBe('0');
    // Also on a phone on its side, as short a window.
    expect(valueOf(SHEETS[0], '.map-panel--right > .quest-list', 'flex-shrink', 'max-height: 500px')).toBe('0');
    expect(valueOf(SHEETS[0], '.map-panel--right > .map-panel__footer', 'position', PHONE)).toBe('sticky');
  });

  it('folds the levels into a row that wraps', () => {
    expect(valueOf(SHEETS[0], '.level-list', 'flex-flow', PHONE)).toBe('row wrap');
  });

  it('takes about half the height, under the categories', () => {
    expect(valueOf(SHEETS[0], '.map-panel--right', 'max-height', PHONE)).toBe('calc(48vh - var(--admin-dock-height, 0px))');
  });
});

describe('touch screens (pointer: coarse)', () => {
  const TOUCH = 'pointer: coarse';
  const targets: [file: string, selector: string, property: string][] = [
    [SHEETS[1], '.topbar-button', 'min-height'],
    [SHEETS[1], '.topbar-button', 'min-width'],
    [SHEETS[1], '.map-topbar__home', 'min-height'],
    [SHEETS[1], '.map-topbar__home', 'min-width'],
    [SHEETS[1], '.where-am-i__input', 'min-height'],
    [SHEETS[1], '.look-arrow-toggle__label', 'min-height'],
    [SHEETS[0], '.map-panel__link', 'min-height'],
    [SHEETS[0], '.map-panel__button', 'min-height'],
    [SHEETS[0], '.category-row', 'min-height'],
    [SHEETS[0], '.level-list__item', 'min-height'],
    [SHEETS[0], '.quest-list__only', 'min-height'],
    [SHEETS[0], '.quest-list__label', 'min-height'],
    [SHEETS[2], '.quest-actions--row .quest-actions__button', 'width'],
    [SHEETS[2], '.quest-actions--row .quest-actions__button', 'height'],
    [SHEETS[2], '.quest-actions__button', 'height'],
    [SHEETS[2], '.quest-actions__dismiss', 'min-height'],
    [SHEETS[3], '.account-menu__button', 'min-height'],
    [SHEETS[3], '.account-menu__item', 'min-height'],
  ];

  it.each(targets)('%s: %s has a %s of at least 44 px', (file, selector, property) => {
    expect(px(valueOf(file, selector, property, TOUCH))).toBeGreaterThanOrEqual(44);
  });

  it('keeps the desktop sizes outside touch screens', () => {
    expect(valueOf(SHEETS[1], '.topbar-button', 'min-height', '')).toBe('');
    expect(valueOf(SHEETS[2], '.quest-actions--row .quest-actions__button', 'height', '')).toBe('22px');
  });

  it('gives the top bar\'s field and the sign-in fields 16 px text (a phone zooms into smaller)', () => {
    expect(valueOf(SHEETS[1], '.where-am-i__input', 'font-size', TOUCH)).toBe('16px');
    expect(valueOf(SHEETS[3], '.account-dialog__input', 'font-size', TOUCH)).toBe('16px');
  });
});

describe('the compact top bar', () => {
  it('is also the bar of a phone on its side (a short window)', () => {
    expect(valueOf(SHEETS[1], '.topbar__more-toggle', 'display', 'max-height: 500px')).toBe('inline-block');
    expect(valueOf(SHEETS[1], '.topbar__more', 'display', 'max-height: 500px')).toBe('none');
  });
});

describe('popups on touch screens', () => {
  const TOUCH = 'pointer: coarse';
  const quoted = (selector: string) => [selector, selector.replace(/'/g, '"')];
  const touchValue = (file: string, selector: string, property: string) =>
    quoted(selector).map((s) => valueOf(file, s, property, TOUCH)).find(Boolean) ?? '';

  it('give the edit form’s typed fields 16 px text, which the base rule for them would otherwise override', () => {
    for (const selector of [".marker-edit input[type='text']", ".marker-edit input[type='search']", ".marker-edit input[type='number']", '.marker-edit textarea', '.marker-edit select']) {
      expect(touchValue('popup/popup.css', selector, 'font-size'), selector).toBe('16px');
    }
  });

  it('make Close, Enlarge, popup buttons and the settings rows 44 px targets', () => {
    expect(px(touchValue('popups/popup.css', '.popup__close', 'height'))).toBeGreaterThanOrEqual(44);
    expect(px(touchValue('popups/popup.css', '.popup__body button', 'min-height'))).toBeGreaterThanOrEqual(44);
    expect(px(touchValue('popup/popup.css', '.marker-popup__size', 'min-height'))).toBeGreaterThanOrEqual(44);
    expect(px(touchValue('settings/settings.css', '.settings-popup__choice', 'min-height'))).toBeGreaterThanOrEqual(44);
    expect(px(touchValue('settings/settings.css', '.settings-popup__select', 'min-height'))).toBeGreaterThanOrEqual(44);
  });
});

describe('long quest titles (Russian ones reach 40 letters)', () => {
  it('wrap inside their own column, breaking a word only when it is longer than the room', () => {
    expect(valueOf(SHEETS[0], '.quest-list__label > span', 'overflow-wrap', '')).toBe('anywhere');
    expect(valueOf(SHEETS[0], '.quest-list__label > span', 'hyphens', '')).toBe('auto');
    expect(px(valueOf(SHEETS[0], '.quest-list__label > span', 'min-width', ''))).toBe(0);
  });

  it('take the whole first line on a wide screen, the trader and buttons moving under them at the right', () => {
    // flex: 1 1 auto: the title's own width decides whether the trader and buttons fit beside it.
    expect(valueOf(SHEETS[0], '.quest-list__item .quest-list__label', 'flex-basis', '')).toBe('auto');
    expect(valueOf(SHEETS[0], '.quest-list__meta', 'margin-left', '')).toBe('auto');
    expect(valueOf(SHEETS[0], '.quest-list__meta', 'max-width', '')).toBe('100%');
  });

  it('wrap beside the trader and buttons on a phone, where a row is 44 px high anyway', () => {
    expect(Number.parseFloat(valueOf(SHEETS[0], '.quest-list__item .quest-list__label', 'flex-basis', 'max-width: 600px'))).toBe(0);
    expect(Number.parseFloat(valueOf(SHEETS[0], '.quest-list__item .quest-list__label', 'flex-basis', 'max-height: 500px'))).toBe(0);
  });
});
