/**
 * GET /api/be/markers/list?map={map} → `{ markers: Marker[] }` from the in-memory list cache
 * (strong ETag, pre-compressed). Any extra query parameters are accepted and ignored.
 *
 * GET /api/be/markers/compact?map={map}&lang=en|ru → the compact marker list (issue 11,
 * src/domain/compact-markers.ts): columns of what the map draws and filters, labels in `lang`,
 * from its own cache (built once per map and language, invalidated with the list, strong ETag,
 * gzip / br built once, `Cache-Control: no-cache` so browsers revalidate and get 304).
 *
 * GET /api/be/markers/one?uid={uid} → `{ marker }`: one full marker (what a popup shows), 404
 * for an unknown uid.
 *
 * All three are public: anonymous callers, visitors, pro users and admins get the same answers.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { LANGUAGES, type Language, MARKER_BOUNDS } from '../../src/domain/marker';
import { MAP_IDS, isMapId } from '../../src/domain/maps';
import type { MarkerRepository } from '../db/markers';
import { sendError } from '../http/errors';
import type { JsonCache } from '../http/json-cache';
import { sendCached } from '../http/send-cached';
import { firstIssue } from './query';

const text = (what: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? 'is required' : `must be given once, as ${what}`) });

const mapParam = text('text').trim().min(1, 'must not be empty').max(64, 'is too long');

const listQuery = z.object({ map: mapParam }).loose();

const compactQuery = z
  .object({
    map: mapParam,
    lang: text(LANGUAGES.join(' or '))
      .optional()
      .refine((v) => v === undefined || (LANGUAGES as readonly string[]).includes(v), { message: `must be ${LANGUAGES.join(' or ')}` }),
  })
  .loose();

const oneQuery = z
  .object({
    uid: text('text')
      .min(1, 'must not be empty')
      .max(MARKER_BOUNDS.uid, `is at most ${MARKER_BOUNDS.uid} characters`)
      // No stored uid has one, and PostgreSQL refuses NUL in text outright.
      .refine((v) => !v.includes('\u0000'), { message: 'must not contain a NUL character' }),
  })
  .loose();

/** The compact cache's key of a map and language. */
export function compactKey(map: string, lang: Language): string {
  return `${map}:${lang}`;
}

export function parseCompactKey(key: string): { map: string; lang: Language } {
  const at = key.lastIndexOf(':');
  const lang = key.slice(at + 1);
  if (at < 0 || !(LANGUAGES as readonly string[]).includes(lang)) throw new Error(`not a compact list key: ${key}`);
  return { map: key.slice(0, at), lang: lang as Language };
}

export interface MarkerRoutesOptions {
  markerLists: JsonCache;
  /** Keys: compactKey(map, lang). */
  compactLists: JsonCache;
  markers: MarkerRepository;
}

export async function markerRoutes(app: FastifyInstance, { markerLists, compactLists, markers }: MarkerRoutesOptions): Promise<void> {
  const unknownMap = (map: string) => `unknown map "${map}"; known maps: ${MAP_IDS.join(', ')}`;

  app.get('/api/be/markers/list', { compress: false }, async (request, reply) => {
    const parsed = listQuery.safeParse(request.query);
    if (!parsed.success) return sendError(reply, 400, firstIssue(parsed.error));
    const { map } = parsed.data;
    if (!isMapId(map)) return sendError(reply, 404, unknownMap(map));
    return sendCached(request, reply, markerLists, await markerLists.get(map));
  });

  app.get('/api/be/markers/compact', { compress: false }, async (request, reply) => {
    const parsed = compactQuery.safeParse(request.query);
    if (!parsed.success) return sendError(reply, 400, firstIssue(parsed.error));
    const { map } = parsed.data;
    const lang = (parsed.data.lang ?? 'en') as Language;
    if (!isMapId(map)) return sendError(reply, 404, unknownMap(map));
    return sendCached(request, reply, compactLists, await compactLists.get(compactKey(map, lang)));
  });

  app.get('/api/be/markers/one', async (request, reply) => {
    const parsed = oneQuery.safeParse(request.query);
    if (!parsed.success) return sendError(reply, 400, firstIssue(parsed.error));
    const marker = await markers.get(parsed.data.uid);
    if (!marker) return sendError(reply, 404, `no marker "${parsed.data.uid}"`);
    return reply.header('cache-control', 'no-cache').send({ marker });
  });
}
