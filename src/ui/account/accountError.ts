/**
 * The sentence an account dialog shows when the server refused (or could not be reached).
 * Known refusals are translated — a weak new password with zxcvbn's reasons, from the keys the
 * server sends beside its English message; a sign-up rule the server states in English is the
 * form's own sentence for it; anything else is said by its kind (ui/requestFailure.ts), never in
 * the server's or the browser's English.
 */
import type { TFunction } from 'i18next';
import { ApiError } from '../../api/client';
import { failureReason } from '../requestFailure';

export type AccountForm = 'signIn' | 'signUp';

/** The field a refusal is about (its alert goes once the user changes it), or null (none: it stays until the next try). */
export type AccountErrorField = 'name' | 'password' | 'both' | null;

/** The sign-up rules as the server words them (server/routes/auth.ts `credentialsSchema`, `passwordVerdictText`). */
const SERVER_RULES: { words: RegExp; key: string; field: 'name' | 'password' }[] = [
  { words: /^name must be \d+ to \d+ characters/, key: 'account.dialog.nameLength', field: 'name' },
  { words: /^name may use only/, key: 'account.dialog.nameCharacters', field: 'name' },
  { words: /^password must be \d+ to \d+ characters/, key: 'account.dialog.passwordLength', field: 'password' },
  { words: /^password must not contain/, key: 'account.dialog.passwordName', field: 'password' },
];

function serverRule(error: ApiError): (typeof SERVER_RULES)[number] | undefined {
  return error.status === 400 ? SERVER_RULES.find((rule) => rule.words.test(error.message)) : undefined;
}

/** Which field the refusal is about: changing it makes the refusal out of date. */
export function accountErrorField(error: unknown, form: AccountForm): AccountErrorField {
  if (!(error instanceof ApiError)) return null;
  if (form === 'signIn' && error.status === 401) return 'both';
  if (form === 'signUp' && error.status === 409) return 'name';
  if (form === 'signUp' && error.code === 'weak_password') return 'password';
  if (form === 'signUp') return serverRule(error)?.field ?? null;
  return null;
}

/** Minutes to wait, as the server's 429 message states them ("try again in 5 minute(s)"), or null. */
export function minutesToWait(message: string): number | null {
  const match = /in (\d+) minute/.exec(message);
  return match ? Number(match[1]) : null;
}

/** zxcvbn's feedback keys (server/routes/auth.ts `weak_password`) and their phrases. */
const WARNINGS: Record<string, string> = {
  straightRow: 'account.passwordAdvice.warnings.straightRow',
  keyPattern: 'account.passwordAdvice.warnings.keyPattern',
  simpleRepeat: 'account.passwordAdvice.warnings.simpleRepeat',
  extendedRepeat: 'account.passwordAdvice.warnings.extendedRepeat',
  sequences: 'account.passwordAdvice.warnings.sequences',
  recentYears: 'account.passwordAdvice.warnings.recentYears',
  dates: 'account.passwordAdvice.warnings.dates',
  topTen: 'account.passwordAdvice.warnings.topTen',
  topHundred: 'account.passwordAdvice.warnings.topHundred',
  common: 'account.passwordAdvice.warnings.common',
  similarToCommon: 'account.passwordAdvice.warnings.similarToCommon',
  wordByItself: 'account.passwordAdvice.warnings.wordByItself',
  namesByThemselves: 'account.passwordAdvice.warnings.namesByThemselves',
  commonNames: 'account.passwordAdvice.warnings.commonNames',
  userInputs: 'account.passwordAdvice.warnings.userInputs',
  pwned: 'account.passwordAdvice.warnings.pwned',
};
const SUGGESTIONS: Record<string, string> = {
  l33t: 'account.passwordAdvice.suggestions.l33t',
  reverseWords: 'account.passwordAdvice.suggestions.reverseWords',
  allUppercase: 'account.passwordAdvice.suggestions.allUppercase',
  capitalization: 'account.passwordAdvice.suggestions.capitalization',
  dates: 'account.passwordAdvice.suggestions.dates',
  recentYears: 'account.passwordAdvice.suggestions.recentYears',
  associatedYears: 'account.passwordAdvice.suggestions.associatedYears',
  sequences: 'account.passwordAdvice.suggestions.sequences',
  repeated: 'account.passwordAdvice.suggestions.repeated',
  longerKeyboardPattern: 'account.passwordAdvice.suggestions.longerKeyboardPattern',
  anotherWord: 'account.passwordAdvice.suggestions.anotherWord',
  useWords: 'account.passwordAdvice.suggestions.useWords',
  noNeed: 'account.passwordAdvice.suggestions.noNeed',
  pwned: 'account.passwordAdvice.suggestions.pwned',
};

/** Why the server refused a new password, in the page's language. */
function weakPasswordText(t: TFunction, body: unknown): string {
  const { problem, warning, suggestions } = (body ?? {}) as { problem?: unknown; warning?: unknown; suggestions?: unknown };
  if (problem === 'name') return t('account.dialog.passwordName');
  const keys = [typeof warning === 'string' && Object.hasOwn(WARNINGS, warning) ? WARNINGS[warning] : undefined];
  if (Array.isArray(suggestions)) for (const key of suggestions) keys.push(typeof key === 'string' && Object.hasOwn(SUGGESTIONS, key) ? SUGGESTIONS[key] : undefined);
  const reason = keys
    .filter((key): key is string => key !== undefined)
    .map((key) => t(key))
    .join(' ');
  return reason ? t('account.errors.weakPassword', { reason }) : t('account.errors.weakPasswordNoReason');
}

/** Not signed in / not created, and why, by the failure's kind. */
function failedText(t: TFunction, error: unknown, form: AccountForm): string {
  const reason = failureReason(t, error);
  return form === 'signUp' ? t('account.errors.signUpFailed', { reason }) : t('account.errors.signInFailed', { reason });
}

export function accountErrorText(t: TFunction, error: unknown, form: AccountForm, name: string): string {
  if (!(error instanceof ApiError)) return failedText(t, error, form);
  if (error.offline) return t('account.errors.offline');
  if (form === 'signIn' && error.status === 401) return t('account.errors.wrongCredentials');
  if (form === 'signUp' && error.status === 409) return t('account.errors.nameTaken', { name });
  if (form === 'signUp' && error.code === 'weak_password') return weakPasswordText(t, error.body);
  if (error.status === 429) {
    const minutes = minutesToWait(error.message);
    if (form === 'signUp') return minutes === null ? t('account.errors.tooManySignUpsLater') : t('account.errors.tooManySignUps', { count: minutes });
    return minutes === null ? t('account.errors.tooManyAttemptsLater') : t('account.errors.tooManyAttempts', { count: minutes });
  }
  const rule = form === 'signUp' ? serverRule(error) : undefined;
  if (rule) return t(rule.key);
  return failedText(t, error, form);
}

