/**
 * GET /api/be/live/markers?map={map}: a public server-sent-events stream of one map's marker
 * changes (docs/EDITOR.md "Server", docs/SERVER.md "Versions, history and live updates").
 *
 *   retry: 2000                      once, first: the browser's reconnect delay
 *   event: marker                    per committed add / update / delete / upload
 *   data: <MarkerChange JSON>
 *   : ping                           every 25 s, so proxies and browsers keep the line open
 *
 * The stream itself (hijacked reply, pings, dropping a client far behind) is stream.ts, shared
 * with the live position feed (server/pilot/). Streams end when the client goes, when one falls
 * far behind, when the app closes (preClose, or `fastify.close()` would wait for them forever),
 * and when the hub reports a gap (changes made on another server process may have been
 * missed): the browser reconnects after `retry` and reloads the list (src/api/live.ts).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { MAP_IDS, isMapId } from '../../src/domain/maps';
import { sendError } from '../http/errors';
import { firstIssue } from '../routes/query';
import { markersChannel, type LiveHub } from './hub';
import { EVENT_STREAM_HEADERS, LIVE_PING_MS, openEventStream, type EventStream } from './stream';

export { LIVE_PING_MS, LIVE_RETRY_MS, sseEvent } from './stream';

export interface LiveRoutesOptions {
  hub: LiveHub;
  /** Ping interval (tests use a short one). Default 25 s. */
  pingMs?: number;
}

const liveQuery = z
  .object({
    map: z
      .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be given once, as text') })
      .trim()
      .min(1, 'must not be empty')
      .max(64, 'is too long'),
  })
  .loose();

export async function liveRoutes(app: FastifyInstance, { hub, pingMs = LIVE_PING_MS }: LiveRoutesOptions): Promise<void> {
  const open = new Set<EventStream>();

  const closeAll = () => {
    for (const stream of [...open]) stream.close();
  };
  const stopGaps = hub.onGap((reason) => {
    if (open.size > 0) app.log.warn({ streams: open.size, reason }, 'live: ending the streams so their clients reload');
    closeAll();
  });
  app.addHook('preClose', async () => {
    stopGaps();
    closeAll();
  });

  app.get('/api/be/live/markers', { compress: false }, async (request, reply) => {
    const parsed = liveQuery.safeParse(request.query);
    if (!parsed.success) return sendError(reply, 400, firstIssue(parsed.error));
    const { map } = parsed.data;
    if (!isMapId(map)) return sendError(reply, 400, `unknown map "${map}"; known maps: ${MAP_IDS.join(', ')}`);
    if (request.method === 'HEAD') return reply.code(200).headers(EVENT_STREAM_HEADERS).send();

    const stream = openEventStream(request, reply, { pingMs, logContext: { map } });
    open.add(stream);
    const unsubscribe = hub.subscribe(markersChannel(map), (_data, json) => stream.send('marker', json));
    stream.onClose(() => {
      unsubscribe();
      open.delete(stream);
    });
    return reply;
  });
}
