import '../../i18n';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAPS } from '../../domain/maps';
import { editor, resetEditor } from '../../state/editor';
import { layout, setPanelsShown, togglePointTools } from '../../state/layout';
import { points, resetPoints } from '../../state/points';
import { cancelEdit, resetPopup, showPopupFor, startEdit } from '../../state/popup';
import type { Marker } from '../../domain/marker';
import { resetSession, setSessionUser } from '../../state/session';
import { memoryStorage, setStorageBackend } from '../../state/storage';
import { AdminDock } from './AdminDock';

const admin = { pro: false, admin: true, questsDone: [], questsHidden: [] };

beforeEach(() => {
  setStorageBackend(memoryStorage());
  resetEditor();
});
afterEach(() => {
  resetSession();
  resetEditor();
  resetPoints();
  resetPopup();
  layout.pointTools = false;
  setPanelsShown(true);
  setStorageBackend(null);
});

describe('AdminDock', () => {
  it('stacks the point tools (when toggled), the tools panel and the status bar for an admin', async () => {
    setSessionUser(admin);
    const { container } = render(<AdminDock map={MAPS.factory} camera={{ x: 10, y: 20, zoom: 1.5 }} />);
    const dock = container.firstElementChild as HTMLElement;
    expect(dock).toHaveClass('admin-dock', 'admin-dock--panels');
    expect(screen.getByRole('region', { name: 'Editor tools' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Editor status' })).toHaveTextContent('zoom 1.5000');
    expect(screen.queryByRole('region', { name: 'Point history' })).toBeNull();
    // The map's points are loaded while the dock is there, even with the buttons hidden.
    expect(points.mapId).toBe('factory');

    act(() => togglePointTools());
    expect(await screen.findByRole('region', { name: 'Point history' })).toBeInTheDocument();
    const regions = screen.getAllByRole('region').map((r) => r.getAttribute('aria-label'));
    expect(regions).toEqual(['Point history', 'Editor tools', 'Editor status']);

    // With the side panels hidden the dock spans the page.
    act(() => setPanelsShown(false));
    await waitFor(() => expect(dock).not.toHaveClass('admin-dock--panels'));
  });

  it('yields to an open edit form (admin.css hides it on a narrow or short window) and comes back as it was', async () => {
    setSessionUser(admin);
    const { container } = render(<AdminDock map={MAPS.factory} camera={null} />);
    const dock = container.firstElementChild as HTMLElement;
    const toggle = screen.getByRole('button', { expanded: true });
    // The admin folds the tools before opening the form.
    act(() => toggle.click());
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(dock).not.toHaveClass('admin-dock--form-open');

    // The popup in view mode leaves the dock be; its edit form marks it.
    act(() => showPopupFor('m1'));
    expect(dock).not.toHaveClass('admin-dock--form-open');
    act(() => startEdit(marker));
    await waitFor(() => expect(dock).toHaveClass('admin-dock--form-open'));
    // Hidden, not unmounted: the tools keep their state.
    expect(screen.getByRole('region', { name: 'Editor tools' })).toBeInTheDocument();

    act(() => cancelEdit());
    await waitFor(() => expect(dock).not.toHaveClass('admin-dock--form-open'));
    expect(screen.getByRole('button', { expanded: false })).toBe(toggle);

    // Closing the popup from the form gives the room back too.
    act(() => startEdit(marker));
    await waitFor(() => expect(dock).toHaveClass('admin-dock--form-open'));
    act(() => showPopupFor(null));
    await waitFor(() => expect(dock).not.toHaveClass('admin-dock--form-open'));
  });
});

const marker = { uid: 'm1', version: 1 } as unknown as Marker;

/**
 * The rules admin.css applies on a narrow or short window (jsdom lays nothing out and ignores
 * media queries): each element of the dock they hide, and each rule's other declarations.
 */
function narrowWindowRules(): CSSStyleRule[] {
  const element = document.createElement('style');
  element.textContent = readFileSync(join(__dirname, 'admin.css'), 'utf8');
  document.head.append(element);
  const rules: CSSStyleRule[] = [];
  for (const rule of Array.from(element.sheet!.cssRules)) {
    if (rule instanceof CSSMediaRule && rule.media.mediaText.includes('max-width: 600px') && rule.media.mediaText.includes('max-height: 500px')) {
      rules.push(...Array.from(rule.cssRules).filter((r): r is CSSStyleRule => r instanceof CSSStyleRule));
    }
  }
  element.remove();
  return rules;
}

/** Whether `element` shows on a phone-sized window: neither it nor an ancestor is hidden by those rules. */
function showsOnPhone(element: Element, rules: CSSStyleRule[]): boolean {
  const hidden = rules.filter((r) => r.style.getPropertyValue('display') === 'none');
  for (let e: Element | null = element; e; e = e.parentElement) if (hidden.some((r) => e!.matches(r.selectorText))) return false;
  return true;
}

describe('AdminDock while an edit form is open on a phone', () => {
  const conflict = { uid: 'c1', mine: { ...marker, uid: 'c1', name: 'Stash', map: 'factory' }, theirs: { ...marker, uid: 'c1', name: 'Theirs' }, action: 'update' as const, origin: 'save' as const };

  it('keeps the first notice that needs the admin as a one-line strip with its first action; hides the rest', async () => {
    setSessionUser(admin);
    const { container } = render(<AdminDock map={MAPS.factory} camera={null} />);
    const dock = container.firstElementChild as HTMLElement;
    act(() => {
      editor.pending = { n1: { status: 'failed', error: 'the server could not be reached. Try again.' } };
      editor.conflicts = { c1: conflict as never };
    });
    act(() => startEdit(marker));
    await waitFor(() => expect(dock).toHaveClass('admin-dock--form-open'));
    const rules = narrowWindowRules();
    const shown = Array.from(dock.children).filter((child) => showsOnPhone(child, rules));
    expect(shown).toHaveLength(1);
    const strip = shown[0] as HTMLElement;
    expect(strip).toHaveTextContent('1 change not saved');
    // One line: the text cut with an ellipsis, only the first action (Retry) left.
    const text = strip.querySelector('.admin-set-aside__text')!;
    const lineRule = rules.find((r) => text.matches(r.selectorText) && r.style.getPropertyValue('white-space'));
    expect(lineRule?.style.getPropertyValue('white-space')).toBe('nowrap');
    expect(lineRule?.style.getPropertyValue('text-overflow')).toBe('ellipsis');
    const actions = Array.from(strip.querySelectorAll('button')).filter((b) => showsOnPhone(b, rules));
    expect(actions.map((b) => b.textContent)).toEqual(['Retry']);
    // The tools, the status bar and the conflict behind it wait for the form to close.
    expect(showsOnPhone(screen.getByRole('region', { name: 'Editor tools' }), rules)).toBe(false);
    expect(showsOnPhone(screen.getByText(/Another admin changed/), rules)).toBe(false);

    // Saved meanwhile: the conflict comes up into the strip.
    act(() => {
      editor.pending = {};
    });
    await waitFor(() => expect(Array.from(dock.children).filter((child) => showsOnPhone(child, rules)).map((c) => c.textContent)).toEqual([expect.stringContaining('Another admin changed “Stash”')]));

    // The form closed: the whole dock again.
    act(() => cancelEdit());
    await waitFor(() => expect(dock).not.toHaveClass('admin-dock--form-open'));
    expect(showsOnPhone(screen.getByRole('region', { name: 'Editor tools' }), rules)).toBe(true);
  });

  it('shows nothing of the dock while the form is open and nothing needs the admin', async () => {
    setSessionUser(admin);
    const { container } = render(<AdminDock map={MAPS.factory} camera={null} />);
    const dock = container.firstElementChild as HTMLElement;
    act(() => startEdit(marker));
    await waitFor(() => expect(dock).toHaveClass('admin-dock--form-open'));
    const rules = narrowWindowRules();
    expect(Array.from(dock.children).filter((child) => showsOnPhone(child, rules))).toEqual([]);
  });
});

/** admin.css's rules in its media blocks whose condition names all of `parts` (jsdom ignores media queries). */
function rulesWhere(parts: string[], without: string[] = []): CSSStyleRule[] {
  const element = document.createElement('style');
  element.textContent = readFileSync(join(__dirname, 'admin.css'), 'utf8');
  document.head.append(element);
  const rules: CSSStyleRule[] = [];
  for (const rule of Array.from(element.sheet!.cssRules)) {
    if (!(rule instanceof CSSMediaRule)) continue;
    const media = rule.media.mediaText;
    if (parts.every((p) => media.includes(p)) && !without.some((w) => media.includes(w))) {
      rules.push(...Array.from(rule.cssRules).filter((r): r is CSSStyleRule => r instanceof CSSStyleRule));
    }
  }
  element.remove();
  return rules;
}

/** The value those rules give `element`'s `property` (the last rule that sets it). */
function ruled(element: Element, property: string, rules: CSSStyleRule[]): string {
  let value = '';
  for (const rule of rules) if (element.matches(rule.selectorText) && rule.style.getPropertyValue(property)) value = rule.style.getPropertyValue(property);
  return value;
}

describe('AdminDock on a phone', () => {
  it('takes at most about a third of the screen: the tools one row of named icons that scrolls sideways, the rest scrolling under it', async () => {
    setSessionUser(admin);
    const { container } = render(<AdminDock map={MAPS.factory} camera={null} />);
    const dock = container.firstElementChild as HTMLElement;
    act(() => togglePointTools());
    await screen.findByRole('region', { name: 'Point history' });
    const phone = rulesWhere(['max-width: 720px', 'max-height: 500px'], ['pointer', '600px']);

    // The whole dock (its box is what the map's covered insets and the popup follow) at most a third, or a little over.
    // (200 px where a third is less: a phone turned sideways.)
    expect(ruled(dock, 'max-height', phone)).toBe('max(34dvh, 200px)');
    // Short of room, the open tools give it first (down to their row), then the notices; the rest keeps its height.
    const tools = screen.getByRole('region', { name: 'Editor tools' });
    expect(ruled(tools, 'flex-shrink', phone)).toBe('100');
    expect(ruled(tools, 'min-height', phone)).toBe('54px');
    expect(ruled(screen.getByRole('region', { name: 'Point history' }), 'flex-shrink', phone)).toBe('0');

    // One row of the tools, icons with their names, sideways.
    const row = tools.querySelector('.admin-tools__row--main')!;
    const names = Array.from(row.querySelectorAll('button')).map((b) => b.getAttribute('aria-label') ?? b.textContent);
    expect(names).toEqual(['Pen', 'Line', 'Arrow', 'Rectangle', 'Circle', 'Polygon', 'Text', 'Marker', 'Edit', 'Move', 'Undo', 'Redo']);
    expect(ruled(row, 'flex-wrap', phone)).toBe('nowrap');
    expect(ruled(row, 'overflow-x', phone)).toBe('auto');
    for (const group of row.querySelectorAll('.admin-tools__group')) expect(ruled(group, 'flex-wrap', phone)).toBe('nowrap');
    // Edit and Move show their icons alone (their words read, not shown), as the open panel's toggle does.
    for (const words of [...row.querySelectorAll('.admin-button__text'), tools.querySelector('.admin-tools__toggle-text')!]) {
      expect(ruled(words, 'clip-path', phone)).toBe('inset(50%)');
    }
    // The options with their short labels, one row; what is under the tools scrolls up and down.
    const options = tools.querySelector<HTMLElement>('.admin-tools__row--options')!;
    expect(ruled(options, 'flex-wrap', phone)).toBe('nowrap');
    for (const check of options.querySelectorAll('.admin-tools__check-text')) expect(ruled(check, 'clip-path', phone)).toBe('inset(50%)');
    for (const check of options.querySelectorAll('.admin-tools__check-short')) expect(ruled(check, 'display', phone)).toBe('inline');
    const more = tools.querySelector('.admin-tools__more')!;
    expect(more).toContainElement(options);
    expect(ruled(more, 'overflow-y', phone)).toBe('auto');
    expect(parseFloat(ruled(more, 'min-height', phone))).toBe(0);

    // On touch the row's buttons stay 44 px targets.
    const touch = rulesWhere(['max-width: 720px', 'max-height: 500px', 'pointer: coarse']);
    for (const button of row.querySelectorAll('button')) expect(ruled(button, 'width', touch)).toBe('44px');
  });
});
