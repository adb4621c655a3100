/**
 * Self time by event name on one thread of a Chrome trace (complete `X` events and `B`/`E`
 * pairs): each event's duration less that of the events nested in it on the same thread. The
 * editor profile (editor-profile.ts `--trace`) uses it for the renderer main thread's native
 * work, which a V8 CPU profile only shows as `(program)`. Pure.
 */
export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  pid: number;
  args?: { name?: string };
}

/** `pid:tid` of the thread Chrome named `threadName` with the most `RunTask` time, or null. */
export function busiestThread(events: readonly TraceEvent[], threadName = 'CrRendererMain'): string | null {
  const named = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === threadName).map((e) => `${e.pid}:${e.tid}`));
  const busy = new Map<string, number>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (e.ph === 'X' && e.name === 'RunTask' && named.has(key)) busy.set(key, (busy.get(key) ?? 0) + (e.dur ?? 0));
  }
  let best: string | null = null;
  for (const [key, total] of busy) if (best === null || total > busy.get(best)!) best = key;
  return best;
}

interface Span {
  name: string;
  start: number;
  end: number;
}

/** Milliseconds of self time per event name on the thread `pid:tid`. */
export function selfTimeByName(events: readonly TraceEvent[], thread: string): Map<string, number> {
  const spans: Span[] = [];
  const open = new Map<string, number[]>();
  for (const e of events) {
    if (`${e.pid}:${e.tid}` !== thread) continue;
    if (e.ph === 'X' && e.dur !== undefined) spans.push({ name: e.name, start: e.ts, end: e.ts + e.dur });
    else if (e.ph === 'B') open.set(e.name, [...(open.get(e.name) ?? []), e.ts]);
    else if (e.ph === 'E') {
      const starts = open.get(e.name);
      const start = starts?.pop();
      if (start !== undefined) spans.push({ name: e.name, start, end: e.ts });
    }
  }
  // Outer spans first: by start, the longer one first where two start together.
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const self = new Map<string, number>();
  const stack: Array<Span & { children: number }> = [];
  const close = (span: Span & { children: number }) => self.set(span.name, (self.get(span.name) ?? 0) + Math.max(0, span.end - span.start - span.children) / 1000);
  for (const span of spans) {
    while (stack.length > 0 && stack[stack.length - 1].end <= span.start) close(stack.pop()!);
    const parent = stack[stack.length - 1];
    const end = parent ? Math.min(span.end, parent.end) : span.end;
    if (parent) parent.children += end - span.start;
    stack.push({ ...span, end, children: 0 });
  }
  while (stack.length > 0) close(stack.pop()!);
  return self;
}
