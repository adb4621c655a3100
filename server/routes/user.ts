/**
 * GET /api/be/user → the signed-in user; POST /api/be/user/progress with exactly one of
 * {questsDone} or {questsHidden} (known quest uids) → the updated user. Saving progress is a
 * pro feature (role table, spec §6): visitors get an upsell 403, admins a plain 403.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { access } from '../../src/domain/roles';
import { requireUser } from '../auth';
import { sendError } from '../http/errors';
import { AUTH_BODY_LIMIT, bodyIssue, publicUser } from './auth';

export const MAX_PROGRESS_ENTRIES = 2000;

const uidList = z
  .array(z.string({ error: 'must be a list of quest uids (text)' }).min(1).max(64), { error: 'must be a list of quest uids' })
  .max(MAX_PROGRESS_ENTRIES, `may hold at most ${MAX_PROGRESS_ENTRIES} quest uids`);

const progressSchema = z
  .object({ questsDone: uidList.optional(), questsHidden: uidList.optional() })
  .strict()
  .refine((b) => (b.questsDone === undefined) !== (b.questsHidden === undefined), {
    message: 'send exactly one of questsDone or questsHidden',
  });

export async function userRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api/be/user', { onRequest: requireUser }, async (request, reply) => {
    return reply.header('cache-control', 'no-store').send(publicUser(request.user!));
  });

  app.post('/api/be/user/progress', { onRequest: requireUser, bodyLimit: AUTH_BODY_LIMIT }, async (request, reply) => {
    const user = request.user!;
    const allowed = access(user, 'questProgress');
    if (allowed === 'upsell') {
      return sendError(reply, 403, 'saving quest progress is a pro feature: upgrade to pro to track completed and hidden quests');
    }
    if (allowed !== 'yes') return sendError(reply, 403, 'quest progress is not available to admin accounts');
    const parsed = progressSchema.safeParse(request.body);
    if (!parsed.success) return sendError(reply, 400, bodyIssue(parsed.error));
    const list = parsed.data.questsDone ?? parsed.data.questsHidden ?? [];
    const known = new Set((await app.raidmap.repos.quests.list()).map((q) => q.uid));
    const unknown = [...new Set(list.filter((uid) => !known.has(uid)))];
    if (unknown.length > 0) {
      const shown = unknown.slice(0, 5).map((u) => `"${u}"`).join(', ');
      const field = parsed.data.questsDone !== undefined ? 'questsDone' : 'questsHidden';
      return sendError(reply, 400, `${field}: unknown quest uid(s): ${shown}${unknown.length > 5 ? ` and ${unknown.length - 5} more` : ''}`);
    }
    const updated = await app.auth.repos.users.setProgress(user.id, parsed.data);
    if (!updated) return sendError(reply, 401, 'sign in first');
    return reply.header('cache-control', 'no-store').send(publicUser(updated));
  });
}
