// @vitest-environment jsdom
/**
 * The map page's chrome over the canvas: its stacking order (styles.css writes it down), the
 * phone's safe areas (index.html's viewport-fit=cover) and a few touch and focus rules. jsdom lays
 * nothing out, so these read the rules through its CSS parser; the real boxes are for e2e.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const UI = join(__dirname, '..');

/** The value `property` takes for `selector` in `file`, in rules under a media query containing `media` ('' : outside any); the last wins. */
function valueOf(file: string, selector: string, property: string, media = ''): string {
  const element = document.createElement('style');
  element.textContent = readFileSync(join(UI, file), 'utf8');
  document.head.append(element);
  const values: string[] = [];
  const visit = (rules: CSSRuleList, within: string) => {
    for (const rule of Array.from(rules)) {
      if (rule instanceof CSSMediaRule) visit(rule.cssRules, rule.media.mediaText);
      else if (rule instanceof CSSStyleRule && rule.selectorText.split(/,(?![^(]*\))/).some((s) => s.trim() === selector)) {
        const matches = media === '' ? within === '' : within.includes(media);
        const value = rule.style.getPropertyValue(property);
        if (matches && value) values.push(value);
      }
    }
  };
  visit(element.sheet!.cssRules, '');
  element.remove();
  return values.at(-1) ?? '';
}

const z = (file: string, selector: string) => Number(valueOf(file, selector, 'z-index'));

describe('the map page stacking order (styles.css)', () => {
  const bar = z('topbar/topbar.css', '.topbar');
  const barOpen = z('topbar/topbar.css', ".topbar:has([aria-expanded='true'])");
  const markerPopup = z('popup/popup.css', '.marker-popup .popup-anchor');
  const keptNotice = z('admin/KeptForAdminNotice.css', '.kept-for-admin');
  const dialog = z('popups/popup.css', '.popup-anchor');

  it('puts the panels and the editor dock under the top bar, the bar under the marker popup', () => {
    expect(z('panels/panels.css', '.map-panel')).toBeLessThan(bar);
    expect(z('admin/admin.css', '.admin-dock')).toBeLessThan(bar);
    expect(bar).toBeLessThan(markerPopup);
  });

  it('puts a menu opened from the top bar over the marker popup and the kept notice, under the dialogs', () => {
    expect(barOpen).toBeGreaterThan(markerPopup);
    expect(barOpen).toBeGreaterThan(keptNotice);
    expect(barOpen).toBeLessThan(dialog);
    expect(barOpen).toBeLessThan(z('popups/popup.css', '.popup-backdrop'));
  });
});

describe('the map chrome keeps out of a phone screen safe-area insets', () => {
  it('defines the insets once, from env()', () => {
    expect(valueOf('styles.css', ':root', '--safe-top')).toMatch(/^env\(safe-area-inset-top, ?0px\)$/);
    expect(valueOf('styles.css', ':root', '--safe-bottom')).toMatch(/^env\(safe-area-inset-bottom, ?0px\)$/);
    expect(valueOf('styles.css', ':root', '--safe-left')).toMatch(/^env\(safe-area-inset-left, ?0px\)$/);
    expect(valueOf('styles.css', ':root', '--safe-right')).toMatch(/^env\(safe-area-inset-right, ?0px\)$/);
  });

  it.each([
    ['styles.css', '.map-topbar', 'top', '--safe-top', ''],
    ['styles.css', '.map-topbar', 'left', '--safe-left', ''],
    ['styles.css', '.map-status', 'bottom', '--safe-bottom', ''],
    ['topbar/topbar.css', '.topbar', 'max-width', '--safe-right', 'max-width: 600px'],
    ['topbar/topbar.css', '.topbar__more--open', 'max-width', '--safe-left', 'max-width: 600px'],
    ['popup/popup.css', '.marker-popup .popup-anchor', 'bottom', '--safe-bottom', ''],
    ['popup/popup.css', '.marker-popup--xl .popup-anchor', 'top', '--safe-top', ''],
    ['popup/popup.css', '.marker-popup--left .popup-anchor', 'left', '--safe-left', ''],
    ['popup/popup.css', '.marker-popup--right .popup-anchor', 'right', '--safe-right', ''],
    ['panels/panels.css', '.map-panel--left', 'left', '--safe-left', ''],
    ['panels/panels.css', '.map-panel--left', 'bottom', '--safe-bottom', ''],
    ['panels/panels.css', '.map-panel--right', 'top', '--safe-top', ''],
    ['panels/panels.css', '.map-panel--right', 'right', '--safe-right', ''],
    ['panels/panels.css', '.map-panel--left', 'right', '--safe-right', 'max-width: 600px'],
    ['panels/panels.css', '.map-panel--right', 'bottom', '--safe-bottom', 'max-width: 600px'],
    ['panels/panels.css', '.map-panel--right', 'left', '--safe-left', 'max-width: 600px'],
    ['admin/admin.css', '.admin-dock', 'bottom', '--safe-bottom', ''],
    ['admin/KeptForAdminNotice.css', '.kept-for-admin', 'bottom', '--safe-bottom', ''],
  ])('%s %s %s adds %s', (file, selector, property, inset, media) => {
    expect(valueOf(file, selector, property, media)).toContain(`var(${inset})`);
  });
});

describe('touch and focus rules of the chrome', () => {
  it("makes the marker popup's quest link a 44 px target on a touch screen", () => {
    expect(Number.parseFloat(valueOf('popup/popup.css', '.marker-popup__quest-link', 'min-height', 'pointer: coarse'))).toBeGreaterThanOrEqual(44);
    expect(valueOf('popup/popup.css', '.marker-popup__quest-link', 'display', 'pointer: coarse')).toBe('inline-flex');
  });

  it("keeps a focused control's ring (2 px off by 2 px) inside a scrolling panel's edges", () => {
    expect(Number.parseFloat(valueOf('panels/panels.css', '.map-panel', 'scroll-padding-block'))).toBeGreaterThanOrEqual(4);
  });

  it('gives the Quests link the bar buttons 44 px on a touch screen (a link, so a box that takes a height)', () => {
    expect(valueOf('topbar/topbar.css', 'a.topbar-button', 'display')).toBe('inline-flex');
    expect(valueOf('topbar/topbar.css', '.topbar-button', 'min-height', 'pointer: coarse')).toBe('44px');
  });
});
