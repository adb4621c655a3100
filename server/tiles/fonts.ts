/**
 * Fonts for map text: the system's fonts, with generic families mapped to DejaVu (on
 * Debian and in most containers). A family that is missing falls back to the default;
 * with no font at all, resvg skips the text rather than failing.
 */
import type { ResvgRenderOptions } from '@resvg/resvg-js';

export const FONT_OPTIONS: NonNullable<ResvgRenderOptions['font']> = {
  loadSystemFonts: true,
  defaultFontFamily: 'DejaVu Sans',
  sansSerifFamily: 'DejaVu Sans',
  serifFamily: 'DejaVu Serif',
  monospaceFamily: 'DejaVu Sans Mono',
};
