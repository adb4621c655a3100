/**
 * Rate limits for sign-in and sign-up (docs/SERVER.md "Rate limits", docs/DECISIONS.md).
 *
 * The counters live in the database (server/db/rate-limits.ts), so several server processes
 * on one database share every limit. There is no in-memory copy: a check is one indexed
 * statement, small beside the 32 MiB scrypt hash that every sign-in and sign-up costs, and a
 * cache could not see another process's hits or resets.
 *
 * `take` counts an attempt *before* the work it guards and refuses once the count passes the
 * rule's `max`, so a burst of parallel requests cannot slip past a limit that is checked
 * first and counted later; `give` takes the hit back when the attempt turned out fine.
 */
import { ConfigError } from '../config';
import type { RateLimitRepository } from '../db';

/** At most `max` hits per fixed window of `windowMs`, starting with the first hit. */
export interface RateLimitRule {
  max: number;
  windowMs: number;
}

export interface AuthLimits {
  /**
   * Failed sign-ins for one account from one address. Each failure makes that address wait
   * longer before its next try for that account (loginDelayMs); past `max`, that address
   * (only) gets 429 for that account until the window ends. A success clears the count.
   */
  loginPair: RateLimitRule | null;
  /** Failed sign-ins from one address, whatever the account. Past `max`: 429 for that address. */
  loginAddress: RateLimitRule | null;
  /**
   * Failed sign-ins for one account from everywhere (a guessing attack spread over many
   * addresses). Never a refusal: past `max`, every address that has failed for the account
   * waits the longest delay before each try. An address that has not failed never waits.
   */
  loginAccount: RateLimitRule | null;
  /** The first delay after one failure; it doubles with each further failure. */
  loginDelayStepMs: number;
  loginDelayMaxMs: number;
  /** Sign-up requests (that pass the quick form checks) from one address, refused ones included. */
  signUpTries: RateLimitRule | null;
  /** Accounts created from one address. */
  signUpAddress: RateLimitRule | null;
  /** Accounts created on the whole site, from every address together. */
  signUpAll: RateLimitRule | null;
}

const MINUTE = 60_000;

export const DEFAULT_AUTH_LIMITS: AuthLimits = {
  loginPair: { max: 5, windowMs: 15 * MINUTE },
  loginAddress: { max: 20, windowMs: 15 * MINUTE },
  loginAccount: { max: 10, windowMs: 15 * MINUTE },
  loginDelayStepMs: 250,
  loginDelayMaxMs: 2_000,
  signUpTries: { max: 20, windowMs: 15 * MINUTE },
  signUpAddress: { max: 5, windowMs: 60 * MINUTE },
  signUpAll: { max: 60, windowMs: 10 * MINUTE },
};

const UNIT_MS = { s: 1000, m: MINUTE, h: 60 * MINUTE } as const;

/** `5/15m` (5 per 15 minutes; units s, m, h) or `off`. */
export function parseRule(raw: string): RateLimitRule | null {
  const text = raw.trim().toLowerCase();
  if (text === 'off') return null;
  const match = /^(\d{1,9})\s*\/\s*(\d{1,6})\s*([smh])$/.exec(text);
  const max = match ? Number(match[1]) : 0;
  const windowMs = match ? Number(match[2]) * UNIT_MS[match[3] as keyof typeof UNIT_MS] : 0;
  if (max < 1 || windowMs < 1000) throw new Error(`expected a count per time like 5/15m (units s, m, h) or off, got "${raw}"`);
  return { max, windowMs };
}

