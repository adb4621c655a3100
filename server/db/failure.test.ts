/**
 * Storage failures (server/db/failure.ts) and SQLite's own rollback: a full disk is reported as
 * SQLITE_FULL, not as Kysely's failed rollback after SQLite had already rolled back.
 */
import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { connectionErrorLine, openDatabase } from './database';
import { DISK_FULL_MESSAGE, UNAVAILABLE_MESSAGE, storageFailure } from './failure';

const withCode = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

describe('storageFailure', () => {
  it('says a full disk (507) and a database that does not answer (503); anything else is null', () => {
    expect(storageFailure(withCode('database or disk is full', 'SQLITE_FULL'))).toEqual({ status: 507, message: DISK_FULL_MESSAGE, code: 'SQLITE_FULL', reason: 'the disk is full' });
    expect(storageFailure(withCode('no space left on device', 'ENOSPC'))?.status).toBe(507);
    expect(storageFailure(withCode('could not extend file', '53100'))?.status).toBe(507);
    for (const error of [
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('the database system is starting up', '57P03'),
      withCode('connection failure', '08006'),
      withCode('Connection terminated unexpectedly'),
      withCode('Client has encountered a connection error and is not queryable'),
      withCode('database is locked', 'SQLITE_BUSY'),
      withCode('disk I/O error', 'SQLITE_IOERR_WRITE'),
    ]) {
      expect(storageFailure(error)).toMatchObject({ status: 503, message: UNAVAILABLE_MESSAGE });
    }
    expect(storageFailure(withCode('duplicate key value', '23505'))).toBeNull();
    expect(storageFailure(withCode('UNIQUE constraint failed', 'SQLITE_CONSTRAINT_UNIQUE'))).toBeNull();
    expect(storageFailure(new Error('Connection terminated unexpectedly, said the bug'))).toMatchObject({ status: 503 });
    expect(storageFailure(new TypeError('x is undefined'))).toBeNull();
    expect(storageFailure('text')).toBeNull();
  });
});

describe('SQLite with a full disk', () => {
  it('a transaction fails with SQLITE_FULL (not "cannot rollback"), and what was stored stays', async () => {
    const db = openDatabase({ sqliteFile: ':memory:' });
    try {
      await sql`create table t (x text)`.execute(db.kysely);
      await sql`insert into t values ('kept')`.execute(db.kysely);
      // No page may be added: the disk is full as far as SQLite can tell.
      db.sqlite!.pragma(`max_page_count = ${db.sqlite!.pragma('page_count', { simple: true }) as number}`);
      const big = 'y'.repeat(5000);
      const write = db.kysely.transaction().execute(async (trx) => {
        await sql`insert into t values ('half')`.execute(trx);
        await sql`insert into t select ${big} from (with recursive c(n) as (select 1 union all select n + 1 from c where n < 100) select n from c)`.execute(trx);
      });
      await expect(write).rejects.toMatchObject({ code: 'SQLITE_FULL' });
      expect(db.sqlite!.inTransaction).toBe(false);
      const { rows } = await sql<{ x: string }>`select x from t`.execute(db.kysely);
      expect(rows.map((r) => r.x)).toEqual(['kept']);
      // An ordinary failure inside a transaction still rolls it back.
      db.sqlite!.pragma('max_page_count = 1000000');
      const failing = db.kysely.transaction().execute(async (trx) => {
        await sql`insert into t values ('rolled back')`.execute(trx);
        throw new Error('the caller changed its mind');
      });
      await expect(failing).rejects.toThrow('the caller changed its mind');
      expect((await sql<{ n: number }>`select count(*) as n from t`.execute(db.kysely)).rows[0].n).toBe(1);
    } finally {
      await db.close();
    }
  });
});

describe('PostgreSQL pool connection errors', () => {
  // A pool to nowhere: it opens no connection until a query, so none is needed here.
  const open = (onConnectionError?: (error: Error) => void) => openDatabase({ databaseUrl: 'postgres://nobody@127.0.0.1:1/none', onConnectionError });

  it('an idle client\'s error is said once, not thrown (pg would end the process without a listener)', async () => {
    const said = vi.fn();
    const db = open(said);
    try {
      const lost = withCode('Connection terminated unexpectedly');
      expect(() => db.pgPool!.emit('error', lost, new EventEmitter())).not.toThrow();
      expect(said).toHaveBeenCalledTimes(1);
      expect(said).toHaveBeenCalledWith(lost);
    } finally {
      await db.close();
    }
  });

  it('a client in use (no pool listener on it) may emit its error too', async () => {
    const db = open(() => undefined);
    try {
      const client = new EventEmitter();
      db.pgPool!.emit('connect', client);
      expect(() => client.emit('error', withCode('Connection terminated unexpectedly'))).not.toThrow();
    } finally {
      await db.close();
    }
  });

  it('by default writes one short line, without the client object', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const db = open();
    try {
      db.pgPool!.emit('error', withCode('read ECONNRESET', 'ECONNRESET'), { secret: 'password=hunter2' });
      expect(warn.mock.calls).toEqual([[connectionErrorLine(withCode('read ECONNRESET', 'ECONNRESET'))]]);
      expect(warn.mock.calls[0][0]).toBe('raidmap: a PostgreSQL connection was lost (read ECONNRESET, ECONNRESET); the next query opens a new one');
    } finally {
      warn.mockRestore();
      await db.close();
    }
  });
});
