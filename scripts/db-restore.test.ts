/**
 * `npm run db:restore`: refuses while a server holds the SQLite lock and refuses a backup that is
 * not an intact raidmap database, changing nothing either way; a restore replaces the data,
 * keeps the previous database aside with the writes still in its WAL, never reuses an aside
 * name, and releases the lock; the command line's exit codes.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Marker } from '../src/domain/marker';
import { loadConfig } from '../server/config';
import { createRepositories, migrateToLatest, openDatabase } from '../server/db';
import { DatabaseInUseError, lockSqliteDatabase, type SqliteLock } from '../server/db/sqlite-lock';
import { tempDir } from '../server/testing/databases';
import { backupSqlite, restoreHelp } from './db-backup';
import { RestoreError, restoreSqlite, runRestore } from './db-restore';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dirs: string[] = [];
const locks: SqliteLock[] = [];

afterEach(() => {
  for (const lock of locks.splice(0)) lock.release();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function dir(): string {
  const d = tempDir('raidmap-restore-');
  dirs.push(d);
  return d;
}

function marker(uid: string): Marker {
  return {
    uid, map: 'factory', category: 'Loot', subCategory: 'Safe', level: 1, geometry: { x: 1, y: 2 },
    name: uid, desc: '', imgs: [], name_l10n: {}, desc_l10n: {}, questUid: null, itemsUid: [],
  };
}

/** A migrated raidmap database at `file` with `n` markers, closed again. */
async function makeDb(file: string, n: number, prefix = 'm'): Promise<void> {
  const db = openDatabase({ sqliteFile: file });
  await migrateToLatest(db);
  await createRepositories(db).markers.insertMany(Array.from({ length: n }, (_, i) => marker(`${prefix}-${i}`)));
  await db.close();
}

/** A checked backup (one file, journal_mode DELETE) with `n` markers. */
async function makeBackup(d: string, n: number): Promise<string> {
  const src = path.join(d, `src-${n}`, 'raidmap.sqlite');
  await makeDb(src, n, 'b');
  const file = path.join(d, `backup-${n}.sqlite`);
  await backupSqlite(src, file);
  return file;
}

function markerCount(file: string): number {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('select count(*) as n from markers').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** Every file in `d` (not below) with its bytes, to compare before and after. */
function listing(d: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of fs.readdirSync(d)) {
    const p = path.join(d, name);
    if (fs.statSync(p).isFile() && !name.endsWith('.lock')) out[name] = fs.readFileSync(p).toString('base64');
  }
  return out;
}

