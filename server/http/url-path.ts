/**
 * The path of a request as the router sees it, for every "is this an API path" decision (the
 * CSRF guard, the SPA fallback, the per-prefix headers). The router (find-my-way) decodes
 * percent-escapes before matching, so `/%61pi/be/auth/logout` runs the `/api/be/auth/logout`
 * route: a check of the raw `request.url` would treat it as a page and skip the API's rules.
 * Like the router, reserved characters (`%2F`, `%3F`, `%23`…) stay encoded (decodeURI).
 *
 * An over-long path is answered 414 before any route: no route or file has a path near the
 * bound, and the static roots would otherwise answer the file system's "name too long" as 403.
 */
import type { FastifyInstance } from 'fastify';
import { sendError } from './errors';

/** Characters of a request's path (before `?`, as sent) above which it answers 414. */
export const MAX_PATH_LENGTH = 2048;

/** The path part of a request URL, as sent (no query, no fragment). */
export function rawPath(url: string): string {
  return url.split(/[?#]/, 1)[0];
}

/**
 * The path the router matches: the path part of `url` with percent-escapes decoded, reserved
 * characters left encoded. A malformed escape (which the router refuses with 400) leaves the
 * path as sent.
 */
export function routedPath(url: string): string {
  const path = rawPath(url);
  if (!path.includes('%')) return path;
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

/** Whether `urlPath` is `prefix` or lies under it (`prefix` without its trailing slash). */
export function underPrefix(urlPath: string, prefix: string): boolean {
  const bare = prefix.replace(/\/+$/, '');
  return urlPath === bare || urlPath.startsWith(`${bare}/`);
}

/** The 414's message for a path longer than MAX_PATH_LENGTH, or undefined. */
export function pathLengthProblem(url: string): string | undefined {
  const length = rawPath(url).length;
  return length > MAX_PATH_LENGTH ? `the path is ${length} characters long: at most ${MAX_PATH_LENGTH} are accepted` : undefined;
}

/** First on every request: 414 `{ error, message }` for a path longer than MAX_PATH_LENGTH. */
export function registerPathLimit(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    const problem = pathLengthProblem(request.url);
    if (problem) return sendError(reply, 414, problem);
    return undefined;
  });
}
