/**
 * Pairings of the live position feed (table `pilot_pairings`, migration 0005; docs/PILOT.md):
 * the code, the sha256 of its publisher token, and when it was made and last used (epoch ms
 * from the caller's clock, stored as bigint, which pg hands back as text, hence the Number()).
 *
 * Whether a pairing has expired is the caller's rule (`lastUsedAt + ttl <= now`); the
 * repository only offers the conditional writes that keep it safe across processes: `touch`
 * moves `last_used_at` only while the pairing is alive, and `removeExpired` deletes a row only
 * while it is still expired (another process may just have used it).
 */
import type { Kysely } from 'kysely';
import type { Db } from './database';
import type { Database } from './schema';

export type PilotPairingsTable = {
  code: string;
  token_hash: string;
  created_at: number;
  last_used_at: number;
};

type PilotDb = Kysely<Database & { pilot_pairings: PilotPairingsTable }>;

export interface PilotPairing {
  code: string;
  /** sha256 of the publisher token, hex. */
  tokenHash: string;
  createdAt: number;
  lastUsedAt: number;
}

export class PilotPairingRepository {
  private readonly k: PilotDb;

  constructor(db: Db) {
    this.k = db.kysely.withTables<{ pilot_pairings: PilotPairingsTable }>();
  }

  /** Stores a new pairing; false (nothing written) when the code is taken. */
  async create(code: string, tokenHash: string, now: number): Promise<boolean> {
    const result = await this.k
      .insertInto('pilot_pairings')
      .values({ code, token_hash: tokenHash, created_at: now, last_used_at: now })
      .onConflict((oc) => oc.column('code').doNothing())
      // A row comes back only when it was inserted (SQLite and PostgreSQL both return nothing
      // for a conflict that did nothing); InsertResult has no reliable count for that case.
      .returning('code')
      .executeTakeFirst();
    return result !== undefined;
  }

  async get(code: string): Promise<PilotPairing | undefined> {
    const row = await this.k.selectFrom('pilot_pairings').selectAll().where('code', '=', code).executeTakeFirst();
    if (!row) return undefined;
    return { code: row.code, tokenHash: row.token_hash, createdAt: Number(row.created_at), lastUsedAt: Number(row.last_used_at) };
  }

  /**
   * Marks the pairing used at `now`, if it is still alive (used after `aliveAfter`). False when
   * it is gone or expired: the caller ends what it holds for it.
   */
  async touch(code: string, now: number, aliveAfter: number): Promise<boolean> {
    const result = await this.k
      .updateTable('pilot_pairings')
      .set({ last_used_at: now })
      .where('code', '=', code)
      .where('last_used_at', '>', aliveAfter)
      .where('last_used_at', '<', now)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) return true;
    // Nothing updated: gone, expired, or already marked at (or after) `now` by another request.
    const row = await this.k.selectFrom('pilot_pairings').select('last_used_at').where('code', '=', code).executeTakeFirst();
    return row !== undefined && Number(row.last_used_at) > aliveAfter;
  }

  /** Deletes the pairing; whether there was one. */
  async remove(code: string): Promise<boolean> {
    const result = await this.k.deleteFrom('pilot_pairings').where('code', '=', code).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Deletes the pairing if it is still unused since `usedBefore` or earlier (expired). */
  async removeExpired(code: string, usedBefore: number): Promise<boolean> {
    const result = await this.k.deleteFrom('pilot_pairings').where('code', '=', code).where('last_used_at', '<=', usedBefore).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Deletes every pairing last used at `usedBefore` or earlier; returns their codes. */
  async purgeExpired(usedBefore: number): Promise<string[]> {
    const rows = await this.k.deleteFrom('pilot_pairings').where('last_used_at', '<=', usedBefore).returning('code').execute();
    return rows.map((row) => row.code);
  }

  async count(): Promise<number> {
    const row = await this.k
      .selectFrom('pilot_pairings')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
