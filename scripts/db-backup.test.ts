/**
 * `npm run db:backup` round trips: a SQLite database with markers and users, backed up while a
 * writer goes on, opened again from the copy with the same rows; the command line; and on
 * PostgreSQL (TEST_DATABASE_URL and pg_dump present) a dump, a dropped schema, a pg_restore
 * as the printed instructions say, and the same rows back.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Marker } from '../src/domain/marker';
import type { MapId } from '../src/domain/maps';
import { loadConfig } from '../server/config';
import { createRepositories, migrateToLatest, openDatabase, type Db } from '../server/db';
import { tempDir } from '../server/testing/databases';
import { BackupError, backupSqlite, defaultBackupFile, pgDumpArgs, redactUrl, restoreHelp, runBackup } from './db-backup';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const url = process.env.TEST_DATABASE_URL;
const hasPgDump = spawnSync('pg_dump', ['--version']).status === 0 && spawnSync('pg_restore', ['--version']).status === 0;
const dirs: string[] = [];
const open: Db[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((db) => db.close()));
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function marker(uid: string, map: MapId = 'factory'): Marker {
  return {
    uid,
    map,
    category: 'Loot',
    subCategory: 'Safe',
    level: 1,
    geometry: { x: 10, y: 20 },
    name: `Marker ${uid} «ёж»`,
    desc: 'desc',
    imgs: [{ img: `/uploads/markers/${uid}.webp`, name: 'a', desc: 'b' }],
    name_l10n: { ru: 'Маркер' },
    desc_l10n: {},
    questUid: null,
    itemsUid: ['item-1'],
  };
}

/** A migrated database with markers on two maps and three users. */
async function filled(db: Db): Promise<void> {
  await migrateToLatest(db);
  const repos = createRepositories(db);
  await repos.markers.insertMany(Array.from({ length: 150 }, (_, i) => marker(`m-${i}`, i % 2 ? 'factory' : 'woods')));
  await repos.markers.insert(marker('edited'), { user: 'admin1' });
  for (const [name, role] of [['admin1', { admin: true }], ['pro1', { pro: true }], ['visitor1', {}]] as const) {
    await repos.users.create({ name, passwordHash: `scrypt$hash-of-${name}`, ...role });
  }
}

/** Every row of the tables a backup must keep, in a stable order. */
async function snapshot(db: Db) {
  const markers = await db.kysely.selectFrom('markers').selectAll().orderBy('uid').execute();
  const users = (await sql`select * from users order by name`.execute(db.kysely)).rows;
  const history = await db.kysely.selectFrom('marker_history').select(['marker_uid', 'version', 'action', 'user_name']).orderBy('marker_uid').orderBy('version').execute();
  return { markers, users, history };
}

