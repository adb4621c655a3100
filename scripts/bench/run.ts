/**
 * One measured benchmark run: a fresh browser context opens the map under a CPU throttle,
 * waits for `window.__map.ready`, then plays the fixed gesture through CDP input events sent
 * on schedule without waiting for the page, and collects frame, input, main-thread, engine
 * and heap figures; then opens the map again in the same context (warm HTTP cache) for the
 * issue 11 figures: ready and first tile, cold and opened again.
 */
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { buildGesture, type GestureEvent, type Viewport } from './gesture';
import { handledAt, probeScript, type BenchProbe } from './probe';
import { cpuPercent, snapshot } from './process-cpu';
import { percentile, summariseFrames, type RunResult } from './stats';

export interface RunOptions {
  browser: Browser;
  baseUrl: string;
  mapId: string;
  markers: number;
  throttle: number;
  run: number;
  viewport: Viewport;
  /** Time to let the first tiles arrive after ready, before the gesture (ms). */
  settleMs?: number;
  /** Query of the map page's address (`?render=worker`), '' for none. */
  search?: string;
}

interface EngineStats {
  frames: number;
  recent: number[];
  updateMs?: { p95: number };
  renderMs?: { p95: number };
}

const TILE_URL = /\/tiles\/[^/]+\/[^/]+\/[^/]+\/\d+\/\d+\/\d+\.(webp|png)/;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const nowEpoch = () => performance.timeOrigin + performance.now();

async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics: list } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(list.map((m) => [m.name, m.value]));
}

function cdpParams(event: GestureEvent): Record<string, unknown> {
  if (event.type === 'mouseWheel') {
    return { type: 'mouseWheel', x: event.x, y: event.y, deltaX: 0, deltaY: event.deltaY, pointerType: 'mouse' };
  }
  const pressing = event.type !== 'mouseMoved';
  return {
    type: event.type,
    x: event.x,
    y: event.y,
    button: event.type === 'mouseMoved' && event.buttons === 0 ? 'none' : 'left',
    buttons: event.buttons,
    clickCount: pressing ? 1 : 0,
    pointerType: 'mouse',
  };
}

/** Sends the events at their scheduled times, never awaiting the page; returns the send times. */
export async function play(cdp: CDPSession, events: readonly GestureEvent[], startAt: number): Promise<{ sent: number[]; failures: string[] }> {
  const sent: number[] = [];
  const failures: string[] = [];
  const pending: Promise<unknown>[] = [];
  for (const event of events) {
    const due = startAt + event.t;
    const wait = due - nowEpoch();
    if (wait > 2) await sleep(wait - 1);
    while (nowEpoch() < due) {
      // spin the last millisecond for an on-time send
    }
    sent.push(nowEpoch());
    pending.push(cdp.send('Input.dispatchMouseEvent', cdpParams(event) as never).catch((e: Error) => failures.push(e.message)));
  }
  await Promise.all(pending);
  return { sent, failures };
}

/**
 * ms from navigation start to the engine's first frame with a tile (window.__map.firstTileAt()),
 * and to the first map tiles on screen: the poster's (window.__map.posterAt(), the first view as
 * images while the engine starts) or the engine's, whichever came first. NaN where the page has
 * no such field (older builds).
 */
async function readFirstTile(page: Page): Promise<{ firstTileMs: number; artVisibleMs: number }> {
  return page.evaluate(() => {
    const api = (window as unknown as { __map?: { firstTileAt?: () => number | null; posterAt?: () => number | null } }).__map;
    const firstTileMs = api?.firstTileAt?.() ?? Number.NaN;
    const poster = api?.posterAt?.() ?? null;
    return { firstTileMs, artVisibleMs: poster !== null && !(poster >= firstTileMs) ? poster : firstTileMs };
  });
}

/**
 * Opens the map again in a new page of the same context (its HTTP cache is warm: the marker
 * list revalidates to a 304, tiles come from the cache) under the same throttle: ready and the
 * first drawn tile, from navigation start.
 */
