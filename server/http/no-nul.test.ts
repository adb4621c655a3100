import { describe, expect, it } from 'vitest';
import { findNul, inputTextProblem } from './no-nul';

describe('findNul', () => {
  it('names the first field holding U+0000, in objects, arrays and keys', () => {
    expect(findNul({ name: 'ok', desc: 'a\u0000b' })).toBe('desc');
    expect(findNul({ imgs: [{ img: '/a.png' }, { img: '/b\u0000.png' }] })).toBe('imgs[1].img');
    expect(findNul({ extra: { ['k\u0000']: 1 } })).toBe('extra.k\\u0000');
    expect(findNul(['x', 'y\u0000'])).toBe('[1]');
    expect(findNul('\u0000')).toBe('(value)');
  });

  it('answers null for clean input and non-text values', () => {
    expect(findNul({ a: 1, b: [true, null, 'text'], c: { d: 'é\u0001' } })).toBeNull();
    expect(findNul(undefined)).toBeNull();
  });

  it('walks a deeply nested value without overflowing the stack', () => {
    let deep: unknown = 'end\u0000';
    for (let i = 0; i < 20_000; i += 1) deep = [deep];
    expect(findNul({ deep })).toMatch(/^deep(\[0\])+$/);
  });
});

describe('inputTextProblem', () => {
  it('names the first field holding U+0000 or a lone surrogate, with why', () => {
    expect(inputTextProblem({ name: 'a\ud800b' })).toBe('name: must be valid Unicode text (a lone surrogate at 1)');
    expect(inputTextProblem({ imgs: [{ img: '/a.png', name: 'x\udfff' }] })).toBe('imgs[0].name: must be valid Unicode text (a lone surrogate at 1)');
    expect(inputTextProblem({ name_l10n: { ru: '\ud83d' } })).toBe('name_l10n.ru: must be valid Unicode text (a lone surrogate at 0)');
    expect(inputTextProblem({ extra: { ['k\ud800']: 1 } })).toBe('extra.k\\ud800: must be valid Unicode text (a lone surrogate at 1)');
    expect(inputTextProblem({ desc: 'a\u0000' })).toBe('desc: must not contain the character U+0000');
  });

  it('answers null for valid text, emoji included', () => {
    expect(inputTextProblem({ name: 'Тайник 😀', desc: '\ufffd', imgs: [], n: 1 })).toBeNull();
    expect(inputTextProblem(undefined)).toBeNull();
  });
});
