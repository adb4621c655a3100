/**
 * The live position feed's API (issue 10, src/domain/pilot.ts): create a pairing, check a code,
 * publish a message with the pairing's token, unpair, and follow a code's events over
 * server-sent events.
 *
 *   POST   /api/be/pilot/pairings          → 201 { code, token, expiresAt }
 *   GET    /api/be/pilot/{code}            → { code, expiresAt, watchers } | 404 gone
 *   GET    /api/be/pilot/{code}/events     → SSE `pilot` events (the last map and position first)
 *   POST   /api/be/pilot/{code}/messages   Bearer token, a PilotMessage
 *   DELETE /api/be/pilot/{code}            Bearer token → 204
 */
import { parsePilotEvent, type PilotEvent, type PilotMessage } from '../domain/pilot';
import { ApiError, apiUrl, getJson, request, sendJson } from './client';
import { openReconnectingStream } from './eventStream';

/** A new pairing: the code to watch, the token to publish with, when it expires unused. */
export interface Pairing {
  code: string;
  token: string;
  expiresAt: number | string;
}

/** What anyone may read of a pairing: how many pages watch it. */
export interface PairingInfo {
  code: string;
  expiresAt: number | string;
  watchers: number;
  /** False when the server holds no map for the code (it restarted): the publisher sends its map again. */
  knowsMap?: boolean;
}

/** What the server answers a published message with (a ping: `{ type: 'pong', watchers }`). */
export interface PublishAnswer {
  watchers?: number;
  /** False when the server holds no map for the code (it restarted): the publisher sends its map again. */
  knowsMap?: boolean;
  [key: string]: unknown;
}

/**
 * 'connected' / 'reconnecting' / 'off' as any stream; 'gone' when the server no longer knows
 * the code (it expired, was unpaired or never existed): nothing is retried then; 'limited' when
 * the server refused this address for a while (429): stopped, the caller tries again later.
 */
export type PilotFeedState = 'connected' | 'reconnecting' | 'off' | 'gone' | 'limited';
/** Why the server ended a pairing (its `end` event's `{ reason }`): the player ended it, or it expired. */
export type PilotEndReason = 'deleted' | 'expired';

/** A 429 of the pilot routes: which rule (`guesses`, `pairings`; null: another's) and the seconds to wait (null: not said). */
export interface PilotRateLimit {
  limit: 'guesses' | 'pairings' | null;
  retryAfterS: number | null;
}

/** What a 429 said (the server repeats its Retry-After in the body as `retryAfter`), or null for any other error. */
export function pilotRateLimit(error: unknown): PilotRateLimit | null {
  if (!(error instanceof ApiError) || error.status !== 429) return null;
  const body = (error.body ?? {}) as { limit?: unknown; retryAfter?: unknown };
  const limit = body.limit === 'guesses' || body.limit === 'pairings' ? body.limit : null;
  const seconds = typeof body.retryAfter === 'number' && Number.isFinite(body.retryAfter) && body.retryAfter > 0 ? Math.ceil(body.retryAfter) : null;
  return { limit, retryAfterS: seconds };
}

const pairingPath = (code: string) => `/api/be/pilot/${encodeURIComponent(code)}`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export function createPairing(): Promise<Pairing> {
  return sendJson<Pairing>('/api/be/pilot/pairings', 'POST', {});
}

/** The pairing's public state, or null when the code is unknown or expired (404). */
export async function checkPairing(code: string, init?: RequestInit): Promise<PairingInfo | null> {
  try {
    return await getJson<PairingInfo>(pairingPath(code), init);
  } catch (error) {
    // 404: unknown or expired; 400: not a code at all. Neither will ever answer.
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return null;
    throw error;
  }
}

/** Publishes one message to the pages that watch `code`; throws ApiError (401, 403, 404, 429…). */
export function publishPilot(code: string, token: string, message: PilotMessage): Promise<PublishAnswer> {
  return sendJson<PublishAnswer>(`${pairingPath(code)}/messages`, 'POST', message, { headers: bearer(token) });
}

/** Ends a pairing (204); an already gone one (404) counts as ended. */
export async function unpair(code: string, token: string): Promise<void> {
  try {
    await request(pairingPath(code), {
      method: 'DELETE',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: '{}',
    });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return;
    throw error;
  }
}

export interface SubscribePilotOptions {
  /** Back-off of the reopened stream (tests). */
  minDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * Follows the events of `code` until the returned function is called. When the browser gives
 * up on the stream (an error answer), the code is checked: a 404 reports 'gone' and stops (so
 * does the server's `end` event, sent when the pairing is unpaired or expires); a 429 reports
 * 'limited' with the seconds the server asked to wait, and stops (the caller reopens after
 * them); otherwise a new stream is opened, backing off (eventStream.ts). A message that is not
 * a PilotEvent is ignored with a console warning.
 */
export function subscribePilot(
  code: string,
  onEvent: (event: PilotEvent) => void,
  onState?: (state: PilotFeedState, limited?: PilotRateLimit, endReason?: PilotEndReason) => void,
  options: SubscribePilotOptions = {},
): () => void {
  let gone = false;
  /** Why the server's `end` event ended the pairing (`{ reason }`), when it said. */
  let endReason: PilotEndReason | undefined;
  let limited: PilotRateLimit | null = null;
  const onPilot = (message: MessageEvent) => {
    let data: unknown;
    try {
      data = JSON.parse(String(message.data));
    } catch {
      console.warn('pilot: ignoring an event that is not JSON', message.data);
      return;
    }
    const event = parsePilotEvent(data);
    if (!event) {
      console.warn('pilot: ignoring an event of an unknown shape', data);
      return;
    }
    onEvent(event);
  };
  // The server ends the stream with `end` when the pairing is unpaired or expires: gone at once,
  // without reconnecting to hear a 404.
  let stop = () => {};
  const onEnd = (message: MessageEvent) => {
    gone = true;
    try {
      const reason = (JSON.parse(String(message.data)) as { reason?: unknown }).reason;
      if (reason === 'deleted' || reason === 'expired') endReason = reason;
    } catch {
      // An end without a readable reason is still an end.
    }
    stop();
  };
  stop = openReconnectingStream(apiUrl(`${pairingPath(code)}/events`), {
    ...options,
    events: { pilot: onPilot, end: onEnd },
    onState: (state) => {
      if (state === 'off' && gone) onState?.('gone', undefined, endReason);
      else if (state === 'off' && limited) onState?.('limited', limited);
      else onState?.(state);
    },
    shouldReopen: async () => {
      try {
        gone = (await checkPairing(code)) === null;
      } catch (error) {
        limited = pilotRateLimit(error);
        // Refused for a while: asking again before then only gets 429 again.
        if (limited) return false;
        // Offline, 5xx: the stream is reopened later.
        throw error;
      }
      return !gone;
    },
  });
  return stop;
}
