/**
 * POST /api/be/auth/register, /login, /logout (JSON bodies). Sign-up and sign-in set the
 * session cookie; failed sign-ins are rate-limited per account name and per address.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { NAME_CHARACTERS, NAME_LENGTH, PASSWORD_LENGTH } from '../../src/domain/account';
import { clearSessionCookie, loadUser, startSession } from '../auth';
import { dummyHash, hashPassword, verifyPassword } from '../auth/password';
import { ACCOUNT_RULE, ADDRESS_RULE } from '../auth/rate-limit';
import { UserNameTakenError, type User } from '../db';
import { sendError } from '../http/errors';

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

/** Sign-up: the domain's account rules (src/domain/account.ts), which the sign-up form checks too. */
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

const loginSchema = z.object({
  name: z.string({ error: 'name must be text' }).max(200, 'name is too long'),
  password: z.string({ error: 'password must be text' }).max(200, 'password is too long'),
});

export function publicUser(user: User): { name: string; pro: boolean; admin: boolean; questsDone: string[]; questsHidden: string[] } {
  return { name: user.name, pro: user.pro, admin: user.admin, questsDone: user.questsDone, questsHidden: user.questsHidden };
}

const LOGIN_FAILED = 'wrong name or password';

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const opts = { bodyLimit: AUTH_BODY_LIMIT };

  app.post('/api/be/auth/register', opts, async (request, reply) => {
    const parsed = credentialsSchema.safeParse(request.body);
    if (!parsed.success) return sendError(reply, 400, bodyIssue(parsed.error));
    const { name, password } = parsed.data;
    const { users } = app.auth.repos;
    if (await users.getByName(name)) return sendError(reply, 409, `the name "${name}" is taken`);
    let user: User;
    try {
      user = await users.create({ name, passwordHash: await hashPassword(password) });
    } catch (error) {
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
    const { limiter } = app.auth;
    const accountKey = `name:${name.toLowerCase()}`;
    const addressKey = `ip:${request.ip}`;
    const wait = Math.max(limiter.check(accountKey, ACCOUNT_RULE), limiter.check(addressKey, ADDRESS_RULE));
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      return sendError(reply, 429, `too many failed sign-in attempts; try again in ${Math.ceil(wait / 60)} minute(s)`);
    }
    const user = await app.auth.repos.users.getByName(name);
    const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyHash()));
    if (!user || !ok) {
      limiter.fail(accountKey, ACCOUNT_RULE);
      limiter.fail(addressKey, ADDRESS_RULE);
      return sendError(reply, 401, LOGIN_FAILED);
    }
    limiter.reset(accountKey);
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
