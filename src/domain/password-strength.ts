/**
 * The zxcvbn password estimator (`@zxcvbn-ts/core` with the common and English dictionaries).
 * Heavy — about 1.5 MB of word lists, tens of MB of memory and ~0.1 s to build — so only the
 * server builds it (once per process, on the first sign-up: server/auth/password-policy.ts);
 * the page never imports this module. The rule itself is `checkNewPassword` in ./account.
 *
 * Only the first CHECKED_LENGTH characters are judged: zxcvbn's time grows steeply with the
 * length (a 200-character password can take seconds), and a password that is strong in its
 * first 32 characters is strong. Few l33t substitutions are tried for the same reason.
 */
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as englishDictionary, translations } from '@zxcvbn-ts/language-en';
import type { PasswordEstimator } from './account';

export const CHECKED_LENGTH = 32;

const warnings: Record<string, string> = translations.warnings;
const suggestions: Record<string, string> = translations.suggestions;

/** zxcvbn's feedback keys in one English sentence or two. */
export function feedbackText(warning: string | null, suggestionKeys: readonly string[]): string {
  const parts = [warning ? warnings[warning] : undefined, ...suggestionKeys.map((key) => suggestions[key])].filter((part): part is string => !!part);
  return parts.length > 0 ? parts.join(' ') : (suggestions.anotherWord ?? '');
}

export function createPasswordEstimator(): PasswordEstimator {
  // No `translations` option: feedback comes back as keys (the page translates them);
  // `text` is the English sentence for the server's message.
  const zxcvbn = new ZxcvbnFactory({
    dictionary: { ...commonDictionary, ...englishDictionary },
    graphs: adjacencyGraphs,
    maxLength: CHECKED_LENGTH,
    l33tMaxSubstitutions: 4,
  });
  return (password, userInputs) => {
    const result = zxcvbn.check(password, [...userInputs]);
    const { warning, suggestions: keys } = result.feedback;
    return { score: result.score, warning, suggestions: keys, text: feedbackText(warning, keys) };
  };
}
