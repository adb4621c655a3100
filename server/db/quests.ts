/**
 * Quest cache (spec §3 "Quest"): the rows behind GET /api/be/quests.
 */
import type { Kysely, Selectable } from 'kysely';
import type { Quest } from '../../src/domain/quests';
import type { Db } from './database';
import type { Database, QuestsTable } from './schema';

export type { Quest };

function rowToQuest(row: Selectable<QuestsTable>): Quest {
  return {
    uid: row.uid,
    name: row.name,
    ruName: row.ru_name,
    trader: row.trader,
    requiredForKappa: Number(row.required_for_kappa) === 1,
    requiredForLightkeeper: Number(row.required_for_lightkeeper) === 1,
    wikiUrl: row.wiki_url,
  };
}

export class QuestRepository {
  constructor(private readonly db: Db) {}

  async list(): Promise<Quest[]> {
    const rows = await this.db.kysely.selectFrom('quests').selectAll().orderBy('position').orderBy('uid').execute();
    return rows.map(rowToQuest);
  }

  async get(uid: string): Promise<Quest | undefined> {
    const row = await this.db.kysely.selectFrom('quests').selectAll().where('uid', '=', uid).executeTakeFirst();
    return row ? rowToQuest(row) : undefined;
  }

  async count(): Promise<number> {
    const row = await this.db.kysely
      .selectFrom('quests')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insertMany(quests: readonly Quest[], executor: Kysely<Database> = this.db.kysely): Promise<void> {
    if (quests.length === 0) return;
    // Count through the executor: on SQLite a second connection would wait for this transaction.
    const counted = await executor
      .selectFrom('quests')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    const base = Number(counted.n);
    await executor
      .insertInto('quests')
      .values(
        quests.map((q, i) => ({
          uid: q.uid,
          name: q.name,
          ru_name: q.ruName,
          trader: q.trader,
          required_for_kappa: q.requiredForKappa ? 1 : 0,
          required_for_lightkeeper: q.requiredForLightkeeper ? 1 : 0,
          wiki_url: q.wikiUrl,
          position: base + i,
        })),
      )
      .execute();
  }
}
