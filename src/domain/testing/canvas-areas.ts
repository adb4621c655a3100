/**
 * Canvas areas of real pages for tests of the visible part (src/domain/keep-in-view.ts): what a
 * probe measured on the map page at 1280×800.
 */
import type { CanvasArea } from '../keep-in-view';

/** The 1280×800 map page: top bar 10–677 × 10–52, categories 10–250, levels and quests 1000–1270 (a column to the bottom). */
export const DESKTOP_PANELS: CanvasArea = {
  width: 1280,
  height: 800,
  covers: [
    { left: 10, top: 10, right: 677, bottom: 52 },
    { left: 10, top: 63, right: 250, bottom: 790 },
    { left: 1000, top: 10, right: 1270, bottom: 800 },
  ],
};

/** The same page with its panels hidden: the top bar alone. */
export const DESKTOP_BAR_ONLY: CanvasArea = { width: 1280, height: 800, covers: [{ left: 10, top: 10, right: 677, bottom: 52 }] };
