/**
 * Account facts shared by the server and the page.
 *
 * `SIGNED_IN_COOKIE` is a hint, not a credential: the server sets it (readable by scripts,
 * value `1`) next to the HTTP-only session cookie and clears it with the session, so the page
 * asks GET /api/be/user only when someone may be signed in — a visitor's page makes no account
 * request at all (and logs no 401). The session cookie alone decides who is signed in.
 *
 * The sign-up rules are the server's (server/routes/auth.ts builds its schema from them) and
 * the sign-up form's, which says what is wrong before anything is sent.
 *
 * A new password must also be hard to guess: not containing the account's name, and scoring
 * at least PASSWORD_MIN_SCORE with zxcvbn (`@zxcvbn-ts`: common passwords, English words and
 * names, keyboard patterns, dates, repeats, l33t, with the account's name as a user input).
 * The rule is `checkNewPassword`, a pure function of the password, the name and an estimator;
 * the estimator (./password-strength, ~1.5 MB of word lists) is built only by the server, so
 * the page never loads it: the form checks the quick rules and shows the server's reasons.
 */
export const SIGNED_IN_COOKIE = 'raidmap_signed_in';

/** True when `cookieHeader` (document.cookie) holds the signed-in hint. */
export function hasSignedInHint(cookieHeader: string): boolean {
  return cookieHeader.split(';').some((part) => part.trim() === `${SIGNED_IN_COOKIE}=1`);
}

export const NAME_LENGTH = { min: 3, max: 32 } as const;
export const PASSWORD_LENGTH = { min: 8, max: 200 } as const;
export const NAME_CHARACTERS = /^[A-Za-z0-9_-]+$/;

export type NameProblem = 'empty' | 'length' | 'characters';
/** `name`: contains the account name; `guessable`: zxcvbn scores it below PASSWORD_MIN_SCORE. */
export type PasswordProblem = 'empty' | 'length' | 'name' | 'guessable';

/**
 * zxcvbn's scale: 0 and 1 are under a million guesses (common passwords, single words and
 * names, keyboard rows, dates, repeats, the account's name); 2 is over a million, which the
 * sign-in throttling and scrypt leave far out of an online attacker's reach, and which an
 * 8-character password of mixed characters reaches — the length rule's minimum stays usable.
 */
export const PASSWORD_MIN_SCORE = 2;
/** Words of this site a password should not lean on (zxcvbn user inputs, besides the name). */
export const SITE_WORDS: readonly string[] = ['raidmap'];

/** zxcvbn's verdict on one password: its score and its feedback keys (`topTen`, `userInputs`…). */
export interface PasswordStrength {
  score: number;
  /** zxcvbn's warning key, or null. */
  warning: string | null;
  /** zxcvbn's suggestion keys. */
  suggestions: string[];
  /** The warning and suggestions in English (the server's message). */
  text: string;
}

export type PasswordEstimator = (password: string, userInputs: readonly string[]) => PasswordStrength;

/** What is wrong with a new password, with zxcvbn's reasons when it is guessable. */
export interface PasswordVerdict {
  problem: PasswordProblem;
  /** For `guessable`: zxcvbn's verdict. */
  strength?: PasswordStrength;
}

/** What is wrong with an account name for sign-up, or null when the server will accept it. */
export function nameProblem(name: string): NameProblem | null {
  if (name === '') return 'empty';
  if (!NAME_CHARACTERS.test(name)) return 'characters';
  if (name.length < NAME_LENGTH.min || name.length > NAME_LENGTH.max) return 'length';
  return null;
}

/**
 * The quick rules for a new password (length, not containing the account's name), or null
 * when they pass. `checkNewPassword` adds the strength check.
 */
export function passwordProblem(password: string, name = ''): PasswordProblem | null {
  if (password === '') return 'empty';
  if (password.length < PASSWORD_LENGTH.min || password.length > PASSWORD_LENGTH.max) return 'length';
  if (name.length >= NAME_LENGTH.min && password.toLowerCase().includes(name.toLowerCase())) return 'name';
  return null;
}

/** Every rule for a new password of the account `name`, or null when the server will accept it. */
export function checkNewPassword(password: string, name: string, estimate: PasswordEstimator): PasswordVerdict | null {
  const problem = passwordProblem(password, name);
  if (problem) return { problem };
  const strength = estimate(password, name === '' ? SITE_WORDS : [name, ...SITE_WORDS]);
  return strength.score < PASSWORD_MIN_SCORE ? { problem: 'guessable', strength } : null;
}

/** The server's sentence for a refused new password. */
export function passwordVerdictText(verdict: PasswordVerdict): string {
  switch (verdict.problem) {
    case 'empty':
    case 'length':
      return `password must be ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters`;
    case 'name':
      return 'password must not contain the account name';
    case 'guessable':
      return `password is too easy to guess${verdict.strength?.text ? `: ${verdict.strength.text}` : ''}`;
  }
}
