import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeEventSource } from '../../tests/support/fake-event-source';
import { openReconnectingStream, REOPEN_JITTER, REOPEN_MAX_MS, REOPEN_MIN_MS, type StreamState } from './eventStream';

/** Advances the fake clock and says how many EventSources were opened by then. */
function opensAfter(ms: number): number {
  vi.advanceTimersByTime(ms);
  return FakeEventSource.instances.length;
}

describe('openReconnectingStream: backing off', () => {
  beforeEach(() => {
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
    vi.useFakeTimers();
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('a refused connection (left CONNECTING) is closed and reopened by us, doubling 2 s → 30 s', () => {
    const states: StreamState[] = [];
    const stop = openReconnectingStream('/events', { events: {}, onState: (s) => states.push(s), random: () => 0 });
    const expected = [2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000];
    for (const [i, delay] of expected.entries()) {
      const es = FakeEventSource.last();
      es.fail(); // the server is down: the browser would retry every `retry:` by itself
      expect(es.readyState).toBe(FakeEventSource.CLOSED);
      expect(opensAfter(delay - 1)).toBe(i + 1);
      expect(opensAfter(1)).toBe(i + 2);
    }
    expect(states).toEqual(['reconnecting']);
    stop();
  });

  it('over 45 s with the server down opens 5 streams, not 22', () => {
    const stop = openReconnectingStream('/events', { events: {}, random: () => 0 });
    const failAll = () => {
      const es = FakeEventSource.last();
      if (es.readyState !== FakeEventSource.CLOSED) es.fail();
    };
    failAll();
    for (let t = 0; t < 45_000; t += 100) {
      vi.advanceTimersByTime(100);
      failAll();
    }
    // Opened at 0, 2, 6, 14, 30 s (then 60 s).
    expect(FakeEventSource.instances).toHaveLength(5);
    stop();
  });

  it('each wait is shortened by at most REOPEN_JITTER of itself, at random', () => {
    for (const [r, first, capped] of [
      [0, 2000, 30_000],
      [0.5, 2000 * (1 - REOPEN_JITTER / 2), 30_000 * (1 - REOPEN_JITTER / 2)],
      [0.999999, Math.round(2000 * (1 - REOPEN_JITTER)), Math.round(30_000 * (1 - REOPEN_JITTER))],
    ] as const) {
      FakeEventSource.instances = [];
      const stop = openReconnectingStream('/events', { events: {}, random: () => r });
      FakeEventSource.last().fail();
      expect(opensAfter(first - 1)).toBe(1);
      expect(opensAfter(1)).toBe(2);
      // Up to the cap: 4, 8, 16 s (jittered alike), then 30 s.
      for (const delay of [4000, 8000, 16_000]) {
        FakeEventSource.last().fail();
        vi.advanceTimersByTime(delay);
      }
      expect(FakeEventSource.instances).toHaveLength(5);
      FakeEventSource.last().fail();
      expect(opensAfter(capped - 1)).toBe(5);
      expect(opensAfter(1)).toBe(6);
      stop();
    }
    expect(REOPEN_MIN_MS).toBe(2000);
    expect(REOPEN_MAX_MS).toBe(30_000);
    expect(REOPEN_JITTER).toBeGreaterThan(0);
    expect(REOPEN_JITTER).toBeLessThan(0.5);
  });

  it('watchers with different random draws do not come back at the same moment', () => {
    const draws = [0.1, 0.9];
    const openedAt: number[][] = [[], []];
    for (const [i, r] of draws.entries()) {
      FakeEventSource.instances = [];
      const stop = openReconnectingStream('/events', { events: {}, random: () => r });
      FakeEventSource.last().fail();
      const start = Date.now();
      while (openedAt[i].length < 3) {
        const before = FakeEventSource.instances.length;
        vi.advanceTimersByTime(50);
        if (FakeEventSource.instances.length > before) {
          openedAt[i].push(Date.now() - start);
          FakeEventSource.last().fail();
        }
      }
      stop();
    }
    // 2 s × 0.25 × 0.8 = 400 ms apart at the first reopen, and further apart each time.
    const gaps = openedAt[0].map((t, k) => t - openedAt[1][k]);
    expect(gaps[0]).toBeGreaterThanOrEqual(350);
    expect(gaps[1]).toBeGreaterThan(gaps[0]);
    expect(gaps[2]).toBeGreaterThan(gaps[1]);
  });

  it('uses Math.random by default, and the jitter stays within its bounds', () => {
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.999999);
    const stop = openReconnectingStream('/events', { events: {} });
    FakeEventSource.last().fail();
    expect(random).toHaveBeenCalled();
    expect(opensAfter(Math.round(2000 * (1 - REOPEN_JITTER)) - 1)).toBe(1);
    expect(opensAfter(1)).toBe(2);
    stop();
    random.mockRestore();
  });

  it('resets to 2 s after a stream opens, and reports connected again (the re-sync cue)', () => {
    const states: StreamState[] = [];
    const stop = openReconnectingStream('/events', { events: {}, onState: (s) => states.push(s), random: () => 0 });
    for (const delay of [2000, 4000, 8000]) {
      FakeEventSource.last().fail();
      vi.advanceTimersByTime(delay);
    }
    expect(FakeEventSource.instances).toHaveLength(4);
    FakeEventSource.last().open();
    expect(states).toEqual(['reconnecting', 'connected']);
    // The server goes away again while the stream is open: 2 s, not 16 s.
    FakeEventSource.last().fail();
    expect(opensAfter(1999)).toBe(4);
    expect(opensAfter(1)).toBe(5);
    FakeEventSource.last().open();
    expect(states).toEqual(['reconnecting', 'connected', 'reconnecting', 'connected']);
    stop();
  });

  it('an error answer (CLOSED) asks shouldReopen; a dropped connection does not', async () => {
    const shouldReopen = vi.fn(async () => true);
    const stop = openReconnectingStream('/events', { events: {}, shouldReopen, random: () => 0 });
    FakeEventSource.last().fail();
    expect(shouldReopen).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2000);
    expect(FakeEventSource.instances).toHaveLength(2);
    FakeEventSource.last().fail(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(shouldReopen).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(4000);
    expect(FakeEventSource.instances).toHaveLength(3);
    stop();
  });

  it('close() stops everything: the stream, a pending reopen, later events', () => {
    const states: StreamState[] = [];
    const onMessage = vi.fn();
    const stop = openReconnectingStream('/events', { events: { marker: onMessage }, onState: (s) => states.push(s), random: () => 0 });
    const first = FakeEventSource.last();
    first.fail();
    stop();
    expect(states).toEqual(['reconnecting', 'off']);
    expect(opensAfter(120_000)).toBe(1);
    // Stopping while open closes the stream and drops its messages.
    FakeEventSource.instances = [];
    const stop2 = openReconnectingStream('/events', { events: { marker: onMessage }, random: () => 0 });
    const es = FakeEventSource.last();
    es.open();
    stop2();
    expect(es.readyState).toBe(FakeEventSource.CLOSED);
    es.send({ any: 1 });
    es.fail();
    expect(onMessage).not.toHaveBeenCalled();
    expect(opensAfter(120_000)).toBe(1);
    stop2(); // twice: harmless
  });

  it('a stale stream (already replaced) is ignored', () => {
    const onMessage = vi.fn();
    const stop = openReconnectingStream('/events', { events: { marker: onMessage }, random: () => 0 });
    const old = FakeEventSource.last();
    old.fail();
    vi.advanceTimersByTime(2000);
    old.send({ any: 1 });
    old.fail();
    expect(onMessage).not.toHaveBeenCalled();
    expect(opensAfter(60_000)).toBe(2);
    stop();
  });
});
