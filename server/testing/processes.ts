/**
 * Two (or more) server apps on one database, as two `npm run serve` processes would run: each
 * PostgreSQL "process" with its own pool and PgLiveHub, or apps in one process sharing an
 * in-process hub that says it is shared (GappyHub). Used by server/live/multi-process.test.ts
 * and server/pilot/routes.test.ts.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildServer, type BuildServerOptions } from '../app';
import { openDatabase, type Db } from '../db';
import { MemoryLiveHub } from '../live/hub';
import { PgLiveHub } from '../live/pg-hub';

/** Polls `check` every 20 ms until it holds; throws naming `what` after `timeoutMs`. */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** An in-process hub that says it is shared, as PostgreSQL's is: the test delivers its remote messages and makes its gaps. */
export class GappyHub extends MemoryLiveHub {
  override readonly shared = true;
  private readonly gapListeners = new Set<(reason: string) => void>();
  override onGap(listener: (reason: string) => void): () => void {
    this.gapListeners.add(listener);
    return () => this.gapListeners.delete(listener);
  }
  gap(): void {
    for (const listener of [...this.gapListeners]) listener('test');
  }
}

/** The folders of a test app under `root`, no tiles, and no live pings within a test's time. */
export function appFolders(root: string): Pick<BuildServerOptions, 'uploadsDir' | 'tiles' | 'distDir' | 'assetsDir' | 'livePingMs'> {
  return {
    uploadsDir: path.join(root, 'uploads'),
    tiles: false,
    distDir: path.join(root, 'dist'),
    assetsDir: path.join(root, 'assets'),
    livePingMs: 60_000,
  };
}

/** One server process on PostgreSQL: its own pool, its own PgLiveHub, its app listening on a free port. */
export interface PgProcess {
  app: FastifyInstance;
  db: Db;
  hub: PgLiveHub;
  base: string;
}

/**
 * Starts a process on the PostgreSQL schema `schema` at `url`, its folders under `root`, with
 * `options` added to the app's; its hub reconnects within 200 ms of a lost connection.
 */
export async function startPgProcess(url: string, schema: string, root: string, options: Partial<BuildServerOptions> = {}): Promise<PgProcess> {
  const db = openDatabase({ databaseUrl: url, pgSchema: schema });
  const hub = new PgLiveHub({ connectionString: url, schema, reconnectMinMs: 20, reconnectMaxMs: 200, log: { warn: () => {}, error: (o, m) => console.error(m, o) } });
  await hub.ready();
  const app = buildServer({ db, live: hub, ...appFolders(root), ...options });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, db, hub, base };
}

/** Ends `p`'s listening connection from another client (pg_terminate_backend), as a dropped connection would end it. */
export async function dropListeningConnection(url: string, p: Pick<PgProcess, 'hub'>): Promise<void> {
  const killer = new pg.Client({ connectionString: url });
  await killer.connect();
  try {
    await killer.query('select pg_terminate_backend($1)', [p.hub.listenerPid]);
  } finally {
    await killer.end();
  }
}

/** Closes each process's app, then its hub and pool (one not started is passed over). */
export async function closePgProcesses(processes: ReadonlyArray<PgProcess | undefined>): Promise<void> {
  for (const p of processes) {
    if (!p) continue;
    await p.app.close();
    await p.hub.close();
    await p.db.close();
  }
}