describe('db:backup on SQLite', () => {
  it('copies a database with markers and users; the copy opens with the same rows', async () => {
    const dir = tempDir('raidmap-backup-');
    dirs.push(dir);
    const source = path.join(dir, 'raidmap.sqlite');
    const db = openDatabase({ sqliteFile: source });
    open.push(db);
    await filled(db);
    const before = await snapshot(db);
    expect(before.markers).toHaveLength(151);
    expect(before.users).toHaveLength(3);

    const target = path.join(dir, 'backups', 'copy.sqlite');
    const result = await backupSqlite(source, target);
    expect(result.counts).toMatchObject({ markers: 151, users: 3 });

    // Restore = open the copy (as the server would after `cp copy raidmap.sqlite`).
    const restored = openDatabase({ sqliteFile: target });
    open.push(restored);
    expect(await migrateToLatest(restored)).toEqual([]);
    expect(await snapshot(restored)).toEqual(before);
    expect(await createRepositories(restored).markers.listJsonByMap('factory')).toBe(await createRepositories(db).markers.listJsonByMap('factory'));
  });

  it('is online: a writer goes on during the backup, and the copy is whole and consistent', async () => {
    const dir = tempDir('raidmap-backup-');
    dirs.push(dir);
    const source = path.join(dir, 'raidmap.sqlite');
    const db = openDatabase({ sqliteFile: source });
    open.push(db);
    await filled(db);
    // The server's connection writes on, giving the event loop a turn between writes as a
    // server does between requests (better-sqlite3 itself is synchronous).
    const repos = createRepositories(db);
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        await repos.markers.insert(marker(`during-${written++}`));
        await new Promise((r) => setImmediate(r));
      }
    })();
    const result = await backupSqlite(source, path.join(dir, 'online.sqlite'));
    writing = false;
    await writer;
    expect(written).toBeGreaterThan(0);
    // Everything committed before the backup is there; what came later may or may not be.
    expect(result.counts.markers).toBeGreaterThanOrEqual(151);
    expect(result.counts.markers).toBeLessThanOrEqual(151 + written);
    const copy = openDatabase({ sqliteFile: result.file });
    open.push(copy);
    const rows = await copy.kysely.selectFrom('markers').select('uid').execute();
    expect(rows).toHaveLength(result.counts.markers);
    // The history rows of the copied markers are there too (one transaction each).
    const during = rows.filter((r) => r.uid.startsWith('during-')).length;
    const historyRows = await copy.kysely.selectFrom('marker_history').select(sql<number>`count(*)`.as('n')).where('marker_uid', 'like', 'during-%').executeTakeFirstOrThrow();
    expect(Number(historyRows.n)).toBe(during);
  });

  it('refuses to overwrite a file, and names a missing database', async () => {
    const dir = tempDir('raidmap-backup-');
    dirs.push(dir);
    const source = path.join(dir, 'raidmap.sqlite');
    await expect(backupSqlite(source, path.join(dir, 'x.sqlite'))).rejects.toThrow(/no SQLite database at .*raidmap\.sqlite/);
    const db = openDatabase({ sqliteFile: source });
    open.push(db);
    await migrateToLatest(db);
    fs.writeFileSync(path.join(dir, 'taken.sqlite'), 'keep me');
    await expect(backupSqlite(source, path.join(dir, 'taken.sqlite'))).rejects.toBeInstanceOf(BackupError);
    expect(fs.readFileSync(path.join(dir, 'taken.sqlite'), 'utf8')).toBe('keep me');
  });

  it('runs as `npm run db:backup` with the server settings and prints how to restore', async () => {
    const dir = tempDir('raidmap-backup-');
    dirs.push(dir);
    const db = openDatabase({ sqliteFile: path.join(dir, 'raidmap.sqlite') });
    open.push(db);
    await filled(db);
    const env = { ...process.env, DATA_DIR: dir, DATABASE_URL: '', DATABASE_SCHEMA: '' };
    const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'scripts/db-backup.ts', ...args], { cwd: repoRoot, env, encoding: 'utf8' });

    const made = cli();
    expect(made.status, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/backed up .*raidmap\.sqlite to .*backups\/raidmap-\d{8}-\d{6}Z\.sqlite .*markers 151, users 3.*integrity check ok/);
    expect(made.stdout).toMatch(/To restore this backup \(SQLite\)/);
    expect(made.stdout).toMatch(/npm run db:restore -- .*backups\/raidmap-\d{8}-\d{6}Z\.sqlite/);
    // One file, no -wal / -shm beside it.
    expect(fs.readdirSync(path.join(dir, 'backups'))).toEqual([expect.stringMatching(/^raidmap-.*\.sqlite$/)]);

    const named = path.join(dir, 'named.sqlite');
    expect(cli(named).status).toBe(0);
    const again = cli(named);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/db:backup: .*named\.sqlite exists already/);
    expect(cli('a', 'b').status).toBe(2);
    expect(cli('--help').stdout).toMatch(/usage: npm run db:backup/);
  }, 60_000);
});

