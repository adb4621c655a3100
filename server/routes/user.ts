/**
 * GET /api/be/user → the signed-in user; POST /api/be/user/progress → the updated user, with
 * either a change `{ done?: { add?, remove? }, hidden?: { add?, remove? } }` (applied to the
 * lists as stored, so saves from two devices at once both count) or, from older pages, exactly
 * one whole list `{ questsDone }` or `{ questsHidden }`. Rules in ./progress.ts: a new unknown
 * quest uid is refused (400), one the list holds already is kept. Saving progress is a pro
 * feature (role table, spec §6): visitors get an upsell 403, admins a plain 403.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { access } from '../../src/domain/roles';
import { requireUser } from '../auth';
import { HttpError, sendError } from '../http/errors';
import { AUTH_BODY_LIMIT, bodyIssue, publicUser } from './auth';
import { MAX_PROGRESS_ENTRIES, nextProgress, type ProgressRequest } from './progress';

export { MAX_PROGRESS_ENTRIES };

const uidList = z
  .array(z.string({ error: 'must be a list of quest uids (text)' }).min(1).max(64), { error: 'must be a list of quest uids' })
  .max(MAX_PROGRESS_ENTRIES, `may hold at most ${MAX_PROGRESS_ENTRIES} quest uids`);

const listChange = z.object({ add: uidList.optional(), remove: uidList.optional() }, { error: 'must be { add?, remove? } (lists of quest uids)' }).strict();

const progressSchema = z
  .object({ questsDone: uidList.optional(), questsHidden: uidList.optional(), done: listChange.optional(), hidden: listChange.optional() })
  .strict()
  .refine(
    (b) => {
      const lists = Number(b.questsDone !== undefined) + Number(b.questsHidden !== undefined);
      const changes = Number(b.done !== undefined) + Number(b.hidden !== undefined);
      return changes > 0 ? lists === 0 : lists === 1;
    },
    { message: 'send a change (done and/or hidden: { add, remove }) or exactly one of questsDone or questsHidden' },
  );

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
    const known = new Set((await app.raidmap.repos.quests.list()).map((q) => q.uid));
    const wanted = parsed.data as ProgressRequest;
    // Judged on the lists as stored at the write (a uid held already is kept), in its retries too.
    const updated = await app.auth.repos.users.changeProgress(user.id, (stored) => {
      const next = nextProgress(stored, wanted, (uid) => known.has(uid));
      if ('error' in next) throw new HttpError(400, next.error);
      return next.progress;
    });
    if (!updated) return sendError(reply, 401, 'sign in first');
    return reply.header('cache-control', 'no-store').send(publicUser(updated));
  });
}
