/**
 * GET /api/be/quests → `{ quests }` and GET /api/be/items → `{ items }`: the quest and item
 * caches, served from memory with a strong ETag.
 */
import type { FastifyInstance } from 'fastify';
import type { JsonCache } from '../http/json-cache';
import { sendCached } from '../http/send-cached';

export const QUESTS_KEY = 'quests';
export const ITEMS_KEY = 'items';

export interface CacheRoutesOptions {
  /** Serves keys QUESTS_KEY and ITEMS_KEY. */
  lists: JsonCache;
}

export async function cacheRoutes(app: FastifyInstance, { lists }: CacheRoutesOptions): Promise<void> {
  app.get('/api/be/quests', { compress: false }, async (request, reply) => sendCached(request, reply, lists, await lists.get(QUESTS_KEY)));
  app.get('/api/be/items', { compress: false }, async (request, reply) => sendCached(request, reply, lists, await lists.get(ITEMS_KEY)));
}