async function measureReopen(context: BrowserContext, options: RunOptions): Promise<{ readyMs: number; firstTileMs: number; artVisibleMs: number }> {
  const page = await context.newPage();
  try {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.addInitScript({ content: probeScript() });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: options.throttle });
    await page.goto(`${options.baseUrl}/map/${options.mapId}${options.search ?? ''}`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => (window as unknown as { __bench?: BenchProbe }).__bench?.readyAt != null, undefined, { timeout: 60_000, polling: 100 });
    if (errors.length > 0) throw new Error(`page errors when opened again: ${errors.slice(0, 3).join('; ')}`);
    const readyMs = await page.evaluate(() => (window as unknown as { __bench: BenchProbe }).__bench.readyAt ?? Number.NaN);
    return { readyMs, ...(await readFirstTile(page)) };
  } finally {
    await page.close();
  }
}

export async function measureRun(options: RunOptions): Promise<RunResult> {
  const { browser, viewport } = options;
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    // Tile requests during the gesture and how long each took to arrive.
    let recordingTiles = false;
    const tileMs: number[] = [];
    let tileFailures = 0;
    page.on('requestfinished', (request) => {
      if (recordingTiles && TILE_URL.test(request.url())) tileMs.push(request.timing().responseEnd);
    });
    page.on('requestfailed', (request) => {
      if (recordingTiles && TILE_URL.test(request.url())) tileFailures += 1;
    });
    await page.addInitScript({ content: probeScript() });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: options.throttle });

    await page.goto(`${options.baseUrl}/map/${options.mapId}${options.search ?? ''}`, { waitUntil: 'domcontentloaded' });
    try {
      await page.waitForFunction(() => (window as unknown as { __bench?: BenchProbe }).__bench?.readyAt != null, undefined, {
        timeout: 120_000,
        polling: 250,
      });
    } catch (error) {
      const state = await page
        .evaluate(() => {
          const api = (window as unknown as { __map?: { ready?: boolean; markers?: () => unknown[] } }).__map;
          return api ? `window.__map exists, ready=${String(api.ready)}, markers=${api.markers?.().length ?? 'n/a'}` : 'no window.__map';
        })
        .catch((e: Error) => `page unreadable: ${e.message}`);
      throw new Error(`the map did not become ready (${state}); page errors: ${pageErrors.join('; ') || 'none'}: ${(error as Error).message.split('\n')[0]}`);
    }
    const readyMs = await page.evaluate(() => (window as unknown as { __bench: BenchProbe }).__bench.readyAt ?? Number.NaN);
    const { firstTileMs, artVisibleMs } = await readFirstTile(page);
    await sleep(options.settleMs ?? 2000);

    const events = buildGesture(viewport);
    await cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: events[0].x, y: events[0].y, button: 'none', buttons: 0 });
    const statsBefore = await page.evaluate(() => {
      const api = (window as unknown as { __map?: { stats?: () => EngineStats } }).__map;
      return api?.stats ? api.stats().frames : null;
    });
    await page.evaluate(() => {
      (window as unknown as { __bench: BenchProbe }).__bench.recording = true;
    });
    recordingTiles = true;
    const before = await metrics(cdp);
    const cpuBefore = snapshot();
    const wallStart = nowEpoch();
    const startAt = wallStart + 50;

    const { sent, failures } = await play(cdp, events, startAt);
    if (failures.length > 0) throw new Error(`input dispatch failed: ${failures.slice(0, 3).join('; ')}`);
    const lastSent = sent[sent.length - 1];
    const lastType = events[events.length - 1].type === 'mouseWheel' ? 'wheel' : 'pointerup';

    // Wait (up to 20 s) until the page has handled an event of the last kind sent after it was sent.
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const done = await page.evaluate(
        ([type, at]) => (window as unknown as { __bench: BenchProbe }).__bench.inputs.some((i) => i.type === type && i.start >= at - 1),
        [lastType, lastSent] as const,
      );
      if (done) break;
      await sleep(100);
    }
    await sleep(300);
    const after = await metrics(cdp);
    const cpuAfter = snapshot();
    const wallEnd = nowEpoch();
    recordingTiles = false;
    const probe = await page.evaluate(() => {
      const p = (window as unknown as { __bench: BenchProbe }).__bench;
      p.recording = false;
      return { frames: p.frames, inputs: p.inputs, longTasks: p.longTasks };
    });
    const engine = await page.evaluate(() => {
      const api = (window as unknown as { __map?: { stats?: () => EngineStats } }).__map;
      if (!api?.stats) return null;
      const s = api.stats();
      return { frames: s.frames, recent: [...s.recent], updateP95: s.updateMs?.p95 ?? Number.NaN, renderP95: s.renderMs?.p95 ?? Number.NaN };
    });
    if (pageErrors.length > 0) throw new Error(`page errors during the run: ${pageErrors.slice(0, 3).join('; ')}`);

    const gestureMs = wallEnd - wallStart;
    const frames = summariseFrames(
      probe.frames.filter((t) => t >= startAt && t <= lastSent),
      lastSent - startAt,
    );

    const lastHandled = Math.max(...probe.inputs.filter((i) => i.type === lastType).map(handledAt));
    // Lag is measured from each event's scheduled time (a late send counts against the page
    // too, but sends are on time to a millisecond: they never wait for the page).
    const lastScheduled = startAt + events[events.length - 1].t;
    const inputLagMs = Number.isFinite(lastHandled) ? Math.max(0, lastHandled - lastScheduled) : Number.NaN;

    // Presses and releases are never coalesced: match them in order with what was sent.
    const sentPresses = events.flatMap((e) => (e.type === 'mousePressed' || e.type === 'mouseReleased' ? [startAt + e.t] : []));
    const down = probe.inputs.some((i) => i.type === 'pointerdown') ? ['pointerdown', 'pointerup'] : ['mousedown', 'mouseup'];
    const handledPresses = probe.inputs.filter((i) => down.includes(i.type)).map(handledAt);
    const pressLags = handledPresses.slice(0, sentPresses.length).map((t, i) => t - sentPresses[i]);

    const engineWork =
      engine && statsBefore !== null ? engine.recent.slice(-Math.max(0, Math.min(engine.recent.length, engine.frames - statsBefore))) : [];

    // Issue 11: the same map opened again in this context (HTTP cache warm), after this page closed.
    await page.close();
    const reopen = await measureReopen(context, options);

    return {
      markers: options.markers,
      throttle: options.throttle,
      run: options.run,
      fps: frames.fps,
      frameP50: frames.p50,
      frameP95: frames.p95,
      frameP99: frames.p99,
      framesOver50: frames.over50,
      inputLagMs,
      maxPressLagMs: pressLags.length > 0 ? Math.max(0, ...pressLags) : Number.NaN,
      longTasks: probe.longTasks.length,
      longestTaskMs: probe.longTasks.length > 0 ? Math.max(...probe.longTasks) : 0,
      busyPct: ((after.TaskDuration - before.TaskDuration) * 1000 * 100) / gestureMs,
      engineP50: percentile(engineWork, 0.5),
      engineP95: percentile(engineWork, 0.95),
      engineFrames: engineWork.length,
      engineUpdateP95: engine?.updateP95 ?? Number.NaN,
      engineRenderP95: engine?.renderP95 ?? Number.NaN,
      readyMs,
      firstTileMs,
      artVisibleMs,
      reopenReadyMs: reopen.readyMs,
      reopenFirstTileMs: reopen.firstTileMs,
      reopenArtVisibleMs: reopen.artVisibleMs,
      heapMB: after.JSHeapUsedSize / (1024 * 1024),
      gestureMs,
      gpuCpuPct: cpuPercent(cpuBefore, cpuAfter, 'gpu'),
      rendererCpuPct: cpuPercent(cpuBefore, cpuAfter, 'renderer'),
      tileRequests: tileMs.length + tileFailures,
      tileFailures,
      tileP95Ms: percentile(tileMs, 0.95),
    };
  } finally {
    await context.close();
  }
}
