/**
 * Per-address limit on uncached tile renders (issue 9, defect 3): a token bucket per client
 * address, `perMinute` renders a minute with bursts of up to `burst`. Only a request that
 * starts a render takes a token; tiles served from disk, and requests that join a render
 * already running, are free. In memory, per process (a render is per process too: the
 * budget an address has is per server process; docs/SERVER.md "Tile cache").
 */

export interface RenderLimitOptions {
  /** Renders an address may start per minute, sustained (0: none at all). */
  perMinute: number;
  /** Renders it may start at once after being idle (default: perMinute). */
  burst?: number;
  /** Milliseconds clock (tests inject one). */
  now?: () => number;
  /** Addresses remembered at most; beyond it, those whose bucket is full again are forgotten. */
  maxAddresses?: number;
}

export type RenderPermit = { ok: true } | { ok: false; retryAfterS: number };

interface Bucket {
  tokens: number;
  at: number;
}

export class RenderLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;
  private readonly burst: number;
  private readonly now: () => number;
  private readonly maxAddresses: number;
  /** Renders refused so far (for metrics). */
  refused = 0;

  constructor(options: RenderLimitOptions) {
    this.perMs = Math.max(0, options.perMinute) / 60_000;
    this.burst = Math.max(0, options.burst ?? options.perMinute);
    this.now = options.now ?? Date.now;
    this.maxAddresses = options.maxAddresses ?? 50_000;
  }

  /** Takes one render for `address`, or says in how many seconds the next one is allowed. */
  take(address: string): RenderPermit {
    const now = this.now();
    const bucket = this.refill(this.buckets.get(address), now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      this.buckets.set(address, bucket);
      if (this.buckets.size > this.maxAddresses) this.forgetFull(now);
      return { ok: true };
    }
    this.buckets.set(address, bucket);
    this.refused++;
    const retryAfterS = this.perMs > 0 && this.burst >= 1 ? Math.max(1, Math.ceil((1 - bucket.tokens) / this.perMs / 1000)) : 60;
    return { ok: false, retryAfterS };
  }

  private refill(bucket: Bucket | undefined, now: number): Bucket {
    if (!bucket) return { tokens: this.burst, at: now };
    const tokens = Math.min(this.burst, bucket.tokens + Math.max(0, now - bucket.at) * this.perMs);
    return { tokens, at: now };
  }

  private forgetFull(now: number): void {
    for (const [address, bucket] of this.buckets) {
      if (this.refill(bucket, now).tokens >= this.burst) this.buckets.delete(address);
    }
    // Every bucket still draining: drop the oldest half rather than grow without bound.
    if (this.buckets.size > this.maxAddresses) {
      let drop = Math.floor(this.buckets.size / 2);
      for (const address of this.buckets.keys()) {
        if (drop-- <= 0) break;
        this.buckets.delete(address);
      }
    }
  }
}
