/**
 * JsonCache (issue 9, defect 9): invalidations coalesced into one background rebuild, readers
 * served the previous (compressed) body meanwhile, and a bound on how stale a read can be.
 * Timers and the clock are vitest's fake ones, so the bound is checked exactly, not raced.
 */
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JsonCache, readsFresh, type CachedBody } from './json-cache';

/** A cache over a counter: each load returns `{ n }` with the next n; `gate` can hold loads. */
function counterCache(options: ConstructorParameters<typeof JsonCache>[1] = {}) {
  let n = 0;
  const loads: string[] = [];
  let gate: Promise<void> | undefined;
  let fail: Error | undefined;
  const cache = new JsonCache(async (key) => {
    loads.push(key);
    const mine = ++n;
    if (gate) await gate;
    if (fail) throw fail;
    return JSON.stringify({ key, n: mine, pad: 'x'.repeat(5000) });
  }, { now: () => Date.now(), ...options });
  let open: () => void = () => {};
  return {
    cache,
    loads,
    hold() {
      gate = new Promise<void>((resolve) => (open = resolve));
    },
    release() {
      gate = undefined;
      open();
    },
    failWith(error: Error | undefined) {
      fail = error;
    },
  };
}

/** A cache whose body 1 was read, then rebuilt after a write: body 2 is published and nobody has read it. */
async function withUnreadBody(options: ConstructorParameters<typeof JsonCache>[1]) {
  const h = counterCache(options);
  await h.cache.get('k');
  h.cache.invalidate('k');
  await vi.advanceTimersByTimeAsync(options?.delayMs ?? 20);
  await vi.waitFor(() => expect(h.cache.isFresh('k')).toBe(true));
  return h;
}

const nOf = (body: CachedBody) => (JSON.parse(body.identity.toString()) as { n: number }).n;

