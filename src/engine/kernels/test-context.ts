/**
 * One WebGL context, not two (the pure part; `../shared-test-context.ts` installs it). When
 * PixiJS compiles its first shader it asks a throwaway `webgl` context (its `getTestContext`,
 * on a canvas of the DOM adapter, with no options) for the highest fragment precision. On a
 * software rasteriser (SwiftShader, llvmpipe: low-end machines, headless browsers) making that
 * second context costs the main thread tens to hundreds of ms of a map's first second
 * (docs/PERFORMANCE.md, "First paint").
 *
 * A wrapped canvas remembers the renderer's own `webgl2` context and answers a later plain
 * `webgl` request with a view of it whose `WEBGL_lose_context` is hidden, so that nothing can
 * lose the renderer's context. Before the renderer has a context, once it is lost, and for any
 * other request, canvases behave as the browser's. `../renderer-host.ts` makes the renderer's
 * context first, so that PixiJS's request, made while the renderer is being built, is answered.
 */
interface GlLike {
  isContextLost(): boolean;
  getExtension(name: string): unknown;
}

interface CanvasLike {
  getContext(type: string, options?: unknown): unknown;
}

let rendererContext: GlLike | null = null;

/** Forgets the remembered context (tests). */
export function forgetRendererContext(): void {
  rendererContext = null;
}

/** A view of the renderer's context that cannot lose it. */
function testView(gl: GlLike): GlLike {
  return new Proxy(gl, {
    get(target, property) {
      if (property === 'getExtension') {
        return (name: string) => (name === 'WEBGL_lose_context' ? null : target.getExtension(name));
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function isTestContextRequest(type: string, options: unknown): boolean {
  if (type !== 'webgl') return false;
  return options === undefined || (typeof options === 'object' && options !== null && Object.keys(options).length === 0);
}

/** Wraps the canvas's getContext in place and returns the canvas. */
export function wrapCanvas<C extends CanvasLike>(canvas: C): C {
  const getContext = canvas.getContext.bind(canvas);
  Object.defineProperty(canvas, 'getContext', {
    configurable: true,
    value(type: string, options?: unknown): unknown {
      if (isTestContextRequest(type, options) && rendererContext && !rendererContext.isContextLost()) return testView(rendererContext);
      const context = getContext(type, options);
      if (type === 'webgl2' && context) rendererContext = context as GlLike;
      return context;
    },
  });
  return canvas;
}
