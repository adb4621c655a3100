import type { TFunction } from 'i18next';

/**
 * The publisher's last failure (state/pilot: `error` code and `errorStatus`) in words: a rate
 * limit (429), a refused key (401/403), a session that ended, the server out of reach, or any
 * other answer with its status.
 */
export function pilotErrorText(t: TFunction, error: string | null, status: number | null): string | null {
  if (error === null) return null;
  if (error === 'gone') return t('pilot.error.gone');
  if (status === 429 || error === 'rate_limited') return t('pilot.error.rateLimited');
  if (status === 401 || status === 403) return t('pilot.error.forbidden');
  if (status === 0 || error === 'network') return t('pilot.error.network');
  return t('pilot.error.other', { status: status ?? '?', code: error });
}
