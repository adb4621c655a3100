/**
 * The in-page probe of the benchmark, installed with `page.addInitScript(installProbe)` before
 * the app loads. It records requestAnimationFrame timestamps, when each input event finished
 * its dispatch, main-thread long tasks, and when `window.__map.ready` first became true.
 * Times are epoch milliseconds (performance.timeOrigin + performance.now()), so they compare
 * with the times at which the benchmark sent the events. Must stay self-contained: Playwright
 * serialises the function's source into the page.
 */

export interface HandledInput {
  type: string;
  /** When the window's capture listener saw it (dispatch start). */
  start: number;
  /** When the window's bubble listener saw it (after the target's handlers), if it bubbled. */
  end: number | null;
}

export interface BenchProbe {
  recording: boolean;
  frames: number[];
  inputs: HandledInput[];
  longTasks: number[];
  /** ms from navigation start to the first frame with window.__map.ready === true. */
  readyAt: number | null;
}

export function installProbe(): void {
  const host = window as unknown as { __bench?: BenchProbe; __map?: { ready?: boolean } };
  if (host.__bench) return;
  const probe: BenchProbe = { recording: false, frames: [], inputs: [], longTasks: [], readyAt: null };
  host.__bench = probe;
  const epoch = (t: number) => performance.timeOrigin + t;

  const loop = (ts: number) => {
    if (probe.recording) probe.frames.push(epoch(ts));
    if (probe.readyAt === null && host.__map?.ready === true) probe.readyAt = performance.now();
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);

  const open = new WeakMap<Event, HandledInput>();
  const types = ['wheel', 'pointerdown', 'pointermove', 'pointerup', 'mousedown', 'mousemove', 'mouseup'];
  for (const type of types) {
    window.addEventListener(
      type,
      (event) => {
        if (!probe.recording) return;
        const entry: HandledInput = { type: event.type, start: epoch(performance.now()), end: null };
        probe.inputs.push(entry);
        open.set(event, entry);
      },
      { capture: true, passive: true },
    );
    window.addEventListener(
      type,
      (event) => {
        const entry = open.get(event);
        if (entry) entry.end = epoch(performance.now());
      },
      { passive: true },
    );
  }

  try {
    new PerformanceObserver((list) => {
      if (!probe.recording) return;
      for (const entry of list.getEntries()) probe.longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: false });
  } catch {
    // No long-task timing in this browser: longTasks stays empty.
  }
}

/**
 * The probe as an init-script source. tsx/esbuild may wrap named functions in `__name(...)`
 * calls that do not exist in the page, so the source brings a no-op `__name` of its own.
 */
export function probeScript(): string {
  return `(() => { const __name = (f) => f; (${installProbe.toString()})(); })();`;
}

/** When the page finished handling an input (bubble time, else capture time). */
export function handledAt(input: HandledInput): number {
  return input.end ?? input.start;
}
