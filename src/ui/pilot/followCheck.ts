import type { TFunction } from 'i18next';
import { checkPairing, pilotRateLimit, type PilotRateLimit } from '../../api/pilot';
import { ApiError, isAbort } from '../../api/client';
import { formatPairingCode } from '../../domain/pilot';
import { timeUntil } from './timeAgo';

/**
 * What "Follow a code" learnt by asking the server about a typed code (GET /api/be/pilot/{code})
 * before it opens the map: the code is live; no live position has it (404: unknown, ended or
 * expired, the server cannot tell them apart); this address is refused for a while (429, the
 * guessing rule); or the server could not answer (offline: status 0, or a 5xx and the like).
 * After a 429 or an unanswered check the map may still be opened (openAnyway): it keeps trying
 * by itself (docs/DECISIONS.md "Checking a typed code before following it", "A refused check
 * may still open the map").
 */
export type FollowCheck =
  | { kind: 'live' }
  | { kind: 'unknown' }
  | { kind: 'limited'; limited: PilotRateLimit }
  | { kind: 'unchecked'; status: number };

/** Asks the server about `code` (canonical); an abort (the code was edited meanwhile) is rethrown. */
export async function checkFollowCode(code: string, signal?: AbortSignal): Promise<FollowCheck> {
  try {
    return (await checkPairing(code, { signal })) === null ? { kind: 'unknown' } : { kind: 'live' };
  } catch (error) {
    if (isAbort(error)) throw error;
    return followCheckOfError(error);
  }
}

/** A failed check in words' terms: a 429 (which rule, how long), else a check that could not be made. */
export function followCheckOfError(error: unknown): FollowCheck {
  const limited = pilotRateLimit(error);
  if (limited) return { kind: 'limited', limited };
  return { kind: 'unchecked', status: error instanceof ApiError ? error.status : 0 };
}

/**
 * Whether the map may be opened for the code although the check did not say it is live: not
 * for a code the server does not know, but after a 429 (the code may well be right; the map's
 * stream is refused by the same rule, and the map page waits out the server's Retry-After and
 * connects by itself, so opening it now only saves coming back) or a check that could not be
 * made (the map keeps reconnecting).
 */
export function openAnyway(check: FollowCheck): boolean {
  return check.kind === 'limited' || check.kind === 'unchecked';
}

/**
 * What the page says by the field after a check, or null when the code is live. `now` and
 * `language` word a 429's wait ("in 6 minutes").
 */
export function followCheckText(t: TFunction, check: FollowCheck, code: string, now = Date.now(), language = 'en'): string | null {
  switch (check.kind) {
    case 'live':
      return null;
    case 'unknown':
      return t('pilot.follow.unknown', { code: formatPairingCode(code) });
    case 'limited': {
      const { limit, retryAfterS } = check.limited;
      const wait = retryAfterS === null ? t('pilot.error.waitUnknown') : timeUntil(now + retryAfterS * 1000, now, language);
      const why = limit === 'guesses' ? t('pilot.error.tooManyGuesses', { wait }) : t('pilot.follow.limited', { wait });
      return `${why} ${t('pilot.follow.limitedHint')}`;
    }
    case 'unchecked': {
      const why = check.status === 0 ? t('pilot.follow.offline') : t('pilot.follow.failed', { status: check.status });
      return `${why} ${t('pilot.follow.goHint')}`;
    }
  }
}
