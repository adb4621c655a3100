import type { TFunction } from 'i18next';
import type { PilotPublisherState } from '../../state/pilot';
import { timeUntil } from './timeAgo';

/** The publisher's last failure, as state/pilot keeps it. */
export type PilotFailure = Pick<PilotPublisherState, 'error' | 'errorStatus' | 'errorLimit' | 'errorMessage' | 'errorMap'>;

/**
 * The publisher's last failure (state/pilot: `error` code, `errorStatus` and, for a 429,
 * `errorLimit`) in words: a 429 says which rule refused and how long the server asked to wait
 * (too many unknown codes or wrong keys from this address; too many sessions started from it;
 * too many updates), a position far off the map (`outside_map`: which map), any other refused
 * message (400) with the server's reason, a refused key (401/403), a session that ended, the
 * server out of reach, or any other answer with its status. `now` and `language` word the wait
 * ("in 6 minutes").
 */
export function pilotErrorText(t: TFunction, failure: PilotFailure, now = Date.now(), language = 'en'): string | null {
  const { error, errorStatus: status, errorLimit: limited } = failure;
  if (error === null) return null;
  if (error === 'gone') return t('pilot.error.gone');
  if (status === 429 || error === 'rate_limited') return rateLimitText(t, limited, now, language);
  if (error === 'outside_map') return failure.errorMap ? t('pilot.error.outsideMap', { map: t(`maps.${failure.errorMap}`) }) : t('pilot.error.outsideMaps');
  if (status === 400 && failure.errorMessage) return t('pilot.error.refused', { message: failure.errorMessage });
  if (status === 401 || status === 403) return t('pilot.error.forbidden');
  if (status === 0 || error === 'network') return t('pilot.error.network');
  return t('pilot.error.other', { status: status ?? '?', code: error });
}

function rateLimitText(t: TFunction, limited: PilotPublisherState['errorLimit'], now: number, language: string): string {
  const wait = limited?.retryAt != null ? timeUntil(limited.retryAt, now, language) : t('pilot.error.waitUnknown');
  if (limited?.limit === 'guesses') return t('pilot.error.tooManyGuesses', { wait });
  if (limited?.limit === 'pairings') return t('pilot.error.tooManyPairings', { wait });
  if (limited?.retryAt != null) return t('pilot.error.rateLimitedWait', { wait });
  return t('pilot.error.rateLimited');
}
