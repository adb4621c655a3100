/**
 * Database backup: `npm run db:backup [-- <file>]`, with the server's settings (DATA_DIR,
 * DATABASE_URL, DATABASE_SCHEMA). Safe while the server runs.
 *
 * SQLite: SQLite's online backup API (better-sqlite3 `db.backup()`) copies the database page by
 * page into <file> (default `$DATA_DIR/backups/raidmap-<time>.sqlite`) while the server goes on
 * reading and writing; the copy is then opened and checked (`pragma integrity_check`, row
 * counts). Copying the file with cp while the server runs is not a backup: the WAL holds
 * recent writes.
 *
 * PostgreSQL: runs `pg_dump --format=custom` (its own consistent snapshot) into <file>
 * (default `$DATA_DIR/backups/raidmap-<time>.dump`), only the site's schema when
 * DATABASE_SCHEMA is set. Without a pg_dump that runs (on PATH, or PG_DUMP) no dump is made: it
 * says so, prints the command to run by hand and exits 1, so a cron job sees the failure.
 *
 * Either way it ends by printing how to restore (docs/DEPLOY.md "Backup and restore").
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import SQLite from 'better-sqlite3';
import type { ServerConfig } from '../server/config';
import { ConfigError, loadSettings } from './settings';

const USAGE = `usage: npm run db:backup [-- <file>]
  Backs up the database the server's settings name (DATA_DIR, DATABASE_URL, DATABASE_SCHEMA)
  into <file>, default $DATA_DIR/backups/raidmap-<time>.sqlite (SQLite) or .dump (PostgreSQL).`;

export class BackupError extends Error {}

/** Tables whose row counts a backup reports (and a restore can be checked against). */
export const COUNTED_TABLES = ['markers', 'users', 'sessions', 'quests', 'items'] as const;

export interface SqliteBackupResult {
  file: string;
  bytes: number;
  counts: Record<string, number>;
}

/** A file-name time stamp, e.g. 20260102-030405Z. */
export function stamp(now = new Date()): string {
  return now.toISOString().replace(/\.\d+Z$/, 'Z').replace(/[-:]/g, '').replace('T', '-');
}

export function defaultBackupFile(config: Pick<ServerConfig, 'dataDir' | 'databaseUrl'>, now = new Date()): string {
  return path.join(config.dataDir, 'backups', `raidmap-${stamp(now)}.${config.databaseUrl ? 'dump' : 'sqlite'}`);
}

/** Row counts of the counted tables that exist in an open SQLite database. */
export function sqliteCounts(db: SQLite.Database): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const table of COUNTED_TABLES) {
    const exists = db.prepare(`select 1 from sqlite_master where type = 'table' and name = ?`).get(table);
    if (exists) counts[table] = Number((db.prepare(`select count(*) as n from "${table}"`).get() as { n: number }).n);
  }
  return counts;
}

/**
 * SQLite's online backup of `source` into `target` (a WAL-mode source's -wal included), while
 * another process may go on writing to it. The copy is not checked here.
 */
