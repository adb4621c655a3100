/**
 * The account rules the server enforces on sign-up (server/routes/auth.ts `credentialsSchema`),
 * checked here first so the sign-up form can say what is wrong before anything is sent.
 * Pure: no DOM, no i18n; the form turns a problem into text.
 */
export const NAME_LENGTH = { min: 3, max: 32 } as const;
export const PASSWORD_LENGTH = { min: 8, max: 200 } as const;
const NAME_CHARACTERS = /^[A-Za-z0-9_-]+$/;

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
