/**
 * One run of the admin-editor benchmark in the browser. A fresh context signs in as the demo
 * admin, opens the map (10,000 markers), and with real mouse and key input through CDP:
 *
 * 1. key l (marker tool), then a click at each of N spread points: N markers placed;
 * 2. key m (move state), then a drag from each placed marker's screen position: N moved;
 * 3. key m again (back to pan), then for each one: a click on the marker opens its popup
 *    (timed as `open`, not a target), Edit (not timed), Delete with the confirm dialog
 *    accepted (Playwright's dialog handler; the time the page sits in `window.confirm` is
 *    measured in the page and taken off: it is waiting, not work): N deleted.
 *
 * Every action is a window: CDP `Performance.getMetrics` is read (TaskDuration, ThreadTime,
 * ScriptDuration, RecalcStyle/LayoutDuration, DevToolsCommandDuration), the input sent, the
 * server's answer awaited (seen through the page's network events, no script in the page), the
 * page left `settleMs` to apply it, and the counters read again. The TaskDuration delta is all
 * the renderer main thread did in the window: input dispatch, the engine's state tree and tools,
 * the editor command, the engine upsert / remove, the page's handling of the worker's replies
 * (the worker's own work is off the main thread), the fetch and its answer, React re-renders of
 * the panels, status bar and popup, style / layout / paint and frame commits, and the page's
 * background work (the engine's ticker). The background is measured in idle windows with no
 * input and taken off at its rate: `net = task − CDP commands − confirm wait − idle rate × window`.
 * ThreadTime (the thread's CPU time) gets the same treatment: a loaded machine stretches task
 * wall time (a task descheduled midway), not CPU time.
 * Frames come from the rAF probe (scripts/bench/probe.ts) over the whole editing time.
 */
import type { Browser, CDPSession, Page, Response } from 'playwright-core';
import {
  counterDelta, gridPoints, idleRates, pickApart, summariseActions, type ActionKind, type ActionSample, type EditorBrowserResult, type IdleWindow, type MainThreadCounters, type Point,
} from './editor-stats';
import { DEMO_ADMIN } from './editor-server';
import { probeScript, type BenchProbe } from './probe';
import { intervals, summariseFrames } from './stats';
import type { Viewport } from './gesture';

export interface EditorRunOptions {
  browser: Browser;
  baseUrl: string;
  mapId: string;
  run: number;
  /** Markers placed, moved and deleted. */
  actions: number;
  viewport: Viewport;
  /** Time the page gets after the server's answer before a window closes (ms). */
  settleMs?: number;
  /** Idle windows before and after editing (each). */
  idleWindows?: number;
  /** Query of the map page's address (`?render=worker`), '' for none. */
  search?: string;
  /** Called with a line of progress. */
  log?: (line: string) => void;
  /** Called as each phase starts and ends (for a profiler in an ad-hoc script; the bench passes none). */
  onPhase?: (phase: EditorPhase, event: 'start' | 'end', cdp: CDPSession) => Promise<void>;
}

export type EditorPhase = 'idle' | 'place' | 'move' | 'delete';

/** The drag of a move, in page pixels, and how many steps it takes (one each 16 ms). */
const DRAG = { dx: 24, dy: 16, steps: 6 };
/** Candidate points: a grid of this step (px), so placed markers never overlap one another. */
const GRID_STEP = 44;
/** Window length of the popup opening (no server answer to wait for), ms. */
const OPEN_SETTLE_MS = 400;
const IDLE_WINDOW_MS = 400;
/** The zoom the editing happens at, at least (CSS px per map px). */
const ZOOM = 1.1;
/**
 * The bench's own markers' spots (each point and its drag's end) are at least this far apart (px):
 * a marker dragged next to another's spot was grabbed by that one's drag, which then panned.
 */
const APART = 60;
/** No marker drawn closer than this (px) to a point or its drag's end: a click there hits the bench's own marker. */
const CLEARANCE = 30;
/** Offsets (px) around a point and around its drag's end that must all be map canvas (the icon, the press, a drag's path). */
const AROUND: ReadonlyArray<readonly [number, number]> = [[0, 0], [-16, -16], [16, -16], [-16, 16], [16, 16], [0, -28]];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.timeOrigin + performance.now();

/** Times `window.confirm` in the page (the delete's "Are you sure?"): the wait for the dialog's answer. */
function confirmProbe(): void {
  const host = window as unknown as { __benchConfirm?: number[] };
  if (host.__benchConfirm) return;
  const waits: number[] = [];
  host.__benchConfirm = waits;
  const original = window.confirm.bind(window);
  window.confirm = (message?: string) => {
    const started = performance.now();
    try {
      return original(message);
    } finally {
      waits.push(performance.now() - started);
    }
  };
}

