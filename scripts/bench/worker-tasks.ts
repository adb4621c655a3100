/**
 * The render worker's thread in a Chrome trace of a map page's load (render-worker-trace.ts):
 * its long tasks, with the requests each one sent, its script time and its GC. A task that holds
 * the thread holds every answer to that thread's requests (and so their decodes) behind it. Pure.
 */
import type { TraceEvent } from './trace-self-time';

/** A trace event with the fields this reads (FunctionCall's script URL, a request's URL). */
export interface WorkerTraceEvent extends TraceEvent {
  args?: { name?: string; data?: { url?: string } };
}

export interface WorkerTask {
  /** ms from the page's navigation start. */
  startMs: number;
  durationMs: number;
  /** ms of script (FunctionCall) in the task. */
  scriptMs: number;
  /** Requests the task sent (ResourceSendRequest). */
  requests: number;
  /** ms of garbage collection in it (MinorGC, MajorGC). */
  gcMs: number;
}

export interface WorkerTrace {
  /** `pid:tid` of the render worker's thread. */
  thread: string;
  /** Its tasks of at least `minMs`, in order. */
  tasks: WorkerTask[];
}

const key = (e: TraceEvent) => `${e.pid}:${e.tid}`;

/** The page's navigation start (trace clock, µs), or null. */
function navigationStart(events: readonly WorkerTraceEvent[]): number | null {
  const nav = events.find((e) => e.name === 'navigationStart');
  return nav ? nav.ts : null;
}

/**
 * The thread named `DedicatedWorker thread` that runs the script whose URL matches `script`
 * (the render worker's bundle), with its tasks of at least `minMs`; null when none ran it.
 */
export function renderWorkerTasks(events: readonly WorkerTraceEvent[], script: RegExp, minMs = 3): WorkerTrace | null {
  const origin = navigationStart(events);
  if (origin === null) return null;
  const workers = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'DedicatedWorker thread').map(key));
  const runs = events.find((e) => workers.has(key(e)) && e.name === 'FunctionCall' && script.test(e.args?.data?.url ?? ''));
  if (!runs) return null;
  const thread = key(runs);
  const mine = events.filter((e) => key(e) === thread);
  const ms = (us: number) => us / 1000;
  const within = (task: WorkerTraceEvent, e: WorkerTraceEvent) => e.ts >= task.ts && e.ts < task.ts + (task.dur ?? 0);
  const tasks: WorkerTask[] = mine
    .filter((e) => e.ph === 'X' && e.name === 'RunTask' && (e.dur ?? 0) >= minMs * 1000)
    .map((task) => {
      const inside = mine.filter((e) => e !== task && within(task, e));
      // Outermost script only: a FunctionCall nested in another is not counted twice.
      const calls = inside.filter((e) => e.ph === 'X' && e.name === 'FunctionCall');
      const outer = calls.filter((c) => !calls.some((p) => p !== c && p.ts <= c.ts && c.ts + (c.dur ?? 0) <= p.ts + (p.dur ?? 0) && (p.dur ?? 0) > (c.dur ?? 0)));
      return {
        startMs: ms(task.ts - origin),
        durationMs: ms(task.dur ?? 0),
        scriptMs: ms(outer.reduce((sum, c) => sum + (c.dur ?? 0), 0)),
        requests: inside.filter((e) => e.name === 'ResourceSendRequest').length,
        gcMs: ms(inside.filter((e) => e.ph === 'X' && (e.name === 'MinorGC' || e.name === 'MajorGC')).reduce((sum, g) => sum + (g.dur ?? 0), 0)),
      };
    })
    .sort((a, b) => a.startMs - b.startMs);
  return { thread, tasks };
}
