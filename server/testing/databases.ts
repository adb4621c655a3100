/**
 * Database backends for server tests: a fresh SQLite file in a temp folder always, and
 * PostgreSQL too when TEST_DATABASE_URL is set (scripts/ensure-postgres.sh prints one).
 * Each `open()` returns an empty, un-migrated database.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type Db, type OpenDatabaseOptions } from '../db/database';

/** A test database, with the settings that open it again (from another thread: server/lists/). */
export type TestDb = Db & { settings: OpenDatabaseOptions };

export interface TestBackend {
  name: 'sqlite' | 'postgres';
  open(): Promise<TestDb>;
}

export function tempDir(prefix = 'raidmap-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

let schemas = 0;

export function testBackends(): TestBackend[] {
  const backends: TestBackend[] = [
    {
      name: 'sqlite',
      open: async () => {
        const dir = tempDir();
        const settings = { sqliteFile: path.join(dir, 'raidmap.sqlite') };
        const db = openDatabase(settings);
        // Closing the database also removes its temp folder.
        return { ...db, settings, close: () => db.close().finally(() => fs.rmSync(dir, { recursive: true, force: true })) };
      },
    },
  ];
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    backends.push({
      name: 'postgres',
      open: async () => {
        // Test files run in parallel on one database: each open() works in its own schema,
        // dropped again on close.
        const schema = `test_${process.pid}_${++schemas}`;
        const settings = { databaseUrl: url, pgSchema: schema };
        const db = openDatabase(settings);
        await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db.kysely);
        await sql`create schema ${sql.id(schema)}`.execute(db.kysely);
        return {
          ...db,
          settings,
          close: async () => {
            await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db.kysely);
            await db.close();
          },
        };
      },
    });
  }
  return backends;
}