interface Placed {
  uid: string;
  x: number;
  y: number;
  version: number;
}

interface MarkerBody {
  marker: { uid: string; geometry: { x: number; y: number }; version?: number };
}

type MapApi = {
  ready: boolean;
  toolPath(): string;
  popup(): string | null;
  toScreen(x: number, y: number): { x: number; y: number } | null;
};

export async function measureEditorRun(options: EditorRunOptions): Promise<EditorBrowserResult> {
  const { browser, baseUrl, mapId, viewport, actions } = options;
  const settleMs = options.settleMs ?? 300;
  const idleCount = options.idleWindows ?? 10;
  const log = options.log ?? (() => {});
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  try {
    const login = await context.request.post(`${baseUrl}/api/be/auth/login`, { data: DEMO_ADMIN });
    if (!login.ok()) throw new Error(`signing in as the demo admin failed: HTTP ${login.status()} (the server needs DEMO_ACCOUNTS=1, NODE_ENV not production)`);
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('dialog', (dialog) => void dialog.accept().catch(() => {}));
    await page.addInitScript({ content: probeScript() });
    await page.addInitScript({ content: `(() => { const __name = (f) => f; (${confirmProbe.toString()})(); })();` });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');

    await page.goto(`${baseUrl}/map/${mapId}${options.search ?? ''}`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => (window as unknown as { __map?: MapApi }).__map?.ready === true, undefined, { timeout: 120_000, polling: 250 });
    await sleep(1000);
    // One wheel notch in at the centre (zoom 0.6 → 1.2 on customs): about 200 markers drawn, and
    // enough free places for the bench's own markers (at the opening zoom they crowd each other).
    const zoom = await zoomIn(page, cdp, viewport, ZOOM);
    await sleep(2000);

    const { points, drawn } = await choosePoints(page, viewport, actions);

    const read = () => readCounters(cdp);
    const idle: IdleWindow[] = [];
    const idleWindows = async () => {
      for (let i = 0; i < idleCount; i += 1) {
        const c0 = await read();
        const w0 = now();
        await sleep(IDLE_WINDOW_MS);
        const c1 = await read();
        idle.push({ used: counterDelta(c0, c1), wallMs: now() - w0 });
      }
    };
    await options.onPhase?.('idle', 'start', cdp);
    await idleWindows();
    await options.onPhase?.('idle', 'end', cdp);

    const samples: ActionSample[] = [];
    const confirmWaits = () => page.evaluate(() => [...((window as unknown as { __benchConfirm?: number[] }).__benchConfirm ?? [])]);
    /**
     * One timed action: `act` sends the input; `answer` (when given) is the server's answer
     * to wait for; the window closes `settle` ms after it (or after the input).
     */
    const timed = async (kind: ActionKind, act: () => Promise<void>, answer: Promise<Response> | null, settle: number): Promise<Response | null> => {
      const confirmsBefore = kind === 'delete' ? (await confirmWaits()).length : 0;
      const c0 = await read();
      const w0 = now();
      await act();
      let response: Response | null = null;
      let saveMs = Number.NaN;
      if (answer) {
        response = await answer;
        saveMs = now() - w0;
      }
      await sleep(settle);
      const c1 = await read();
      const wallMs = now() - w0;
      let blockedMs = 0;
      if (kind === 'delete') blockedMs = (await confirmWaits()).slice(confirmsBefore).reduce((a, b) => a + b, 0);
      samples.push({ kind, used: counterDelta(c0, c1), wallMs, blockedMs, saveMs });
      return response;
    };

    await page.evaluate(() => {
      (window as unknown as { __bench: BenchProbe }).__bench.recording = true;
    });
    const editingStart = now();

    // 1. Place.
    await toTool(page, 'l', (path) => path.startsWith('draw.marker'));
    const placed: Placed[] = [];
    await options.onPhase?.('place', 'start', cdp);
    for (const p of points) {
      const answer = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/be/admin/marker/add'), { timeout: 20_000 });
      const response = await timed('place', () => click(cdp, p), answer, settleMs);
      const body = (await response!.json()) as MarkerBody;
      placed.push({ uid: body.marker.uid, x: body.marker.geometry.x, y: body.marker.geometry.y, version: body.marker.version ?? 0 });
    }
    await options.onPhase?.('place', 'end', cdp);
    log(`placed ${placed.length}`);

    // 2. Move.
    await toTool(page, 'm', (path) => path.startsWith('move.'));
    let movedOthers = 0;
    await options.onPhase?.('move', 'start', cdp);
    for (const m of placed) {
      const at = await screenOf(page, m);
      const answer = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/be/admin/marker/update'), { timeout: 20_000 });
      const response = await timed('move', () => drag(cdp, at), answer, settleMs);
      const body = (await response!.json()) as MarkerBody;
      if (body.marker.uid !== m.uid) movedOthers += 1;
      else Object.assign(m, { x: body.marker.geometry.x, y: body.marker.geometry.y, version: body.marker.version ?? m.version });
    }
    await options.onPhase?.('move', 'end', cdp);
    if (movedOthers > 0) throw new Error(`${movedOthers} drags moved another marker than the one placed there`);
    log(`moved ${placed.length}`);

    // 3. Open each one's popup, Edit, Delete (confirm accepted).
    await toTool(page, 'm', (path) => path.startsWith('pan.'));
    await options.onPhase?.('delete', 'start', cdp);
    for (const m of placed) {
      const at = await screenOf(page, m);
      await timed('open', () => click(cdp, at), null, OPEN_SETTLE_MS);
      const open = await page.evaluate(() => (window as unknown as { __map: MapApi }).__map.popup());
      if (open !== m.uid) throw new Error(`a click on marker ${m.uid} opened ${open ?? 'no popup'}`);
      await page.locator('.marker-popup__edit').click({ timeout: 10_000 });
      const box = await page.locator('.marker-edit__danger').boundingBox({ timeout: 10_000 });
      if (!box) throw new Error('the edit form shows no Delete button');
      const answer = page.waitForResponse(
        (r) => r.request().method() === 'DELETE' && r.url().includes(`/api/be/admin/marker/${encodeURIComponent(m.uid)}`),
        { timeout: 20_000 },
      );
      await timed('delete', () => click(cdp, { x: box.x + box.width / 2, y: box.y + box.height / 2 }), answer, settleMs);
      const still = await page.evaluate(() => (window as unknown as { __map: MapApi }).__map.popup());
      if (still !== null) await page.keyboard.press('Escape');
    }
    await options.onPhase?.('delete', 'end', cdp);
    log(`deleted ${placed.length}`);

    const editingEnd = now();
    const probe = await page.evaluate(() => {
      const p = (window as unknown as { __bench: BenchProbe }).__bench;
      p.recording = false;
      return { frames: p.frames, longTasks: p.longTasks };
    });
    const confirms = (await confirmWaits()).sort((a, b) => a - b);
    await idleWindows();
    if (pageErrors.length > 0) throw new Error(`page errors during the run: ${pageErrors.slice(0, 3).join('; ')}`);

    const rates = idleRates(idle);
    const of = (kind: ActionKind) =>
      summariseActions(
        samples.filter((s) => s.kind === kind),
        rates,
      );
    const editingMs = editingEnd - editingStart;
    const editFrames = probe.frames.filter((t) => t >= editingStart && t <= editingEnd);
    const frames = summariseFrames(editFrames, editingMs);
    const gaps = intervals(editFrames);
    return {
      run: options.run,
      zoom,
      markersDrawn: drawn,
      idleTaskMsPerS: rates.task * 1000,
      idleCpuMsPerS: rates.cpu * 1000,
      place: of('place'),
      move: of('move'),
      delete: of('delete'),
      open: of('open'),
      frames: {
        editingMs,
        fps: frames.fps,
        frameP50: frames.p50,
        frameP95: frames.p95,
        framesOver50: frames.over50,
        longestFrameMs: gaps.length > 0 ? Math.max(...gaps) : Number.NaN,
        longTasks: probe.longTasks.length,
        longestTaskMs: probe.longTasks.length > 0 ? Math.max(...probe.longTasks) : 0,
      },
      confirmP50: confirms.length > 0 ? confirms[Math.floor(confirms.length / 2)] : Number.NaN,
    };
  } finally {
    await context.close();
  }
}

