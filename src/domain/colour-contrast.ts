/**
 * WCAG 2.1 contrast math for the tests that hold the UI's colours to AA (4.5:1 for normal text):
 * src/ui/panels/panelContrast.test.ts, src/ui/admin/statusContrast.test.ts. Colours are read
 * from the CSS as written; a translucent colour is painted over what lies under it (`over`), so a
 * test can take the worst case of the map's art (white or black) under a translucent bar.
 */

export type Rgba = [r: number, g: number, b: number, a: number];

export const WHITE: Rgba = [255, 255, 255, 1];
export const BLACK: Rgba = [0, 0, 0, 1];

/** `#rrggbb`, `rgb(r, g, b)` or `rgba(r, g, b, a)`. */
export function parseColour(value: string): Rgba {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(value.trim());
  if (hex) return [Number.parseInt(hex[1], 16), Number.parseInt(hex[2], 16), Number.parseInt(hex[3], 16), 1];
  const fn = /^rgba?\(([^)]+)\)$/.exec(value.trim());
  if (!fn) throw new Error(`not a colour: ${value}`);
  const [r, g, b, a = 1] = fn[1].split(',').map((part) => Number.parseFloat(part));
  return [r, g, b, a];
}

/** `top` painted over the opaque `under`. */
export function over(top: Rgba, under: Rgba): Rgba {
  const [r, g, b, a] = top;
  return [r * a + under[0] * (1 - a), g * a + under[1] * (1 - a), b * a + under[2] * (1 - a), 1];
}

/** A colour at `opacity` (an element's CSS opacity multiplies its colour's alpha). */
export function withOpacity([r, g, b, a]: Rgba, opacity: number): Rgba {
  return [r, g, b, a * opacity];
}

/** The relative luminance of an opaque colour (WCAG 2.1). */
export function luminance([r, g, b]: Rgba): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** The contrast ratio of two opaque colours, 1 to 21. */
export function contrast(a: Rgba, b: Rgba): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}
