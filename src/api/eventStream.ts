/**
 * A server-sent-events stream that stays open. On any error the EventSource is closed and a new
 * one is opened after a delay that doubles from `minDelayMs` to `maxDelayMs` and resets once a
 * stream opens. The browser's own retry is not used: after a refused connection (the server is
 * down) it stays CONNECTING and retries every `retry:` (2 s) for ever, and every watcher comes
 * back at the same moment after a restart. Each wait is shortened by up to `jitter` of itself
 * (random), so watchers spread out. Shared by the live marker feed (live.ts) and the live
 * position feed (pilot.ts).
 */

/** 'connected': the stream is open; 'reconnecting': it broke and is being re-opened; 'off': closed (or no EventSource here). */
export type StreamState = 'connected' | 'reconnecting' | 'off';

export interface ReconnectingStreamOptions {
  /** Listeners by event name (`marker`, `pilot`…), called with the stream's MessageEvent. */
  events: Record<string, (event: MessageEvent) => void>;
  /** Hears each change of state once ('connected', 'reconnecting', 'off'). */
  onState?: (state: StreamState) => void;
  /**
   * Asked when the browser gave up on a stream (an error answer: 404, 429, 5xx; not a dropped
   * or refused connection), before a new one is scheduled: resolving false stops for good
   * (state 'off'), e.g. when the resource is gone. A rejection reopens.
   */
  shouldReopen?: () => boolean | Promise<boolean>;
  minDelayMs?: number;
  maxDelayMs?: number;
  /** The largest share (0–1) of a wait taken off at random; REOPEN_JITTER by default, 0: none. */
  jitter?: number;
  /** A number in [0, 1) (tests); Math.random by default. */
  random?: () => number;
}

export const REOPEN_MIN_MS = 2000;
export const REOPEN_MAX_MS = 30_000;
/** Each wait is between (1 − REOPEN_JITTER) and 1 times the doubling delay: 1.5–2 s first, 22.5–30 s at the cap. */
export const REOPEN_JITTER = 0.25;

/** Opens the stream at `url` and keeps it open until the returned function is called. */
export function openReconnectingStream(url: string, options: ReconnectingStreamOptions): () => void {
  const { events, onState, shouldReopen } = options;
  const minDelay = options.minDelayMs ?? REOPEN_MIN_MS;
  const maxDelay = options.maxDelayMs ?? REOPEN_MAX_MS;
  const jitter = Math.min(1, Math.max(0, options.jitter ?? REOPEN_JITTER));
  const random = options.random ?? Math.random;
  let state: StreamState | null = null;
  const report = (next: StreamState) => {
    if (next === state) return;
    state = next;
    onState?.(next);
  };
  const Source = (globalThis as { EventSource?: typeof EventSource }).EventSource;
  if (!Source) {
    report('off');
    return () => {};
  }

  let disposed = false;
  let source: EventSource | null = null;
  let reopenTimer: ReturnType<typeof setTimeout> | undefined;
  let reopenDelay = minDelay;

  const stop = () => {
    if (disposed) return;
    disposed = true;
    clearTimeout(reopenTimer);
    source?.close();
    source = null;
    report('off');
  };

  const scheduleReopen = () => {
    if (disposed) return;
    clearTimeout(reopenTimer);
    const wait = Math.round(reopenDelay * (1 - jitter * Math.min(1, Math.max(0, random()))));
    reopenTimer = setTimeout(() => {
      reopenTimer = undefined;
      if (!disposed) open();
    }, wait);
    reopenDelay = Math.min(maxDelay, reopenDelay * 2);
  };

  const open = () => {
    const es = new Source(url);
    source = es;
    es.addEventListener('open', () => {
      if (disposed || source !== es) return;
      reopenDelay = minDelay;
      report('connected');
    });
    es.addEventListener('error', () => {
      if (disposed || source !== es) return;
      report('reconnecting');
      // A dropped or refused connection leaves it CONNECTING (the browser would retry every
      // `retry:`, never backing off); an error answer leaves it CLOSED. Either way: close it
      // and open a new one later, backing off.
      const gaveUp = es.readyState === Source.CLOSED;
      es.close();
      source = null;
      if (!gaveUp || !shouldReopen) {
        scheduleReopen();
        return;
      }
      Promise.resolve()
        .then(shouldReopen)
        .then(
          (reopen) => (reopen ? scheduleReopen() : stop()),
          () => scheduleReopen(),
        );
    });
    for (const [name, listener] of Object.entries(events)) {
      es.addEventListener(name, ((event: MessageEvent) => {
        if (!disposed && source === es) listener(event);
      }) as EventListener);
    }
  };

  open();
  return stop;
}
