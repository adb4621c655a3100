/**
 * POST /api/be/auth/register, /login, /logout (JSON bodies). Sign-up and sign-in set the
 * session cookie.
 *
 * Limits (server/auth/rate-limit.ts; counters in the database, shared by every server process
 * on it): a sign-in is refused (429) only to an address that has failed — five times for one
 * account (`loginPair`) or twenty times for any (`loginAddress`) — and an address that has
 * failed for an account waits longer before each further try; failures from everywhere never
 * refuse anyone, so nobody can lock an account's owner out. Sign-ups are limited per address
 * (tries and accounts) and for the whole site, each counted before the work it guards.
 * New passwords must pass the strength rule (src/domain/account.ts `checkNewPassword`).
 *
 * Both trim the name (spaces pasted around it are no part of any name), never the password. A
 * sign-in with a name or password longer than any account's is refused like a wrong one (401),
 * not with a 400 in English that the page would have to show.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { NAME_CHARACTERS, NAME_LENGTH, PASSWORD_LENGTH, passwordVerdictText, type PasswordVerdict } from '../../src/domain/account';
import { clearSessionCookie, loadUser, startSession } from '../auth';
import { dummyHash, hashPassword, verifyPassword } from '../auth/password';
import { newPasswordVerdict } from '../auth/password-policy';
import { addressKey, loginDelayMs } from '../auth/rate-limit';
import { UserNameTakenError, type User } from '../db';
import { sendError, sendErrorCode } from '../http/errors';

export const AUTH_BODY_LIMIT = 64 * 1024;

/** One clear sentence for the first problem of a JSON body. */
export function bodyIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid request body';
  if (issue.path.length === 0) return issue.code === 'invalid_type' ? 'the request body must be a JSON object' : issue.message;
  if (issue.message.startsWith(String(issue.path[0]))) return issue.message;
  return `${issue.path.join('.')}: ${issue.message}`;
}

const nameLength = `name must be ${NAME_LENGTH.min} to ${NAME_LENGTH.max} characters`;
const passwordLength = `password must be ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters`;

/**
 * Sign-up, the quick rules: the domain's name and length rules (src/domain/account.ts). The
 * password's content (the account's name in it, zxcvbn's score) is checked after this, by
 * `newPasswordVerdict`, and refused as `weak_password`.
 */
export const credentialsSchema = z.object({
  name: z
    .string({ error: 'name must be text' })
    .min(NAME_LENGTH.min, nameLength)
    .max(NAME_LENGTH.max, nameLength)
    .regex(NAME_CHARACTERS, 'name may use only letters, digits, _ and -'),
  password: z
    .string({ error: 'password must be text' })
    .min(PASSWORD_LENGTH.min, passwordLength)
    .max(PASSWORD_LENGTH.max, passwordLength),
});

/** Sign-in: two strings; their lengths are checked in the route (too long is a wrong sign-in). */
export const loginSchema = z.object({
  name: z.string({ error: 'name must be text' }).trim(),
  password: z.string({ error: 'password must be text' }),
});

/**
 * Longest name and password a sign-in is checked for: no account has longer ones (the CLI and
 * sign-up apply NAME_LENGTH and PASSWORD_LENGTH; 200 keeps accounts made before those rules).
 */
const LOGIN_MAX_LENGTH = Math.max(200, NAME_LENGTH.max, PASSWORD_LENGTH.max);

/** The body with its `name` trimmed, when it is text (the sign-up schema itself does not trim: the CLI uses it on names as given). */
function trimmedName(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const { name } = body as { name?: unknown };
  return typeof name === 'string' ? { ...body, name: name.trim() } : body;
}

export function publicUser(user: User): { name: string; pro: boolean; admin: boolean; questsDone: string[]; questsHidden: string[] } {
  return { name: user.name, pro: user.pro, admin: user.admin, questsDone: user.questsDone, questsHidden: user.questsHidden };
}

const LOGIN_FAILED = 'wrong name or password';

/** 429 with Retry-After (seconds) and the wait in minutes in the message, which the page reads. */
function tooMany(reply: FastifyReply, seconds: number, what: string): FastifyReply {
  reply.header('retry-after', String(seconds));
  return sendError(reply, 429, `${what}; try again in ${Math.ceil(seconds / 60)} minute(s)`);
}

/**
 * 400 for a new password that fails the strength rule: `error: 'weak_password'`, the field,
 * the reason in English (zxcvbn's warning and suggestions) and zxcvbn's feedback keys, which
 * the sign-up form translates.
 */
