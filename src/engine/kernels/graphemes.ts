/**
 * Splits text into grapheme clusters (what a reader counts as one character) for PixiJS's text
 * layout (`CanvasTextMetrics.graphemeSegmenter`, used by every label's bitmap text).
 *
 * PixiJS makes an `Intl.Segmenter` as its module loads and runs every string through it. The
 * segmenter's start costs 18–26 ms of the page's first second, and segmenting is about a
 * hundred times slower than splitting by code point (Chromium, docs/PERFORMANCE.md "First paint,
 * fourth session"). Marker names are almost always Latin or Cyrillic, where every code point is
 * a cluster of its own: such strings are split by code point, and only text with characters that
 * can join (combining marks, emoji sequences, CR LF, other scripts) goes to a segmenter, made on
 * first need. The result is the segmenter's in every case.
 */

/**
 * Code points that are always a grapheme cluster of their own and never join their neighbour:
 * tab and line feed (not CR: CR LF is one cluster), printable ASCII, Latin-1 to IPA and the
 * spacing modifiers, Greek and Coptic, Cyrillic without its combining marks (U+0483–0489) and
 * its supplement, general punctuation without the zero-width and bidi controls, and currency
 * symbols.
 */
const STANDALONE = /^[\t\n\u0020-\u007e\u00a0-\u02ff\u0370-\u0482\u048a-\u052f\u2010-\u2027\u2030-\u205e\u20a0-\u20c0]*$/;

type Segment = (text: string) => string[];

let segmenter: Segment | null = null;

function slowSegment(): Segment {
  if (segmenter) return segmenter;
  if (typeof Intl !== 'undefined' && typeof Intl.Segmenter === 'function') {
    const intl = new Intl.Segmenter();
    segmenter = (text) => Array.from(intl.segment(text), (s) => s.segment);
  } else {
    segmenter = (text) => [...text];
  }
  return segmenter;
}

export function splitGraphemes(text: string): string[] {
  return STANDALONE.test(text) ? [...text] : slowSegment()(text);
}

/** The most characters a map label shows: a longer name ends in "…" (its popup's title is whole). */
export const MAX_LABEL_CHARS = 40;

/**
 * A label as the map draws it: at most `max` characters (grapheme clusters: a flag or a family
 * emoji is one), the rest cut to "…". A name of 120 letters with no space ran across the whole
 * map, under the side panels.
 */
export function mapLabelText(text: string, max = MAX_LABEL_CHARS): string {
  if (text.length <= max) return text;
  const parts = splitGraphemes(text);
  return parts.length <= max ? text : `${parts.slice(0, max - 1).join('').trimEnd()}…`;
}
