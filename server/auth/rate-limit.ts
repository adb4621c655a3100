/**
 * In-memory sign-in rate limiter: counts failed attempts per key (an account name or an
 * address) in a fixed window. Over the limit, `check` returns the seconds to wait.
 */
export interface RateLimitRule {
  max: number;
  windowMs: number;
}

export class RateLimiter {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Seconds until `key` may try again, or 0 when it may try now. */
  check(key: string, rule: RateLimitRule): number {
    const entry = this.hits.get(key);
    const now = this.now();
    if (!entry || entry.resetAt <= now) return 0;
    return entry.count >= rule.max ? Math.max(1, Math.ceil((entry.resetAt - now) / 1000)) : 0;
  }

  fail(key: string, rule: RateLimitRule): void {
    const now = this.now();
    const entry = this.hits.get(key);
    if (!entry || entry.resetAt <= now) this.hits.set(key, { count: 1, resetAt: now + rule.windowMs });
    else entry.count += 1;
    if (this.hits.size > 10_000) this.prune();
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  private prune(): void {
    const now = this.now();
    for (const [key, entry] of this.hits) if (entry.resetAt <= now) this.hits.delete(key);
  }
}

export const ACCOUNT_RULE: RateLimitRule = { max: 5, windowMs: 15 * 60_000 };
export const ADDRESS_RULE: RateLimitRule = { max: 20, windowMs: 15 * 60_000 };
