import { describe, expect, it } from 'vitest';
import { renderWorkerTasks, type WorkerTraceEvent } from './worker-tasks';

const PID = 7;
const x = (name: string, ts: number, dur: number, tid: number, url?: string): WorkerTraceEvent => ({
  name,
  ph: 'X',
  ts,
  dur,
  pid: PID,
  tid,
  ...(url ? { args: { data: { url } } } : {}),
});
const instant = (name: string, ts: number, tid: number): WorkerTraceEvent => ({ name, ph: 'I', ts, pid: PID, tid });
const threadName = (tid: number, name: string): WorkerTraceEvent => ({ name: 'thread_name', ph: 'M', ts: 0, pid: PID, tid, args: { name } });

const RENDER = 'http://host/assets/render.worker-abc.js';
const MARKERS = 'http://host/assets/markers.worker-def.js';

/** Navigation at 1 s (trace µs); the markers worker on thread 2, the render worker on thread 3. */
const events: WorkerTraceEvent[] = [
  { name: 'navigationStart', ph: 'R', ts: 1_000_000, pid: PID, tid: 1 },
  threadName(2, 'DedicatedWorker thread'),
  threadName(3, 'DedicatedWorker thread'),
  x('RunTask', 1_100_000, 50_000, 2),
  x('FunctionCall', 1_100_000, 40_000, 2, MARKERS),
  // The render worker's start: 480 ms, two requests and 9 ms of GC in it; script 300 + 100 ms (a nested call not counted twice).
  x('RunTask', 1_500_000, 480_000, 3),
  x('FunctionCall', 1_500_000, 300_000, 3, RENDER),
  x('FunctionCall', 1_510_000, 20_000, 3, RENDER),
  instant('ResourceSendRequest', 1_505_000, 3),
  instant('ResourceSendRequest', 1_506_000, 3),
  x('MinorGC', 1_600_000, 9_000, 3),
  x('FunctionCall', 1_850_000, 100_000, 3, RENDER),
  // A short task, left out at the default 3 ms.
  x('RunTask', 2_000_000, 2_000, 3),
  x('RunTask', 2_010_000, 6_000, 3),
];

describe('renderWorkerTasks', () => {
  it('finds the thread that runs the render worker script, and its long tasks from navigation start', () => {
    const trace = renderWorkerTasks(events, /render\.worker-/)!;
    expect(trace.thread).toBe(`${PID}:3`);
    expect(trace.tasks).toEqual([
      { startMs: 500, durationMs: 480, scriptMs: 400, requests: 2, gcMs: 9 },
      { startMs: 1010, durationMs: 6, scriptMs: 0, requests: 0, gcMs: 0 },
    ]);
  });

  it('keeps tasks down to the minimum asked for', () => {
    expect(renderWorkerTasks(events, /render\.worker-/, 1)!.tasks.map((t) => t.durationMs)).toEqual([480, 2, 6]);
  });

  it('is null without a navigation start or a thread that ran the script', () => {
    expect(renderWorkerTasks(events.slice(1), /render\.worker-/)).toBeNull();
    expect(renderWorkerTasks(events, /nothing-like-this/)).toBeNull();
  });
});
