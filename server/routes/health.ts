/**
 * GET /api/be/health: what a load balancer and an operator need to know of this process
 * (docs/SERVER.md "Routes", docs/DEPLOY.md):
 *
 *   200 { status: 'ok', tiles: { ready, done, total, failed: [] }, database: { ok: true } }
 *   200 { status: 'degraded', tiles: { …, failed: ['customs'] }, database: { ok: true } }
 *   503 { status: 'unavailable', tiles: { … }, database: { ok: false, reason } }
 *
 * The database not answering takes the process out of rotation (503): it can serve almost
 * nothing. Maps whose tiles failed to build leave it in (200, 'degraded'): markers, quests and
 * accounts still work, and TILES_DIR is shared, so the other processes fail the same maps. A
 * build still running is 'ok' (tiles render on demand meanwhile). The tile progress comes from
 * the background build that server/main.ts runs.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db';
import { storageFailure } from '../db/failure';

export interface TileProgress {
  ready: boolean;
  done: number;
  total: number;
  /** Maps whose tiles failed to build (their reasons are in the log). */
  failed?: string[];
}

export interface HealthRoutesOptions {
  tileProgress: () => TileProgress;
  /** The database to ask `select 1`; without one it counts as answering. */
  db?: Db;
  /** How long the database may take to answer (ms). Default 2,000. */
  databaseTimeoutMs?: number;
}

export type DatabaseHealth = { ok: true } | { ok: false; reason: string };

/** Asks the database `select 1` within `timeoutMs`; what it says, never throwing. */
export async function databaseHealth(db: Db, timeoutMs: number): Promise<DatabaseHealth> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([sql`select 1`.execute(db.kysely), late]);
    return { ok: true };
  } catch (error) {
    // What kind of failure, not the driver's words (they may name hosts and users).
    const failure = storageFailure(error);
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: failure ? failure.reason : message.startsWith('no answer in') ? `the database gave ${message}` : 'the database query failed' };
  } finally {
    clearTimeout(timer);
  }
}

export async function healthRoutes(app: FastifyInstance, { tileProgress, db, databaseTimeoutMs = 2_000 }: HealthRoutesOptions): Promise<void> {
  // Health checks from several balancers at once share one question to the database.
  let asking: Promise<DatabaseHealth> | null = null;
  const askDatabase = (): Promise<DatabaseHealth> => {
    if (!db) return Promise.resolve({ ok: true });
    asking ??= databaseHealth(db, databaseTimeoutMs).finally(() => {
      asking = null;
    });
    return asking;
  };

  app.get('/api/be/health', async (_request, reply) => {
    const { ready, done, total, failed = [] } = tileProgress();
    const database = await askDatabase();
    const status = !database.ok ? 'unavailable' : failed.length > 0 ? 'degraded' : 'ok';
    return reply
      .code(database.ok ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ status, tiles: { ready, done, total, failed }, database });
  });
}
