/**
 * splitGraphemes answers what Intl.Segmenter answers, for names as admins type them and for
 * any string at all; the fast path is taken only where every code point stands alone.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitGraphemes, mapLabelText } from './graphemes';

const intl = new Intl.Segmenter();
const reference = (text: string) => Array.from(intl.segment(text), (s) => s.segment);

describe('splitGraphemes', () => {
  it.each([
    '',
    'Dorm room 114 key',
    'Ключ от комнаты 114 (общежитие)',
    'Ёлка — «тест» №5 € 12,50 ₽',
    'Café déjà vu, Ærø, Łódź, ß',
    'Ελληνικά',
    'e\u0301 and и\u0306 (combining marks)',
    'Cyrillic combining \u0483 titlo',
    'family 👨‍👩‍👧 flag 🇷🇺 thumbs 👍🏽 keycap 1️⃣',
    'line\r\nbreak and\nlf and\ttab',
    '한국어 조합형 \u1100\u1161\u11a8',
    'हिन्दी',
    'zero\u200bwidth and \u200d joiner',
  ])('splits %j as Intl.Segmenter does', (text) => {
    expect(splitGraphemes(text)).toEqual(reference(text));
  });

  it('agrees with Intl.Segmenter on any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (text) => {
        expect(splitGraphemes(text)).toEqual(reference(text));
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        expect(splitGraphemes(text)).toEqual(reference(text));
      }),
      { numRuns: 500 },
    );
  });

  it('agrees on text from the fast path\'s ranges, with now and then a character that joins', () => {
    const ranges: [number, number][] = [[0x20, 0x7e], [0xa0, 0x2ff], [0x370, 0x482], [0x48a, 0x52f], [0x2010, 0x2027], [0x2030, 0x205e], [0x20a0, 0x20c0]];
    const standalone = fc.constantFrom(...ranges).chain(([lo, hi]) => fc.integer({ min: lo, max: hi })).map((cp) => String.fromCodePoint(cp));
    const joining = fc.constantFrom('\u0301', '\u0483', '\u200d', '\ufe0f', '\r', '\u{1f3fd}');
    const char = fc.oneof({ arbitrary: standalone, weight: 20 }, { arbitrary: joining, weight: 1 });
    fc.assert(
      fc.property(fc.array(char, { maxLength: 40 }), (chars) => {
        const text = chars.join('');
        expect(splitGraphemes(text)).toEqual(reference(text));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('mapLabelText', () => {
  it('keeps a label of up to 40 characters, and cuts a longer one to 39 and "…"', () => {
    expect(mapLabelText('Gate 3')).toBe('Gate 3');
    expect(mapLabelText('W'.repeat(40))).toBe('W'.repeat(40));
    expect(mapLabelText('W'.repeat(120))).toBe(`${'W'.repeat(39)}…`);
    expect(mapLabelText('Сейф '.repeat(20))).toBe(`${'Сейф '.repeat(8).trimEnd()}…`);
  });

  it('never cuts a character in two: an emoji made of several code points counts as one', () => {
    const family = '👨‍👩‍👧';
    const label = mapLabelText(family.repeat(50), 5);
    expect(label).toBe(`${family.repeat(4)}…`);
  });
});
