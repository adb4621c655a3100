/**
 * The engine's renderer and stage, started with one WebGL context.
 *
 * PixiJS's `Application.init` asks `autoDetectRenderer`, which first makes a throwaway WebGL
 * context to see whether WebGL works (`isWebGLSupported`), and the renderer's construction then
 * asks for a second throwaway one (`getTestContext`, for the shader precision) before the
 * renderer makes its own. On a software rasteriser each context costs the main thread tens to
 * hundreds of ms of the map's first second (docs/PERFORMANCE.md, "First paint, fourth session").
 *
 * Here the renderer's own context is made first, on a canvas that the one-context adapter
 * (kernels/test-context.ts) knows, and handed to a `WebGLRenderer`: the test context is then a
 * view of it, and there is no support probe (the context is the proof). Where no WebGL context
 * can be made, `Application.init` runs as before and falls back the way PixiJS does.
 */
import { Application, Container, Ticker, WebGLRenderer, type ApplicationOptions, type DestroyOptions, type Rectangle, type Renderer, type RendererDestroyOptions } from 'pixi.js';
import { wrapCanvas } from './kernels/test-context';
import { withoutUnusedExtensions } from './kernels/unused-extensions';

/** What the engine uses of PixiJS's Application (an Application is one). */
export interface EngineApp {
  readonly renderer: Renderer;
  readonly stage: Container;
  readonly canvas: HTMLCanvasElement;
  readonly screen: Rectangle;
  destroy(rendererDestroyOptions?: RendererDestroyOptions, options?: DestroyOptions): void;
}

export type RendererOptions = Partial<
  Pick<ApplicationOptions, 'antialias' | 'resolution' | 'autoDensity' | 'width' | 'height' | 'backgroundColor' | 'backgroundAlpha' | 'skipExtensionImports'>
>;

/** A stage and a WebGL renderer that draws it: the part of Application the engine needs. */
class WebGLHost implements EngineApp {
  readonly stage = new Container();

  constructor(readonly renderer: WebGLRenderer) {}

  get canvas(): HTMLCanvasElement {
    return this.renderer.canvas;
  }

  get screen(): Rectangle {
    return this.renderer.screen;
  }

  destroy(rendererDestroyOptions?: RendererDestroyOptions, options?: DestroyOptions): void {
    this.stage.destroy(options);
    this.renderer.destroy(rendererDestroyOptions);
  }
}

/**
 * The context attributes PixiJS's GlContextSystem asks for with these options (its
 * `createContext`): alpha only for a see-through background, stencil for masks.
 */
export function contextAttributes(options: RendererOptions): WebGLContextAttributes {
  return {
    alpha: (options.backgroundAlpha ?? 1) < 1,
    premultipliedAlpha: true,
    antialias: options.antialias ?? false,
    stencil: true,
    preserveDrawingBuffer: false,
    powerPreference: 'default',
  };
}

/**
 * WebGL 2, else WebGL 1, on a new canvas the one-context adapter knows; null where neither works.
 * The context does not enable the compressed-texture extensions raidmap never uses
 * (kernels/unused-extensions.ts).
 * The canvas has its drawing-buffer size before the context is made: resizing it afterwards
 * reallocates the buffers (30 ms on SwiftShader).
 */
export function makeContext(options: RendererOptions): { canvas: HTMLCanvasElement; gl: WebGL2RenderingContext | WebGLRenderingContext } | null {
  return makeContextOn(document.createElement('canvas'), options);
}

/** The same on a given canvas (the render worker's OffscreenCanvas). */
export function makeContextOn<C extends HTMLCanvasElement | OffscreenCanvas>(
  target: C,
  options: RendererOptions,
): { canvas: C; gl: WebGL2RenderingContext | WebGLRenderingContext } | null {
  const canvas = wrapCanvas(target);
  const resolution = options.resolution ?? 1;
  canvas.width = Math.round((options.width ?? 800) * resolution);
  canvas.height = Math.round((options.height ?? 600) * resolution);
  const attributes = contextAttributes(options);
  try {
    const gl = (canvas.getContext('webgl2', attributes) ?? canvas.getContext('webgl', attributes)) as WebGL2RenderingContext | WebGLRenderingContext | null;
    return gl ? { canvas, gl: withoutUnusedExtensions(gl) } : null;
  } catch {
    return null;
  }
}

/**
 * PixiJS's system ticker, stopped: the renderer's scheduler (its texture and renderable GC)
 * listens on it from the renderer's start, and a started ticker asks for every animation frame
 * for the life of the page, so an idle map woke the main thread 60 times a second and made the
 * browser produce a frame each time. The engine draws on demand (frame-loop.ts) and advances the
 * ticker in the frames it draws (`advanceSystemTicker`), so the GC still runs after real work.
 */
export function quietSystemTicker(): void {
  const system = Ticker.system;
  system.autoStart = false;
  system.stop();
}

/** Runs what listens on PixiJS's system ticker (the renderer's scheduled GC) at `now`, in a frame the engine draws. */
export function advanceSystemTicker(now: number): void {
  Ticker.system.update(now);
}

/** Starts the renderer: one WebGL context where there is WebGL, PixiJS's own detection where not. */
export async function startRenderer(options: RendererOptions): Promise<EngineApp> {
  const app = await startPixiRenderer(options);
  quietSystemTicker();
  return app;
}

/**
 * Starts a WebGL renderer on the render worker's OffscreenCanvas (one context, as above). The
 * page sizes the canvas element; here the drawing buffer is sized, with no CSS. `contextMade`
 * is called once the context exists (the worker's `context` mark: on SwiftShader, making it is
 * most of the renderer's start).
 */
export async function startOffscreenRenderer(canvas: OffscreenCanvas, options: RendererOptions, contextMade: () => void = () => undefined): Promise<EngineApp> {
  const made = makeContextOn(canvas, options);
  if (!made) throw new Error('no WebGL context on the render worker\'s canvas');
  contextMade();
  const renderer = new WebGLRenderer();
  try {
    await renderer.init({ ...options, autoDensity: false, canvas: made.canvas as unknown as HTMLCanvasElement, context: made.gl as WebGL2RenderingContext });
  } catch (error) {
    made.gl.getExtension('WEBGL_lose_context')?.loseContext();
    throw error;
  }
  quietSystemTicker();
  return new WebGLHost(renderer);
}

async function startPixiRenderer(options: RendererOptions): Promise<EngineApp> {
  const made = typeof document === 'undefined' ? null : makeContext(options);
  if (!made) {
    const app = new Application();
    await app.init({ ...options, preference: 'webgl', autoStart: false, sharedTicker: false });
    app.ticker?.stop();
    return app;
  }
  const renderer = new WebGLRenderer();
  try {
    // PixiJS types the context as WebGL 2; it takes a WebGL 1 context too (its GlContextSystem checks which).
    await renderer.init({ ...options, canvas: made.canvas, context: made.gl as WebGL2RenderingContext });
  } catch (error) {
    made.gl.getExtension('WEBGL_lose_context')?.loseContext();
    throw error;
  }
  return new WebGLHost(renderer);
}
