/**
 * GET /api/be/markers/list?map={map} → `{ markers: Marker[] }` from the in-memory list cache
 * (strong ETag, pre-compressed). Any extra query parameters are accepted and ignored.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { MAP_IDS, isMapId } from '../../src/domain/maps';
import { sendError } from '../http/errors';
import type { JsonCache } from '../http/json-cache';
import { sendCached } from '../http/send-cached';
import { firstIssue } from './query';

const listQuery = z
  .object({
    map: z
      .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be given once, as text') })
      .trim()
      .min(1, 'must not be empty')
      .max(64, 'is too long'),
  })
  .loose();

export interface MarkerRoutesOptions {
  markerLists: JsonCache;
}

export async function markerRoutes(app: FastifyInstance, { markerLists }: MarkerRoutesOptions): Promise<void> {
  app.get('/api/be/markers/list', { compress: false }, async (request, reply) => {
    const parsed = listQuery.safeParse(request.query);
    if (!parsed.success) return sendError(reply, 400, firstIssue(parsed.error));
    const { map } = parsed.data;
    if (!isMapId(map)) return sendError(reply, 404, `unknown map "${map}"; known maps: ${MAP_IDS.join(', ')}`);
    return sendCached(request, reply, markerLists, await markerLists.get(map));
  });
}
