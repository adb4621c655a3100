/**
 * Marker versions and history (docs/EDITOR.md "Server"): every marker gets a server-managed
 * `version` (existing rows start at 1), and `marker_history` keeps one row per add, update and
 * delete with who did it and the marker before and after (JSON text).
 *
 * The history id is an auto-increment key, which the two dialects spell differently:
 * `integer primary key autoincrement` on SQLite, `serial primary key` on PostgreSQL.
 */
import { PostgresAdapter, type Kysely, type Migration } from 'kysely';

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export const markerVersions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('markers')
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();

    await db.schema
      .createTable('marker_history')
      .addColumn('id', isPostgres(db) ? 'serial' : 'integer', (c) => (isPostgres(db) ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('marker_uid', 'varchar(64)', (c) => c.notNull())
      .addColumn('map', 'varchar(32)', (c) => c.notNull())
      .addColumn('action', 'varchar(16)', (c) => c.notNull())
      .addColumn('user_name', 'varchar(64)')
      .addColumn('at', 'varchar(32)', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('before', 'text')
      .addColumn('after', 'text')
      .execute();
    // One marker's rows, newest first: `where marker_uid = ? order by id desc`.
    await db.schema.createIndex('marker_history_uid_idx').on('marker_history').columns(['marker_uid', 'id']).execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('marker_history').execute();
    await db.schema.alterTable('markers').dropColumn('version').execute();
  },
};
