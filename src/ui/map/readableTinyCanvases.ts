/**
 * PixiJS asks, while its modules evaluate, whether the 2D canvas can multiply colours (its
 * canvas renderer's `canUseNewCanvasBlendModes`): it draws on three 6 × 1 canvases and reads a
 * pixel back with getImageData. On an accelerated 2D canvas that read-back waits for the GPU
 * process: 100–170 ms of the main thread with software GL (SwiftShader, llvmpipe), on every
 * page that opens a map (docs/PERFORMANCE.md, "First paint, third session").
 *
 * While the engine chunk loads and evaluates, a tiny 2D canvas asked for without options gets
 * `willReadFrequently` (a canvas kept in memory, not on the GPU): the same pixels and the same
 * answer, in about 25 ms. Larger canvases, other context types and explicit options are left
 * as the browser makes them, and the browser's getContext is back once the load settles.
 */

/** Canvases of at most this many pixels are "tiny" (PixiJS's probe is 6 × 1). */
export const TINY_CANVAS_AREA = 64;

interface CanvasPrototype {
  getContext(this: { width: number; height: number }, type: string, options?: unknown): unknown;
}

export function whileTinyCanvasesReadable<T>(load: () => Promise<T>, prototype: CanvasPrototype | undefined = globalThis.HTMLCanvasElement?.prototype as CanvasPrototype | undefined): Promise<T> {
  if (!prototype) return load();
  const original = prototype.getContext;
  const getContext: CanvasPrototype['getContext'] = function (this: { width: number; height: number }, type: string, options?: unknown) {
    if (type === '2d' && options === undefined && this.width * this.height <= TINY_CANVAS_AREA) {
      return original.call(this, type, { willReadFrequently: true });
    }
    return original.call(this, type, options);
  };
  prototype.getContext = getContext;
  const restore = () => {
    if (prototype.getContext === getContext) prototype.getContext = original;
  };
  try {
    return load().finally(restore);
  } catch (error) {
    restore();
    throw error;
  }
}
