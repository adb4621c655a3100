import '../../i18n';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetEditor } from '../../state/editor';
import { memoryStorage, setStorageBackend } from '../../state/storage';
import { MarkerTypePicker } from './MarkerTypePicker';

beforeEach(() => setStorageBackend(memoryStorage()));
afterEach(() => {
  resetEditor();
  setStorageBackend(null);
});

/**
 * axe's structure rules that jsdom can check (no layout, so not contrast): the ones a list or a
 * group of options breaks (e2e/a11y.e2e.ts runs all of WCAG 2.1 A / AA in a browser).
 */
const STRUCTURE_RULES = ['list', 'listitem', 'aria-allowed-role', 'aria-required-children', 'aria-required-parent', 'aria-toggle-field-name', 'button-name', 'nested-interactive', 'label'];

describe('MarkerTypePicker, open', () => {
  it('is a group of toggle buttons, the chosen one pressed, with no list items outside a list (axe: listitem, WCAG 1.3.1)', async () => {
    const { container } = render(<MarkerTypePicker category="Loot" subCategory="Safe" />);
    await userEvent.click(screen.getByRole('button', { name: /^Marker type:/ }));
    const subs = within(screen.getByRole('group', { name: 'Marker type' })).getByRole('group', { name: 'Subcategory' });
    expect(subs.querySelector('li')).toBeNull();
    expect([...subs.children].every((child) => child.tagName === 'BUTTON')).toBe(true);
    expect(within(subs).getByRole('button', { name: 'Safe' })).toHaveAttribute('aria-pressed', 'true');
    const result = await axe.run(container, { runOnly: { type: 'rule', values: STRUCTURE_RULES } });
    expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`)).toEqual([]);
  });
});
