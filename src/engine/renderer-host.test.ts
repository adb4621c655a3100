// @vitest-environment jsdom
/**
 * The renderer host makes the renderer's one WebGL context itself: WebGL 2 first, WebGL 1 where
 * that fails, none where neither works (then PixiJS's own detection runs), on a canvas that
 * already has its drawing-buffer size, with the attributes PixiJS would have asked for. PixiJS's
 * system ticker does not run a frame loop of its own: the engine advances it in its frames.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetRendererContext, wrapCanvas } from './kernels/test-context';
import { Ticker } from 'pixi.js';
import { advanceSystemTicker, contextAttributes, makeContext, quietSystemTicker } from './renderer-host';

type Request = { type: string; attributes: unknown; width: number; height: number };

function answerContexts(answer: (type: string) => unknown): Request[] {
  const requests: Request[] = [];
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(function (this: HTMLCanvasElement, type: string, attributes?: unknown) {
    requests.push({ type, attributes, width: this.width, height: this.height });
    return answer(type) as never;
  });
  return requests;
}

afterEach(() => {
  vi.restoreAllMocks();
  forgetRendererContext();
});

describe('contextAttributes', () => {
  it('asks for an opaque, stencilled, premultiplied context without antialiasing by default', () => {
    expect(contextAttributes({})).toEqual({
      alpha: false,
      premultipliedAlpha: true,
      antialias: false,
      stencil: true,
      preserveDrawingBuffer: false,
      powerPreference: 'default',
    });
  });

  it('asks for alpha only for a see-through background (the stream overlay)', () => {
    expect(contextAttributes({ backgroundAlpha: 0 }).alpha).toBe(true);
    expect(contextAttributes({ backgroundAlpha: 1 }).alpha).toBe(false);
  });
});

describe('makeContext', () => {
  it('makes WebGL 2 on a canvas sized in device pixels before the context exists', () => {
    const gl2 = { isContextLost: () => false, getExtension: () => null };
    const requests = answerContexts((type) => (type === 'webgl2' ? gl2 : null));
    const made = makeContext({ width: 640, height: 400, resolution: 1.5 });
    expect(made?.gl).toBe(gl2);
    expect(requests).toEqual([{ type: 'webgl2', attributes: contextAttributes({}), width: 960, height: 600 }]);
  });

  it('falls back to WebGL 1, and to nothing where neither can be made', () => {
    const gl1 = { isContextLost: () => false, getExtension: () => null };
    let requests = answerContexts((type) => (type === 'webgl' ? gl1 : null));
    expect(makeContext({ width: 10, height: 10 })?.gl).toBe(gl1);
    expect(requests.map((r) => r.type)).toEqual(['webgl2', 'webgl']);

    vi.restoreAllMocks();
    requests = answerContexts(() => null);
    expect(makeContext({ width: 10, height: 10 })).toBeNull();
    expect(requests.map((r) => r.type)).toEqual(['webgl2', 'webgl']);
  });

  it('answers a throwaway plain WebGL request afterwards with a view of the same context (no second context)', () => {
    const gl2 = { isContextLost: () => false, getExtension: (name: string) => ({ name }), marker: 'renderer' };
    const requests = answerContexts((type) => (type === 'webgl2' ? gl2 : { other: type }));
    makeContext({ width: 10, height: 10 });
    const probe = wrapCanvas(document.createElement('canvas'));
    const test = probe.getContext('webgl', {}) as unknown as typeof gl2;
    expect(test.marker).toBe('renderer');
    expect(test.getExtension('WEBGL_lose_context')).toBeNull();
    expect(requests.map((r) => r.type)).toEqual(['webgl2']);
  });

  it('is null, not a crash, where getContext throws', () => {
    answerContexts(() => {
      throw new Error('GPU process crashed');
    });
    expect(makeContext({ width: 10, height: 10 })).toBeNull();
  });
});

describe('the system ticker', () => {
  it('stays stopped when something listens, and runs its listeners when the engine advances it', () => {
    const system = Ticker.system;
    const { autoStart, started } = system;
    const frames = vi.spyOn(globalThis, 'requestAnimationFrame');
    const listener = vi.fn();
    try {
      quietSystemTicker();
      // What PixiJS's scheduler does as a renderer starts: with autoStart on, this started a loop.
      system.add(listener);
      expect(system.started).toBe(false);
      expect(frames).not.toHaveBeenCalled();
      advanceSystemTicker(system.lastTime + 1000);
      expect(listener).toHaveBeenCalledTimes(1);
      advanceSystemTicker(system.lastTime + 16);
      expect(listener).toHaveBeenCalledTimes(2);
      expect(frames).not.toHaveBeenCalled();
    } finally {
      system.remove(listener);
      system.autoStart = autoStart;
      if (started) system.start();
    }
  });
});
