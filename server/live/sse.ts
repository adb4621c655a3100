/**
 * GET /api/be/live/markers?map={map}: a public server-sent-events stream of one map's marker
 * changes (docs/EDITOR.md "Server", docs/SERVER.md "Versions, history and live updates").
 *
 *   retry: 2000                      once, first: the browser's reconnect delay
 *   event: marker                    per committed add / update / delete / upload
 *   data: <MarkerChange JSON>
 *   : ping                           every 25 s, so proxies and browsers keep the line open
 *
 * The reply is hijacked and written to the socket directly: no compression (an encoder would
 * buffer the events), no content length. Streams end when the client goes, when one falls far
 * behind, when the app closes (preClose, or `fastify.close()` would wait for them forever), and
 * when the hub reports a gap (changes made on another server process may have been missed):
 * the browser reconnects after `retry` and reloads the list (src/api/live.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import { MAP_IDS, isMapId } from '../../src/domain/maps';
import { sendError } from '../http/errors';
import { firstIssue } from '../routes/query';
import { markersChannel, type LiveHub } from './hub';

export const LIVE_RETRY_MS = 2000;
export const LIVE_PING_MS = 25_000;
/** A client this far behind (bytes queued in the socket) is dropped; its EventSource reconnects. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

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

/** One SSE message: an event name and its data (single-line JSON). */
export function sseEvent(event: string, json: string): string {
  return `event: ${event}\ndata: ${json}\n\n`;
}

export async function liveRoutes(app: FastifyInstance, { hub, pingMs = LIVE_PING_MS }: LiveRoutesOptions): Promise<void> {
  /** Ends every open stream: the close function of each. */
  const open = new Set<() => void>();

  const closeAll = () => {
    for (const close of [...open]) close();
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
    const headers = {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      // nginx and similar proxies: pass each event on at once.
      'x-accel-buffering': 'no',
    };
    if (request.method === 'HEAD') return reply.code(200).headers(headers).send();

    reply.hijack();
    const res: ServerResponse = reply.raw;
    let closed = false;
    let unsubscribe = () => {};
    const ping = setInterval(() => write(': ping\n\n'), pingMs);
    ping.unref();
    const close = () => {
      if (closed) return;
      closed = true;
      clearInterval(ping);
      unsubscribe();
      open.delete(close);
      if (!res.writableEnded) res.end();
    };
    const write = (text: string) => {
      if (closed) return;
      if (res.writableLength > MAX_BUFFERED_BYTES) {
        request.log.warn({ map }, 'live client too far behind: closing its stream');
        close();
        return;
      }
      res.write(text);
    };

    open.add(close);
    res.on('close', close);
    res.on('error', close);
    res.writeHead(200, { ...headers, connection: 'keep-alive' });
    res.write(`retry: ${LIVE_RETRY_MS}\n\n`);
    unsubscribe = hub.subscribe(markersChannel(map), (_data, json) => write(sseEvent('marker', json)));
    return reply;
  });
}
