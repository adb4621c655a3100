/**
 * A build-time edit of PixiJS's canvas renderer utilities (`canvasUtils.mjs`): as the module
 * evaluates, it asks whether the 2D canvas can multiply colours (`canUseNewCanvasBlendModes`:
 * three 6 × 1 canvases, a pixel read back) and picks its tint method from the answer. Only
 * PixiJS's canvas renderer tints that way; raidmap draws with WebGL, yet every map page paid for
 * the probe while the engine chunk evaluated: 100–170 ms of the main thread with software GL,
 * about 40 ms with the probe's canvases kept in memory (docs/PERFORMANCE.md, "Sixth session").
 *
 * The edit makes both lazy: `canUseMultiply` is a getter (the probe caches its own answer) and
 * `tintMethod` is chosen the first time it is read, so the canvas renderer still gets the same
 * answer, on first use. If a PixiJS upgrade changes either line, the build stops with a message
 * (and the unit test of this plugin fails), rather than silently keeping the cost.
 */
import type { Plugin } from 'vite';

export const TARGET_MODULE = /[\\/]pixi\.js[\\/]lib[\\/]rendering[\\/]renderers[\\/]canvas[\\/]utils[\\/]canvasUtils\.mjs$/;
export const EAGER_PROBE = 'canUseMultiply: canUseNewCanvasBlendModes(),';
export const EAGER_TINT = 'canvasUtils.tintMethod = canvasUtils.canUseMultiply ? canvasUtils.tintWithMultiply : canvasUtils.tintWithPerPixel;';

const LAZY_PROBE = 'get canUseMultiply() { return canUseNewCanvasBlendModes(); }, /* raidmap: probed on first use */';
// The first read picks the method and stores it as a plain property; an assignment before any
// read (PixiJS's own API allows it) stores the assigned one.
const LAZY_TINT = `/* raidmap: the tint method is picked on first use */
Object.defineProperty(canvasUtils, "tintMethod", {
  configurable: true,
  enumerable: true,
  get() {
    const method = canvasUtils.canUseMultiply ? canvasUtils.tintWithMultiply : canvasUtils.tintWithPerPixel;
    Object.defineProperty(canvasUtils, "tintMethod", { value: method, writable: true, configurable: true, enumerable: true });
    return method;
  },
  set(method) {
    Object.defineProperty(canvasUtils, "tintMethod", { value: method, writable: true, configurable: true, enumerable: true });
  },
});`;

function replaceOnce(code: string, line: string, by: string): string {
  const at = code.indexOf(line);
  if (at < 0 || code.indexOf(line, at + 1) >= 0) {
    throw new Error(`pixi-lazy-canvas-probe: expected exactly one "${line}" in PixiJS's canvasUtils.mjs; PixiJS changed, update scripts/vite/pixi-lazy-canvas-probe.ts`);
  }
  return `${code.slice(0, at)}${by}${code.slice(at + line.length)}`;
}

/** The module's code with the probe and the tint method made lazy; throws where a line is not there. */
export function withLazyCanvasProbe(code: string): string {
  return replaceOnce(replaceOnce(code, EAGER_PROBE, LAZY_PROBE), EAGER_TINT, LAZY_TINT);
}

export function pixiLazyCanvasProbe(): Plugin {
  return {
    name: 'raidmap:pixi-lazy-canvas-probe',
    apply: 'build',
    transform(code, id) {
      if (!TARGET_MODULE.test(id.split('?')[0])) return null;
      return { code: withLazyCanvasProbe(code), map: null };
    },
  };
}
