/**
 * Start-up work that must run once per database, not once per process: migrations, the first
 * seeding and the demo accounts. On PostgreSQL, several server processes may start at the
 * same moment (a deploy, a restart of all of them); `withStartupLock` holds a session-level
 * advisory lock (one per schema) around that work, so the second process waits and then finds
 * it done. SQLite is one process's database (a second server on it is refused before it gets
 * here: sqlite-lock.ts), so the work just runs.
 */
import { sql } from 'kysely';
import type { Db } from './database';

export async function withStartupLock<T>(db: Db, work: () => Promise<T>): Promise<T> {
  if (db.dialect !== 'postgres') return work();
  const key = `raidmap:startup:${db.schema ?? ''}`;
  // One pooled connection holds the lock while `work` uses the others.
  return db.kysely.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(hashtext(${key}))`.execute(conn);
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(hashtext(${key}))`.execute(conn);
    }
  });
}
