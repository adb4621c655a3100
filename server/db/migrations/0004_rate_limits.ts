/**
 * Rate-limit counters in the database, so that every server process on one database counts
 * against the same limits (docs/SERVER.md "Rate limits"). One row per counter: `key` names the
 * rule and whom it counts (e.g. `login:pair <address> <name>`), `count` the hits in the fixed
 * window that started at `window_start` and ends at `expires_at` (both epoch milliseconds).
 * Expired rows are restarted by the next hit and deleted now and then through the index.
 */
import type { Kysely, Migration } from 'kysely';

export const rateLimits: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('rate_limits')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('window_start', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('rate_limits_expires_idx').on('rate_limits').column('expires_at').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('rate_limits').execute();
  },
};
