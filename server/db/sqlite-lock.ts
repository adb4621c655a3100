/**
 * SQLite is one server process's database: the marker-list caches and the live events hub live
 * in that process's memory, so a second process on the same file would serve lists that never
 * see the first one's writes, send no live events across, and could run migrations or the first
 * seeding at the same moment as the first (one of them then fails half-way). `lockSqliteDatabase`
 * makes the second process refuse to start instead, naming the first.
 *
 * The lock is an open SQLite transaction (`BEGIN IMMEDIATE`) on a small file beside the database,
 * `raidmap.sqlite.lock`: the operating system's file lock, which ends with the process however
 * it ends (a crash, SIGKILL, a container stopped), so a stale lock needs no clean-up and no pid
 * guessing. The file also holds who took it (pid, host, start time), committed before the lock
 * is taken for good, so that a refused process can name the holder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';

export interface LockOwner {
  pid: number;
  host: string;
  startedAt: string;
}

export interface SqliteLock {
  /** The lock file, `{sqliteFile}.lock`. */
  file: string;
  /** Ends the lock (also ended by the process's exit). */
  release(): void;
}

export class DatabaseInUseError extends Error {
  constructor(readonly sqliteFile: string, readonly owner: LockOwner | undefined) {
    super(
      `the SQLite database ${sqliteFile} is in use by another raidmap server ` +
        `(${owner ? `pid ${owner.pid} on ${owner.host}, started ${owner.startedAt}` : 'its process could not be named'}). ` +
        'SQLite serves one server process: stop that one first, give this one another DATA_DIR, ' +
        'or run several processes on PostgreSQL (DATABASE_URL, see docs/DEPLOY.md).',
    );
    this.name = 'DatabaseInUseError';
  }
}

export function thisProcess(): LockOwner {
  return { pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString() };
}

/** Takes the lock of `sqliteFile` or throws DatabaseInUseError naming the process that holds it. */
export function lockSqliteDatabase(sqliteFile: string, owner: LockOwner = thisProcess()): SqliteLock {
  const file = `${sqliteFile}.lock`;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // timeout 0: a held lock is answered at once, not after SQLite's busy wait.
  const db = new SQLite(file, { timeout: 0 });
  try {
    takeOrRefuse(db, sqliteFile);
    writeOwner(db, owner);
    // The owner is committed (readable by a refused process); take the lock again for good.
    takeOrRefuse(db, sqliteFile);
  } catch (error) {
    db.close();
    throw error;
  }
  return { file, release: () => db.close() };
}

function takeOrRefuse(db: SQLite.Database, sqliteFile: string): void {
  try {
    db.exec('BEGIN IMMEDIATE');
  } catch (error) {
    if (!isBusy(error)) throw error;
    throw new DatabaseInUseError(sqliteFile, readOwner(db));
  }
}

function writeOwner(db: SQLite.Database, owner: LockOwner): void {
  db.exec('CREATE TABLE IF NOT EXISTS owner (pid INTEGER NOT NULL, host TEXT NOT NULL, started_at TEXT NOT NULL)');
  db.exec('DELETE FROM owner');
  db.prepare('INSERT INTO owner (pid, host, started_at) VALUES (?, ?, ?)').run(owner.pid, owner.host, owner.startedAt);
  db.exec('COMMIT');
}

/** The holder's description; undefined when it cannot be read (written by no one yet, or mid-commit). */
function readOwner(db: SQLite.Database): LockOwner | undefined {
  try {
    const row = db.prepare('SELECT pid, host, started_at AS startedAt FROM owner').get() as LockOwner | undefined;
    return row;
  } catch {
    return undefined;
  }
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}
