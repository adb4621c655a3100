import { describe, expect, it } from 'vitest';
import { TEXT_LABEL_FONT_PX, TEXT_LABEL_OUTLINE_PX, textLabelSize } from './text-label';

describe('textLabelSize', () => {
  it('grows with the text: a long label is many times a short one, near what sans-serif faces draw', () => {
    // Chromium's sans-serif (Liberation Sans, Arial's metrics) draws this 193 px wide at 14 px.
    const long = textLabelSize('A much longer label for the exit');
    expect(long.width).toBeGreaterThanOrEqual(193 + TEXT_LABEL_OUTLINE_PX);
    expect(long.width).toBeLessThan(193 * 1.2);
    // …and this 229 px (DejaVu Sans a little wider: the estimate leans wide).
    const ru = textLabelSize('Длинная подпись у выхода с карты');
    expect(ru.width).toBeGreaterThanOrEqual(229 + TEXT_LABEL_OUTLINE_PX);
    expect(ru.width).toBeLessThan(229 * 1.2);
    expect(textLabelSize('Hi').width).toBeLessThan(long.width / 5);
  });

  it('counts wide, narrow and full-width characters apart', () => {
    expect(textLabelSize('WWWWWWWWWW').width).toBeGreaterThan(132 + TEXT_LABEL_OUTLINE_PX);
    expect(textLabelSize('WWWWWWWWWW').width).toBeGreaterThan(2.5 * textLabelSize('iiiiiiiiii').width);
    expect(textLabelSize('中文字').width).toBeGreaterThanOrEqual(3 * TEXT_LABEL_FONT_PX);
  });

  it('is one line high, a line per \\n, never zero for an empty label; scales with the font', () => {
    const one = textLabelSize('Exit');
    expect(one.height).toBeGreaterThanOrEqual(TEXT_LABEL_FONT_PX + TEXT_LABEL_OUTLINE_PX);
    expect(one.height).toBeLessThan(2 * TEXT_LABEL_FONT_PX);
    const two = textLabelSize('Exit\nA much longer second line');
    expect(two.height).toBeGreaterThan(1.9 * (one.height - TEXT_LABEL_OUTLINE_PX));
    expect(two.width).toBe(textLabelSize('A much longer second line').width);
    expect(textLabelSize('').width).toBeGreaterThan(TEXT_LABEL_OUTLINE_PX);
    expect(textLabelSize('Exit', 28).width).toBeGreaterThan(1.9 * (one.width - TEXT_LABEL_OUTLINE_PX));
  });
});
