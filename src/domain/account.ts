/**
 * Account facts shared by the server and the page.
 *
 * `SIGNED_IN_COOKIE` is a hint, not a credential: the server sets it (readable by scripts,
 * value `1`) next to the HTTP-only session cookie and clears it with the session, so the page
 * asks GET /api/be/user only when someone may be signed in — a visitor's page makes no account
 * request at all (and logs no 401). The session cookie alone decides who is signed in.
 */
export const SIGNED_IN_COOKIE = 'raidmap_signed_in';

/** True when `cookieHeader` (document.cookie) holds the signed-in hint. */
export function hasSignedInHint(cookieHeader: string): boolean {
  return cookieHeader.split(';').some((part) => part.trim() === `${SIGNED_IN_COOKIE}=1`);
}
