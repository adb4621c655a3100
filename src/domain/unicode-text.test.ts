import { describe, expect, it } from 'vitest';
import { loneSurrogateAt, unicodeTextProblem } from './unicode-text';

describe('unicode text', () => {
  it('finds the first lone surrogate: a high one without a low one after it, or a low one alone', () => {
    expect(loneSurrogateAt('a\ud800b')).toBe(1);
    expect(loneSurrogateAt('\udc00')).toBe(0);
    expect(loneSurrogateAt('ok\ud83d')).toBe(2);
    expect(loneSurrogateAt('\ud83d\ude00\ude00')).toBe(2);
    expect(loneSurrogateAt('\ud800\ud800\udc00')).toBe(0);
    expect(unicodeTextProblem('a\ud800b')).toBe('must be valid Unicode text (a lone surrogate at 1)');
  });

  it('accepts valid text: pairs (emoji), any other character, the empty string', () => {
    for (const text of ['', 'plain', 'Тайник 😀', '\ufffd', '\ud83d\ude00', 'é\u0001\uffff']) {
      expect(loneSurrogateAt(text), text).toBe(-1);
      expect(unicodeTextProblem(text), text).toBeUndefined();
    }
  });
});
