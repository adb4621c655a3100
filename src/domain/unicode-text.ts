/**
 * Text must be valid Unicode: no lone UTF-16 surrogate (a high surrogate U+D800–U+DBFF not
 * followed by a low one U+DC00–U+DFFF, or a low one without a high one before it). JSON can
 * carry one (`"a\ud800b"`), but neither UTF-8 nor the databases can: it is stored as U+FFFD
 * (one to three of them), so the text changes under its writer and can outgrow its length bound.
 * The server refuses such text on input (server/http/no-nul.ts); anything may check it here.
 */

const wellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/** The UTF-16 index of the first lone surrogate in `text`, or -1 when there is none. */
export function loneSurrogateAt(text: string): number {
  // The engine's own scan (ES2024; Node 20, every current browser) answers the usual case, valid
  // text, without a loop in JavaScript: the server runs this on every string of every write.
  if (wellFormed?.call(text)) return -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
    }
    return i;
  }
  return -1;
}

/** Why `text` is not valid Unicode text (`must be valid Unicode text (a lone surrogate at 1)`), or undefined. */
export function unicodeTextProblem(text: string): string | undefined {
  const at = loneSurrogateAt(text);
  return at < 0 ? undefined : `must be valid Unicode text (a lone surrogate at ${at})`;
}
