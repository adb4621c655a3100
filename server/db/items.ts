/**
 * Item cache (spec §3 "Item"): the rows behind GET /api/be/items.
 */
import type { Kysely } from 'kysely';
import type { Item } from '../../src/domain/quests';
import type { Db } from './database';
import type { Database } from './schema';

export type { Item };

export class ItemRepository {
  constructor(private readonly db: Db) {}

  async list(): Promise<Item[]> {
    const rows = await this.db.kysely.selectFrom('items').selectAll().orderBy('position').orderBy('uid').execute();
    return rows.map((r) => ({ uid: r.uid, name: r.name, ruName: r.ru_name }));
  }

  async count(): Promise<number> {
    const row = await this.db.kysely
      .selectFrom('items')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insertMany(items: readonly Item[], executor: Kysely<Database> = this.db.kysely): Promise<void> {
    if (items.length === 0) return;
    // Count through the executor: on SQLite a second connection would wait for this transaction.
    const counted = await executor
      .selectFrom('items')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    const base = Number(counted.n);
    await executor
      .insertInto('items')
      .values(items.map((it, i) => ({ uid: it.uid, name: it.name, ru_name: it.ruName, position: base + i })))
      .execute();
  }
}