/** The renderer main thread's counters now (CDP Performance.getMetrics; seconds → ms). */
async function readCounters(cdp: CDPSession): Promise<MainThreadCounters> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const value = (name: string) => {
    const metric = metrics.find((m) => m.name === name);
    if (!metric) throw new Error(`CDP Performance.getMetrics gave no ${name}`);
    return metric.value * 1000;
  };
  return {
    task: value('TaskDuration'),
    cpu: value('ThreadTime'),
    script: value('ScriptDuration'),
    styleLayout: value('RecalcStyleDuration') + value('LayoutDuration'),
    devtools: value('DevToolsCommandDuration'),
  };
}

/**
 * Free points for N markers: grid points where the map canvas is under the point, around it and
 * where its drag ends, with no marker drawn within CLEARANCE of either.
 */
async function choosePoints(page: Page, viewport: Viewport, count: number): Promise<{ points: Point[]; drawn: number }> {
  const candidates = gridPoints({ x: 0, y: 0, width: viewport.width, height: viewport.height }, GRID_STEP);
  // No named functions inside: tsx would wrap them in a `__name` helper the page does not have.
  const free = await page.evaluate(
    ({ candidates, drag, around, clear }) => {
      const api = (window as unknown as { __map: { markers(): Array<{ x: number; y: number; visible: boolean }>; toScreen(x: number, y: number): Point | null } }).__map;
      const drawn = api
        .markers()
        .filter((m) => m.visible)
        .map((m) => api.toScreen(m.x, m.y))
        .filter((s): s is Point => s !== null);
      const free = candidates.filter((p) =>
        [0, 1].every(
          (end) =>
            around.every(([dx, dy]) => document.elementFromPoint(p.x + end * drag.dx + dx, p.y + end * drag.dy + dy)?.tagName === 'CANVAS') &&
            drawn.every((s) => Math.hypot(s.x - p.x - end * drag.dx, s.y - p.y - end * drag.dy) > clear),
        ),
      );
      return { free, drawn: drawn.length };
    },
    { candidates, drag: DRAG, around: AROUND, clear: CLEARANCE },
  );
  const points = pickApart(free.free, count, APART, DRAG);
  if (points.length < count) throw new Error(`only ${points.length} free points ${APART} px apart on the map for ${count} markers`);
  return { points, drawn: free.drawn };
}

