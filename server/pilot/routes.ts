/**
 * The live position feed's routes (issue 10, docs/PILOT.md "Server"): pairings, their public
 * state, the watchers' server-sent-events stream and the publisher's messages.
 *
 *   POST   /api/be/pilot/pairings          → 201 { code, token, expiresAt }         (429: `pairings`)
 *   GET    /api/be/pilot/{code}            → 200 { code, expiresAt, watchers } | 404
 *   GET    /api/be/pilot/{code}/events     → SSE `pilot` events, the last map and position first;
 *                                            `end` { reason } when the pairing ends      | 404
 *   POST   /api/be/pilot/{code}/messages   Bearer token, a PilotMessage → 200 { ok, watchers }
 *                                            or { type: 'pong', watchers }; 400/401/403/404;
 *                                            400 `outside_map` { map } for a position far off
 *                                            the last map (or every map before one)
 *   DELETE /api/be/pilot/{code}            Bearer token → 204; 401/403/404
 *
 * No account is involved: anonymous callers and signed-in visitors, pro users and admins get
 * the same answers; the code lets anyone watch, the token (given once, at pairing) lets its
 * holder publish and unpair. Only sha256(token) is stored, and no position is ever written to
 * the database: events cross the live hub (server/live/hub.ts, shared between processes on
 * PostgreSQL) on one channel that every process follows, so each process remembers every code's
 * last map and position in memory (PilotState), whichever process received them, to check
 * positions against the map and to replay them to a watcher that connects.
 *
 * Failed guesses (unknown or expired codes, missing or wrong tokens) count per client address
 * (`guesses` rule), each different code (or code and token) once per window: a page that keeps
 * asking for one ended code is not guessing. An address past the rule gets 429 before anything
 * is looked up, so it learns nothing more, except a publisher whose token is right for its code
 * (it proves it is not guessing). `watchers` counts the open streams of every process: each
 * says its own counts on the hub (on each change and every WATCHERS_EVERY_MS), the others keep
 * them for WATCHERS_TTL_MS.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  PAIRING_TTL_MS,
  generatePairingCode,
  normalizePairingCode,
  pairingCodeProblem,
  pilotMessageProblem,
  pilotMessageSchema,
  positionOutsideMapProblem,
  type PilotEvent,
} from '../../src/domain/pilot';
import { RateLimiter, addressKey, secondsUntil } from '../auth/rate-limit';
import type { Db, RateLimitRepository } from '../db';
import { PilotPairingRepository, type PilotPairing } from '../db/pilot-pairings';
import { errorBody, sendError, sendErrorCode } from '../http/errors';
import type { LiveHub } from '../live/hub';
import { EVENT_STREAM_HEADERS, LIVE_PING_MS, openEventStream, type EventStream } from '../live/stream';
import { DEFAULT_PILOT_LIMITS, type PilotLimits } from './limits';
import { PilotState, type PilotEndMessage, type PilotEndReason } from './state';

/** The body of a message: a PilotMessage is a few dozen bytes; anything near this is not one. */
export const PILOT_BODY_LIMIT = 16 * 1024;
/** `last_used_at` is written at most this often per code and process. */
export const MARK_EVERY_MS = 60_000;
/** How often expired pairings are deleted (and once when the app is ready). */
export const PILOT_SWEEP_MS = 10 * 60_000;
/** How often a process says its watcher counts on the hub (besides on each change). */
export const WATCHERS_EVERY_MS = 30_000;
/** How long another process's count holds without being said again (it may have stopped). */
export const WATCHERS_TTL_MS = 3 * WATCHERS_EVERY_MS;
/** The hub channel of every pairing's events, ends and watcher counts (every process follows it). */
export const PILOT_CHANNEL = 'pilot';
/** Codes tried before giving up on a new pairing (a collision is ~1 in 10^14 per try). */
const CREATE_TRIES = 5;

export interface PilotRoutesOptions {
  db: Db;
  hub: LiveHub;
  /** Rate-limit counters (the `rate_limits` table, shared by every process on the database). */
  rateLimits: RateLimitRepository;
  /** Default: DEFAULT_PILOT_LIMITS (buildServer passes the environment's, RATE_LIMIT_PILOT_*). */
  limits?: PilotLimits;
  /** Clock (tests expire a pairing without waiting). Default Date.now. */
  now?: () => number;
  /** Ping interval of the event streams. Default 25 s. */
  pingMs?: number;
  /** Sweep interval for expired pairings; 0: only the sweep at start. Default 10 min. */
  sweepEveryMs?: number;
  /** How often this process says its watcher counts; 0: only on changes. Default WATCHERS_EVERY_MS. */
  watchersEveryMs?: number;
}

