/**
 * Text fields keep the shared focus ring (styles.css `:focus-visible`, 2 px): a field's own
 * `:focus` rule may colour its border but must not take the ring away (a 1 px border colour
 * alone was hard to see at 1280×800).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const css = (path: string) => readFileSync(join(__dirname, '..', path), 'utf8');

/** The declarations of a rule whose selector is exactly `selector`. */
function rule(source: string, selector: string): string {
  const escaped = selector.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`(^|\\n)${escaped}\\s*\\{([^}]*)\\}`).exec(source);
  if (!match) throw new Error(`${selector} has no rule`);
  return match[2];
}

describe('focus ring on text fields', () => {
  it.each([
    ['account/account.css', '.account-dialog__input:focus'],
    ['topbar/topbar.css', '.where-am-i__input:focus'],
  ])('%s %s keeps the outline', (file, selector) => {
    expect(rule(css(file), selector)).not.toMatch(/outline\s*:\s*(none|0)/);
  });

  it('the shared ring is 2 px in the accent colour', () => {
    expect(rule(css('styles.css'), ':focus-visible')).toMatch(/outline:\s*2px solid var\(--accent-strong\)/);
  });
});
