/**
 * A build-time edit of one line of PixiJS: its text metrics module makes an `Intl.Segmenter` as
 * it loads (18–26 ms of the map's first second in Chromium) for a segmenter that the engine
 * replaces anyway (src/engine/kernels/graphemes.ts, set in src/engine/index.ts). The edit makes
 * the module take its own fallback (split by code point) instead, so no segmenter is made until
 * a string needs one.
 *
 * If a PixiJS upgrade changes the line, the build stops with a message (and the unit test of this
 * plugin fails), rather than silently keeping the cost.
 */
import type { Plugin } from 'vite';

/** The module and the condition in it that decides to make the segmenter. */
export const TARGET_MODULE = /[\\/]pixi\.js[\\/]lib[\\/]scene[\\/]text[\\/]canvas[\\/]CanvasTextMetrics\.mjs$/;
export const SEGMENTER_CHECK = 'if (typeof Intl?.Segmenter === "function") {';

/** The module's code with the segmenter left to the engine; throws where the line is not there. */
export function withoutEagerSegmenter(code: string): string {
  const at = code.indexOf(SEGMENTER_CHECK);
  if (at < 0 || code.indexOf(SEGMENTER_CHECK, at + 1) >= 0) {
    throw new Error(`pixi-lazy-segmenter: expected exactly one "${SEGMENTER_CHECK}" in PixiJS's CanvasTextMetrics.mjs; PixiJS changed, update scripts/vite/pixi-lazy-segmenter.ts`);
  }
  return `${code.slice(0, at)}if (false) { /* raidmap: the engine sets graphemeSegmenter */${code.slice(at + SEGMENTER_CHECK.length)}`;
}

export function pixiLazySegmenter(): Plugin {
  return {
    name: 'raidmap:pixi-lazy-segmenter',
    apply: 'build',
    transform(code, id) {
      if (!TARGET_MODULE.test(id.split('?')[0])) return null;
      return { code: withoutEagerSegmenter(code), map: null };
    },
  };
}
