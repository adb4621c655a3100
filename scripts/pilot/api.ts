/**
 * The raidmap server's pilot API as the watcher uses it. Each call answers what happened in
 * words the caller acts on (sent, retry later, refused, not allowed, gone) instead of throwing,
 * so back-off and re-pairing live in one place (publisher.ts, pairing.ts).
 *
 *   POST /api/be/pilot/pairings                → 201 { code, token, expiresAt }
 *   GET  /api/be/pilot/{code}                  → 200 { code, expiresAt, watchers } | 404
 *   POST /api/be/pilot/{code}/messages  Bearer → 200 { ok, watchers } | { type: 'pong', watchers }
 *                                                400 bad message, 401/403 bad token, 404 gone, 429
 */
import { z } from 'zod';
import { normalizePairingCode, type PilotMessage } from '../../src/domain/pilot';
import { parseRetryAfter } from '../../src/domain/pilot-watcher';

export interface Pairing {
  code: string;
  token: string;
  expiresAt: string;
}

/** What became of a request. */
export type ApiResult<T> =
  | { kind: 'ok'; value: T }
  /** Worth retrying: the server is down, restarting, overloaded or rate-limiting. */
  | { kind: 'retry'; reason: string; retryAfterMs: number | null }
  /** The server read the request and refused it (400, or an answer the watcher cannot read). */
  | { kind: 'refused'; reason: string }
  /** The token is not (or no longer) allowed to publish: 401/403. */
  | { kind: 'unauthorized'; status: number }
  /** The pairing is unknown or expired: 404. */
  | { kind: 'gone' };

/** A request that has not answered after this long is counted as the server being unreachable. */
export const REQUEST_TIMEOUT_MS = 10_000;

const pairingSchema = z.object({
  code: z.string().refine((code) => normalizePairingCode(code) !== null, 'not a pairing code'),
  token: z.string().min(1),
  expiresAt: z.string(),
});
const pairingInfoSchema = z.object({ code: z.string(), expiresAt: z.string(), watchers: z.number().int().min(0) });
const messageAnswerSchema = z.object({ watchers: z.number().int().min(0), knowsMap: z.boolean() }).partial();

/** What the server says after a message: pages watching, and whether it holds a map for the code (null: it did not say). */
export interface SendAnswer {
  watchers: number | null;
  knowsMap: boolean | null;
}
/** The server's error answer: `error` the HTTP reason, `message` (when given) what was wrong. */
const errorSchema = z.object({ error: z.string(), message: z.string().optional() });

export interface PilotApiOptions {
  /** Server origin (and prefix) without a trailing slash. */
  server: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export class PilotApi {
  readonly server: string;
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;

  constructor(options: PilotApiOptions) {
    this.server = options.server;
    this.fetchImpl = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  }

  createPairing(signal?: AbortSignal): Promise<ApiResult<Pairing>> {
    return this.request('/api/be/pilot/pairings', { method: 'POST', body: '{}' }, signal, (status, body) => {
      if (status !== 201 && status !== 200) return null;
      const parsed = pairingSchema.safeParse(body);
      return parsed.success ? { ...parsed.data, code: normalizePairingCode(parsed.data.code) as string } : null;
    });
  }

  getPairing(code: string, signal?: AbortSignal): Promise<ApiResult<{ expiresAt: string; watchers: number }>> {
    return this.request(`/api/be/pilot/${encodeURIComponent(code)}`, { method: 'GET' }, signal, (status, body) => {
      if (status !== 200) return null;
      const parsed = pairingInfoSchema.safeParse(body);
      return parsed.success ? { expiresAt: parsed.data.expiresAt, watchers: parsed.data.watchers } : null;
    });
  }

  /** Publishes one message; the value is what the server says back (pages watching, whether it knows the map). */
  send(pairing: Pick<Pairing, 'code' | 'token'>, message: PilotMessage, signal?: AbortSignal): Promise<ApiResult<SendAnswer>> {
    const init = { method: 'POST', body: JSON.stringify(message), headers: { authorization: `Bearer ${pairing.token}` } };
    return this.request(`/api/be/pilot/${encodeURIComponent(pairing.code)}/messages`, init, signal, (status, body): SendAnswer | null => {
      if (status !== 200) return null;
      const parsed = messageAnswerSchema.safeParse(body);
      return { watchers: parsed.success ? (parsed.data.watchers ?? null) : null, knowsMap: parsed.success ? (parsed.data.knowsMap ?? null) : null };
    });
  }

  private async request<T>(
    route: string,
    init: { method: string; body?: string; headers?: Record<string, string> },
    signal: AbortSignal | undefined,
    read: (status: number, body: unknown) => T | null,
  ): Promise<ApiResult<T>> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    let response: Response;
    let body: unknown = null;
    try {
      response = await this.fetchImpl(`${this.server}${route}`, {
        method: init.method,
        body: init.body,
        headers: { accept: 'application/json', ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      const text = await response.text();
      try {
        body = text === '' ? null : JSON.parse(text);
      } catch {
        body = null;
      }
    } catch (error) {
      if (signal?.aborted) throw error;
      return { kind: 'retry', reason: timeout.aborted ? 'server not answering' : 'server unreachable', retryAfterMs: null };
    }
    const { status } = response;
    if (status === 401 || status === 403) return { kind: 'unauthorized', status };
    if (status === 404) return { kind: 'gone' };
    if (status === 429 || status === 408 || status >= 500) {
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
      return { kind: 'retry', reason: status === 429 ? 'rate-limited' : `server answered ${status}`, retryAfterMs };
    }
    const value = read(status, body);
    if (value !== null) return { kind: 'ok', value };
    const error = errorSchema.safeParse(body);
    return { kind: 'refused', reason: error.success ? `${status} ${error.data.message ?? error.data.error}` : `unexpected answer ${status}` };
  }
}
