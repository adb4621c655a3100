// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAPS } from '../../domain/maps';
import type { TileManifest } from '../../domain/tiles';
import { FakeRenderPort } from '../testing/fake-render-port';
import type { FromRenderWorker, RenderStart } from './protocol';
import { RENDER_FAILED_KEY, StartedRender, absoluteBase, rememberRenderWorkerFailed, renderWorkerSupported, startRender } from './early-render';

const manifest = { map: 'customs', version: 'v1', layers: ['main'], width: 4400, height: 3200, minZ: 0, maxZ: 4, tileSize: 256 } as unknown as TileManifest;
const offscreen = { kind: 'offscreen' } as unknown as OffscreenCanvas;

beforeEach(() => {
  (HTMLCanvasElement.prototype as unknown as { transferControlToOffscreen: () => OffscreenCanvas }).transferControlToOffscreen = () => offscreen;
  sessionStorage.clear();
});

afterEach(() => {
  delete (HTMLCanvasElement.prototype as unknown as { transferControlToOffscreen?: unknown }).transferControlToOffscreen;
  vi.unstubAllGlobals();
});

describe('startRender', () => {
  it("sizes the map's canvas for the window and hands its control to the worker with the map", () => {
    const port = new FakeRenderPort();
    const started = startRender({ map: MAPS.customs, manifest, tileBase: '', iconAtlasUrl: '/icons/atlas.png', width: 390, height: 844, dpr: 2 }, () => port);
    expect(started.canvas.width).toBe(780);
    expect(started.canvas.height).toBe(1688);
    expect(started.canvas.style.width).toBe('390px');
    // The page's container names the map in the reader's language; the canvas adds no English label.
    expect(started.canvas.getAttribute('aria-label')).toBeNull();
    expect(started.canvas.getAttribute('aria-hidden')).toBe('true');
    expect(port.sent).toHaveLength(1);
    const { message, transfer } = port.sent[0];
    const start = message as RenderStart;
    expect(start).toMatchObject({ type: 'start', width: 390, height: 844, dpr: 2, transparent: false, tileBase: location.origin });
    expect(start.iconAtlasUrl).toBe(`${location.origin}/icons/atlas.png`);
    expect(start.canvas).toBe(offscreen);
    expect(transfer).toEqual([offscreen]);
  });

  it('makes tile prefixes absolute (the worker resolves against its own address)', () => {
    expect(absoluteBase('')).toBe(location.origin);
    expect(absoluteBase('https://cdn.example/raidmap/')).toBe('https://cdn.example/raidmap');
    expect(absoluteBase('/base')).toBe(`${location.origin}/base`);
  });
});

describe('StartedRender', () => {
  it('keeps what the worker says until an engine takes it, once', () => {
    const port = new FakeRenderPort();
    const canvas = document.createElement('canvas');
    const started = new StartedRender('customs', port, canvas, { width: 1, height: 1, dpr: 1 });
    port.onmessage?.({ data: { type: 'started', renderer: 'webgl' } } as MessageEvent<FromRenderWorker>);
    const taken = started.take();
    expect(taken.backlog).toEqual([{ type: 'started', renderer: 'webgl' }]);
    expect(taken.port).toBe(port);
    expect(port.onmessage).toBeNull();
    expect(() => started.take()).toThrow(/taken already/);
    started.dispose();
    expect(port.terminated).toBe(false);
  });

  it('keeps a failure that comes before an engine listens', () => {
    const port = new FakeRenderPort();
    const started = new StartedRender('customs', port, document.createElement('canvas'), { width: 1, height: 1, dpr: 1 });
    const event = { message: '', preventDefault: vi.fn() } as unknown as ErrorEvent;
    port.onerror?.(event);
    expect(event.preventDefault).toHaveBeenCalled();
    expect(started.take().backlog).toEqual([{ type: 'error', message: 'the render worker failed: its script did not load' }]);
    expect(port.onerror).toBeNull();
  });

  it('stops a worker no engine took', () => {
    const port = new FakeRenderPort();
    new StartedRender('customs', port, document.createElement('canvas'), { width: 1, height: 1, dpr: 1 }).dispose();
    expect(port.terminated).toBe(true);
  });
});

describe('renderWorkerSupported', () => {
  it('remembers a failure for the page where sessionStorage is blocked (no second worker, no retry loop)', async () => {
    vi.resetModules();
    const fresh = await import('./early-render');
    vi.stubGlobal('Worker', function Worker() {});
    vi.stubGlobal('OffscreenCanvas', function OffscreenCanvas() {});
    const blocked = () => {
      throw new DOMException('storage blocked', 'SecurityError');
    };
    const setItem = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(blocked);
    const getItem = vi.spyOn(Storage.prototype, 'getItem').mockImplementation(blocked);
    try {
      expect(fresh.renderWorkerSupported()).toBe(true);
      fresh.rememberRenderWorkerFailed();
      expect(fresh.renderWorkerSupported()).toBe(false);
    } finally {
      setItem.mockRestore();
      getItem.mockRestore();
    }
  });

  it('needs workers and canvas transfer, and no failure in this tab before', () => {
    vi.stubGlobal('Worker', function Worker() {});
    vi.stubGlobal('OffscreenCanvas', function OffscreenCanvas() {});
    expect(renderWorkerSupported()).toBe(true);
    rememberRenderWorkerFailed();
    expect(sessionStorage.getItem(RENDER_FAILED_KEY)).toBe('1');
    expect(renderWorkerSupported()).toBe(false);
    sessionStorage.clear();
    delete (HTMLCanvasElement.prototype as unknown as { transferControlToOffscreen?: unknown }).transferControlToOffscreen;
    expect(renderWorkerSupported()).toBe(false);
  });
});