export function sendWeakPassword(reply: FastifyReply, verdict: PasswordVerdict): FastifyReply {
  return sendErrorCode(reply, 400, 'weak_password', passwordVerdictText(verdict), {
    field: 'password',
    problem: verdict.problem,
    warning: verdict.strength?.warning ?? null,
    suggestions: verdict.strength?.suggestions ?? [],
  });
}

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const opts = { bodyLimit: AUTH_BODY_LIMIT };

  app.post('/api/be/auth/register', opts, async (request, reply) => {
    const parsed = credentialsSchema.safeParse(trimmedName(request.body));
    if (!parsed.success) return sendError(reply, 400, bodyIssue(parsed.error));
    const { name, password } = parsed.data;
    const { limiter, limits, repos } = app.auth;
    const from = addressKey(request.ip);
    // Every try from an address counts (refused ones too) before the strength check's CPU.
    const tries = await limiter.take(`signup:tries ${from}`, limits.signUpTries);
    if (tries.retryAfter > 0) return tooMany(reply, tries.retryAfter, 'too many sign-up attempts from your address');
    const verdict = await newPasswordVerdict(password, name);
    if (verdict) return sendWeakPassword(reply, verdict);
    if (await repos.users.getByName(name)) return sendError(reply, 409, `the name "${name}" is taken`);
    // Accounts, per address and for the site, counted before the 32 MiB scrypt hash.
    const addressCounter = `signup:address ${from}`;
    const mine = await limiter.take(addressCounter, limits.signUpAddress);
    if (mine.retryAfter > 0) return tooMany(reply, mine.retryAfter, 'too many new accounts from your address');
    const all = await limiter.take('signup:all', limits.signUpAll);
    if (all.retryAfter > 0) {
      await limiter.give(addressCounter, limits.signUpAddress);
      return tooMany(reply, all.retryAfter, 'too many new accounts on the site just now');
    }
    let user: User;
    try {
      user = await repos.users.create({ name, passwordHash: await hashPassword(password) });
    } catch (error) {
      // Someone took the name meanwhile: no account was made, so none is counted.
      await limiter.give(addressCounter, limits.signUpAddress);
      await limiter.give('signup:all', limits.signUpAll);
      if (error instanceof UserNameTakenError) return sendError(reply, 409, `the name "${name}" is taken`);
      throw error;
    }
    await startSession(app, request, reply, user);
    return reply.code(201).header('cache-control', 'no-store').send({ user: publicUser(user) });
  });

  app.post('/api/be/auth/login', opts, async (request, reply) => {
    const parsed = loginSchema.safeParse(request.body);
    if (!parsed.success) return sendError(reply, 400, bodyIssue(parsed.error));
    const { name, password } = parsed.data;
    // No account matches: the same refusal as a wrong password, before any counting or hashing.
    if (name.length > LOGIN_MAX_LENGTH || password.length > LOGIN_MAX_LENGTH) return sendError(reply, 401, LOGIN_FAILED);
    const { limiter, limits } = app.auth;
    const from = addressKey(request.ip);
    const account = name.toLowerCase();
    // The address comes first in the key and has no spaces, so any name keeps keys apart.
    const pairCounter = `login:pair ${from} ${account}`;
    const addressCounter = `login:address ${from}`;
    const accountCounter = `login:account ${account}`;
    // Attempts are counted before the password is checked, so parallel guesses cannot slip
    // past a limit; a success takes its count back. Only this address is ever refused.
    const pair = await limiter.take(pairCounter, limits.loginPair);
    if (pair.retryAfter > 0) return tooMany(reply, pair.retryAfter, 'too many failed sign-in attempts for this account from your address');
    const address = await limiter.take(addressCounter, limits.loginAddress);
    if (address.retryAfter > 0) {
      await limiter.give(pairCounter, limits.loginPair);
      return tooMany(reply, address.retryAfter, 'too many failed sign-in attempts from your address');
    }
    // An address that has failed for this account waits before the check (right password or
    // not, so the wait tells nothing); one that has not failed never waits.
    const delay = loginDelayMs(pair.count - 1, await limiter.current(accountCounter, limits.loginAccount), limits);
    if (delay > 0) await app.auth.sleep(delay);
    const user = await app.auth.repos.users.getByName(name);
    const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyHash()));
    if (!user || !ok) {
      await limiter.take(accountCounter, limits.loginAccount);
      return sendError(reply, 401, LOGIN_FAILED);
    }
    await limiter.reset(pairCounter);
    await limiter.give(addressCounter, limits.loginAddress);
    await startSession(app, request, reply, user);
    return reply.header('cache-control', 'no-store').send({ user: publicUser(user) });
  });

  app.post('/api/be/auth/logout', opts, async (request, reply) => {
    await loadUser(request, reply);
    if (request.sessionId) await app.auth.repos.sessions.remove(request.sessionId);
    clearSessionCookie(request, reply);
    return reply.header('cache-control', 'no-store').send({ ok: true });
  });
}
