interface ICanvas { getContext(type: string, options?: unknown): unknown }
import { afterEach, describe, expect, it } from 'vitest';
import { forgetRendererContext, wrapCanvas } from './test-context';

interface FakeContext {
  kind: string;
  lost: boolean;
  isContextLost(): boolean;
  getParameter(): string;
  getExtension(name: string): { name: string } | null;
}

function fakeCanvas(): { canvas: ICanvas; made: FakeContext[] } {
  const made: FakeContext[] = [];
  const canvas = {
    width: 1,
    height: 1,
    getContext(kind: string) {
      const context: FakeContext = {
        kind,
        lost: false,
        isContextLost() {
          return this.lost;
        },
        getParameter() {
          return this.kind;
        },
        getExtension: (name: string) => ({ name }),
      };
      made.push(context);
      return context;
    },
  } as unknown as ICanvas;
  return { canvas: wrapCanvas(canvas), made };
}

type Ask = (kind: string, options?: unknown) => FakeContext | null;
const ask = (canvas: ICanvas): Ask => (canvas.getContext as unknown as Ask).bind(canvas);

afterEach(() => forgetRendererContext());

describe("PixiJS's test context shares the renderer's context", () => {
  it('makes real contexts until the renderer has one', () => {
    const { canvas, made } = fakeCanvas();
    expect(ask(canvas)('webgl', {})?.kind).toBe('webgl');
    expect(made).toHaveLength(1);
  });

  it("answers a plain 'webgl' request with a view of the renderer's webgl2 context that cannot lose it", () => {
    const renderer = fakeCanvas();
    const gl = ask(renderer.canvas)('webgl2', { antialias: false })!;
    const test = fakeCanvas();
    const view = ask(test.canvas)('webgl', {})!;
    expect(test.made).toHaveLength(0);
    expect(view.getParameter()).toBe('webgl2');
    expect(view.getExtension('WEBGL_lose_context')).toBeNull();
    expect(view.getExtension('OES_texture_float')).toEqual({ name: 'OES_texture_float' });
    expect(gl.isContextLost()).toBe(false);
    expect(ask(fakeCanvas().canvas)('webgl')?.getParameter()).toBe('webgl2');
  });

  it('leaves requests with options, 2d canvases and a lost renderer context alone', () => {
    const renderer = fakeCanvas();
    const gl = ask(renderer.canvas)('webgl2', {})!;
    const other = fakeCanvas();
    expect(ask(other.canvas)('webgl', { stencil: true })?.kind).toBe('webgl');
    expect(ask(other.canvas)('2d')?.kind).toBe('2d');
    gl.lost = true;
    expect(ask(other.canvas)('webgl', {})?.kind).toBe('webgl');
    expect(other.made.map((c) => c.kind)).toEqual(['webgl', '2d', 'webgl']);
  });
});
