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
export type PasswordProblem = 'empty' | 'length';

/** What is wrong with an account name for sign-up, or null when the server will accept it. */
export function nameProblem(name: string): NameProblem | null {
  if (name === '') return 'empty';
  if (!NAME_CHARACTERS.test(name)) return 'characters';
  if (name.length < NAME_LENGTH.min || name.length > NAME_LENGTH.max) return 'length';
  return null;
}

/** What is wrong with a new password, or null when the server will accept it. */
export function passwordProblem(password: string): PasswordProblem | null {
  if (password === '') return 'empty';
  if (password.length < PASSWORD_LENGTH.min || password.length > PASSWORD_LENGTH.max) return 'length';
  return null;
}