describe('db:backup on PostgreSQL, the parts without a database', () => {
  it('builds the pg_dump command for the schema, and prints it without the password when pg_dump is missing', async () => {
    expect(pgDumpArgs('postgres://u:secret@h/db', 'site_b', '/b/x.dump')).toEqual([
      '--format=custom', '--no-owner', '--no-privileges', '--file=/b/x.dump', '--schema=site_b', '--dbname=postgres://u:secret@h/db',
    ]);
    expect(pgDumpArgs('postgres://h/db', undefined, '/b/x.dump')).not.toContain('--schema=');
    expect(redactUrl('postgres://u:secret@h:5432/db')).toBe('postgres://u:*****@h:5432/db');
    const dir = tempDir('raidmap-backup-');
    dirs.push(dir);
    const config = loadConfig({ DATA_DIR: dir, DATABASE_URL: 'postgres://u:secret@h/db', DATABASE_SCHEMA: 'site_b' });
    expect(defaultBackupFile(config, new Date('2026-01-02T03:04:05.678Z'))).toBe(path.join(dir, 'backups', 'raidmap-20260102-030405Z.dump'));
    const outcome = await runBackup(config, path.join(dir, 'x.dump'), { PATH: '/nonexistent' });
    expect(outcome.made).toBe(false);
    const text = outcome.lines.join('\n');
    expect(text).toMatch(/^pg_dump was not found \(pg_dump on PATH: not found\): no dump was made/);
    expect(text).toContain(`pg_dump --format=custom --no-owner --no-privileges --file=${path.join(dir, 'x.dump')} --schema=site_b`);
    expect(text).not.toContain('secret');
    expect(fs.existsSync(path.join(dir, 'x.dump'))).toBe(false);
    // PG_DUMP naming nothing that runs is the same: not a raw spawn error.
    const named = await runBackup(config, path.join(dir, 'x.dump'), { ...process.env, PG_DUMP: '/nonexistent/pg_dump' });
    expect(named.made).toBe(false);
    expect(named.lines[0]).toMatch(/^pg_dump was not found \(PG_DUMP=\/nonexistent\/pg_dump: not found\)/);
    expect(restoreHelp(config, '/b/x.dump')).toMatch(/drop schema if exists site_b cascade/);
  });

  it('exits 1 when no dump was made, with the reason and the command on stderr (a cron job sees the failure)', () => {
    const dir = tempDir('raidmap-backup-');
    dirs.push(dir);
    for (const extra of [{ PG_DUMP: '/nonexistent' }, { PATH: '/nonexistent' }]) {
      const env = { ...process.env, DATA_DIR: dir, DATABASE_URL: 'postgres://u:secret@h/db', DATABASE_SCHEMA: 'site_b', PG_DUMP: '', ...extra };
      const res = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/db-backup.ts', path.join(dir, 'y.dump')], { cwd: repoRoot, env, encoding: 'utf8' });
      expect(res.status, res.stderr).toBe(1);
      expect(res.stdout).toBe('');
      expect(res.stderr).toMatch(/^db:backup: pg_dump was not found \(.*\): no dump was made/);
      expect(res.stderr).toContain('pg_dump --format=custom');
      expect(res.stderr).not.toContain('secret');
      expect(res.stderr).not.toMatch(/spawnSync|ENOENT/);
      expect(fs.existsSync(path.join(dir, 'y.dump'))).toBe(false);
    }
  }, 60_000);
});

describe.skipIf(!url || !hasPgDump)(
  url && hasPgDump ? 'db:backup on PostgreSQL: pg_dump and pg_restore round trip' : 'db:backup on PostgreSQL: skipped, needs TEST_DATABASE_URL and pg_dump/pg_restore on PATH',
  () => {
    it('dumps the schema, which pg_restore brings back with the same rows after it was dropped', async () => {
      const dir = tempDir('raidmap-backup-');
      dirs.push(dir);
      const schema = `backup_${process.pid}_${Date.now().toString(36)}`;
      const db = openDatabase({ databaseUrl: url!, pgSchema: schema });
      try {
        await filled(db);
        const before = await snapshot(db);
        const config = loadConfig({ DATA_DIR: dir, DATABASE_URL: url!, DATABASE_SCHEMA: schema });
        const outcome = await runBackup(config, undefined);
        expect(outcome.made).toBe(true);
        expect(outcome.lines[0]).toMatch(new RegExp(`dumped .* \\(schema ${schema}\\) to .*\\.dump`));
        const { password } = new URL(url!);
        if (password) expect(outcome.lines.join('\n')).not.toContain(`:${password}@`);

        await sql`drop schema ${sql.id(schema)} cascade`.execute(db.kysely);
        const restore = spawnSync('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${url}`, outcome.file], { encoding: 'utf8' });
        expect(restore.status, restore.stderr).toBe(0);
        // A fresh pool, as a restarted server would have.
        const restored = openDatabase({ databaseUrl: url!, pgSchema: schema });
        try {
          expect(await migrateToLatest(restored)).toEqual([]);
          expect(await snapshot(restored)).toEqual(before);
        } finally {
          await restored.close();
        }
      } finally {
        await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db.kysely).catch(() => undefined);
        await db.close();
      }
    }, 60_000);
  },
);