describe('JsonCache', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('loads a key once and shares the pending load', async () => {
    const { cache, loads } = counterCache();
    const [a, b] = await Promise.all([cache.get('k'), cache.get('k')]);
    expect(a).toBe(b);
    expect(loads).toEqual(['k']);
    expect(await cache.get('k')).toBe(a);
  });

  it('keeps serving the previous body and its compressed variant after a write, then publishes one rebuild', async () => {
    const { cache, loads } = counterCache({ delayMs: 20, maxStaleMs: 100 });
    const first = await cache.get('k');
    const br = await cache.encoded(first, 'br');
    cache.invalidate('k');
    expect(cache.isFresh('k')).toBe(false);
    // Readers right after the write: the old body and the same compressed bytes, no load.
    const during = await cache.get('k');
    expect(during).toBe(first);
    expect(await cache.encoded(during, 'br')).toBe(br);
    expect(loads).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(20);
    await vi.waitFor(() => expect(cache.isFresh('k')).toBe(true));
    const next = await cache.get('k');
    expect(nOf(next)).toBe(2);
    expect(next.hash).not.toBe(first.hash);
    // The encoding readers used was compressed before the body was published.
    expect(next.encoded.br).toBeDefined();
    expect(next.encoded.gzip).toBeUndefined();
    expect(zlib.brotliDecompressSync(await cache.encoded(next, 'br')).equals(next.identity)).toBe(true);
  });

  it('coalesces a burst of invalidations into one rebuild, and writes during a rebuild into one more', async () => {
    const h = counterCache({ delayMs: 20, maxStaleMs: 1000 });
    await h.cache.get('k');
    for (let i = 0; i < 100; i++) h.cache.invalidate('k');
    await vi.advanceTimersByTimeAsync(20);
    expect(h.loads).toHaveLength(2);
    // A rebuild is running (held): 50 more writes wait for it, then make exactly one more.
    h.cache.invalidate('k');
    await vi.advanceTimersByTimeAsync(20);
    await vi.waitFor(() => expect(h.cache.isFresh('k')).toBe(true));
    h.hold();
    h.cache.invalidate('k');
    await vi.advanceTimersByTimeAsync(20);
    expect(h.loads).toHaveLength(4);
    for (let i = 0; i < 50; i++) h.cache.invalidate('k');
    await vi.advanceTimersByTimeAsync(100);
    expect(h.loads).toHaveLength(4);
    h.release();
    await vi.waitFor(() => expect(h.loads).toHaveLength(5));
    await vi.advanceTimersByTimeAsync(20);
    await vi.waitFor(() => expect(h.cache.isFresh('k')).toBe(true));
    expect(h.loads).toHaveLength(5);
    expect(nOf(await h.cache.get('k'))).toBe(5);
  });

  it('never serves a body that lacks a write older than maxStaleMs: such a reader waits for a rebuild with it', async () => {
    const h = counterCache({ delayMs: 20, maxStaleMs: 100 });
    await h.cache.get('k');
    // The rebuild is slow (held): at 100 ms a reader still gets the old body…
    h.hold();
    h.cache.invalidate('k');
    await vi.advanceTimersByTimeAsync(100);
    expect(nOf(await h.cache.get('k'))).toBe(1);
    // …past 100 ms it waits for the rebuild.
    await vi.advanceTimersByTimeAsync(1);
    let got: CachedBody | undefined;
    void h.cache.get('k').then((b) => (got = b));
    await vi.advanceTimersByTimeAsync(50);
    expect(got).toBeUndefined();
    h.release();
    await vi.waitFor(() => expect(got).toBeDefined());
    expect(nOf(got!)).toBe(2);
  });

  it('a waiting reader is not served a rebuild that began before the newest write', async () => {
    const h = counterCache({ delayMs: 20, maxStaleMs: 100 });
    await h.cache.get('k');
    h.cache.invalidate('k');
    await vi.advanceTimersByTimeAsync(20);
    await vi.waitFor(() => expect(h.cache.isFresh('k')).toBe(true));
    // Rebuild 3 begins (held), then a write lands after it began.
    h.hold();
    h.cache.invalidate('k');
    await vi.advanceTimersByTimeAsync(20);
    expect(h.loads).toHaveLength(3);
    h.cache.invalidate('k');
    await vi.advanceTimersByTimeAsync(200);
    let got: CachedBody | undefined;
    void h.cache.get('k').then((b) => (got = b));
    h.release();
    await vi.waitFor(() => expect(got).toBeDefined());
    // Body 3 began before the last write; the reader got body 4, which includes it.
    expect(nOf(got!)).toBe(4);
  });

  it('does not keep a failed load; a failed rebuild keeps the old body and reports it', async () => {
    const onError = vi.fn();
    const h = counterCache({ delayMs: 20, maxStaleMs: 100, onError });
    h.failWith(new Error('database down'));
    await expect(h.cache.get('k')).rejects.toThrow('database down');
    h.failWith(undefined);
    const body = await h.cache.get('k');
    h.failWith(new Error('database down'));
    h.cache.invalidate('k');
    await vi.advanceTimersByTimeAsync(20);
    await vi.waitFor(() => expect(onError).toHaveBeenCalledWith('k', expect.any(Error)));
    expect(await h.cache.get('k')).toBe(body);
    // Past the bound a reader needs the rebuild, and hears the failure.
    await vi.advanceTimersByTimeAsync(101);
    await expect(h.cache.get('k')).rejects.toThrow('database down');
    h.failWith(undefined);
    expect(nOf(await h.cache.get('k'))).toBeGreaterThan(nOf(body));
  });

  it('ignores invalidations of keys never read, and stops its timers on dispose', async () => {
    const h = counterCache({ delayMs: 20 });
    h.cache.invalidate('never');
    await h.cache.get('k');
    h.cache.invalidate('k');
    h.cache.dispose();
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.loads).toEqual(['k']);
  });

  it('compresses each encoding once', async () => {
    const { cache } = counterCache();
    const body = await cache.get('k');
    const gz1 = await cache.encoded(body, 'gzip');
    expect(await cache.encoded(body, 'gzip')).toBe(gz1);
    expect(gz1.length).toBeLessThan(body.identity.length / 10);
    expect(await cache.encoded(body, 'identity')).toBe(body.identity);
  });

  it('rebuilds a body nobody read only once the writes pause, and brings it forward when someone reads it', async () => {
    const h = await withUnreadBody({ delayMs: 20, unreadDelayMs: 200, maxStaleMs: 10_000 });
    expect(h.loads).toHaveLength(2); // body 1 was read: rebuilt delayMs after the write
    // Body 2 is not read: 30 writes 10 ms apart make no rebuild while they go on…
    for (let i = 0; i < 30; i++) {
      h.cache.invalidate('k');
      await vi.advanceTimersByTimeAsync(10);
    }
    expect(h.loads).toHaveLength(2);
    // …and one, 200 ms after the last.
    await vi.advanceTimersByTimeAsync(190);
    await vi.waitFor(() => expect(h.cache.isFresh('k')).toBe(true));
    expect(h.loads).toHaveLength(3);
    // Writes again, unread: a reader gets the stale body at once, and its rebuild comes delayMs later.
    h.cache.invalidate('k');
    await vi.advanceTimersByTimeAsync(50);
    expect(nOf(await h.cache.get('k'))).toBe(3);
    h.cache.invalidate('k');
    await vi.advanceTimersByTimeAsync(20);
    await vi.waitFor(() => expect(h.loads).toHaveLength(4));
    expect(nOf(await h.cache.get('k'))).toBe(4);
  });

  it('keeps the staleness bound for a body nobody read: a reader past maxStaleMs waits for the rebuild', async () => {
    const h = await withUnreadBody({ delayMs: 20, unreadDelayMs: 5_000, maxStaleMs: 100 });
    h.cache.invalidate('k'); // body 2, unread: its rebuild would wait 5 s
    await vi.advanceTimersByTimeAsync(101);
    expect(h.loads).toHaveLength(2);
    const got = await h.cache.get('k');
    expect(nOf(got)).toBe(3);
    expect(h.loads).toHaveLength(3);
    // The pause timer was replaced by that build: nothing more runs.
    await vi.advanceTimersByTimeAsync(6_000);
    expect(h.loads).toHaveLength(3);
  });

  it('a fresh read is never served past a write: it waits for a rebuild that has it, a plain read does not', async () => {
    const h = counterCache({ delayMs: 20, maxStaleMs: 100 });
    await h.cache.get('k');
    h.hold();
    h.cache.invalidate('k');
    // 1 ms after the write: a plain read gets the old body at once…
    await vi.advanceTimersByTimeAsync(1);
    expect(nOf(await h.cache.get('k'))).toBe(1);
    // …a fresh one waits for the rebuild, even one that began before the write (none here).
    let got: CachedBody | undefined;
    void h.cache.get('k', { fresh: true }).then((b) => (got = b));
    await vi.advanceTimersByTimeAsync(50);
    expect(got).toBeUndefined();
    h.release();
    await vi.waitFor(() => expect(got).toBeDefined());
    expect(nOf(got!)).toBe(2);
    // Nothing unpublished: a fresh read is the published body at once, no load.
    expect(await h.cache.get('k', { fresh: true })).toBe(got);
    expect(h.loads).toHaveLength(2);
  });

  it('a fresh read during a rebuild that began before the write waits for the next one', async () => {
    const h = counterCache({ delayMs: 20, maxStaleMs: 100 });
    await h.cache.get('k');
    h.hold();
    h.cache.invalidate('k');
    await vi.advanceTimersByTimeAsync(20); // rebuild 2 runs (held)
    h.cache.invalidate('k'); // a write after it began
    let got: CachedBody | undefined;
    void h.cache.get('k', { fresh: true }).then((b) => (got = b));
    h.release();
    await vi.waitFor(() => expect(got).toBeDefined());
    expect(nOf(got!)).toBe(3);
  });

  it('reads a revalidation (If-None-Match) fresh', () => {
    expect(readsFresh('"abc-br"')).toBe(true);
    expect(readsFresh('*')).toBe(true);
    expect(readsFresh(undefined)).toBe(false);
    expect(readsFresh('')).toBe(false);
  });
});
