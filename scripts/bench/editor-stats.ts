/**
 * Pure figures of the admin-editor benchmark (`npm run bench -- --editor`): main-thread time
 * per editor action net of the page's idle work, request latencies, spread points to click,
 * the median of several runs and the editor targets. No I/O here.
 */
import { median, percentile, type TargetCheck } from './stats';

// ---------------------------------------------------------------------------------------------
// Points to click

export interface Point {
  x: number;
  y: number;
}

export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Candidate points on a square grid of `step` px over the region (cell centres), row by row.
 * A point the map does not own (a panel over the canvas) is dropped by the caller.
 */
export function gridPoints(region: Region, step: number): Point[] {
  if (!(step > 0)) throw new RangeError(`grid step ${step}`);
  const columns = Math.floor(region.width / step);
  const rows = Math.floor(region.height / step);
  const out: Point[] = [];
  for (let r = 0; r < rows; r += 1) {
    for (let c = 0; c < columns; c += 1) {
      out.push({ x: Math.round(region.x + (c + 0.5) * step), y: Math.round(region.y + (r + 0.5) * step) });
    }
  }
  return out;
}

/** `count` items spread evenly over the list (first and last included); all of them when fewer. */
export function pickSpread<T>(items: readonly T[], count: number): T[] {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`count ${count}`);
  if (count >= items.length) return [...items];
  if (count === 0) return [];
  if (count === 1) return [items[Math.floor(items.length / 2)]];
  const out: T[] = [];
  for (let i = 0; i < count; i += 1) out.push(items[Math.round((i * (items.length - 1)) / (count - 1))]);
  return out;
}

/**
 * Up to `count` of `points`, none of whose spots (the point and, with `drag`, where its drag
 * ends) comes within `apart` px of another chosen one's: a marker moved onto or beside another
 * placed marker's spot would be grabbed by that one's drag (the map panned instead of moving it).
 * Greedy, in the list's order, after an even spread over the list (so a long list is not used
 * from its first rows only).
 */
export function pickApart(points: readonly Point[], count: number, apart: number, drag: { dx: number; dy: number } = { dx: 0, dy: 0 }): Point[] {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`count ${count}`);
  const spots = (p: Point) => [p, { x: p.x + drag.dx, y: p.y + drag.dy }];
  const chosen: Point[] = [];
  const taken: Point[] = [];
  const order = [...pickSpread(points, count), ...points];
  for (const p of order) {
    if (chosen.length >= count) break;
    if (chosen.includes(p)) continue;
    if (spots(p).some((s) => taken.some((t) => Math.hypot(s.x - t.x, s.y - t.y) < apart))) continue;
    chosen.push(p);
    taken.push(...spots(p));
  }
  return chosen;
}

// ---------------------------------------------------------------------------------------------
// Main-thread time per action

/** What the benchmark times: a marker placed, moved, deleted; and (not a target) a popup opened for the delete. */
export type ActionKind = 'place' | 'move' | 'delete' | 'open';
export const ACTION_KINDS: readonly ActionKind[] = ['place', 'move', 'delete', 'open'];

/**
 * The renderer main thread's counters (CDP Performance.getMetrics, ms) read at each end of a
 * window; a sample holds their deltas. `task`, `script` and `styleLayout` are wall time spent in
 * tasks, in script, in style recalculation and layout; `cpu` is the thread's CPU time (ThreadTime),
 * which a busy machine does not inflate; `devtools` is the time the benchmark's own CDP commands
 * took on that thread (reading the counters), taken off like idle work.
 */
export interface MainThreadCounters {
  task: number;
  cpu: number;
  script: number;
  styleLayout: number;
  devtools: number;
}

export const COUNTERS: readonly (keyof MainThreadCounters)[] = ['task', 'cpu', 'script', 'styleLayout', 'devtools'];

export function counterDelta(before: MainThreadCounters, after: MainThreadCounters): MainThreadCounters {
  return {
    task: after.task - before.task,
    cpu: after.cpu - before.cpu,
    script: after.script - before.script,
    styleLayout: after.styleLayout - before.styleLayout,
    devtools: after.devtools - before.devtools,
  };
}

export interface ActionSample {
  kind: ActionKind;
  /** Counter deltas over the window. */
  used: MainThreadCounters;
  /** The window's wall time (ms), from the counters read before the first input to the read after the page settled. */
  wallMs: number;
  /** Time the main thread sat in a modal dialog inside the window (window.confirm: waiting for the answer, not work), ms. */
  blockedMs: number;
  /** First input sent → the server's answer seen by the browser (ms); NaN where nothing is saved. */
  saveMs: number;
}

