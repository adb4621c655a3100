import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { access, can, ROLE_TABLE, roleOf, type Access, type Capability } from './roles';

const visitor = { pro: false, admin: false };
const pro = { pro: true, admin: false };
const admin = { pro: false, admin: true };

describe('role table', () => {
  it('maps flags to roles, admin first, signed out as visitor', () => {
    expect(roleOf(null)).toBe('visitor');
    expect(roleOf(undefined)).toBe('visitor');
    expect(roleOf(visitor)).toBe('visitor');
    expect(roleOf({ pro: true, admin: false })).toBe('pro');
    expect(roleOf({ pro: true, admin: true })).toBe('admin');
  });

  it('answers every cell', () => {
    expect(can(visitor, 'view') && can(pro, 'view') && can(admin, 'view')).toBe(true);
    expect([access(visitor, 'questProgress'), access(pro, 'questProgress'), access(admin, 'questProgress')]).toEqual(['upsell', 'yes', 'notShown']);
    expect([access(visitor, 'questsBeyondLimit'), access(pro, 'questsBeyondLimit'), access(admin, 'questsBeyondLimit')]).toEqual(['no', 'yes', 'notShown']);
    for (const c of ['lookArrow', 'ownProgress', 'settings'] as const) {
      expect([access(visitor, c), access(pro, c), access(admin, c)]).toEqual(['upsell', 'yes', 'notShown']);
      expect(can(null, c)).toBe(false);
    }
    for (const c of ['editMarkers', 'adminTools'] as const) {
      expect([can(visitor, c), can(pro, c), can(admin, c)]).toEqual([false, false, true]);
    }
  });

  it('is the table of the spec (section 6), row by row', () => {
    const spec = readFileSync(resolve(__dirname, '../../tests/fixtures/spec/spec-tables.md'), 'utf8');
    const section = spec.slice(spec.indexOf('## 6. Roles and permissions'), spec.indexOf('## 9.'));
    const rows = section
      .split('\n')
      .filter((line) => line.startsWith('|') && !line.startsWith('|---') && !line.startsWith('| Capability'))
      .map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()));
    const cell = (text: string): Access => (text === 'yes' ? 'yes' : text === 'not shown' ? 'notShown' : text.includes('upsell') ? 'upsell' : 'no');
    // Which of our capabilities each spec row names.
    const rowCapabilities: Array<[RegExp, Capability[]]> = [
      [/^View map/, ['view']],
      [/^Complete, reopen, hide, show/, ['questProgress']],
      [/^Select more than 3 quests/, ['questsBeyondLimit']],
      [/^Look-direction arrow, own progress, settings/, ['lookArrow', 'ownProgress', 'settings']],
      [/^Edit, save, cancel, copy, delete markers/, ['editMarkers']],
      [/^Draw tools/, ['adminTools']],
    ];
    expect(rows).toHaveLength(rowCapabilities.length);
    for (const [name, visitorCell, proCell, adminCell] of rows) {
      const match = rowCapabilities.find(([re]) => re.test(name));
      expect(match, name).toBeDefined();
      for (const capability of match![1]) {
        expect(ROLE_TABLE[capability], `${name} → ${capability}`).toEqual({ visitor: cell(visitorCell), pro: cell(proCell), admin: cell(adminCell) });
      }
    }
    expect(new Set(rowCapabilities.flatMap(([, caps]) => caps))).toEqual(new Set(Object.keys(ROLE_TABLE)));
  });
});
