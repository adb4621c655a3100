/**
 * Accounts on the server: the session cookie, the current user on each request, CSRF rules
 * for state-changing API calls, and the requireUser / requireAdmin guards.
 *
 * Sessions: a random 32-byte token in an HTTP-only, SameSite=Lax cookie (Secure over https or
 * when NODE_ENV=production); the database keeps only its sha256. 30-day expiry, renewed as the
 * session is used; expired sessions are rejected and purged.
 */
import { createHash, randomBytes } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SIGNED_IN_COOKIE } from '../../src/domain/account';
import type { Repositories, User } from '../db';
import { sendError } from '../http/errors';
import { routedPath } from '../http/url-path';
import { authLimitsFromEnv, RateLimiter, type AuthLimits } from './rate-limit';

export const SESSION_COOKIE = 'raidmap_session';
export const SESSION_TTL_MS = 30 * 24 * 60 * 60_000;
/** A session is renewed (expiry pushed out, cookie re-sent) at most this often. */
const RENEW_AFTER_MS = 60 * 60_000;

export interface AuthOptions {
  /** Clock for sessions and rate limits (tests). Default Date.now. */
  now?: () => number;
  /**
   * Sign-in and sign-up limits (server/auth/rate-limit.ts). Default: from the environment
   * (RATE_LIMIT_* and LOGIN_DELAY_*, docs/SERVER.md); what is given here replaces those.
   */
  limits?: Partial<AuthLimits>;
  /** How a slowed-down answer waits (tests). Default: a timer. */
  sleep?: (ms: number) => Promise<void>;
}

export interface AuthContext {
  now: () => number;
  /** Counters in the database, shared by every server process on it. */
  limiter: RateLimiter;
  limits: AuthLimits;
  sleep: (ms: number) => Promise<void>;
  repos: Repositories;
}

declare module 'fastify' {
  interface FastifyInstance {
    auth: AuthContext;
  }
  interface FastifyRequest {
    /** The signed-in user, set by requireUser / loadUser. */
    user: User | null;
    /** sha256 of the session token, when signed in. */
    sessionId: string | null;
  }
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function isSecure(request: FastifyRequest): boolean {
  return request.protocol === 'https' || process.env.NODE_ENV === 'production';
}

function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: number): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isSecure(request),
    expires: new Date(expiresAt),
  });
  // The page's hint that someone may be signed in (src/domain/account.ts): no secret in it.
  reply.setCookie(SIGNED_IN_COOKIE, '1', { path: '/', httpOnly: false, sameSite: 'lax', secure: isSecure(request), expires: new Date(expiresAt) });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: isSecure(request) });
  reply.clearCookie(SIGNED_IN_COOKIE, { path: '/', httpOnly: false, sameSite: 'lax', secure: isSecure(request) });
}

/** Creates a server-side session for `user` and sets its cookie. */
export async function startSession(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, user: User): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  const now = app.auth.now();
  const expiresAt = now + SESSION_TTL_MS;
  const id = hashToken(token);
  // Sign-ins are rare: a good moment to drop sessions that expired unseen.
  await app.auth.repos.sessions.purgeExpired(new Date(now).toISOString());
  await app.auth.repos.sessions.create({
    id,
    userId: user.id,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(expiresAt).toISOString(),
    lastSeenAt: new Date(now).toISOString(),
  });
  request.user = user;
  request.sessionId = id;
  setSessionCookie(request, reply, token, expiresAt);
}

/** Reads the session cookie and sets request.user (null when signed out or expired). */
export async function loadUser(request: FastifyRequest, reply: FastifyReply): Promise<User | null> {
  const app = request.server;
  const token = request.cookies[SESSION_COOKIE];
  request.user = null;
  request.sessionId = null;
  if (!token || token.length > 200) {
    // A hint left without its session (the session cookie was removed): drop it too.
    if (request.cookies[SIGNED_IN_COOKIE] !== undefined) clearSessionCookie(request, reply);
    return null;
  }
  const id = hashToken(token);
  const { sessions, users } = app.auth.repos;
  const session = await sessions.get(id);
  const now = app.auth.now();
  if (!session) {
    clearSessionCookie(request, reply);
    return null;
  }
  if (Date.parse(session.expiresAt) <= now) {
    await sessions.purgeExpired(new Date(now).toISOString());
    await sessions.remove(id);
    clearSessionCookie(request, reply);
    return null;
  }
  const user = await users.getById(session.userId);
  if (!user) {
    await sessions.remove(id);
    clearSessionCookie(request, reply);
    return null;
  }
  if (now - Date.parse(session.lastSeenAt) >= RENEW_AFTER_MS) {
    const expiresAt = now + SESSION_TTL_MS;
    await sessions.touch(id, new Date(now).toISOString(), new Date(expiresAt).toISOString());
    setSessionCookie(request, reply, token, expiresAt);
  }
  request.user = user;
  request.sessionId = id;
  return user;
}

/** Route hook (onRequest, before the body is read): 401 without a valid session. */
export async function requireUser(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const user = await loadUser(request, reply);
  if (!user) {
    await sendError(reply, 401, 'sign in first');
  }
}

/** Route hook (onRequest, before the body is read): 401 without a valid session, 403 for a signed-in user who is not an admin. */
export async function requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const user = await loadUser(request, reply);
  if (!user) {
    await sendError(reply, 401, 'sign in first');
  } else if (!user.admin) {
    await sendError(reply, 403, 'this call is for admins only');
  }
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function hostOf(value: string, protocol: string): string | null {
  try {
    return new URL(value.includes('://') ? value : `${protocol}://${value}`).host.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * CSRF rules for state-changing calls under /api/be (the decoded path, as routed): a body must be JSON (forms cannot send
 * that cross-site without a preflight), and an Origin header, when present, must be this
 * server's own host. Answers 415 / 403 otherwise.
 */
export async function csrfGuard(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  // The path the router matches (decoded): `/%61pi/be/…` runs an API route and is guarded as one.
  if (!STATE_CHANGING.has(request.method) || !routedPath(request.url).startsWith('/api/be/')) return;
  const origin = request.headers.origin;
  if (origin !== undefined) {
    const own = hostOf(request.host, request.protocol);
    const from = origin === 'null' ? null : hostOf(origin, request.protocol);
    if (!own || from !== own) {
      await sendError(reply, 403, 'cross-origin request refused: state-changing calls are accepted only from this site');
      return;
    }
  }
  const type = request.headers['content-type'];
  const length = request.headers['content-length'];
  const hasBody = type !== undefined || (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
  if (!hasBody) return;
  const mime = (type ?? '').split(';')[0].trim().toLowerCase();
  if (mime !== 'application/json') {
    await sendError(reply, 415, 'state-changing calls accept only JSON bodies (Content-Type: application/json)');
  }
}

/** Registers the cookie parser, the CSRF hook and the auth context on the root instance. */
export function registerAuth(app: FastifyInstance, repos: Repositories, options: AuthOptions = {}): void {
  const now = options.now ?? Date.now;
  const limits = { ...authLimitsFromEnv(process.env), ...options.limits };
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  app.register(fastifyCookie);
  app.decorate('auth', { now, limiter: new RateLimiter(repos.rateLimits, now), limits, sleep, repos });
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  app.addHook('onRequest', csrfGuard);
}
