import { describe, expect, it } from 'vitest';
import { TINY_CANVAS_AREA, whileTinyCanvasesReadable } from './readableTinyCanvases';

/** A canvas prototype that records what each getContext call was given. */
function fakePrototype() {
  const calls: { type: string; options: unknown; area: number }[] = [];
  const prototype = {
    getContext(this: { width: number; height: number }, type: string, options?: unknown) {
      calls.push({ type, options, area: this.width * this.height });
      return { type };
    },
  };
  const canvas = (width: number, height: number) => Object.assign(Object.create(prototype) as typeof prototype, { width, height });
  return { prototype, calls, canvas };
}

describe('whileTinyCanvasesReadable', () => {
  it("gives tiny 2D canvases asked for without options willReadFrequently while the load runs, and nothing else", async () => {
    const { prototype, calls, canvas } = fakePrototype();
    const original = prototype.getContext;
    let release: () => void = () => {};
    const loading = whileTinyCanvasesReadable(() => new Promise<string>((resolve) => (release = () => resolve('engine'))), prototype);
    canvas(6, 1).getContext('2d');
    canvas(8, 8).getContext('2d');
    canvas(9, 8).getContext('2d');
    canvas(6, 1).getContext('2d', { alpha: false });
    canvas(6, 1).getContext('webgl');
    expect(calls).toEqual([
      { type: '2d', options: { willReadFrequently: true }, area: 6 },
      { type: '2d', options: { willReadFrequently: true }, area: TINY_CANVAS_AREA },
      { type: '2d', options: undefined, area: 72 },
      { type: '2d', options: { alpha: false }, area: 6 },
      { type: 'webgl', options: undefined, area: 6 },
    ]);
    release();
    await expect(loading).resolves.toBe('engine');
    expect(prototype.getContext).toBe(original);
    canvas(6, 1).getContext('2d');
    expect(calls.at(-1)).toEqual({ type: '2d', options: undefined, area: 6 });
  });

  it('puts the browser’s getContext back when the load fails or throws', async () => {
    const { prototype } = fakePrototype();
    const original = prototype.getContext;
    await expect(whileTinyCanvasesReadable(() => Promise.reject(new Error('chunk failed')), prototype)).rejects.toThrow('chunk failed');
    expect(prototype.getContext).toBe(original);
    expect(() =>
      whileTinyCanvasesReadable(() => {
        throw new Error('no import');
      }, prototype),
    ).toThrow('no import');
    expect(prototype.getContext).toBe(original);
  });

  it('runs the load as it is where there are no canvases', async () => {
    await expect(whileTinyCanvasesReadable(() => Promise.resolve(1), undefined)).resolves.toBe(1);
  });
});
