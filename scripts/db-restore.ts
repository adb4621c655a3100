/**
 * Database restore: `npm run db:restore -- <backup file>`, with the server's settings (DATA_DIR,
 * DATABASE_URL). SQLite only; on PostgreSQL it prints the pg_restore steps and exits 2.
 *
 * SQLite, in this order, so that an interruption at any point leaves a whole database in place:
 *  1. takes the server's lock (server/db/sqlite-lock.ts): a running server holds it, and the
 *     restore then refuses, naming it, with nothing changed; while the restore holds it, a
 *     server refuses to start;
 *  2. checks the backup: a file that opens as SQLite, passes `integrity_check` and has a
 *     `markers` table (a raidmap database);
 *  3. copies it with SQLite's backup API (which also reads a WAL-mode backup's -wal) into a
 *     temporary file beside the database, one self-contained file (journal_mode DELETE),
 *     checked again and synced to disk;
 *  4. folds the current database's WAL into its main file (`wal_checkpoint(TRUNCATE)`, then
 *     journal_mode DELETE: no -wal/-shm left), and links it as
 *     `<sqliteFile>.before-restore-<time>` (a fresh name each time). A current database that
 *     cannot be opened keeps its -wal/-shm, renamed alongside: nothing of it is dropped;
 *  5. renames the temporary file over the database (atomic: the database is the old one or the
 *     new one, never half a file), then opens it, checks it and counts its rows;
 *  6. releases the lock. The server migrates an older backup forward when it starts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import SQLite from 'better-sqlite3';
import { ConfigError, loadConfig, type ServerConfig } from '../server/config';
import { DatabaseInUseError, lockSqliteDatabase } from '../server/db/sqlite-lock';
import { copySqliteFile, restoreHelp, sqliteCounts, stamp } from './db-backup';

const USAGE = `usage: npm run db:restore -- <backup file>
  Replaces the SQLite database the server's settings name ($DATA_DIR/raidmap.sqlite) with
  <backup file> (made by npm run db:backup). Refuses while a server uses that DATA_DIR; keeps
  the current database aside as raidmap.sqlite.before-restore-<time>.
  PostgreSQL (DATABASE_URL set): prints the pg_restore steps instead.`;

export class RestoreError extends Error {}

export interface SqliteRestoreResult {
  /** The database now restored. */
  file: string;
  /** Where the previous database was kept; undefined when there was none. */
  aside: string | undefined;
  /** The previous database could not be opened: it was kept as it was, with its -wal/-shm. */
  keptAsIs: boolean;
  counts: Record<string, number>;
}

const COMPANIONS = ['-wal', '-shm'] as const;

/**
 * A backup file that is not there (a typo in its name) is refused before anything is touched:
 * taking the lock creates DATA_DIR and the lock file, which a mistyped restore should not leave.
 */
function checkBackupExists(file: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new RestoreError(`no backup file at ${file}`);
  }
  if (!stat.isFile()) throw new RestoreError(`${file} is not a file`);
}

/** Opens `file` read-only and checks it is an intact raidmap database; returns its row counts. */
function checkBackup(file: string): Record<string, number> {
  checkBackupExists(file);
  let db: SQLite.Database;
  try {
    db = new SQLite(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new RestoreError(`${file} cannot be opened as SQLite: ${(error as Error).message}`);
  }
  try {
    return checkOpen(db, file);
  } finally {
    db.close();
  }
}

function checkOpen(db: SQLite.Database, file: string): Record<string, number> {
  let check: unknown;
  try {
    check = db.pragma('integrity_check', { simple: true });
  } catch (error) {
    throw new RestoreError(`${file} is not a SQLite database (${(error as Error).message})`);
  }
  if (check !== 'ok') throw new RestoreError(`${file} failed its integrity check: ${String(check)}`);
  if (!db.prepare(`select 1 from sqlite_master where type = 'table' and name = 'markers'`).get()) {
    throw new RestoreError(`${file} is a SQLite database but not a raidmap one (it has no markers table)`);
  }
  return sqliteCounts(db);
}

function fsyncFile(file: string): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function fsyncDir(dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Not every platform syncs a directory (Windows); the rename itself is still atomic.
  }
}

/**
 * Makes the current database one self-contained file: its WAL checkpointed into it, journal
 * mode DELETE (SQLite then removes -wal and -shm). False when it cannot be opened or the WAL
 * cannot be folded in completely; the caller then keeps the companions as they are.
 */
function selfContain(sqliteFile: string): boolean {
  let db: SQLite.Database | undefined;
  try {
    db = new SQLite(sqliteFile, { fileMustExist: true, timeout: 0 });
    const [row] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number; checkpointed: number }[];
    if (!row || row.busy !== 0) return false;
    if (db.pragma('journal_mode = DELETE', { simple: true }) !== 'delete') return false;
    return true;
  } catch {
    return false;
  } finally {
    db?.close();
  }
}

function linkOrCopy(from: string, to: string): void {
  try {
    fs.linkSync(from, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'EMLINK' && code !== 'ENOSYS') throw error;
    fs.copyFileSync(from, to, fs.constants.COPYFILE_EXCL);
    fsyncFile(to);
  }
}