/** A window with no input: the page's own background work (the engine's ticker, rAF loops, timers). */
export interface IdleWindow {
  used: MainThreadCounters;
  wallMs: number;
}

/** The benchmark's own CDP commands are not the page's work: off task and CPU time. */
function own(used: MainThreadCounters, key: keyof MainThreadCounters): number {
  return key === 'task' || key === 'cpu' ? used[key] - used.devtools : used[key];
}

/** Each counter's ms per wall ms when nothing happens (the benchmark's CDP commands left out): the median over the idle windows. */
export function idleRates(windows: readonly IdleWindow[]): MainThreadCounters {
  const timed = windows.filter((w) => w.wallMs > 0);
  const rate = (key: keyof MainThreadCounters) => (timed.length === 0 ? 0 : median(timed.map((w) => own(w.used, key) / w.wallMs)));
  return { task: rate('task'), cpu: rate('cpu'), script: rate('script'), styleLayout: rate('styleLayout'), devtools: rate('devtools') };
}

/**
 * An action's own share of a counter: the window's delta less the benchmark's CDP commands
 * (task and CPU), less the idle work the window would have had anyway, and (wall-time counters
 * only) less the wait in a modal dialog.
 */
export function netOf(sample: ActionSample, rates: MainThreadCounters, key: Exclude<keyof MainThreadCounters, 'devtools'>): number {
  const blocked = key === 'task' || key === 'script' ? sample.blockedMs : 0;
  return own(sample.used, key) - blocked - rates[key] * sample.wallMs;
}

export interface ActionSummary {
  n: number;
  /** Main-thread task time, net of idle work and dialog wait (p50 / p95 / mean / max). The targets read taskP95. */
  taskP50: number;
  taskP95: number;
  taskMean: number;
  taskMax: number;
  /** Task time in the window as measured, nothing taken off (p50 / p95). */
  rawTaskP50: number;
  rawTaskP95: number;
  /** Main-thread CPU time, net of idle (p50 / p95). */
  cpuP50: number;
  cpuP95: number;
  /** Of the task time: script, and style + layout, net of idle (p50). */
  scriptP50: number;
  styleLayoutP50: number;
  /** Window length (ms, p50). */
  wallP50: number;
  /** Input → saved (p50 / p95 ms). */
  saveP50: number;
  saveP95: number;
}

export function summariseActions(samples: readonly ActionSample[], rates: MainThreadCounters): ActionSummary {
  const net = (key: Exclude<keyof MainThreadCounters, 'devtools'>) => samples.map((s) => netOf(s, rates, key));
  const task = net('task');
  const raw = samples.map((s) => s.used.task);
  const saves = samples.map((s) => s.saveMs).filter((v) => Number.isFinite(v));
  return {
    n: samples.length,
    taskP50: percentile(task, 0.5),
    taskP95: percentile(task, 0.95),
    taskMean: task.length === 0 ? Number.NaN : task.reduce((a, b) => a + b, 0) / task.length,
    taskMax: task.length === 0 ? Number.NaN : Math.max(...task),
    rawTaskP50: percentile(raw, 0.5),
    rawTaskP95: percentile(raw, 0.95),
    cpuP50: percentile(net('cpu'), 0.5),
    cpuP95: percentile(net('cpu'), 0.95),
    scriptP50: percentile(net('script'), 0.5),
    styleLayoutP50: percentile(net('styleLayout'), 0.5),
    wallP50: percentile(
      samples.map((s) => s.wallMs),
      0.5,
    ),
    saveP50: percentile(saves, 0.5),
    saveP95: percentile(saves, 0.95),
  };
}

// ---------------------------------------------------------------------------------------------
// Request latency

