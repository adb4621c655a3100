/**
 * Text typed with the other keyboard layout on: the same keys read on the Russian ЙЦУКЕН layout
 * or on the English QWERTY one ("safe" typed with the Russian layout on is "ыфау"; "сейф" with
 * the English one is "ctqa"). Find a marker tries the text switched when it finds nothing as
 * typed; Where am I tells a screenshot name typed with the Russian layout on ("163ю0б 1ю5").
 */

/** The letter keys, QWERTY and ЙЦУКЕН in the same order (ЙЦУКЕН has letters on [ ] ; ' , . `). */
const QWERTY = "qwertyuiop[]asdfghjkl;'zxcvbnm,.`QWERTYUIOP{}ASDFGHJKL:\"ZXCVBNM<>~";
const JCUKEN = 'йцукенгшщзхъфывапролджэячсмитьбюёЙЦУКЕНГШЩЗХЪФЫВАПРОЛДЖЭЯЧСМИТЬБЮЁ';

const TO_RUSSIAN = new Map([...QWERTY].map((key, i) => [key, JCUKEN[i]]));
const TO_ENGLISH = new Map([...JCUKEN].map((key, i) => [key, QWERTY[i]]));

const CYRILLIC = /[а-яё]/i;

/**
 * The text as the same keys give it on the other layout: text with a Cyrillic letter in it read
 * as typed on ЙЦУКЕН meaning QWERTY ("ыфау" → "safe"), any other as typed on QWERTY meaning
 * ЙЦУКЕН ("ctqa" → "сейф"). Digits, spaces and keys the two layouts share are kept. Null when
 * nothing changes (digits only, say): there is nothing else to try.
 *
 * One direction per text, by its letters: a mixed text ("ыфау 3") is read as Russian keys. A
 * Cyrillic text's "." and "," stay (ЙЦУКЕН types them on keys QWERTY has for "/" and "?", seldom
 * meant in a search), while an English text's become "ю" and "б" (the keys ЙЦУКЕН has there).
 */
export function switchLayout(text: string): string | null {
  const table = CYRILLIC.test(text) ? TO_ENGLISH : TO_RUSSIAN;
  const switched = Array.from(text, (c) => table.get(c) ?? c).join('');
  return switched === text ? null : switched;
}

const LATIN_LETTER = /^[a-z]$/;
const LETTER = /^\p{L}$/u;
/** KeyboardEvent.code of a letter key: its place on a US keyboard ("KeyL"), whatever the layout types there. */
const LETTER_CODE = /^Key([A-Z])$/;

/**
 * The key a letter shortcut (m, l, e; Ctrl+Z, Ctrl+C…) reads from a key press: `key` lower-cased
 * when it is a Latin letter or no letter at all, so a Latin layout (QWERTY, AZERTY, Dvorak) keeps
 * its shortcuts by letter, as printed on its keys; the physical key's Latin letter (`code`
 * "KeyL") when the layout types another script's letter there: with the Russian layout on, the
 * key marked L types "д", and still means l. Keys of more than one character (Enter, Escape)
 * are kept as they are.
 */
export function shortcutKey(key: string, code?: string): string {
  if (key.length !== 1) return key;
  const lower = key.toLowerCase();
  if (LATIN_LETTER.test(lower) || !LETTER.test(key) || !code) return lower;
  const physical = LETTER_CODE.exec(code);
  return physical ? physical[1].toLowerCase() : lower;
}
