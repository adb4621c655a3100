/**
 * Browser helpers for the end-to-end tests: one Chromium per test file, pages that record
 * console errors and page errors (any of them fails the test), and helpers that drive the
 * map page through its automation surface `window.__map` (docs/AUTOMATION.md).
 */
import { afterAll, afterEach, beforeAll, inject } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './support/chromium';
import { canvasTransferred } from './support/map-canvas';
import { trackErrors, type PageErrors } from './support/page-errors';

export const VIEWPORT = { width: 1280, height: 800 } as const;

/**
 * Where the pages of this run draw the map: in the render worker, the app's default
 * (docs/ENGINE-WORKER.md), or with `E2E_RENDER=main` on the main thread (`npm run
 * test:e2e:main`, as browsers without OffscreenCanvas do), through the browser's stored choice
 * (src/ui/map/renderMode.ts), so every page of a context draws that way.
 */
export const E2E_RENDER: 'worker' | 'main' = process.env.E2E_RENDER === 'main' ? 'main' : 'worker';

/**
 * Makes every page of `context` draw the map the way this run asks (E2E_RENDER), through the
 * browser's stored choice. Every helper that opens contexts for map pages calls it.
 */
export async function useRunRenderMode(context: BrowserContext): Promise<void> {
  if (E2E_RENDER === 'worker') return; // the default
  await context.addInitScript(() => {
    try {
      localStorage.setItem('raidmap.render', 'main');
    } catch {
      // an opaque origin (about:blank): nothing to store
    }
  });
}

/**
 * Fails when a ready map page is not drawn the way this run asks: a helper that forgot
 * `useRunRenderMode` would run the main-thread pass's tests in the worker, and a worker that
 * fell back to the main thread would pass the worker's tests unnoticed.
 */
export async function expectRunRenderMode(page: Page): Promise<void> {
  const transferred = await canvasTransferred(page);
  if (transferred !== (E2E_RENDER === 'worker')) {
    throw new Error(`this run draws the map ${E2E_RENDER === 'worker' ? 'in the render worker' : 'on the main thread'}, but the page's canvas is ${transferred ? '' : 'not '}transferred to a worker`);
  }
}

export interface AutomationCamera {
  x: number;
  y: number;
  zoom: number;
}

export interface AutomationMarker {
  uid: string;
  category: string;
  subCategory: string;
  level: number;
  x: number;
  y: number;
  alpha: number;
  visible: boolean;
}

/** The shape of `window.__map` that the tests rely on. */
export interface MapAutomation {
  ready: boolean;
  mapId: string;
  renderer: string;
  camera(): AutomationCamera;
  toScreen(mapX: number, mapY: number): { x: number; y: number };
  toMap(screenX: number, screenY: number): { x: number; y: number };
  markers(): AutomationMarker[];
  stats(): unknown;
}

export function baseUrl(): string {
  return inject('baseUrl');
}

interface TrackedPage {
  page: Page;
  errors: PageErrors;
}

/**
 * Registers beforeAll/afterAll/afterEach hooks in the calling test file: one browser for the
 * file, fresh pages per test, and a failure when a page logged an error.
 */
