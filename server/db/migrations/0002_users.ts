/**
 * Accounts: users (name unique regardless of case, through name_key = lower(name)) and
 * server-side sessions keyed by the sha256 of the cookie token.
 */
import type { Kysely, Migration } from 'kysely';

export const users: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('name_key', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('pro', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('admin', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('quests_done', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('quests_hidden', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('last_seen_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();
    await db.schema.createIndex('sessions_expires_idx').on('sessions').column('expires_at').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('sessions').execute();
    await db.schema.dropTable('users').execute();
  },
};
