/**
 * Opens the database: SQLite through better-sqlite3 (default, WAL mode) or PostgreSQL through
 * pg, both behind one Kysely<Database>. Routes never touch this directly; the repositories do.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, SqliteDriver, type DatabaseConnection, type MigrationResult } from 'kysely';
import pg from 'pg';
import { isPostgresUrl, type ServerConfig } from '../config';
import { migrationProvider } from './migrations';
import type { Database } from './schema';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** Largest number of bound parameters one statement may carry on this dialect. */
  maxParams: number;
  /**
   * SQLite only: the better-sqlite3 handle under Kysely, for bulk paths that need prepared
   * statements (100,000-row inserts). Everything else goes through `kysely`.
   */
  sqlite?: SQLite.Database;
  /** PostgreSQL only: the connection pool under Kysely (tests break its connections). */
  pgPool?: pg.Pool;
  /** PostgreSQL schema in use when one was chosen (pgSchema). */
  schema?: string;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** `postgres://…` for PostgreSQL; otherwise `sqliteFile` is used. */
  databaseUrl?: string;
  /** SQLite file path, or ':memory:'. */
  sqliteFile?: string;
  /** PostgreSQL only: the schema to work in (search_path), e.g. one per test file. Default: the server's. */
  pgSchema?: string;
  /**
   * PostgreSQL only: a pooled connection broke while idle (a database restart, a network cut).
   * The pool drops it and opens a new one on the next query; this only says so. Without a
   * listener pg's 'error' event would end the process. Default: one line on the console.
   */
  onConnectionError?: (error: Error) => void;
}

/** The one line a broken idle connection is worth: what happened, never the client object. */
export function connectionErrorLine(error: Error): string {
  const code = (error as { code?: unknown }).code;
  return `raidmap: a PostgreSQL connection was lost (${error.message}${typeof code === 'string' ? `, ${code}` : ''}); the next query opens a new one`;
}

/**
 * SQLite ends a transaction itself when a statement fails with SQLITE_FULL, SQLITE_IOERR and
 * the like; Kysely's `rollback` after that fails with "cannot rollback - no transaction is
 * active", and that error, not the disk's, is what the caller saw and logged. Rolling back only
 * a transaction that is still open lets the real error through.
 */
class SqliteDriverKeepingErrors extends SqliteDriver {
  constructor(private readonly sqlite: SQLite.Database) {
    super({ database: sqlite });
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.sqlite.inTransaction) await super.rollbackTransaction(connection);
  }
}

class SqliteDialectKeepingErrors extends SqliteDialect {
  constructor(private readonly sqlite: SQLite.Database) {
    super({ database: sqlite });
  }

  override createDriver(): SqliteDriver {
    return new SqliteDriverKeepingErrors(this.sqlite);
  }
}

/**
 * The database the server's settings name: PostgreSQL (in DATABASE_SCHEMA when set) or the
 * SQLite file. Every entry point that opens the site's database (the server, `npm run user`,
 * the other scripts) takes its options from here, so none can forget a setting (the user
 * command once ignored DATABASE_SCHEMA and migrated the role's default schema instead).
 */
export function databaseOptions(config: Pick<ServerConfig, 'databaseUrl' | 'databaseSchema' | 'sqliteFile'>): OpenDatabaseOptions {
  return config.databaseUrl ? { databaseUrl: config.databaseUrl, pgSchema: config.databaseSchema } : { sqliteFile: config.sqliteFile };
}

export function openDatabase(options: OpenDatabaseOptions): Db {
  if (options.databaseUrl !== undefined) {
    if (!isPostgresUrl(options.databaseUrl)) {
      throw new Error('databaseUrl must start with postgres:// or postgresql://');
    }
    if (options.pgSchema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(options.pgSchema)) {
      throw new Error(`pgSchema must be a plain lower-case identifier, got "${options.pgSchema}"`);
    }
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    // An idle client's error (pg emits it on the pool) must not end the process; a query's
    // own connection error still rejects that query (503, server/http/errors.ts).
    const onConnectionError = options.onConnectionError ?? ((error: Error) => console.warn(connectionErrorLine(error)));
    pool.on('error', (error) => onConnectionError(error));
    // pg-pool listens on a client only while it is idle; a client Kysely holds (mid-query, mid-
    // transaction) emits its connection error with no listener at all. Its queries are rejected
    // with that error already and the pool drops it on release (no longer queryable): here it
    // only must not be fatal. An idle client's error also reaches the pool's listener above.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { kysely, dialect: 'postgres', maxParams: 65_000, pgPool: pool, schema: options.pgSchema, close: () => kysely.destroy() };
  }
  const file = options.sqliteFile;
  if (!file) throw new Error('openDatabase needs a databaseUrl or a sqliteFile');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  const kysely = new Kysely<Database>({ dialect: new SqliteDialectKeepingErrors(sqlite) });
  return { kysely, dialect: 'sqlite', maxParams: 32_000, sqlite, close: () => kysely.destroy() };
}

export class MigrationError extends Error {
  constructor(cause: unknown, readonly results: MigrationResult[]) {
    super(`database migration failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'MigrationError';
  }
}

/** Runs every pending migration. Safe to call on every start: applied ones are skipped. */
export async function migrateToLatest(db: Db): Promise<MigrationResult[]> {
  const migrator = new Migrator({
    db: db.kysely,
    provider: migrationProvider,
    // Kysely looks for its bookkeeping tables by schema, not through search_path.
    ...(db.schema ? { migrationTableSchema: db.schema } : {}),
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) throw new MigrationError(error, results);
  return results;
}