export function useBrowser() {
  let browser: Browser | undefined;
  let open: TrackedPage[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterEach(async () => {
    const pages = open;
    open = [];
    const problems = pages.flatMap((p) => p.errors.list);
    await Promise.all(pages.map((p) => p.page.context().close().catch(() => undefined)));
    if (problems.length > 0) {
      throw new Error(`the page reported errors:\n${problems.join('\n')}`);
    }
  });

  afterAll(async () => {
    await browser?.close();
  });

  return {
    /**
     * `hasTouch`: a touch screen (a phone): taps and touch events, `(pointer: coarse)`; `deviceScaleFactor`: the window's pixel ratio (1);
     * `locale`: the browser's language (en-US: the UI starts in the browser's language where none was chosen).
     */
    async newPage(options: { width?: number; height?: number; hasTouch?: boolean; deviceScaleFactor?: number; locale?: string } = {}): Promise<TrackedPage> {
      if (!browser) throw new Error('browser not launched: call newPage inside a test');
      const context = await browser.newContext({
        viewport: { width: options.width ?? VIEWPORT.width, height: options.height ?? VIEWPORT.height },
        deviceScaleFactor: options.deviceScaleFactor ?? 1,
        hasTouch: options.hasTouch ?? false,
        locale: options.locale ?? 'en-US',
      });
      await useRunRenderMode(context);
      const page = await context.newPage();
      const tracked = { page, errors: trackErrors(page) };
      open.push(tracked);
      return tracked;
    },
  };
}

/**
 * Opens /map/{mapId} and waits until `window.__map.ready` is true. Returns the milliseconds
 * from navigation to ready.
 */
export async function openMap(page: Page, mapId: string, timeoutMs = 45_000): Promise<number> {
  const started = Date.now();
  await page.goto(`${baseUrl()}/map/${mapId}`, { waitUntil: 'domcontentloaded' });
  try {
    await page.waitForFunction(
      () => (window as unknown as { __map?: { ready?: boolean } }).__map?.ready === true,
      undefined,
      { timeout: timeoutMs, polling: 100 },
    );
  } catch (error) {
    const state = await page
      .evaluate(() => {
        const api = (window as unknown as { __map?: { ready?: boolean; mapId?: string } }).__map;
        return api ? `window.__map exists, ready=${String(api.ready)}, mapId=${String(api.mapId)}` : 'window.__map is undefined';
      })
      .catch((e: Error) => `page not readable: ${e.message}`);
    throw new Error(`/map/${mapId} did not become ready within ${timeoutMs} ms (${state}): ${(error as Error).message}`);
  }
  const readyAfter = Date.now() - started;
  await expectRunRenderMode(page);
  return readyAfter;
}

export function camera(page: Page): Promise<AutomationCamera> {
  return page.evaluate(() => {
    const cam = (window as unknown as { __map: MapAutomation }).__map.camera();
    return { x: cam.x, y: cam.y, zoom: cam.zoom };
  });
}

export function markers(page: Page): Promise<AutomationMarker[]> {
  return page.evaluate(() => (window as unknown as { __map: MapAutomation }).__map.markers());
}

export function toScreen(page: Page, mapX: number, mapY: number): Promise<{ x: number; y: number }> {
  return page.evaluate(([x, y]) => (window as unknown as { __map: MapAutomation }).__map.toScreen(x, y), [mapX, mapY] as const);
}

export function toMap(page: Page, screenX: number, screenY: number): Promise<{ x: number; y: number }> {
  return page.evaluate(([x, y]) => (window as unknown as { __map: MapAutomation }).__map.toMap(x, y), [screenX, screenY] as const);
}

export function mapInfo(page: Page): Promise<{ mapId: string; renderer: string; ready: boolean }> {
  return page.evaluate(() => {
    const api = (window as unknown as { __map: MapAutomation }).__map;
    return { mapId: api.mapId, renderer: api.renderer, ready: api.ready };
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the camera has not changed for `quietMs` (animations and inertia finished). */
export async function settleCamera(page: Page, quietMs = 400, timeoutMs = 10_000): Promise<AutomationCamera> {
  const deadline = Date.now() + timeoutMs;
  let last = await camera(page);
  let since = Date.now();
  while (Date.now() < deadline) {
    await sleep(50);
    const now = await camera(page);
    if (now.x !== last.x || now.y !== last.y || now.zoom !== last.zoom) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) {
      return now;
    }
  }
  throw new Error(`camera kept moving for ${timeoutMs} ms (last ${JSON.stringify(last)})`);
}

/** Records the tile requests a page makes: `/tiles/{map}/{version}/{layer}/{z}/{x}/{y}.{format}`. */
export interface TileRequest {
  url: string;
  layer: string;
  z: number;
  x: number;
  y: number;
  /** HTTP status; null while in flight; 0 when the request failed or was cancelled. */
  status: number | null;
  /** Why it failed (e.g. net::ERR_ABORTED when the engine cancelled it), if it did. */
  failure?: string;
}

const TILE_URL = /\/tiles\/([^/]+)\/([^/]+)\/([^/]+)\/(\d+)\/(\d+)\/(\d+)\.(webp|png)(?:\?|$)/;

export function parseTileUrl(url: string): Omit<TileRequest, 'status'> | null {
  const m = TILE_URL.exec(url);
  if (!m) return null;
  return { url, layer: m[3], z: Number(m[4]), x: Number(m[5]), y: Number(m[6]) };
}

export function recordTiles(page: Page) {
  const tiles: TileRequest[] = [];
  let pending = 0;
  let lastActivity = Date.now();
  page.on('request', (request) => {
    const tile = parseTileUrl(request.url());
    if (!tile) return;
    pending += 1;
    lastActivity = Date.now();
    tiles.push({ ...tile, status: null });
  });
  const finish = (url: string, status: number | null, failure?: string) => {
    const entry = tiles.find((t) => t.url === url && t.status === null);
    if (!entry) return;
    entry.status = status;
    if (failure) entry.failure = failure;
    pending = Math.max(0, pending - 1);
    lastActivity = Date.now();
  };
  page.on('requestfinished', async (request) => {
    if (!parseTileUrl(request.url())) return;
    const response = await request.response().catch(() => null);
    finish(request.url(), response?.status() ?? 0);
  });
  page.on('requestfailed', (request) => {
    if (parseTileUrl(request.url())) finish(request.url(), 0, request.failure()?.errorText ?? 'failed');
  });
  return {
    tiles,
    /** Waits until no tile request is in flight and none started for `quietMs`. */
    async idle(quietMs = 600, timeoutMs = 30_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (pending === 0 && Date.now() - lastActivity >= quietMs) return;
        await sleep(50);
      }
      throw new Error(`tile requests still in flight after ${timeoutMs} ms (${pending} pending)`);
    },
  };
}

/** Points on the canvas where no panel sits (the map gets the events there). */
export async function canvasPoint(page: Page, preferX: number, preferY: number): Promise<{ x: number; y: number }> {
  const found = await page.evaluate(
    ([px, py]) => {
      const near: { x: number; y: number }[] = [];
      for (let r = 0; r < 400; r += 20) {
        for (const [dx, dy] of [[0, 0], [r, 0], [-r, 0], [0, r], [0, -r], [r, r], [-r, -r], [r, -r], [-r, r]]) {
          near.push({ x: px + dx, y: py + dy });
        }
      }
      return near.find((p) => document.elementFromPoint(p.x, p.y) instanceof HTMLCanvasElement) ?? null;
    },
    [preferX, preferY] as const,
  );
  if (!found) throw new Error(`no uncovered canvas point near ${preferX},${preferY}`);
  return found;
}

/** Wheels until the zoom stops changing; returns every zoom seen. */
export async function wheelUntilStill(page: Page, deltaY: number, at: { x: number; y: number }): Promise<number[]> {
  await page.mouse.move(at.x, at.y);
  const seen: number[] = [(await camera(page)).zoom];
  let still = 0;
  for (let i = 0; i < 120 && still < 4; i += 1) {
    await page.mouse.wheel(0, deltaY);
    await sleep(60);
    const zoom = (await camera(page)).zoom;
    still = zoom === seen[seen.length - 1] ? still + 1 : 0;
    seen.push(zoom);
  }
  seen.push((await settleCamera(page)).zoom);
  return seen;
}
