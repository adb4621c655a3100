import { describe, expect, it } from 'vitest';
import { findNul } from './no-nul';

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
