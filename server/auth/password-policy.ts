/**
 * The password strength rule on the server: `checkNewPassword` (src/domain/account.ts) with
 * the zxcvbn estimator (src/domain/password-strength.ts), built once per process on first use
 * — its word lists cost ~0.1 s and tens of MB, which a server that never sees a sign-up need
 * not pay. Used by sign-up (server/routes/auth.ts) and `npm run user -- add`.
 */
import { checkNewPassword, type PasswordEstimator, type PasswordVerdict } from '../../src/domain/account';

let estimator: Promise<PasswordEstimator> | undefined;

/** The zxcvbn estimator, loaded and built once. */
export function loadPasswordEstimator(): Promise<PasswordEstimator> {
  estimator ??= import('../../src/domain/password-strength').then((module) => module.createPasswordEstimator());
  // A failed load may be tried again by the next call.
  estimator.catch(() => {
    estimator = undefined;
  });
  return estimator;
}

/** Every rule for a new password of the account `name`: null when it may be used. */
export async function newPasswordVerdict(password: string, name: string): Promise<PasswordVerdict | null> {
  return checkNewPassword(password, name, await loadPasswordEstimator());
}
