import { describe, expect, it } from 'vitest';
import { BLACK, contrast, over, parseColour, WHITE, withOpacity } from './colour-contrast';

describe('colour contrast', () => {
  it('reads hex, rgb() and rgba()', () => {
    expect(parseColour('#9aa09f')).toEqual([154, 160, 159, 1]);
    expect(parseColour('rgb(20, 24, 28)')).toEqual([20, 24, 28, 1]);
    expect(parseColour('rgba(12, 14, 16, 0.82)')).toEqual([12, 14, 16, 0.82]);
    expect(() => parseColour('var(--text)')).toThrow();
  });

  it('gives WCAG ratios: 21 for black on white, 1 for a colour on itself', () => {
    expect(contrast(BLACK, WHITE)).toBeCloseTo(21, 5);
    expect(contrast(WHITE, BLACK)).toBeCloseTo(21, 5);
    expect(contrast(parseColour('#777777'), WHITE)).toBeCloseTo(4.48, 2);
  });

  it('paints a translucent colour over what is under it, opacity included', () => {
    expect(over([0, 0, 0, 0.5], WHITE)).toEqual([127.5, 127.5, 127.5, 1]);
    expect(over(withOpacity(WHITE, 0.5), BLACK)).toEqual([127.5, 127.5, 127.5, 1]);
  });
});
