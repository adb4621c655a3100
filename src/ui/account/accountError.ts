/**
 * The sentence an account dialog shows when the server refused (or could not be reached).
 * Known refusals are translated; anything else shows the server's own message.
 */
import type { TFunction } from 'i18next';
import { ApiError } from '../../api/client';

export type AccountForm = 'signIn' | 'signUp';

/** Minutes to wait, as the server's 429 message states them ("try again in 5 minute(s)"), or null. */
export function minutesToWait(message: string): number | null {
  const match = /in (\d+) minute/.exec(message);
  return match ? Number(match[1]) : null;
}

export function accountErrorText(t: TFunction, error: unknown, form: AccountForm, name: string): string {
  if (!(error instanceof ApiError)) return t('account.errors.unexpected', { message: error instanceof Error ? error.message : String(error) });
  if (error.offline) return t('account.errors.offline');
  if (form === 'signIn' && error.status === 401) return t('account.errors.wrongCredentials');
  if (form === 'signUp' && error.status === 409) return t('account.errors.nameTaken', { name });
  if (error.status === 429) {
    const minutes = minutesToWait(error.message);
    return minutes === null ? t('account.errors.tooManyAttemptsLater') : t('account.errors.tooManyAttempts', { count: minutes });
  }
  return t('account.errors.refused', { message: error.message });
}

