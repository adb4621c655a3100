/**
 * Pairings of the live position feed (issue 10, docs/PILOT.md): one row per pairing code. Only
 * the sha256 of the publisher token is kept (like sessions), and no position ever is: positions
 * pass through the live hub and are forgotten. Times are epoch milliseconds (bigint, like
 * rate_limits); `last_used_at` moves when the code is watched or published to, and a pairing
 * unused for PAIRING_TTL_MS is gone (swept through the index).
 */
import type { Kysely, Migration } from 'kysely';

export const pilotPairings: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('pilot_pairings')
      .addColumn('code', 'text', (c) => c.primaryKey())
      .addColumn('token_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('pilot_pairings_last_used_idx').on('pilot_pairings').column('last_used_at').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('pilot_pairings').execute();
  },
};