describe('db:restore on SQLite', () => {
  it('refuses while a server holds the lock, naming it, and changes nothing', async () => {
    const d = dir();
    const data = path.join(d, 'data');
    const sqliteFile = path.join(data, 'raidmap.sqlite');
    await makeDb(sqliteFile, 3);
    const backup = await makeBackup(d, 5);
    locks.push(lockSqliteDatabase(sqliteFile, { pid: 4242, host: 'server-host', startedAt: '2026-01-01T00:00:00.000Z' }));
    const before = listing(data);

    const error = await restoreSqlite(sqliteFile, backup).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseInUseError);
    expect((error as Error).message).toMatch(/pid 4242 on server-host/);
    expect(listing(data)).toEqual(before);
    expect(markerCount(sqliteFile)).toBe(3);
  });

  it('refuses a missing file, a non-SQLite file and a SQLite file without raidmap tables; nothing changes and the lock is released', async () => {
    const d = dir();
    const data = path.join(d, 'data');
    const sqliteFile = path.join(data, 'raidmap.sqlite');
    await makeDb(sqliteFile, 3);
    const before = listing(data);

    const text = path.join(d, 'notes.txt');
    fs.writeFileSync(text, 'this is not a database, just some text that is long enough to have a header\n'.repeat(20));
    const other = path.join(d, 'other.sqlite');
    const db = new SQLite(other);
    db.exec('create table things (id integer primary key)');
    db.close();
    const truncated = path.join(d, 'truncated.sqlite');
    fs.writeFileSync(truncated, fs.readFileSync(await makeBackup(d, 50)).subarray(0, 200));

    await expect(restoreSqlite(sqliteFile, path.join(d, 'missing.sqlite'))).rejects.toThrow(/no backup file at .*missing\.sqlite/);
    await expect(restoreSqlite(sqliteFile, text)).rejects.toThrow(/notes\.txt is not a SQLite database/);
    await expect(restoreSqlite(sqliteFile, other)).rejects.toThrow(/not a raidmap one \(it has no markers table\)/);
    await expect(restoreSqlite(sqliteFile, truncated)).rejects.toThrow(RestoreError);
    await expect(restoreSqlite(sqliteFile, d)).rejects.toThrow(/is not a file/);
    await expect(restoreSqlite(sqliteFile, sqliteFile)).rejects.toThrow(/is the database itself/);
    expect(listing(data)).toEqual(before);
    // The lock was released after each refusal: a server can start.
    locks.push(lockSqliteDatabase(sqliteFile));
  });

  it('refuses a missing backup file before creating DATA_DIR or a lock file', async () => {
    const d = dir();
    const data = path.join(d, 'data');
    await expect(restoreSqlite(path.join(data, 'raidmap.sqlite'), path.join(d, 'typo.sqlite'))).rejects.toThrow(/no backup file at .*typo\.sqlite/);
    expect(fs.existsSync(data)).toBe(false);
  });

  it('replaces the data, keeps the old database aside with the writes still in its WAL, and releases the lock', async () => {
    const d = dir();
    const data = path.join(d, 'data');
    const sqliteFile = path.join(data, 'raidmap.sqlite');
    const backup = await makeBackup(d, 7);
    const backupBytes = fs.readFileSync(backup);

    // The current database as a server leaves it when killed: recent writes only in -wal.
    const live = path.join(d, 'live', 'raidmap.sqlite');
    await makeDb(live, 2);
    const writer = new SQLite(live);
    writer.pragma('journal_mode = WAL');
    writer.pragma('wal_autocheckpoint = 0');
    // Doubles the markers twice (2 → 8), the new rows only in the WAL.
    for (const suffix of ['-w1', '-w2']) {
      writer.exec(`create temp table t as select * from markers; update t set uid = uid || '${suffix}'; insert into markers select * from t; drop table t;`);
    }
    fs.mkdirSync(data, { recursive: true });
    fs.copyFileSync(live, sqliteFile);
    fs.copyFileSync(`${live}-wal`, `${sqliteFile}-wal`);
    writer.close();
    expect(fs.statSync(`${sqliteFile}-wal`).size).toBeGreaterThan(0);
    // Without its WAL the main file has only the first 2 markers.
    const mainOnly = path.join(d, 'main-only.sqlite');
    fs.copyFileSync(sqliteFile, mainOnly);
    expect(markerCount(mainOnly)).toBe(2);

    const now = new Date('2026-03-04T05:06:07.890Z');
    const result = await restoreSqlite(sqliteFile, backup, now);
    expect(result.counts.markers).toBe(7);
    expect(markerCount(sqliteFile)).toBe(7);
    expect(result.aside).toBe(`${sqliteFile}.before-restore-20260304-050607Z`);
    expect(result.keptAsIs).toBe(false);
    // The kept file alone (no -wal beside it) has all 8 markers: the WAL was folded in.
    expect(fs.existsSync(`${result.aside}-wal`)).toBe(false);
    const asideAlone = path.join(d, 'aside-alone.sqlite');
    fs.copyFileSync(result.aside!, asideAlone);
    expect(markerCount(asideAlone)).toBe(8);
    // No stale companions, no temporary files; the backup itself untouched.
    expect(fs.readdirSync(data).sort()).toEqual(['raidmap.sqlite', 'raidmap.sqlite.before-restore-20260304-050607Z', 'raidmap.sqlite.lock']);
    expect(fs.readFileSync(backup).equals(backupBytes)).toBe(true);

    // A server starts on it: the lock is free, the database opens and migrates (nothing to do).
    locks.push(lockSqliteDatabase(sqliteFile));
    const db = openDatabase({ sqliteFile });
    expect(await migrateToLatest(db)).toEqual([]);
    expect(await createRepositories(db).markers.listJsonByMap('factory')).toContain('b-6');
    await db.close();
    locks.pop()!.release();

    // A second restore in the same second keeps a second, distinct aside file.
    const backup2 = await makeBackup(d, 4);
    const second = await restoreSqlite(sqliteFile, backup2, now);
    expect(second.aside).toBe(`${sqliteFile}.before-restore-20260304-050607Z-2`);
    expect(markerCount(second.aside!)).toBe(7);
    expect(markerCount(result.aside!)).toBe(8);
    expect(markerCount(sqliteFile)).toBe(4);
  });

  it('puts the backup in place when there is no database yet', async () => {
    const d = dir();
    const sqliteFile = path.join(d, 'fresh', 'raidmap.sqlite');
    const backup = await makeBackup(d, 3);
    const result = await restoreSqlite(sqliteFile, backup);
    expect(result.aside).toBeUndefined();
    expect(markerCount(sqliteFile)).toBe(3);
    expect(fs.readdirSync(path.dirname(sqliteFile)).sort()).toEqual(['raidmap.sqlite', 'raidmap.sqlite.lock']);
  });

  it('keeps a current database that cannot be opened as it was, with its -wal', async () => {
    const d = dir();
    const sqliteFile = path.join(d, 'data', 'raidmap.sqlite');
    fs.mkdirSync(path.dirname(sqliteFile));
    fs.writeFileSync(sqliteFile, 'garbage '.repeat(100));
    fs.writeFileSync(`${sqliteFile}-wal`, 'wal frames');
    fs.writeFileSync(`${sqliteFile}-shm`, 'index');
    const result = await restoreSqlite(sqliteFile, await makeBackup(d, 2));
    expect(result.keptAsIs).toBe(true);
    expect(fs.readFileSync(result.aside!, 'utf8')).toBe('garbage '.repeat(100));
    expect(fs.readFileSync(`${result.aside}-wal`, 'utf8')).toBe('wal frames');
    expect(fs.existsSync(`${sqliteFile}-wal`)).toBe(false);
    expect(fs.existsSync(`${sqliteFile}-shm`)).toBe(false);
    expect(markerCount(sqliteFile)).toBe(2);
  });

  it('on PostgreSQL prints the pg_restore steps and answers 2', async () => {
    const config = loadConfig({ DATA_DIR: dir(), DATABASE_URL: 'postgres://u:secret@h/db' });
    const outcome = await runRestore(config, '/b/x.dump');
    expect(outcome.code).toBe(2);
    expect(outcome.lines.join('\n')).toBe(restoreHelp(config, '/b/x.dump'));
    expect(outcome.errors.join('\n')).toMatch(/handles SQLite only/);
  });

  it('runs as `npm run db:restore -- <file>` with exit codes 0, 1 and 2', async () => {
    const d = dir();
    const data = path.join(d, 'data');
    await makeDb(path.join(data, 'raidmap.sqlite'), 1);
    const backup = await makeBackup(d, 6);
    const env = { ...process.env, DATA_DIR: data, DATABASE_URL: '', DATABASE_SCHEMA: '' };
    const cli = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'scripts/db-restore.ts', ...args], { cwd: repoRoot, env: { ...env, ...extra }, encoding: 'utf8' });

    expect(cli(['--help']).stdout).toMatch(/usage: npm run db:restore -- <backup file>/);
    expect(cli([]).status).toBe(2);
    expect(cli(['a', 'b']).status).toBe(2);
    const pg = cli([backup], { DATABASE_URL: 'postgres://u:secret@h/db' });
    expect(pg.status).toBe(2);
    expect(pg.stdout).toMatch(/pg_restore --no-owner/);
    expect(pg.stderr).toMatch(/db:restore: it handles SQLite only, and DATABASE_URL is set/);

    const missing = cli([path.join(d, 'nope.sqlite')]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/db:restore: nothing changed: no backup file at/);

    const lock = lockSqliteDatabase(path.join(data, 'raidmap.sqlite'));
    const refused = cli([backup]);
    lock.release();
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/db:restore: refused, nothing changed: .*in use by another raidmap server \(pid \d+/);
    expect(markerCount(path.join(data, 'raidmap.sqlite'))).toBe(1);

    const done = cli([backup]);
    expect(done.status, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/restored .*raidmap\.sqlite from .*backup-6\.sqlite \(markers 6, .*\); integrity check ok/);
    expect(done.stdout).toMatch(/previous database is kept as .*raidmap\.sqlite\.before-restore-\d{8}-\d{6}Z/);
    expect(markerCount(path.join(data, 'raidmap.sqlite'))).toBe(6);
  }, 60_000);
});
