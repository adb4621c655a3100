/**
 * Request ids and the access log (docs/SERVER.md "Logs and metrics").
 *
 * Every request gets an id: the `X-Request-Id` a reverse proxy (or a client) sent when it is
 * sane (1 to 64 of `A-Z a-z 0-9 . _ : -`), otherwise a new UUID. The id is in every log line
 * of the request (`reqId`, Fastify's child logger) and in the answer's `X-Request-Id` header,
 * so a user's report, the proxy's log and the server's log can be matched up.
 *
 * The access log is Fastify's own request logging, through its LogController extension point,
 * trimmed to one JSON line per answered request at level info (instead of two): method, url,
 * route pattern, status, milliseconds, client address. A live stream's line comes when it ends.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';
const SANE_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** The id to use for a request (pure but for the random fallback). */
export function requestIdFor(incoming: string | string[] | undefined): string {
  const given = Array.isArray(incoming) ? undefined : incoming?.trim();
  return given !== undefined && SANE_ID.test(given) ? given : randomUUID();
}

/** The access-log line's fields (pure over the request and reply). */
export function accessLogFields(request: FastifyRequest, reply: FastifyReply): Record<string, unknown> {
  return {
    method: request.method,
    url: request.url,
    route: request.routeOptions.url,
    status: reply.statusCode,
    ms: Math.round(reply.elapsedTime * 10) / 10,
    ip: request.ip,
  };
}

/** Fastify's request logging, one line per request instead of two. */
export class AccessLog extends LogController {
  override incomingRequest(): void {
    // The one line comes when the answer is done (requestCompleted).
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    // At the default level (warn) the line is never written: do not build it.
    const log = reply.log as { isLevelEnabled?: (level: string) => boolean };
    if (!error && log.isLevelEnabled && !log.isLevelEnabled('info')) return;
    if (error) reply.log.error({ ...accessLogFields(request, reply), err: error }, 'request errored');
    else reply.log.info(accessLogFields(request, reply), 'request');
  }
}

/** Fastify constructor options for ids and logging. */
export function requestLogServerOptions(): Pick<FastifyServerOptions, 'genReqId' | 'requestIdHeader' | 'logController'> {
  return {
    // false: Fastify would take the header as it is; genReqId checks it first.
    requestIdHeader: false,
    genReqId: (req: IncomingMessage) => requestIdFor(req.headers[REQUEST_ID_HEADER]),
    logController: new AccessLog({ requestIdLogLabel: 'reqId' }),
  };
}

/** The X-Request-Id answer header (a hook on the root instance). */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    // On the raw response: hijacked answers (the live streams) get it too.
    reply.raw.setHeader(REQUEST_ID_HEADER, request.id);
  });
}
