import { describe, expect, it } from 'vitest';
import { markerSchema } from './marker';
import { issueProblem, textCharacterProblem, textLimit, UNKNOWN_CATEGORY_PAIR } from './marker-problem';

describe('issueProblem', () => {
  it('reads a length bound and a list bound from the schema\'s own issues', () => {
    const result = markerSchema.safeParse({
      uid: 'm1', map: 'customs', category: 'Loot', subCategory: 'Safe', level: 1, geometry: { x: 1, y: 1 },
      desc_l10n: { ru: 'ж'.repeat(5000) }, itemsUid: Array.from({ length: 101 }, (_, i) => `i${i}`),
    });
    if (result.success) throw new Error('expected issues');
    const byPath = Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue]));
    expect(issueProblem('desc_l10n.ru', byPath['desc_l10n.ru'])).toEqual({ field: 'desc_l10n.ru', kind: 'tooLong', limit: 4000 });
    expect(issueProblem('itemsUid', byPath.itemsUid)).toEqual({ field: 'itemsUid', kind: 'tooMany', limit: 100 });
  });

  it('says an unknown pair, a bad image address, the level, and anything else as invalid', () => {
    expect(issueProblem('subCategory', { code: 'custom', message: UNKNOWN_CATEGORY_PAIR })).toEqual({ field: 'subCategory', kind: 'unknownCategory' });
    expect(issueProblem('imgs.2.img', { code: 'custom', message: 'must be an http(s) URL or a path on this site (no other scheme)' })).toEqual({ field: 'imgs.2.img', kind: 'badUrl' });
    expect(issueProblem('level', { code: 'too_big', origin: 'number', maximum: 10 })).toEqual({ field: 'level', kind: 'level' });
    expect(issueProblem('geometry.x', { code: 'custom', message: 'must be from …' })).toEqual({ field: 'geometry.x', kind: 'invalid' });
    expect(issueProblem('version', { code: 'too_small', origin: 'number' })).toEqual({ field: 'version', kind: 'invalid' });
  });
});

describe('textCharacterProblem', () => {
  it('refuses U+0000 and a lone surrogate, as the server does', () => {
    expect(textCharacterProblem('a\u0000b')).toMatch(/U\+0000/);
    expect(textCharacterProblem('a\ud800b')).toMatch(/valid Unicode/);
    expect(textCharacterProblem('Сейф 😀')).toBeUndefined();
  });
});

describe('textLimit', () => {
  it('is the bound of each text the form edits', () => {
    expect(textLimit('name')).toBe(200);
    expect(textLimit('name_l10n.ru')).toBe(200);
    expect(textLimit('desc')).toBe(4000);
    expect(textLimit('desc_l10n.en')).toBe(4000);
    expect(textLimit('imgs.3.img')).toBe(2048);
    expect(textLimit('imgs.0.name')).toBe(200);
    expect(textLimit('imgs.0.desc')).toBe(1000);
    expect(textLimit('level')).toBeUndefined();
  });
});