/** The limits from the environment (docs/SERVER.md); unset variables keep the defaults. */
export function authLimitsFromEnv(env: NodeJS.ProcessEnv): AuthLimits {
  const rule = (name: string, fallback: RateLimitRule | null) => {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') return fallback;
    try {
      return parseRule(raw);
    } catch (error) {
      throw new ConfigError(name, (error as Error).message);
    }
  };
  const ms = (name: string, fallback: number) => {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 0 || value > 60_000) throw new ConfigError(name, `expected milliseconds from 0 to 60000, got "${raw}"`);
    return value;
  };
  const d = DEFAULT_AUTH_LIMITS;
  return {
    loginPair: rule('RATE_LIMIT_LOGIN_PAIR', d.loginPair),
    loginAddress: rule('RATE_LIMIT_LOGIN_ADDRESS', d.loginAddress),
    loginAccount: rule('RATE_LIMIT_LOGIN_ACCOUNT', d.loginAccount),
    loginDelayStepMs: ms('LOGIN_DELAY_STEP_MS', d.loginDelayStepMs),
    loginDelayMaxMs: ms('LOGIN_DELAY_MAX_MS', d.loginDelayMaxMs),
    signUpTries: rule('RATE_LIMIT_SIGNUP_TRIES', d.signUpTries),
    signUpAddress: rule('RATE_LIMIT_SIGNUP_ADDRESS', d.signUpAddress),
    signUpAll: rule('RATE_LIMIT_SIGNUP', d.signUpAll),
  };
}

/**
 * How long a sign-in from one address waits before its password is checked, given that
 * address's failures for the account (`pairFailures`) and the account's failures from every
 * address (`accountFailures`), both in their current windows. An address that has not failed
 * for the account never waits. Otherwise: `loginDelayStepMs` after one failure, doubling with
 * each further one, at most `loginDelayMaxMs`; the most at once while the account is under a
 * spread-out attack (over `loginAccount.max`). The wait comes before the check, whatever the
 * password, so its length tells nothing about whether the password was right.
 */
export function loginDelayMs(pairFailures: number, accountFailures: number, limits: AuthLimits): number {
  if (pairFailures <= 0) return 0;
  if (limits.loginAccount && accountFailures > limits.loginAccount.max) return limits.loginDelayMaxMs;
  return Math.min(limits.loginDelayMaxMs, limits.loginDelayStepMs * 2 ** Math.min(pairFailures - 1, 30));
}

export { addressKey } from '../http/address';

/** Seconds from `now` until `resetAt`, at least 1 (for Retry-After). */
export function secondsUntil(resetAt: number, now: number): number {
  return Math.max(1, Math.ceil((resetAt - now) / 1000));
}

const PURGE_EVERY_MS = MINUTE;

/** One counted attempt: the count after it, and the seconds to wait when it went past the rule. */
export interface Taken {
  count: number;
  /** 0 to go ahead; otherwise the seconds until the window ends (for Retry-After). */
  retryAfter: number;
}

export class RateLimiter {
  private lastPurge = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly store: RateLimitRepository,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Counts one attempt against `key` before doing the work (one atomic statement, so
   * concurrent attempts each get their own count). `retryAfter` > 0 when this attempt took the
   * count past `rule.max`. A rule that is off counts nothing.
   */
  async take(key: string, rule: RateLimitRule | null): Promise<Taken> {
    if (!rule) return { count: 0, retryAfter: 0 };
    const now = this.now();
    const counter = await this.store.hit(key, rule.windowMs, now);
    await this.purgeNowAndThen(now);
    return { count: counter.count, retryAfter: counter.count > rule.max ? secondsUntil(counter.resetAt, now) : 0 };
  }

  /** Takes back one attempt counted by `take` (the attempt succeeded or was never made). */
  async give(key: string, rule: RateLimitRule | null): Promise<void> {
    if (rule) await this.store.release(key, this.now());
  }

  /** The current count of `key` (0 when none, its window ended, or the rule is off). */
  async current(key: string, rule: RateLimitRule | null): Promise<number> {
    if (!rule) return 0;
    return (await this.store.get(key, this.now()))?.count ?? 0;
  }

  async reset(key: string): Promise<void> {
    await this.store.remove(key);
  }

  /**
   * Deletes expired counters at most once a minute per process (a hit on an expired counter
   * restarts it in place, so this only keeps the table from growing with keys seen once).
   */
  private async purgeNowAndThen(now: number): Promise<void> {
    if (now - this.lastPurge < PURGE_EVERY_MS && now >= this.lastPurge) return;
    this.lastPurge = now;
    await this.store.purgeExpired(now);
  }
}
