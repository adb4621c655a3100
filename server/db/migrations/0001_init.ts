/**
 * First schema: markers, quests and items. Written with Kysely's schema builder using only
 * types both SQLite and PostgreSQL accept. Users and sessions come in a later migration.
 */
import type { Kysely, Migration } from 'kysely';

export const init: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('markers')
      .addColumn('uid', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('map', 'varchar(32)', (c) => c.notNull())
      .addColumn('category', 'varchar(64)', (c) => c.notNull())
      .addColumn('sub_category', 'varchar(64)', (c) => c.notNull())
      .addColumn('level', 'integer', (c) => c.notNull())
      .addColumn('x', 'double precision', (c) => c.notNull())
      .addColumn('y', 'double precision', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('desc', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('imgs', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('name_l10n', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('desc_l10n', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('quest_uid', 'varchar(64)')
      .addColumn('items_uid', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('extra', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('markers_map_idx').on('markers').column('map').execute();
    await db.schema.createIndex('markers_quest_idx').on('markers').column('quest_uid').execute();

    await db.schema
      .createTable('quests')
      .addColumn('uid', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('ru_name', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('trader', 'varchar(64)', (c) => c.notNull())
      .addColumn('required_for_kappa', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('required_for_lightkeeper', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('wiki_url', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();

    await db.schema
      .createTable('items')
      .addColumn('uid', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('ru_name', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('items').execute();
    await db.schema.dropTable('quests').execute();
    await db.schema.dropTable('markers').execute();
  },
};
