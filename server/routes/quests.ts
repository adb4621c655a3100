/**
 * GET /api/be/quests/maps → `{ maps: { [questUid]: MapId[] } }`: the maps on which each quest
 * has markers, so the quests page can link back to them. Built once from the markers table
 * (one DISTINCT query), cached with a strong ETag, and rebuilt after markers change.
 * The quest cache itself (`GET /api/be/quests`) keeps exactly the spec's Quest fields.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db';
import type { MarkerRepository } from '../db/markers';
import { JsonCache } from '../http/json-cache';
import { sendCached } from '../http/send-cached';

const KEY = 'quest-maps';

/** Map ids per quest uid, each list sorted, from the markers that link to a quest. */
export async function questMaps(db: Db): Promise<Record<string, string[]>> {
  const rows = await db.kysely
    .selectFrom('markers')
    .select(['quest_uid', 'map'])
    .distinct()
    .where('quest_uid', 'is not', null)
    .where('quest_uid', '<>', '')
    .orderBy('quest_uid')
    .orderBy('map')
    .execute();
  const maps: Record<string, string[]> = {};
  for (const row of rows) {
    if (!row.quest_uid) continue;
    (maps[row.quest_uid] ??= []).push(row.map);
  }
  return maps;
}

export interface QuestRoutesOptions {
  db: Db;
  markers: MarkerRepository;
}

export async function questRoutes(app: FastifyInstance, { db, markers }: QuestRoutesOptions): Promise<void> {
  const cache = new JsonCache(async () => JSON.stringify({ maps: await questMaps(db) }));
  const stop = markers.onChange(() => cache.invalidate(KEY));
  app.addHook('onClose', async () => {
    stop();
    cache.dispose();
  });
  app.get('/api/be/quests/maps', { compress: false }, async (request, reply) => sendCached(request, reply, cache, await cache.get(KEY)));
}
