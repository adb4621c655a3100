/**
 * The on-screen size of a text shape's label (spec §3 "Drawn shape", type `text`). The engine
 * draws the label a constant size on screen (src/engine/shape-layer.ts: `TEXT_LABEL_FONT_PX`,
 * white with a dark outline, centred on the shape's point), so its extent is in CSS px and only
 * its map size changes with the zoom. The hit test (shapes.ts `shapeContains`) and the selection
 * frame both use this estimate, so what is framed is what can be grabbed.
 *
 * It is an estimate from the text, not a measurement: the hit test runs on the main thread
 * while the label may be drawn in the render worker, and a pure rule is testable without a
 * canvas. Per-character widths follow common sans-serif faces (Arial / Helvetica / Liberation
 * Sans), rounded up a little so the frame still surrounds wider faces (DejaVu Sans is ~8 %
 * wider).
 *
 * No imports: the render worker loads it (see shape-geometry.ts).
 */

/** Font size of a text shape's label, CSS px, at any zoom. */
export const TEXT_LABEL_FONT_PX = 14;
/** Width of the label's dark outline, CSS px (it adds to the drawn size on every side by half). */
export const TEXT_LABEL_OUTLINE_PX = 3;
/** Line height of the label, in font sizes. */
const LINE_HEIGHT_EM = 1.25;

// Character widths in em (font sizes), by class.
const NARROW_EM = 0.3;
const WIDE_EM = 0.95;
const UPPER_EM = 0.74;
const FULL_EM = 1;
const OTHER_EM = 0.57;
/** i, l, j, t, f, r, I, space and thin punctuation. */
const NARROW = /[\sijlrtfI.,:;!'|()[\]{}`-]/u;
/** The widest letters of Latin and Cyrillic. */
const WIDE = /[mwMWжшщыюфЖШЩЫЮМФ@%]/u;
/** CJK, kana, Hangul, full-width forms, emoji: about one em each. */
const FULL = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\p{Extended_Pictographic}]/u;

export interface TextLabelSize {
  /** CSS px, outline included. */
  width: number;
  height: number;
}

/** Width (CSS px, no outline) of one line of label text. */
function lineWidth(line: string, fontPx: number): number {
  let em = 0;
  for (const ch of line) {
    if (NARROW.test(ch)) em += NARROW_EM;
    else if (WIDE.test(ch)) em += WIDE_EM;
    else if (FULL.test(ch)) em += FULL_EM;
    else if (ch !== ch.toLowerCase()) em += UPPER_EM;
    else em += OTHER_EM;
  }
  return em * fontPx;
}

/**
 * The estimated size of a label as drawn (CSS px, outline included): the widest of its lines
 * (`\n` breaks a line) by the lines' height. An empty label is drawn as one space: a small box,
 * never zero.
 */
export function textLabelSize(text: string, fontPx = TEXT_LABEL_FONT_PX): TextLabelSize {
  const lines = (text || ' ').split('\n');
  const width = Math.max(...lines.map((l) => lineWidth(l, fontPx)));
  return {
    width: Math.ceil(width + TEXT_LABEL_OUTLINE_PX),
    height: Math.ceil(lines.length * fontPx * LINE_HEIGHT_EM + TEXT_LABEL_OUTLINE_PX),
  };
}
