/**
 * The signed-in roles of the server tests' permission matrices: one account each for visitor,
 * pro and admin (password `password1`), signed in through the real login route; `anonymous`
 * has no cookie.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { SESSION_COOKIE } from '../auth';
import { hashPassword } from '../auth/password';
import type { Repositories } from '../db';

export type SignedInRole = 'visitor' | 'pro' | 'admin';
export type RoleCookies = Record<'anonymous' | SignedInRole, string>;

const ACCOUNTS = [
  { role: 'visitor', name: 'visitor1', pro: false, admin: false },
  { role: 'pro', name: 'pro1', pro: true, admin: false },
  { role: 'admin', name: 'admin1', pro: false, admin: true },
] as const;

/** The session cookie (`name=value`) a response sets; throws when it sets none. */
export function sessionCookieOf(res: LightMyRequestResponse): string {
  const raw = res.headers['set-cookie'];
  const line = (Array.isArray(raw) ? raw : raw ? [raw] : []).find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (!line) throw new Error(`no session cookie set (status ${res.statusCode}: ${res.body})`);
  return line.split(';')[0];
}

/** Creates the three accounts and signs each in on `app`; the cookie per role. */
export async function signInRoles(app: FastifyInstance, repos: Repositories): Promise<RoleCookies> {
  const passwordHash = await hashPassword('password1');
  const cookies: RoleCookies = { anonymous: '', visitor: '', pro: '', admin: '' };
  for (const { role, name, pro, admin } of ACCOUNTS) {
    await repos.users.create({ name, passwordHash, pro, admin });
    const res = await app.inject({
      method: 'POST',
      url: '/api/be/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name, password: 'password1' }),
    });
    cookies[role] = sessionCookieOf(res);
  }
  return cookies;
}
