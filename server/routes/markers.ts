/**
 * GET /api/be/markers/list?map={map} → `{ markers: Marker[] }` from the in-memory list cache
 * (strong ETag, pre-compressed). Any extra query parameters are accepted and ignored.
 *
 * GET /api/be/markers/compact?map={map}&lang=en|ru[&format=json|binary] → the compact marker
 * list (issue 11, src/domain/compact-markers.ts): columns of what the map draws and filters,
 * labels in `lang`, from its own cache (built once per map, language and format, invalidated
 * with the list, strong ETag, gzip / br built once, `Cache-Control: no-cache` so browsers
 * revalidate and get 304). `format=binary` answers the same columns as typed arrays
 * (src/domain/compact-binary.ts, `application/vnd.raidmap.markers-compact`): the map page's.
 *
 * GET /api/be/markers/one?uid={uid} → `{ marker }`: one full marker (what a popup shows), 404
 * for an unknown uid.
 *
 * A conditional request (If-None-Match: a browser revalidating its cached list, the map page's
 * check after its live feed listens) to either list is answered from a list that holds every
 * write acknowledged before it: never a 304 (nor a 200) with a list older than the live feed.
 *
 * All three are public: anonymous callers, visitors, pro users and admins get the same answers.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { LANGUAGES, type Language, MARKER_BOUNDS } from '../../src/domain/marker';
import { MAP_IDS, isMapId } from '../../src/domain/maps';
import type { MarkerRepository } from '../db/markers';
import { sendError } from '../http/errors';
import { readsFresh, type JsonCache } from '../http/json-cache';
import { COMPACT_FORMATS, type CompactFormat } from '../lists/list-source';

export { COMPACT_FORMATS };
import { COMPACT_BINARY_TYPE } from '../../src/domain/compact-binary';
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
    format: text(COMPACT_FORMATS.join(' or '))
      .optional()
      .refine((v) => v === undefined || (COMPACT_FORMATS as readonly string[]).includes(v), { message: `must be ${COMPACT_FORMATS.join(' or ')}` }),
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

/** The compact cache's key of a map, language and format. */
export function compactKey(map: string, lang: Language, format: CompactFormat = 'json'): string {
  return `${map}:${lang}:${format}`;
}

export function parseCompactKey(key: string): { map: string; lang: Language; format: CompactFormat } {
  const [map, lang, format, ...rest] = key.split(':');
  if (!map || rest.length > 0 || !(LANGUAGES as readonly string[]).includes(lang) || !(COMPACT_FORMATS as readonly string[]).includes(format)) {
    throw new Error(`not a compact list key: ${key}`);
  }
  return { map, lang: lang as Language, format: format as CompactFormat };
}

export interface MarkerRoutesOptions {
  markerLists: JsonCache;
  /** Keys: compactKey(map, lang, format). */
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
    return sendCached(request, reply, markerLists, await markerLists.get(map, { fresh: readsFresh(request.headers['if-none-match']) }));
  });

  app.get('/api/be/markers/compact', { compress: false }, async (request, reply) => {
    const parsed = compactQuery.safeParse(request.query);
    if (!parsed.success) return sendError(reply, 400, firstIssue(parsed.error));
    const { map } = parsed.data;
    const lang = (parsed.data.lang ?? 'en') as Language;
    const format = (parsed.data.format ?? 'json') as CompactFormat;
    if (!isMapId(map)) return sendError(reply, 404, unknownMap(map));
    // A revalidation is answered from a list holding every write acknowledged before it (json-cache.ts).
    const body = await compactLists.get(compactKey(map, lang, format), { fresh: readsFresh(request.headers['if-none-match']) });
    return sendCached(request, reply, compactLists, body, format === 'binary' ? { contentType: COMPACT_BINARY_TYPE } : {});
  });

  app.get('/api/be/markers/one', async (request, reply) => {
    const parsed = oneQuery.safeParse(request.query);
    if (!parsed.success) return sendError(reply, 400, firstIssue(parsed.error));
    const marker = await markers.get(parsed.data.uid);
    if (!marker) return sendError(reply, 404, `no marker "${parsed.data.uid}"`);
    return reply.header('cache-control', 'no-cache').send({ marker });
  });
}
