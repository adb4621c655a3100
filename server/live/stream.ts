/**
 * The writing half of every server-sent-events route (the editor's marker stream in sse.ts, the
 * live position feed in server/pilot/): open the stream on a hijacked reply, write events and
 * pings, drop a client that falls too far behind (its socket destroyed, not just ended), and
 * end it once, from either side.
 *
 *   retry: 2000                      once, first: the browser's reconnect delay
 *   event: <name>                    per message
 *   data: <JSON>
 *   : ping                           every 25 s, so proxies and browsers keep the line open
 *
 * The reply is hijacked and written to the socket directly: no compression (an encoder would
 * buffer the events), no content length. The socket's inactivity time-out is lifted (the
 * stream is silent between pings by design; the client's going away or the server ends it).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export const LIVE_RETRY_MS = 2000;
export const LIVE_PING_MS = 25_000;
/** A client this far behind (bytes queued in the socket) is dropped; its EventSource reconnects. */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/** The answer's headers (also for HEAD, which checks a stream's parameters without opening it). */
export const EVENT_STREAM_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  // nginx and similar proxies: pass each event on at once.
  'x-accel-buffering': 'no',
});

/** One SSE message: an event name and its data (single-line JSON). */
export function sseEvent(event: string, json: string): string {
  return `event: ${event}\ndata: ${json}\n\n`;
}

export interface EventStream {
  /** Writes one event (`json` must be single-line JSON text, as JSON.stringify makes it). */
  send(event: string, json: string): void;
  /** Ends the stream (idempotent); the `onClose` callbacks run once. */
  close(): void;
  /** Runs `listener` once when the stream ends, whoever ended it (runs at once when it has). */
  onClose(listener: () => void): void;
  readonly closed: boolean;
}

export interface OpenEventStreamOptions {
  pingMs?: number;
  /** What the log line names when the client is dropped for falling behind (`{ map }`, `{ code }`). */
  logContext?: Record<string, unknown>;
  maxBufferedBytes?: number;
}

/**
 * Hijacks the reply and opens the stream: status 200 with EVENT_STREAM_HEADERS, then `retry:`.
 * From here on the route owns the socket: call `close()` to end it.
 */
export function openEventStream(request: FastifyRequest, reply: FastifyReply, options: OpenEventStreamOptions = {}): EventStream {
  const { pingMs = LIVE_PING_MS, logContext = {}, maxBufferedBytes = MAX_BUFFERED_BYTES } = options;
  reply.hijack();
  const res: ServerResponse = reply.raw;
  let closed = false;
  const closeListeners: Array<() => void> = [];
  const ping = setInterval(() => write(': ping\n\n'), pingMs);
  ping.unref();

  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(ping);
    for (const listener of closeListeners.splice(0)) {
      try {
        listener();
      } catch (error) {
        request.log.error({ err: error }, 'live stream close listener failed');
      }
    }
    if (!res.writableEnded) res.end();
  };
  const write = (text: string) => {
    if (closed) return;
    if (res.writableLength > maxBufferedBytes) {
      request.log.warn(logContext, 'live client too far behind: closing its stream');
      close();
      // end() alone would leave the socket open until the queued megabytes drain (no time-out
      // on a stream's socket, and this client reads slowly or not at all): the connection,
      // its slot under the per-address cap and its memory would stay. Its EventSource reconnects.
      res.destroy();
      return;
    }
    res.write(text);
  };

  res.on('close', close);
  res.on('error', close);
  // Silent between pings by design: no inactivity time-out (`app.inject`'s mock socket has none).
  const socket = request.raw.socket as Partial<Socket> | undefined;
  if (typeof socket?.setTimeout === 'function') socket.setTimeout(0);
  res.writeHead(200, { ...EVENT_STREAM_HEADERS, connection: 'keep-alive' });
  res.write(`retry: ${LIVE_RETRY_MS}\n\n`);

  return {
    send: (event, json) => write(sseEvent(event, json)),
    close,
    onClose(listener) {
      if (closed) listener();
      else closeListeners.push(listener);
    },
    get closed() {
      return closed;
    },
  };
}
