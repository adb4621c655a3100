import { describe, expect, it } from 'vitest';
import { RenderLimiter } from './render-limit';

describe('RenderLimiter', () => {
  it('allows a burst, then one render per refill, per address', () => {
    let now = 0;
    const limiter = new RenderLimiter({ perMinute: 6, burst: 3, now: () => now });
    for (let i = 0; i < 3; i++) expect(limiter.take('a')).toEqual({ ok: true });
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterS: 10 });
    // Another address has its own bucket.
    expect(limiter.take('b')).toEqual({ ok: true });
    now += 5_000;
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterS: 5 });
    now += 5_000;
    expect(limiter.take('a')).toEqual({ ok: true });
    expect(limiter.take('a').ok).toBe(false);
    // Idle for long: back to a full burst, never more.
    now += 3_600_000;
    for (let i = 0; i < 3; i++) expect(limiter.take('a').ok).toBe(true);
    expect(limiter.take('a').ok).toBe(false);
    expect(limiter.refused).toBe(4);
  });

  it('refuses everything with 0 a minute', () => {
    const limiter = new RenderLimiter({ perMinute: 0, now: () => 0 });
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterS: 60 });
  });

  it('remembers a bounded number of addresses', () => {
    let now = 0;
    const limiter = new RenderLimiter({ perMinute: 60, burst: 1, now: () => now, maxAddresses: 100 });
    for (let i = 0; i < 1000; i++) limiter.take(`10.0.${i >> 8}.${i & 255}`);
    expect((limiter as unknown as { buckets: Map<string, unknown> }).buckets.size).toBeLessThanOrEqual(101);
    now += 60_000;
    // Refilled buckets are forgotten first; a refilled address gets its burst again.
    expect(limiter.take('10.0.0.0').ok).toBe(true);
  });
});
