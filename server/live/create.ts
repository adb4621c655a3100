/**
 * Picks the live hub from the settings: on PostgreSQL (DATABASE_URL) a PgLiveHub, so several
 * server processes on that database hear each other's marker changes; on SQLite (one process
 * by nature) a MemoryLiveHub.
 */
import { isPostgresUrl } from '../config';
import { MemoryLiveHub, type LiveHub } from './hub';
import { PgLiveHub, consoleLiveLog, type LiveLog } from './pg-hub';

export interface CreateLiveHubOptions {
  databaseUrl?: string;
  /** PostgreSQL schema of the site (DATABASE_SCHEMA), when not the default. */
  schema?: string;
  log?: LiveLog;
}

export function createLiveHub({ databaseUrl, schema, log = consoleLiveLog }: CreateLiveHubOptions): LiveHub {
  if (databaseUrl && isPostgresUrl(databaseUrl)) return new PgLiveHub({ connectionString: databaseUrl, schema, log });
  return new MemoryLiveHub((error, channel) => log.error({ err: error, channel }, 'live listener failed'));
}

/**
 * Waits until the hub listens (a PgLiveHub's first LISTEN), at most `timeoutMs`; true when it
 * does. A MemoryLiveHub is ready at once.
 */
export async function liveHubReady(hub: LiveHub, timeoutMs: number): Promise<boolean> {
  if (!(hub instanceof PgLiveHub)) return true;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([hub.ready().then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