/** Links (or, where links are not supported, copies) `from` to a fresh `<base>`, `<base>-2`, …. */
function keepAside(from: string, base: string): string {
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    if (COMPANIONS.some((c) => fs.existsSync(`${name}${c}`))) continue;
    try {
      linkOrCopy(from, name);
      return name;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/**
 * Restores the SQLite database `sqliteFile` from `backupFile`, holding the server's lock
 * throughout (throws DatabaseInUseError, changing nothing, while a server holds it).
 */
export async function restoreSqlite(sqliteFile: string, backupFile: string, now = new Date()): Promise<SqliteRestoreResult> {
  const target = path.resolve(sqliteFile);
  const source = path.resolve(backupFile);
  checkBackupExists(source);
  const lock = lockSqliteDatabase(target);
  const tmp = `${target}.restore-${process.pid}-${Date.now().toString(36)}.tmp`;
  try {
    if (source === target || COMPANIONS.some((c) => source === `${target}${c}`) || source === lock.file) {
      throw new RestoreError(`${source} is the database itself (or its companion): restore from a backup file`);
    }
    const expected = checkBackup(source);

    // The copy, beside the database (same file system: the rename below is atomic).
    await copySqliteFile(source, tmp);
    const copy = new SQLite(tmp, { fileMustExist: true });
    try {
      copy.pragma('journal_mode = DELETE');
      const counts = checkOpen(copy, tmp);
      if (JSON.stringify(counts) !== JSON.stringify(expected)) {
        throw new RestoreError(`the copy of ${source} has other row counts than the backup: ${JSON.stringify(counts)} vs ${JSON.stringify(expected)}`);
      }
    } finally {
      copy.close();
    }
    fsyncFile(tmp);

    // The current database, kept aside whole. Its files are linked to the aside names first:
    // SQLite deletes -wal and -shm when it closes a database, even one it could not read.
    let aside: string | undefined;
    let keptAsIs = false;
    const base = `${target}.before-restore-${stamp(now)}`;
    if (fs.existsSync(target)) {
      aside = keepAside(target, base);
      for (const c of COMPANIONS) if (fs.existsSync(`${target}${c}`)) linkOrCopy(`${target}${c}`, `${aside}${c}`);
      // Fold the WAL into the main file (the same file as the aside one, or, where links are not
      // supported, the aside copy keeps the pre-checkpoint file with its -wal: a pair either way).
      keptAsIs = !selfContain(target);
      const asideWal = `${aside}-wal`;
      if (fs.existsSync(asideWal) && fs.statSync(asideWal).size === 0) fs.rmSync(asideWal);
      if (!fs.existsSync(asideWal)) fs.rmSync(`${aside}-shm`, { force: true });
      else keptAsIs = true;
    } else if (fs.existsSync(`${target}-wal`) && fs.statSync(`${target}-wal`).size > 0) {
      // A -wal without its database: kept too.
      aside = keepAside(`${target}-wal`, `${base}.orphan-wal`);
      keptAsIs = true;
    }
    for (const c of COMPANIONS) fs.rmSync(`${target}${c}`, { force: true });

    fs.renameSync(tmp, target);
    fsyncDir(path.dirname(target));

    const restored = new SQLite(target, { fileMustExist: true });
    try {
      const counts = checkOpen(restored, target);
      return { file: target, aside, keptAsIs, counts };
    } catch (error) {
      throw new Error(`the restored ${target} failed its check (the previous database is ${aside ?? 'none'}): ${(error as Error).message}`);
    } finally {
      restored.close();
    }
  } finally {
    fs.rmSync(tmp, { force: true });
    for (const c of ['-journal', ...COMPANIONS]) fs.rmSync(`${tmp}${c}`, { force: true });
    lock.release();
  }
}

export interface RestoreOutcome {
  /** 0 restored; 2 not handled here (PostgreSQL). */
  code: 0 | 2;
  lines: string[];
  errors: string[];
}

export async function runRestore(config: ServerConfig, backupFile: string, now = new Date()): Promise<RestoreOutcome> {
  const file = path.resolve(backupFile);
  if (config.databaseUrl) {
    return {
      code: 2,
      lines: [restoreHelp(config, file)],
      errors: ['it handles SQLite only, and DATABASE_URL is set: restore a PostgreSQL dump with pg_restore as above.'],
    };
  }
  const result = await restoreSqlite(config.sqliteFile, file, now);
  const counts = Object.entries(result.counts).map(([t, n]) => `${t} ${n}`).join(', ');
  const lines = [`restored ${result.file} from ${file} (${counts}); integrity check ok`];
  if (!result.aside) lines.push('there was no database before: nothing kept aside');
  else if (result.keptAsIs) lines.push(`the previous database could not be opened; it is kept as it was, with its -wal if any: ${result.aside}`);
  else lines.push(`the previous database is kept as ${result.aside} (delete it once the restore is confirmed)`);
  lines.push('start the server: it migrates the restored database if the code is newer than the backup.');
  return { code: 0, lines, errors: [] };
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  if (argv.length !== 1 || argv[0].startsWith('-')) {
    console.error(USAGE);
    return 2;
  }
  try {
    const outcome = await runRestore(loadConfig(), argv[0]);
    if (outcome.lines.length) console.log(outcome.lines.join('\n'));
    for (const line of outcome.errors) console.error(`db:restore: ${line}`);
    return outcome.code;
  } catch (error) {
    if (error instanceof ConfigError) console.error(`db:restore: bad setting ${error.message}`);
    else if (error instanceof DatabaseInUseError) console.error(`db:restore: refused, nothing changed: ${error.message}`);
    else if (error instanceof RestoreError) console.error(`db:restore: nothing changed: ${error.message}`);
    else console.error('db:restore failed:', error);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