export async function copySqliteFile(source: string, target: string): Promise<void> {
  // Read-only is enough: the backup reads pages; the server may keep writing meanwhile.
  const db = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    // All pages in one step: a step is one read transaction (a consistent snapshot; in WAL mode
    // writers go on). Small steps would restart after every write another connection makes,
    // and never finish under a steady stream of writes.
    await db.backup(target, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
}

/**
 * Copies the SQLite database `source` into `target` with the online backup API, then opens the
 * copy and checks it. `target` must not exist (a backup never overwrites one).
 */
export async function backupSqlite(source: string, target: string): Promise<SqliteBackupResult> {
  if (!fs.existsSync(source)) throw new BackupError(`no SQLite database at ${source} (is DATA_DIR right? has the server run once?)`);
  if (fs.existsSync(target)) throw new BackupError(`${target} exists already: choose another file`);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  await copySqliteFile(source, target);
  // One self-contained file: the copy keeps the source's WAL mode, which would leave -wal and
  // -shm files beside it once opened; the server turns WAL on again when it opens a restored copy.
  const copy = new SQLite(target, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    const check = copy.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new BackupError(`the copy ${target} failed its integrity check: ${String(check)}`);
    return { file: target, bytes: fs.statSync(target).size, counts: sqliteCounts(copy) };
  } finally {
    copy.close();
  }
}

/** pg_dump's arguments for a custom-format dump of the site (its schema only, when one is set). */
export function pgDumpArgs(databaseUrl: string, schema: string | undefined, target: string): string[] {
  return ['--format=custom', '--no-owner', '--no-privileges', `--file=${target}`, ...(schema ? [`--schema=${schema}`] : []), `--dbname=${databaseUrl}`];
}

/** The URL with its password replaced, for printing. */
export function redactUrl(databaseUrl: string): string {
  try {
    const u = new URL(databaseUrl);
    if (u.password) u.password = '*****';
    return u.toString();
  } catch {
    return '<DATABASE_URL>';
  }
}

const quote = (arg: string) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`);

export function restoreHelp(config: Pick<ServerConfig, 'databaseUrl' | 'databaseSchema' | 'sqliteFile'>, file: string): string {
  if (!config.databaseUrl) {
    return [
      'To restore this backup (SQLite):',
      `  npm run db:restore -- ${quote(file)}`,
      '  (refuses while a server uses this DATA_DIR; keeps the current database aside as raidmap.sqlite.before-restore-<time>)',
      'Or by hand, with every server (npm run serve) on this DATA_DIR stopped: move the database aside',
      `  with its -wal/-shm (they may hold its latest writes), then copy the backup in:`,
      `  for x in '' -wal -shm; do [ -e ${quote(config.sqliteFile)}$x ] && mv ${quote(config.sqliteFile)}$x ${quote(`${config.sqliteFile}.before-restore`)}$x; done`,
      `  cp ${quote(file)} ${quote(config.sqliteFile)}`,
      'Then start the server; it migrates the copy if the code is newer than the backup.',
    ].join('\n');
  }
  const schema = config.databaseSchema;
  return [
    'To restore this dump (PostgreSQL):',
    '  1. stop every server process that uses this database;',
    schema
      ? `  2. psql "$DATABASE_URL" -c 'drop schema if exists ${schema} cascade'   (or restore into a fresh database)`
      : '  2. restore into an empty database (createdb …), or drop the raidmap tables first',
    `  3. pg_restore --no-owner --no-privileges --exit-on-error --dbname="$DATABASE_URL" ${quote(file)}`,
    '  4. point DATABASE_URL (and DATABASE_SCHEMA) at it and start the servers.',
    'pg_restore must be of the same or a newer major version than the pg_dump that made the dump.',
  ].join('\n');
}

/** The pg_dump to run (PG_DUMP, else the one on PATH), or why there is none: it must answer --version. */
export function findPgDump(env: NodeJS.ProcessEnv): { command: string } | { missing: string } {
  const command = env.PG_DUMP?.trim() || 'pg_dump';
  const found = spawnSync(command, ['--version'], { encoding: 'utf8', env });
  if (found.status === 0) return { command };
  const where = env.PG_DUMP?.trim() ? `PG_DUMP=${command}` : 'pg_dump on PATH';
  const why = found.error ? ((found.error as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : (found.error as NodeJS.ErrnoException).code ?? found.error.message) : `--version exited ${found.status ?? found.signal}`;
  return { missing: `${where}: ${why}` };
}

export interface BackupOutcome {
  file: string;
  /** False when no pg_dump could be run: nothing was made, `lines` say how to run it by hand (exit 1). */
  made: boolean;
  lines: string[];
}

export async function runBackup(config: ServerConfig, target: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<BackupOutcome> {
  const file = path.resolve(target ?? defaultBackupFile(config));
  const lines: string[] = [];
  if (!config.databaseUrl) {
    const result = await backupSqlite(config.sqliteFile, file);
    const counts = Object.entries(result.counts).map(([t, n]) => `${t} ${n}`).join(', ');
    lines.push(`backed up ${config.sqliteFile} to ${file} (${(result.bytes / 1024 / 1024).toFixed(1)} MiB; ${counts}); integrity check ok`);
    lines.push('', restoreHelp(config, file));
    return { file, made: true, lines };
  }
  if (fs.existsSync(file)) throw new BackupError(`${file} exists already: choose another file`);
  const args = pgDumpArgs(config.databaseUrl, config.databaseSchema, file);
  const pgDump = findPgDump(env);
  if ('missing' in pgDump) {
    lines.push(`pg_dump was not found (${pgDump.missing}): no dump was made. Install the PostgreSQL client tools of your server's major version (or set PG_DUMP), or run by hand:`);
    lines.push(`  mkdir -p ${quote(path.dirname(file))} && pg_dump ${pgDumpArgs(redactUrl(config.databaseUrl), config.databaseSchema, file).map(quote).join(' ')}`);
    return { file, made: false, lines };
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const run = spawnSync(pgDump.command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (run.status !== 0) {
    fs.rmSync(file, { force: true });
    const why = (run.stderr || run.error?.message || `exit ${run.status}`).trim().replaceAll(config.databaseUrl, redactUrl(config.databaseUrl));
    throw new BackupError(`pg_dump failed: ${why}`);
  }
  lines.push(`dumped ${redactUrl(config.databaseUrl)}${config.databaseSchema ? ` (schema ${config.databaseSchema})` : ''} to ${file} (${(fs.statSync(file).size / 1024 / 1024).toFixed(1)} MiB, pg_dump custom format)`);
  lines.push('', restoreHelp(config, file));
  return { file, made: true, lines };
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  if (argv.length > 1 || argv[0]?.startsWith('-')) {
    console.error(USAGE);
    return 2;
  }
  try {
    const outcome = await runBackup(loadSettings(), argv[0]);
    if (!outcome.made) {
      // Nothing was backed up: a failure, on stderr, for whoever runs it from cron.
      console.error(`db:backup: ${outcome.lines.join('\n')}`);
      return 1;
    }
    console.log(outcome.lines.join('\n'));
    return 0;
  } catch (error) {
    if (error instanceof ConfigError) console.error(`db:backup: bad setting ${error.message}`);
    else if (error instanceof BackupError) console.error(`db:backup: ${error.message}`);
    else console.error('db:backup failed:', error);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
