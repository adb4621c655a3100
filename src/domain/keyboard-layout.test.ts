import { describe, expect, it } from 'vitest';
import { switchLayout } from './keyboard-layout';

describe('switchLayout: the same keys on the other layout', () => {
  it('reads Cyrillic text as QWERTY keys typed with ЙЦУКЕН on', () => {
    expect(switchLayout('ыфау')).toBe('safe');
    expect(switchLayout('ЫФАУ')).toBe('SAFE');
    expect(switchLayout('пфеу 3')).toBe('gate 3');
    // The letters on QWERTY's punctuation keys: б ю ж э х ъ ё.
    expect(switchLayout('хъжэбюё')).toBe("[];',.`");
  });

  it('reads Latin text as ЙЦУКЕН keys typed with QWERTY on', () => {
    expect(switchLayout('ctqa')).toBe('сейф');
    expect(switchLayout('ds[jl')).toBe('выход');
    expect(switchLayout('Jhe;tqysq zobr')).toBe('Оружейный ящик');
  });

  it('goes both ways', () => {
    for (const word of ['safe', 'weapon box', 'сейф', 'оружейный ящик', 'Gate 3']) {
      expect(switchLayout(switchLayout(word)!)).toBe(word);
    }
  });

  it('keeps a Cyrillic text\'s own "." and ","; a mixed text is read as Russian keys', () => {
    expect(switchLayout('ул. 5, ы')).toBe('ek. 5, s');
    expect(switchLayout('ыфау gate')).toBe('safe gate');
  });

  it('is null when nothing changes', () => {
    expect(switchLayout('')).toBeNull();
    expect(switchLayout('123 -4')).toBeNull();
  });
});