/** Wheel notches in at the centre until the zoom is at least `min`; returns it. */
async function zoomIn(page: Page, cdp: CDPSession, viewport: Viewport, min: number): Promise<number> {
  const zoomNow = () => page.evaluate(() => (window as unknown as { __map: { camera(): { zoom: number } | null } }).__map.camera()?.zoom ?? 0);
  const centre = { x: Math.round(viewport.width / 2), y: Math.round(viewport.height / 2) };
  await mouse(cdp, 'mouseMoved', centre, 0);
  let zoom = await zoomNow();
  for (let notch = 0; notch < 6 && zoom < min; notch += 1) {
    await cdp.send('Input.dispatchMouseEvent', { type: 'mouseWheel', x: centre.x, y: centre.y, deltaX: 0, deltaY: -100, pointerType: 'mouse' });
    await sleep(600);
    zoom = await zoomNow();
  }
  if (zoom < min) throw new Error(`the wheel did not zoom in to ${min} (zoom ${zoom})`);
  return zoom;
}

/** Presses `key` until the engine's state path satisfies `wanted` (the admin tools register once the session is known). */
async function toTool(page: Page, key: string, wanted: (path: string) => boolean): Promise<void> {
  const path = () => page.evaluate(() => (window as unknown as { __map: MapApi }).__map.toolPath());
  const deadline = Date.now() + 20_000;
  let last = await path();
  while (!wanted(last)) {
    if (Date.now() > deadline) throw new Error(`key ${key} did not reach the wanted tool: the state path is ${last} (not signed in as admin?)`);
    await page.keyboard.press(key);
    await sleep(250);
    last = await path();
  }
  await sleep(300);
}

async function screenOf(page: Page, m: Placed): Promise<Point> {
  const at = await page.evaluate(({ x, y }) => (window as unknown as { __map: MapApi }).__map.toScreen(x, y), { x: m.x, y: m.y });
  if (!at) throw new Error(`marker ${m.uid} has no screen position`);
  return { x: Math.round(at.x), y: Math.round(at.y) };
}

function mouse(cdp: CDPSession, type: 'mouseMoved' | 'mousePressed' | 'mouseReleased', p: Point, buttons: 0 | 1) {
  return cdp.send('Input.dispatchMouseEvent', {
    type,
    x: p.x,
    y: p.y,
    button: type === 'mouseMoved' && buttons === 0 ? 'none' : 'left',
    buttons,
    clickCount: type === 'mouseMoved' ? 0 : 1,
    pointerType: 'mouse',
  });
}

/** Moves to the point, presses and releases there. */
async function click(cdp: CDPSession, p: Point): Promise<void> {
  await mouse(cdp, 'mouseMoved', p, 0);
  await mouse(cdp, 'mousePressed', p, 1);
  await mouse(cdp, 'mouseReleased', p, 0);
}

/** Moves to the point, presses, drags by DRAG in steps of 16 ms, releases. */
async function drag(cdp: CDPSession, from: Point): Promise<void> {
  await mouse(cdp, 'mouseMoved', from, 0);
  await mouse(cdp, 'mousePressed', from, 1);
  let at = from;
  for (let i = 1; i <= DRAG.steps; i += 1) {
    await sleep(16);
    at = { x: Math.round(from.x + (DRAG.dx * i) / DRAG.steps), y: Math.round(from.y + (DRAG.dy * i) / DRAG.steps) };
    await mouse(cdp, 'mouseMoved', at, 1);
  }
  await mouse(cdp, 'mouseReleased', at, 0);
}
