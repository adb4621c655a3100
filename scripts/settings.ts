/**
 * The operator's commands (`npm run user`, `npm run db:backup`, …) and the site's database: the
 * same settings reader as the server (loadConfig) and the same database options
 * (databaseOptions: DATABASE_URL, DATABASE_SCHEMA, DATA_DIR), so a command always works on the
 * database the server uses. Only a command meant to (`user add`) may create one: any other
 * refuses a missing one, since a typo in DATA_DIR would otherwise make a new, empty database
 * and report success on it.
 */
import fs from 'node:fs';
import { sql } from 'kysely';
import { loadConfig, type ServerConfig } from '../server/config';
import { databaseOptions, openDatabase, type Db } from '../server/db';

export { ConfigError } from '../server/config';

/** The server's settings from the environment (ConfigError names a bad variable). */
export function loadSettings(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ServerConfig {
  return loadConfig(env, cwd);
}

/** The database in words, for messages: the SQLite file, or PostgreSQL with its schema. */
export function describeDatabase(config: Pick<ServerConfig, 'databaseUrl' | 'databaseSchema' | 'sqliteFile'>): string {
  if (!config.databaseUrl) return config.sqliteFile;
  let where = 'PostgreSQL';
  try {
    const url = new URL(config.databaseUrl);
    where += ` ${url.host}${url.pathname}`;
  } catch {
    // Only for the message: the URL itself was checked by loadConfig.
  }
  return config.databaseSchema ? `${where} (schema ${config.databaseSchema})` : where;
}

/** The settings name no database yet: nothing was opened or created. */
export class MissingDatabaseError extends Error {}

export interface SiteDatabase {
  db: Db;
  /** True when this call created the database (only with `create`). */
  created: boolean;
}

/**
 * Opens the database the settings name. Without `create`, a missing one is refused
 * (MissingDatabaseError) before anything is written: no SQLite file at $DATA_DIR/raidmap.sqlite,
 * or a PostgreSQL database / schema the server has never migrated.
 */
export async function openSiteDatabase(config: ServerConfig, options: { create: boolean }): Promise<SiteDatabase> {
  if (!config.databaseUrl) {
    const exists = fs.existsSync(config.sqliteFile);
    if (!exists && !options.create) throw new MissingDatabaseError(`no database at ${config.sqliteFile}: is DATA_DIR right?`);
    return { db: openDatabase(databaseOptions(config)), created: !exists };
  }
  const db = openDatabase(databaseOptions(config));
  try {
    // Kysely's bookkeeping table, in the schema when one is set (server/db/database.ts).
    const table = config.databaseSchema ? `${config.databaseSchema}.kysely_migration` : 'kysely_migration';
    const { rows } = await sql<{ found: string | null }>`select to_regclass(${table}) as found`.execute(db.kysely);
    const exists = rows[0]?.found != null;
    if (!exists && !options.create) {
      throw new MissingDatabaseError(`no database at ${describeDatabase(config)}: are DATABASE_URL and DATABASE_SCHEMA right?`);
    }
    return { db, created: !exists };
  } catch (error) {
    await db.close();
    throw error;
  }
}
