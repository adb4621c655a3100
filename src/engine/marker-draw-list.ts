/**
 * The boundary between where markers are placed and where they are drawn. `MarkerPlacement`
 * (no PixiJS: thinning, culling, draw order, the hit index's input) tells a `MarkerDrawList`
 * what to draw, as a list of sprites in draw order (bottom first) and edits of that list.
 * `MarkerSprites` draws it with PixiJS particles in the same thread; a list that forwards the
 * same calls to a render worker can stand in for it (docs/ENGINE-WORKER.md). Every argument is
 * plain numbers, so the calls can be sent as they are.
 */

/** One placed marker as drawn: its icon and look, at a layout position (screen = layout + offset). */
export interface MarkerSprite {
  /** Frame of the icon atlas (an index into SUBCATEGORIES). */
  icon: number;
  layoutX: number;
  layoutY: number;
  /** On-screen size of the icon, CSS px. */
  size: number;
  alpha: number;
}

export interface MarkerDrawList {
  /** Screen position of the layout origin (a pan moves only this). */
  setOffset(x: number, y: number): void;
  /** The whole list anew (a placement): `count` sprites, `write(k, out)` fills the k-th. */
  replace(count: number, write: (k: number, out: MarkerSprite) => void): void;
  /** A sprite put in at position k (the ones from k on move up by one). */
  insert(k: number, sprite: MarkerSprite): void;
  /** The sprite at position k taken out (the ones after it move down by one). */
  remove(k: number): void;
  /** The edits since the last commit are complete: draw them from the next frame. */
  commit(): void;
  dispose(): void;
}

/** A list that draws nothing (a placement with no renderer: tests, a page without WebGL yet). */
export const NO_DRAW_LIST: MarkerDrawList = {
  setOffset: () => undefined,
  replace: () => undefined,
  insert: () => undefined,
  remove: () => undefined,
  commit: () => undefined,
  dispose: () => undefined,
};
