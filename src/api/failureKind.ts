/**
 * What kind of failure a request met, so the page can say it in its own language instead of
 * the HTTP reason phrase ("Internal Server Error") or the browser's English ("Failed to fetch").
 * Pure: an `ApiError` gives its status; a bare message (where only the text was kept, as
 * `session.progressError` keeps it) is recognised by the words this client and this server use
 * for technical failures — anything else is the server's own explanation and answers null.
 * The sentences are the `failure` section (src/i18n/locales/{en,ru}/failure.json): `reason.<kind>`
 * says what happened and what to do, `cause.<kind>` only what happened.
 */
import { ApiError } from './client';

export type FailureKind =
  /** The server could not be reached (status 0, or the browser's fetch error). */
  | 'network'
  /** 5xx: the server (or a proxy in front of it) had a problem. */
  | 'server'
  /** 429. */
  | 'tooMany'
  /** 401: nobody is signed in any more. */
  | 'signedOut'
  /** 403. */
  | 'forbidden'
  /** 404 / 410. */
  | 'notFound'
  /** 409. */
  | 'conflict'
  /** 413. */
  | 'tooLarge'
  /** Any other 4xx: the request itself was refused. */
  | 'refused'
  /** A 2xx whose body could not be read (not JSON, cut off, missing fields). */
  | 'badAnswer'
  /** Anything else (a bug on the page). */
  | 'unknown';

export const FAILURE_KINDS: readonly FailureKind[] = ['network', 'server', 'tooMany', 'signedOut', 'forbidden', 'notFound', 'conflict', 'tooLarge', 'refused', 'badAnswer', 'unknown'];

/** The kind of an HTTP status (0: not reached). */
export function failureKindOfStatus(status: number): FailureKind {
  if (status === 0) return 'network';
  if (status >= 500 && status < 600) return 'server';
  if (status === 429) return 'tooMany';
  if (status === 401) return 'signedOut';
  if (status === 403) return 'forbidden';
  if (status === 404 || status === 410) return 'notFound';
  if (status === 409) return 'conflict';
  if (status === 413) return 'tooLarge';
  if (status >= 400 && status < 500) return 'refused';
  if (status >= 200 && status < 300) return 'badAnswer';
  return 'unknown';
}

/**
 * HTTP reason phrases (client.ts falls back to `response.statusText` when a proxy answers
 * without the server's JSON body; this server's own 500 says "internal server error").
 */
const REASON_PHRASES: Record<string, number> = {
  'bad request': 400,
  unauthorized: 401,
  forbidden: 403,
  'not found': 404,
  'method not allowed': 405,
  'request timeout': 408,
  conflict: 409,
  gone: 410,
  'payload too large': 413,
  'content too large': 413,
  'request entity too large': 413,
  'unsupported media type': 415,
  'too many requests': 429,
  'internal server error': 500,
  'not implemented': 501,
  'bad gateway': 502,
  'service unavailable': 503,
  'gateway timeout': 504,
};

/** The browsers' words for a fetch that never got an answer (Chromium, Firefox, Safari). */
const BROWSER_NETWORK = /^(failed to fetch|networkerror when attempting to fetch resource\.?|load failed|network error)$/i;

/**
 * The kind of a failure known only by its message, or null where the message is the server's
 * own explanation (which the caller may show as it is).
 */
export function failureKindOfText(message: string): FailureKind | null {
  const text = message.trim();
  // client.ts `request`: "Could not reach the server (Failed to fetch)".
  if (/^could not reach the server\b|^the upload timed out$/i.test(text) || BROWSER_NETWORK.test(text)) return 'network';
  const http = /^HTTP (\d{3})$/i.exec(text);
  if (http) return failureKindOfStatus(Number(http[1]));
  const phrase = text.toLowerCase().replace(/\.$/, '');
  if (Object.hasOwn(REASON_PHRASES, phrase)) return failureKindOfStatus(REASON_PHRASES[phrase]);
  // client.ts and api/account.ts: a 2xx answer that could not be read.
  if (/^the server sent a (response that is not valid JSON|user without)|^the response was cut off/i.test(text)) return 'badAnswer';
  // This server's refusals that any call may meet (server/auth/index.ts, server/routes/user.ts).
  if (/^sign in first$/i.test(text)) return 'signedOut';
  if (/^saving quest progress is a pro feature|^quest progress is not available to admin accounts|^this call is for admins only/i.test(text)) return 'forbidden';
  if (/^cross-origin request refused|^state-changing calls accept only JSON/i.test(text)) return 'refused';
  return null;
}

/**
 * The kind of any failure: an `ApiError` by its status (exact), an Error or a string by its
 * words, `unknown` when nothing is recognised.
 */
export function failureKind(failure: unknown): FailureKind {
  if (failure instanceof ApiError) {
    if (failure.offline) return 'network';
    return failureKindOfStatus(failure.status);
  }
  if (failure instanceof Error) return failureKindOfText(failure.message) ?? 'unknown';
  if (typeof failure === 'string') return failureKindOfText(failure) ?? 'unknown';
  return 'unknown';
}
