/**
 * A server-sent-events stream that stays open: the browser's EventSource retries by itself
 * after a dropped connection, but gives up for good on an error answer (404, 5xx, a proxy's
 * 502); then a new EventSource is opened after a delay that doubles from `minDelayMs` to
 * `maxDelayMs`, and resets once a stream opens. Shared by the live marker feed (live.ts) and
 * the live position feed (pilot.ts).
 */

/** 'connected': the stream is open; 'reconnecting': it broke and is being re-opened; 'off': closed (or no EventSource here). */
export type StreamState = 'connected' | 'reconnecting' | 'off';

export interface ReconnectingStreamOptions {
  /** Listeners by event name (`marker`, `pilot`…), called with the stream's MessageEvent. */
  events: Record<string, (event: MessageEvent) => void>;
  /** Hears each change of state once ('connected', 'reconnecting', 'off'). */
  onState?: (state: StreamState) => void;
  /**
   * Asked when the browser gave up on a stream, before a new one is scheduled: resolving
   * false stops for good (state 'off'), e.g. when the resource is gone. A rejection reopens.
   */
  shouldReopen?: () => boolean | Promise<boolean>;
  minDelayMs?: number;
  maxDelayMs?: number;
}

export const REOPEN_MIN_MS = 2000;
export const REOPEN_MAX_MS = 30_000;

/** Opens the stream at `url` and keeps it open until the returned function is called. */
export function openReconnectingStream(url: string, options: ReconnectingStreamOptions): () => void {
  const { events, onState, shouldReopen } = options;
  const minDelay = options.minDelayMs ?? REOPEN_MIN_MS;
  const maxDelay = options.maxDelayMs ?? REOPEN_MAX_MS;
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
    reopenTimer = setTimeout(() => {
      reopenTimer = undefined;
      if (!disposed) open();
    }, reopenDelay);
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
      if (es.readyState !== Source.CLOSED) return; // The browser retries this one by itself.
      // The browser will not retry this one (an error answer): open a new one later.
      es.close();
      source = null;
      if (!shouldReopen) {
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
