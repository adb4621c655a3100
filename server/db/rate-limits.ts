/**
 * Rate-limit counters (table `rate_limits`, migration 0004): fixed-window hit counts by key,
 * kept in the database so that every server process on one database shares them.
 *
 * `hit` is one atomic statement on both dialects (`insert … on conflict (key) do update …
 * returning`): a new key starts at 1, a live one goes up by one, and an expired one starts a
 * new window at 1. Concurrent hits — from one process or several — never lose a count. Times
 * are epoch milliseconds from the caller's clock (the same clock for every check), stored as
 * bigint (which pg hands back as text, hence the Number()).
 */
import { sql, type Kysely } from 'kysely';
import type { Db } from './database';
import type { Database } from './schema';

export type RateLimitsTable = {
  key: string;
  window_start: number;
  expires_at: number;
  count: number;
};

type RateLimitDb = Kysely<Database & { rate_limits: RateLimitsTable }>;

/** One counter: `count` hits in the window that ends at `resetAt` (epoch ms). */
export interface RateCount {
  count: number;
  resetAt: number;
}

export class RateLimitRepository {
  private readonly k: RateLimitDb;

  constructor(db: Db) {
    this.k = db.kysely.withTables<{ rate_limits: RateLimitsTable }>();
  }

  /** Adds one hit to `key` and returns the count after it; an expired window restarts at `now`. */
  async hit(key: string, windowMs: number, now: number): Promise<RateCount> {
    const resetAt = now + windowMs;
    const expired = sql<boolean>`rate_limits.expires_at <= ${now}`;
    const row = await this.k
      .insertInto('rate_limits')
      .values({ key, window_start: now, expires_at: resetAt, count: 1 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          count: sql<number>`case when ${expired} then 1 else rate_limits.count + 1 end`,
          window_start: sql<number>`case when ${expired} then ${now} else rate_limits.window_start end`,
          expires_at: sql<number>`case when ${expired} then ${resetAt} else rate_limits.expires_at end`,
        }),
      )
      .returning(['count', 'expires_at'])
      .executeTakeFirstOrThrow();
    return { count: Number(row.count), resetAt: Number(row.expires_at) };
  }

  /** The live counter of `key`, or undefined when there is none or its window has ended. */
  async get(key: string, now: number): Promise<RateCount | undefined> {
    const row = await this.k.selectFrom('rate_limits').select(['count', 'expires_at']).where('key', '=', key).executeTakeFirst();
    if (!row || Number(row.expires_at) <= now) return undefined;
    return { count: Number(row.count), resetAt: Number(row.expires_at) };
  }

  /** Takes one hit back (never below 0; nothing when the window has ended). */
  async release(key: string, now: number): Promise<void> {
    await this.k
      .updateTable('rate_limits')
      .set({ count: sql<number>`${sql.ref('count')} - 1` })
      .where('key', '=', key)
      .where('count', '>', 0)
      .where('expires_at', '>', now)
      .execute();
  }

  async remove(key: string): Promise<void> {
    await this.k.deleteFrom('rate_limits').where('key', '=', key).execute();
  }

  /** Deletes counters whose window ended by `now`. Returns how many. */
  async purgeExpired(now: number): Promise<number> {
    const result = await this.k.deleteFrom('rate_limits').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
