import { describe, expect, it, vi } from 'vitest';
import type { SceneHooks } from '../scene-driver';
import { FakeRenderPort } from '../testing/fake-render-port';
import type { FromRenderWorker } from './protocol';
import { WorkerSceneDriver } from './worker-scene';

function setup() {
  const port = new FakeRenderPort();
  const hooks: SceneHooks = { invalidate: vi.fn(), drawn: vi.fn(), firstTile: vi.fn(), ready: vi.fn(), failed: vi.fn() };
  const canvas = { style: { width: '', height: '' }, remove: vi.fn() };
  const onError = hooks.failed as ReturnType<typeof vi.fn>;
  const drawAtlas = vi.fn(async () => ({ bitmap: { close: vi.fn() } as unknown as ImageBitmap, failed: ['x'] }));
  const onStarted = vi.fn();
  const driver = new WorkerSceneDriver(port, hooks, { canvas, drawAtlas, onStarted });
  return { port, hooks, canvas, onError, drawAtlas, onStarted, driver };
}

const view = { x: 100, y: 200, zoom: 0.5 };
const viewport = { width: 640, height: 480 };

describe('WorkerSceneDriver', () => {
  it('sends the calls of a frame as one message with the camera, in order, and nothing until the frame', () => {
    const { port, driver } = setup();
    driver.setLevel(2);
    driver.setSelected(7);
    driver.setHovered(3);
    driver.setHovered(4);
    expect(port.sent).toHaveLength(0);
    expect(driver.frame(0, view, viewport, true, true)).toBe(false);
    expect(port.sent).toHaveLength(1);
    expect(port.sent[0].message).toEqual({
      type: 'frame',
      ops: [{ op: 'level', num: 2 }, { op: 'selected', index: 7 }, { op: 'hovered', index: 4 }],
      view,
      viewport,
      cameraChanged: true,
    });
    driver.frame(0, view, viewport, false, false);
    expect(port.sent[1].message).toMatchObject({ type: 'frame', ops: [], cameraChanged: false });
  });

  it('copies a row it is given, so the caller may reuse it', () => {
    const { port, driver } = setup();
    const row = { uid: 'a', x: 1, y: 2, level: 1, icon: 0, label: 'A', alwaysLabel: 0 as const };
    driver.upsertMarker(0, row, undefined, false);
    row.x = 99;
    driver.frame(0, view, viewport, false, true);
    expect((port.sent[0].message as { ops: { row: { x: number } }[] }).ops[0].row.x).toBe(1);
  });

  it('sizes the canvas element as the engine resizes', () => {
    const { canvas, driver, port } = setup();
    driver.resize(300, 200);
    expect(canvas.style).toEqual({ width: '300px', height: '200px' });
    driver.frame(0, view, viewport, false, false);
    expect((port.sent[0].message as { ops: unknown[] }).ops).toEqual([{ op: 'resize', width: 300, height: 200 }]);
  });

  it("puts the worker's frame times on the page's clock, and says ready once the worker does", () => {
    const { port, hooks } = setup();
    port.answer({ type: 'drawn', updateMs: 1.5, renderMs: 2.5, firstTileAt: performance.timeOrigin + 123, readyAt: null });
    expect(hooks.drawn).toHaveBeenCalledWith(1.5, 2.5);
    expect(hooks.firstTile).toHaveBeenCalledWith(expect.closeTo(123, 3));
    expect(hooks.ready).not.toHaveBeenCalled();
    port.answer({ type: 'drawn', updateMs: 1, renderMs: 1, firstTileAt: null, readyAt: performance.timeOrigin + 150 });
    expect(hooks.ready).toHaveBeenCalledTimes(1);
  });

  it('draws the icons in the page when the worker cannot use the atlas, and transfers them', async () => {
    const { port, drawAtlas } = setup();
    port.answer({ type: 'need-atlas', reason: 'HTTP 404' });
    await vi.waitFor(() => expect(port.sent).toHaveLength(1));
    expect(drawAtlas).toHaveBeenCalledTimes(1);
    const { message, transfer } = port.sent[0];
    expect(message).toMatchObject({ type: 'atlas', failed: ['x'] });
    expect(transfer).toEqual([(message as { bitmap: ImageBitmap }).bitmap]);
  });

  it('reports the start, and a failure of the worker once, on the console and to the engine', () => {
    const { port, onStarted, onError } = setup();
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    port.answer({ type: 'started', renderer: 'webgl' });
    expect(onStarted).toHaveBeenCalledTimes(1);
    port.answer({ type: 'error', message: 'no WebGL' });
    expect(onError).toHaveBeenCalledWith('no WebGL', 'worker');
    expect(consoleError).toHaveBeenCalledWith('raidmap: no WebGL');
    const event = { message: 'boom', preventDefault: vi.fn() } as unknown as ErrorEvent;
    port.onerror?.(event);
    expect(event.preventDefault).toHaveBeenCalled();
    expect(onError).toHaveBeenCalledTimes(1);
    consoleError.mockRestore();
  });

  it("passes on a lost context's failure as such (a new worker may draw), and asks the worker to lose its context", () => {
    const { port, driver, onError } = setup();
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    driver.simulateContextLoss(250);
    expect(port.sent[0].message).toEqual({ type: 'lose-context', restoreAfterMs: 250 });
    port.answer({ type: 'error', message: 'the context was lost', cause: 'context' });
    expect(onError).toHaveBeenCalledWith('the context was lost', 'context');
    consoleError.mockRestore();
  });

  it('reports a worker that dies', () => {
    const { port, onError } = setup();
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    port.onerror?.({ message: 'boom', preventDefault: vi.fn() } as unknown as ErrorEvent);
    expect(onError).toHaveBeenCalledWith('the render worker failed: boom', 'worker');
    consoleError.mockRestore();
  });

  it('says so, and keeps the page, when a frame cannot be sent', () => {
    const { port, driver, onError } = setup();
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    port.postMessage = () => {
      throw new DOMException('could not be cloned', 'DataCloneError');
    };
    expect(() => driver.frame(0, view, viewport, false, false)).not.toThrow();
    expect(onError).toHaveBeenCalledWith(expect.stringContaining('could not be cloned'), 'worker');
    consoleError.mockRestore();
  });

  it('hears what the worker said before it listened', () => {
    const port = new FakeRenderPort();
    const hooks: SceneHooks = { invalidate: vi.fn(), drawn: vi.fn(), firstTile: vi.fn(), ready: vi.fn(), failed: vi.fn() };
    const onStarted = vi.fn();
    new WorkerSceneDriver(port, hooks, {
      canvas: { style: { width: '', height: '' }, remove: vi.fn() },
      drawAtlas: vi.fn(),
      onStarted,
      backlog: [{ type: 'started', renderer: 'webgl' }, { type: 'drawn', updateMs: 1, renderMs: 2, firstTileAt: null, readyAt: null }],
    });
    expect(onStarted).toHaveBeenCalledTimes(1);
    expect(hooks.drawn).toHaveBeenCalledWith(1, 2);
  });

  it('on dispose stops the worker, removes the canvas, and ignores what comes after', () => {
    const { port, driver, canvas, hooks } = setup();
    driver.dispose();
    expect(port.terminated).toBe(true);
    expect(canvas.remove).toHaveBeenCalledTimes(1);
    driver.setLevel(3);
    driver.frame(0, view, viewport, true, true);
    expect(port.sent.map((s) => s.message.type)).toEqual(['dispose']);
    port.onmessage?.({ data: { type: 'drawn', updateMs: 1, renderMs: 1, firstTileAt: null, readyAt: 1 } } as MessageEvent<FromRenderWorker>);
    expect(hooks.ready).not.toHaveBeenCalled();
  });
});
