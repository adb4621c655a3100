/**
 * Granting pro from the site (issue 4: "the flag is granted by the tool or by an admin"):
 * GET /api/be/admin/users lists the accounts and their roles; POST /api/be/admin/users/pro
 * with {name, pro} switches one account's pro flag. Admin only, checked before the body is
 * read (requireAdmin: 401 without a session, 403 for a non-admin). Making admins stays with the
 * command-line tool, so a stolen admin session cannot mint more admins.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { User } from '../db';
import { requireAdmin } from '../auth';
import { sendError } from '../http/errors';
import { AUTH_BODY_LIMIT, bodyIssue } from './auth';

export interface AccountSummary {
  name: string;
  pro: boolean;
  admin: boolean;
}

const proSchema = z
  .object({
    name: z.string({ error: 'name must be text' }).min(1, 'name must not be empty').max(200, 'name is too long'),
    pro: z.boolean({ error: 'pro must be true or false' }),
  })
  .strict();

function summary(user: User): AccountSummary {
  return { name: user.name, pro: user.pro, admin: user.admin };
}

export async function adminUserRoutes(app: FastifyInstance): Promise<void> {
  const users = () => app.auth.repos.users;
  const guard = { onRequest: requireAdmin, bodyLimit: AUTH_BODY_LIMIT };

  app.get('/api/be/admin/users', guard, async (_request, reply) => {
    const list = await users().list();
    return reply.header('cache-control', 'no-store').send({ users: list.map(summary) });
  });

  app.post('/api/be/admin/users/pro', guard, async (request, reply) => {
    const parsed = proSchema.safeParse(request.body);
    if (!parsed.success) return sendError(reply, 400, bodyIssue(parsed.error));
    const user = await users().getByName(parsed.data.name);
    if (!user) return sendError(reply, 404, `no account is named "${parsed.data.name}"`);
    const updated = await users().setFlags(user.id, { pro: parsed.data.pro });
    if (!updated) return sendError(reply, 404, `no account is named "${parsed.data.name}"`);
    request.log.info({ admin: request.user?.name, account: updated.name, pro: updated.pro }, 'pro flag changed');
    return reply.header('cache-control', 'no-store').send({ user: summary(updated) });
  });
}