export interface LatencySummary {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

export function summariseLatency(ms: readonly number[]): LatencySummary {
  return {
    n: ms.length,
    p50: percentile(ms, 0.5),
    p95: percentile(ms, 0.95),
    p99: percentile(ms, 0.99),
    max: ms.length === 0 ? Number.NaN : Math.max(...ms),
    mean: ms.length === 0 ? Number.NaN : ms.reduce((a, b) => a + b, 0) / ms.length,
  };
}

// ---------------------------------------------------------------------------------------------
// One run, several runs

export interface EditorFrames {
  /** Wall time from the first placement to the end of the last delete (ms). */
  editingMs: number;
  fps: number;
  frameP50: number;
  frameP95: number;
  /** rAF intervals over 50 ms while editing. */
  framesOver50: number;
  longestFrameMs: number;
  /** Main-thread tasks over 50 ms while editing (PerformanceObserver 'longtask'), and the longest. */
  longTasks: number;
  longestTaskMs: number;
}

export interface EditorBrowserResult {
  run: number;
  /** The camera's zoom while editing, and the markers drawn in the view then. */
  zoom: number;
  markersDrawn: number;
  /** The page's main-thread work with no input, ms per second (task time and CPU; taken off every action). */
  idleTaskMsPerS: number;
  idleCpuMsPerS: number;
  place: ActionSummary;
  move: ActionSummary;
  delete: ActionSummary;
  open: ActionSummary;
  frames: EditorFrames;
  /** Time spent inside window.confirm per delete (p50 ms): Playwright accepting the dialog. */
  confirmP50: number;
}

export interface EditorServerResult {
  run: number;
  sequential: { add: LatencySummary; update: LatencySummary; remove: LatencySummary };
  concurrent: { clients: number; add: LatencySummary; update: LatencySummary; remove: LatencySummary; requestsPerS: number };
}

type Numeric = number | { [key: string]: Numeric };

/**
 * The median of every number at the same place in the records (nested objects followed);
 * `run` becomes the number of records. Throws when the records differ in shape.
 */
export function medianOfRecords<T extends object>(records: readonly T[]): T {
  if (records.length === 0) throw new Error('no runs to summarise');
  const walk = (values: readonly unknown[], path: string): Numeric => {
    const first = values[0];
    if (typeof first === 'number') {
      if (values.some((v) => typeof v !== 'number')) throw new Error(`runs differ at ${path}`);
      return median(values as number[]);
    }
    if (first && typeof first === 'object' && !Array.isArray(first)) {
      const out: Record<string, Numeric> = {};
      for (const key of Object.keys(first)) {
        if (values.some((v) => !v || typeof v !== 'object' || !(key in v))) throw new Error(`runs differ at ${path}.${key}`);
        out[key] = walk(
          values.map((v) => (v as Record<string, unknown>)[key]),
          `${path}.${key}`,
        );
      }
      return out;
    }
    throw new Error(`not a figure at ${path}: ${JSON.stringify(first)}`);
  };
  const out = walk(records, 'run') as unknown as Record<string, unknown>;
  if ('run' in out) out.run = records.length;
  return out as T;
}

export interface EditorSummary {
  runs: number;
  browser: EditorBrowserResult | null;
  server: EditorServerResult | null;
}

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

/**
 * The editor targets: main-thread time per placed / moved / deleted marker p95 ≤ 4 ms
 * (task time net of idle work), no frame over 50 ms while editing, add / update round trip p95 ≤ 20 ms
 * (sequential and under concurrent clients). `met` is null where not measured.
 */
export function checkEditorTargets(summary: EditorSummary): TargetCheck[] {
  const check = (target: string, value: number | undefined, limit: number, unit: string, digits = 1): TargetCheck =>
    value === undefined || !Number.isFinite(value)
      ? { target, measured: 'not measured', met: null }
      : { target, measured: `${fmt(value, digits)} ${unit}`, met: value <= limit };
  const b = summary.browser;
  const s = summary.server;
  const clients = s?.concurrent.clients ?? 4;
  return [
    check('editor, 10k markers: main-thread time per placed marker p95 ≤ 4 ms', b?.place.taskP95, 4, 'ms', 2),
    check('editor, 10k markers: main-thread time per moved marker p95 ≤ 4 ms', b?.move.taskP95, 4, 'ms', 2),
    check('editor, 10k markers: main-thread time per deleted marker p95 ≤ 4 ms', b?.delete.taskP95, 4, 'ms', 2),
    check('editor, 10k markers: no frame over 50 ms while editing (rAF intervals > 50 ms)', b?.frames.framesOver50, 0, 'frames', 0),
    check('editor, 10k markers: no main-thread task over 50 ms while editing (longest task)', b?.frames.longestTaskMs, 50, 'ms', 0),
    check('server, 10k markers: add round trip p95 ≤ 20 ms (sequential)', s?.sequential.add.p95, 20, 'ms', 2),
    check('server, 10k markers: update round trip p95 ≤ 20 ms (sequential)', s?.sequential.update.p95, 20, 'ms', 2),
    check(`server, 10k markers: add round trip p95 ≤ 20 ms (${clients} concurrent clients)`, s?.concurrent.add.p95, 20, 'ms', 2),
    check(`server, 10k markers: update round trip p95 ≤ 20 ms (${clients} concurrent clients)`, s?.concurrent.update.p95, 20, 'ms', 2),
  ];
}

// ---------------------------------------------------------------------------------------------
// Parsing

/** The `name=value` pairs of Set-Cookie headers as one Cookie header (attributes dropped). */
export function cookieHeader(setCookies: readonly string[]): string {
  return setCookies
    .map((line) => line.split(';')[0].trim())
    .filter((pair) => /^[^=\s]+=/.test(pair))
    .join('; ');
}
