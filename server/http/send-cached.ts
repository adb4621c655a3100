/**
 * Sends a cached body (JSON unless told otherwise) with its strong ETag: 304 when If-None-Match names it, otherwise
 * the pre-compressed variant the client accepts (routes using it set `compress: false`).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagFor, matchesIfNoneMatch, negotiateEncoding, type JsonCache, type CachedBody } from './json-cache';

export interface SendCachedOptions {
  cacheControl?: string;
  /** The body's type (default JSON). */
  contentType?: string;
}

export async function sendCached(
  request: FastifyRequest,
  reply: FastifyReply,
  cache: JsonCache,
  body: CachedBody,
  options: SendCachedOptions = {},
): Promise<FastifyReply> {
  const encoding = negotiateEncoding(request.headers['accept-encoding']);
  reply
    .header('vary', 'Accept-Encoding')
    .header('etag', etagFor(body.hash, encoding))
    .header('cache-control', options.cacheControl ?? 'no-cache');
  if (matchesIfNoneMatch(request.headers['if-none-match'], body.hash)) {
    return reply.code(304).send();
  }
  const payload = await cache.encoded(body, encoding);
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.header('content-type', options.contentType ?? 'application/json; charset=utf-8').send(payload);
}
