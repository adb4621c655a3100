import { describe, expect, it } from 'vitest';
import { shortcutKey, switchLayout } from './keyboard-layout';

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

describe('shortcutKey: the letter a shortcut reads from a key press', () => {
  it("reads the physical key's Latin letter where the layout types a Cyrillic one", () => {
    expect(shortcutKey('д', 'KeyL')).toBe('l');
    expect(shortcutKey('ь', 'KeyM')).toBe('m');
    expect(shortcutKey('у', 'KeyE')).toBe('e');
    expect(shortcutKey('Я', 'KeyZ')).toBe('z');
    expect(shortcutKey('с', 'KeyC')).toBe('c');
    expect(shortcutKey('м', 'KeyV')).toBe('v');
    expect(shortcutKey('н', 'KeyY')).toBe('y');
  });

  it('keeps a Latin letter as typed, so AZERTY and Dvorak keep their shortcuts by letter', () => {
    // AZERTY's Z is where QWERTY has W; its A where QWERTY has Q.
    expect(shortcutKey('z', 'KeyW')).toBe('z');
    expect(shortcutKey('A', 'KeyQ')).toBe('a');
    expect(shortcutKey('l', 'KeyL')).toBe('l');
  });

  it('leaves named keys, digits, signs and letters off the letter keys alone', () => {
    expect(shortcutKey('Escape', 'Escape')).toBe('Escape');
    expect(shortcutKey('Enter', 'Enter')).toBe('Enter');
    expect(shortcutKey('1', 'Digit1')).toBe('1');
    expect(shortcutKey('&', 'Digit1')).toBe('&');
    // ЙЦУКЕН's ж is on QWERTY's ; key: no Latin letter there.
    expect(shortcutKey('ж', 'Semicolon')).toBe('ж');
    // No code known (a synthetic event): the key as typed.
    expect(shortcutKey('д')).toBe('д');
    expect(shortcutKey('д', '')).toBe('д');
  });
});