/**
 * What crosses the hub on PILOT_CHANNEL: a code's event or end, one process's watcher counts
 * (`o`: its id, `watchers`: code → its open streams, 0 when it has none any more), or a
 * process asking the others for theirs (it started, or it may have missed some).
 */
export type PilotHubMessage =
  | { code: string; event: PilotEvent }
  | { code: string; end: PilotEndReason }
  | { o: string; watchers: Record<string, number> }
  | { o: string; ask: true };

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/** The token of `Authorization: Bearer <token>`, or null. */
function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer[ \t]+([^\s]{1,512})[ \t]*$/i.exec(header);
  return match ? match[1] : null;
}

function isPilotEvent(data: unknown): data is PilotEvent {
  const type = data && typeof data === 'object' ? (data as { type?: unknown }).type : undefined;
  return type === 'position' || type === 'map';
}

function isCounts(data: unknown): data is Record<string, number> {
  return !!data && typeof data === 'object' && !Array.isArray(data) && Object.values(data).every((n) => Number.isInteger(n) && (n as number) >= 0);
}

export async function pilotRoutes(app: FastifyInstance, options: PilotRoutesOptions): Promise<void> {
  const { hub, limits = DEFAULT_PILOT_LIMITS, now = Date.now, pingMs = LIVE_PING_MS, sweepEveryMs = PILOT_SWEEP_MS, watchersEveryMs = WATCHERS_EVERY_MS } = options;
  const pairings = new PilotPairingRepository(options.db);
  const limiter = new RateLimiter(options.rateLimits, now);
  const state = new PilotState();
  /** This process among the others, in its watcher counts. */
  const origin = randomUUID();
  let sweepTimer: NodeJS.Timeout | undefined;
  let watchersTimer: NodeJS.Timeout | undefined;
  let closing = false;

  const guessKey = (request: FastifyRequest) => `pilot:guess ${addressKey(request.ip)}`;
  /**
   * One row per different failure of an address in the window (hashed: no token is stored).
   * At most `guesses.max` + 1 per address: past the rule nothing is looked up any more.
   */
  const triedKey = (request: FastifyRequest, tried: string) => `pilot:tried ${addressKey(request.ip)} ${sha256(tried).slice(0, 32)}`;

  /** A 429 with `retry-after`; the body names the rule (`limit`) and repeats the wait (`retryAfter`, seconds) for the page. */
  const tooMany = (reply: FastifyReply, seconds: number, limit: 'guesses' | 'pairings', what: string) => {
    const message = `${what}; try again in ${Math.ceil(seconds / 60)} minute(s)`;
    return reply.code(429).header('cache-control', 'no-store').header('retry-after', String(seconds)).send({ ...errorBody(429, message), limit, retryAfter: seconds });
  };
  const tooManyGuesses = (reply: FastifyReply, seconds: number) =>
    tooMany(reply, seconds, 'guesses', 'too many unknown pairing codes or wrong tokens from your address');

  /** Seconds to wait when the address is already past the guesses rule, else 0 (one read). */
  const guessesBlocked = async (request: FastifyRequest): Promise<number> => {
    if (!limits.guesses) return 0;
    const t = now();
    const counter = await options.rateLimits.get(guessKey(request), t);
    return counter && counter.count >= limits.guesses.max ? secondsUntil(counter.resetAt, t) : 0;
  };

  /** True the first time in the window that this address fails with `tried` (a code, or a code and token). */
  const firstFailure = async (request: FastifyRequest, tried: string): Promise<boolean> => {
    if (!limits.guesses) return false;
    const seen = await limiter.take(triedKey(request, tried), { max: 1, windowMs: limits.guesses.windowMs });
    return seen.count === 1;
  };

  /**
   * Answers a failed guess (404, 401, 403). Counted against the address only when `tried` is
   * new in the window; 429 when this one went past the rule.
   */
  const failedGuess = async (request: FastifyRequest, reply: FastifyReply, status: number, message: string, tried: string) => {
    if (await firstFailure(request, tried)) {
      const taken = await limiter.take(guessKey(request), limits.guesses);
      if (taken.retryAfter > 0) return tooManyGuesses(reply, taken.retryAfter);
    }
    if (status === 401) reply.header('www-authenticate', 'Bearer');
    return sendError(reply, status, message);
  };

  const gone = (request: FastifyRequest, reply: FastifyReply, code: string) =>
    failedGuess(request, reply, 404, `no pairing ${code}: the code is unknown, was unpaired, or expired after ${PAIRING_TTL_MS / 3_600_000} h unused`, code);

  /** Says this process's watcher counts of `codes` (each one's, 0 for none) to the other processes. */
  const sayWatchers = (codes: string[]) => {
    if (!hub.shared || codes.length === 0 || closing) return;
    const message: PilotHubMessage = { o: origin, watchers: Object.fromEntries(codes.map((code) => [code, state.streamCount(code)])) };
    hub.publish(PILOT_CHANNEL, message);
  };

  /** Asks the other processes for their counts (they answer with sayWatchers). */
  const askWatchers = () => {
    if (hub.shared && !closing) hub.publish(PILOT_CHANNEL, { o: origin, ask: true } satisfies PilotHubMessage);
  };

  /** Ends the pairing's streams on this process (after an `end` event) and forgets the code. */
  const endLocally = (code: string, reason: PilotEndReason) => {
    const json = JSON.stringify({ reason } satisfies Omit<PilotEndMessage, 'type'>);
    if (state.end(code, (stream) => stream.send('end', json)) > 0) sayWatchers([code]);
  };

  /** Ends the pairing everywhere: this process at once, the others through the hub. */
  const endEverywhere = (code: string, reason: PilotEndReason) => {
    // Delivered to this process's own subscription too (which ends the local streams).
    hub.publish(PILOT_CHANNEL, { code, end: reason } satisfies PilotHubMessage);
    endLocally(code, reason);
  };

  /**
   * The live pairing of `code`, or null when it is unknown or expired (an expired row is
   * deleted on the way, if no other process has just used it).
   */
  const alivePairing = async (code: string): Promise<PilotPairing | null> => {
    const pairing = await pairings.get(code);
    if (!pairing) return null;
    const t = now();
    if (pairing.lastUsedAt + PAIRING_TTL_MS <= t) {
      if (await pairings.removeExpired(code, t - PAIRING_TTL_MS)) endEverywhere(code, 'expired');
      return null;
    }
    return pairing;
  };

  /**
   * Marks a use of the pairing (at most once a minute per process); returns when it expires
   * now, or null when it turned out gone (unpaired or expired meanwhile).
   */
  const use = async (pairing: PilotPairing): Promise<number | null> => {
    const t = now();
    const last = state.lastMarked(pairing.code);
    if (last !== undefined && t >= last && t - last < MARK_EVERY_MS) return Math.max(pairing.lastUsedAt, last) + PAIRING_TTL_MS;
    if (!(await pairings.touch(pairing.code, t, t - PAIRING_TTL_MS))) return null;
    state.marked(pairing.code, t);
    return t + PAIRING_TTL_MS;
  };

  /** Open streams of the code on every process: this one's, and what the others last said. */
  const watchers = (code: string) => state.streamCount(code) + state.remoteCount(code, now());

  /** The code of the path, or a 400 answer. */
  const codeOf = (request: FastifyRequest, reply: FastifyReply): string | null => {
    const raw = (request.params as { code?: string }).code ?? '';
    const code = normalizePairingCode(raw);
    if (code === null) {
      void sendError(reply, 400, `"${raw.slice(0, 64)}" is not a pairing code: it ${pairingCodeProblem(raw) ?? 'is malformed'}`);
    }
    return code;
  };

  /**
   * The shared start of the publisher's routes: a well-formed code, a Bearer token, a live
   * pairing and its token. An address past the guesses rule is refused unless its token is the
   * pairing's: a right token proves it is not guessing, so a publisher behind the same router as
   * a page stuck on an old code keeps publishing. Null when it answered.
   */
  const authorize = async (request: FastifyRequest, reply: FastifyReply): Promise<PilotPairing | null> => {
    const code = codeOf(request, reply);
    if (code === null) return null;
    const token = bearerToken(request);
    const [wait, pairing] = await Promise.all([guessesBlocked(request), token === null ? Promise.resolve(null) : alivePairing(code)]);
    if (token !== null && pairing && sameHash(sha256(token), pairing.tokenHash)) return pairing;
    if (wait > 0) {
      await tooManyGuesses(reply, wait);
      return null;
    }
    if (token === null) {
      await failedGuess(request, reply, 401, 'send the pairing token as "Authorization: Bearer <token>"', `${code} without a token`);
      return null;
    }
    if (!pairing) {
      await gone(request, reply, code);
      return null;
    }
    await failedGuess(request, reply, 403, 'wrong token for this pairing', `${code} token ${token}`);
    return null;
  };

  /**
   * On a shared hub this process follows every code, watched here or not (this process's
   * publishes come back to it at once): it remembers each code's last map and position, so it
   * checks a position against the map another process received and replays the latest to a
   * watcher that connects here; it feeds its streams, ends them, and keeps the other processes'
   * counts. A process alone (an in-process hub) hears only itself: it follows while it has
   * streams to feed, and remembers what it publishes as it publishes it.
   */
  let unsubscribe: (() => void) | undefined;
  const follow = () => {
    unsubscribe ??= hub.subscribe(PILOT_CHANNEL, onHubMessage);
  };
  const unfollowIfIdle = () => {
    if (hub.shared || state.streamCount() > 0) return;
    unsubscribe?.();
    unsubscribe = undefined;
  };
  const onHubMessage = (data: unknown) => {
    if (!data || typeof data !== 'object') return;
    const message = data as Partial<Record<'code' | 'o', unknown>> & { event?: unknown; end?: unknown; watchers?: unknown };
    if (typeof message.o === 'string') {
      if (message.o === origin) return;
      if (isCounts(message.watchers)) state.setRemoteCounts(message.o, message.watchers, now() + WATCHERS_TTL_MS);
      else if ((message as { ask?: unknown }).ask === true) sayWatchers(state.watchedCodes());
      return;
    }
    if (typeof message.code !== 'string') return;
    const code = message.code;
    if (message.end !== undefined) {
      endLocally(code, message.end === 'expired' ? 'expired' : 'deleted');
      return;
    }
    if (!isPilotEvent(message.event)) return;
    // Serialised once for every stream of the code.
    const json = JSON.stringify(message.event);
    state.remember(code, message.event, json, now());
    for (const stream of state.streamsOf(code)) stream.send('pilot', json);
  };
  if (hub.shared) follow();

  /**
   * Deletes expired pairings (ending their streams everywhere), after marking the codes this
   * process's streams watch as used: a watched pairing stays alive.
   */
  const sweep = async () => {
    const t = now();
    for (const code of state.watchedCodes()) {
      if (!(await pairings.touch(code, t, t - PAIRING_TTL_MS))) endLocally(code, 'expired');
      else state.marked(code, t);
    }
    for (const code of await pairings.purgeExpired(t - PAIRING_TTL_MS)) endEverywhere(code, 'expired');
    state.prune(t - PAIRING_TTL_MS);
    state.pruneRemote(t);
  };
  const sweepLogged = () =>
    sweep().catch((error: unknown) => {
      if (!closing) app.log.error({ err: error }, 'pilot: sweeping expired pairings failed');
    });

  /**
   * After a gap in the hub, events and ends from other processes may be lost: forget every
   * code's last events (a watcher gets no replay, and `knowsMap` false makes the publishers send
   * their map again, rather than something stale being replayed), say this process's counts
   * again, and re-check the watched codes.
   */
  const stopGaps = hub.onGap(() => {
    state.forgetEvents();
    sayWatchers(state.watchedCodes());
    askWatchers();
    void (async () => {
      for (const code of state.watchedCodes()) if (!(await alivePairing(code))) endLocally(code, 'deleted');
    })().catch((error: unknown) => app.log.error({ err: error }, 'pilot: re-checking watched codes failed'));
  });

  app.addHook('onReady', async () => {
    void sweepLogged();
    // A process that starts counts the others' watchers at once, not at their next heartbeat.
    askWatchers();
    if (sweepEveryMs > 0) {
      sweepTimer = setInterval(() => void sweepLogged(), sweepEveryMs);
      sweepTimer.unref();
    }
    // Said again while they last: the others drop a count not said for WATCHERS_TTL_MS.
    if (watchersEveryMs > 0) {
      watchersTimer = setInterval(() => sayWatchers(state.watchedCodes()), watchersEveryMs);
      watchersTimer.unref();
    }
  });
  app.addHook('preClose', async () => {
    // This process's streams end: the others stop counting them now, not when they expire.
    const watched = state.watchedCodes();
    if (hub.shared && watched.length > 0) hub.publish(PILOT_CHANNEL, { o: origin, watchers: Object.fromEntries(watched.map((code) => [code, 0])) } satisfies PilotHubMessage);
    closing = true;
    clearInterval(sweepTimer);
    clearInterval(watchersTimer);
    stopGaps();
    unsubscribe?.();
    unsubscribe = undefined;
    state.closeAll();
  });

  // Anyone may pair: no account, a small JSON object (its fields are ignored) or no body.
  app.post('/api/be/pilot/pairings', { bodyLimit: 1024 }, async (request, reply) => {
    const body = request.body;
    if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
      return sendError(reply, 400, 'the request body must be a JSON object ({}) or empty');
    }
    const taken = await limiter.take(`pilot:pair ${addressKey(request.ip)}`, limits.pairings);
    if (taken.retryAfter > 0) return tooMany(reply, taken.retryAfter, 'pairings', 'too many pairings from your address');
    const token = randomBytes(32).toString('base64url');
    const tokenHash = sha256(token);
    for (let i = 0; i < CREATE_TRIES; i++) {
      const code = generatePairingCode((count) => randomBytes(count));
      const t = now();
      if (!(await pairings.create(code, tokenHash, t))) continue;
      state.marked(code, t);
      return reply.code(201).header('cache-control', 'no-store').send({ code, token, expiresAt: new Date(t + PAIRING_TTL_MS).toISOString() });
    }
    return sendError(reply, 503, 'could not find a free pairing code; try again');
  });

  app.get('/api/be/pilot/:code', async (request, reply) => {
    const code = codeOf(request, reply);
    if (code === null) return reply;
    const [wait, pairing] = await Promise.all([guessesBlocked(request), alivePairing(code)]);
    if (wait > 0) return tooManyGuesses(reply, wait);
    const expiresAt = pairing ? await use(pairing) : null;
    if (expiresAt === null) return gone(request, reply, code);
    return reply.header('cache-control', 'no-store').send({ code, expiresAt: new Date(expiresAt).toISOString(), watchers: watchers(code), knowsMap: state.knowsMap(code) });
  });

  app.get('/api/be/pilot/:code/events', { compress: false }, async (request, reply) => {
    const code = codeOf(request, reply);
    if (code === null) return reply;
    const [wait, pairing] = await Promise.all([guessesBlocked(request), alivePairing(code)]);
    if (wait > 0) return tooManyGuesses(reply, wait);
    if (!pairing) return gone(request, reply, code);
    if (request.method === 'HEAD') return reply.code(200).headers(EVENT_STREAM_HEADERS).send();
    if ((await use(pairing)) === null || closing) return gone(request, reply, code);

    const stream: EventStream = openEventStream(request, reply, { pingMs, logContext: { pilot: code } });
    follow();
    state.addStream(code, stream);
    sayWatchers([code]);
    stream.onClose(() => {
      state.removeStream(code, stream);
      sayWatchers([code]);
      unfollowIfIdle();
    });
    for (const json of state.replay(code)) stream.send('pilot', json);
    return reply;
  });

  app.post('/api/be/pilot/:code/messages', { bodyLimit: PILOT_BODY_LIMIT }, async (request, reply) => {
    // In arrival order: publishes of one code go out in the order they came in.
    const raw = (request.params as { code?: string }).code ?? '';
    const ticket = state.ticket(normalizePairingCode(raw) ?? raw);
    try {
      const pairing = await authorize(request, reply);
      if (!pairing) return reply;
      const parsed = pilotMessageSchema.safeParse(request.body);
      if (!parsed.success) return sendError(reply, 400, `bad message: ${pilotMessageProblem(request.body) ?? 'not a pilot message'}`);
      if ((await use(pairing)) === null) return gone(request, reply, pairing.code);
      const message = parsed.data;
      // `knowsMap` false: this process has no map for the code (it restarted): the publisher sends its map again.
      if (message.type === 'ping') return reply.header('cache-control', 'no-store').send({ type: 'pong', watchers: watchers(pairing.code), knowsMap: state.knowsMap(pairing.code) });
      await ticket.turn;
      // After the turn: checked against the map of every publish before it.
      const map = state.lastMap(pairing.code);
      const outside = message.type === 'position' ? positionOutsideMapProblem(message.data, map) : null;
      // `map` (null: none known, so off every map) lets the page say it in its own language.
      if (outside !== null) return sendErrorCode(reply, 400, 'outside_map', `bad message: data: ${outside}`, { map });
      const event = { type: message.type, data: message.data, at: now() } as PilotEvent;
      // Remembered here, whether or not this process follows the hub now (its subscription,
      // when it has one, remembers it again: the same event changes nothing).
      state.remember(pairing.code, event, JSON.stringify(event), now());
      hub.publish(PILOT_CHANNEL, { code: pairing.code, event } satisfies PilotHubMessage);
      return reply.header('cache-control', 'no-store').send({ ok: true, watchers: watchers(pairing.code), knowsMap: state.knowsMap(pairing.code) });
    } finally {
      ticket.done();
    }
  });

  app.delete('/api/be/pilot/:code', { bodyLimit: 1024 }, async (request, reply) => {
    const pairing = await authorize(request, reply);
    if (!pairing) return reply;
    if (!(await pairings.remove(pairing.code))) return gone(request, reply, pairing.code);
    endEverywhere(pairing.code, 'deleted');
    return reply.code(204).header('cache-control', 'no-store').send();
  });
}
