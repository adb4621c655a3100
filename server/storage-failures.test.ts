/**
 * The API when its storage fails: a full SQLite disk answers 507 and keeps what was stored; a
 * PostgreSQL connection cut (a restart, the network) answers 503 with Retry-After, ends nothing,
 * and the same process serves again once the database is back. Health says both.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from './app';
import { createRepositories, migrateToLatest, openDatabase, type Db } from './db';
import { DISK_FULL_MESSAGE, RETRY_AFTER_S, UNAVAILABLE_MESSAGE } from './db/failure';
import { signInRoles, type RoleCookies } from './testing/accounts';
import { tempDir, testBackends } from './testing/databases';
import { testMarker } from './testing/markers';
import { startTcpProxy, type TcpProxy } from './testing/tcp-proxy';

/** Log lines of the app at error level, as parsed JSON. */
function logSink(): { stream: Writable; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { stream, lines };
}

describe.each(testBackends())('health on $name', (backend) => {
  let db: Db;
  let root: string;
  beforeAll(async () => {
    root = tempDir();
    db = await backend.open();
    await migrateToLatest(db);
  });
  afterAll(async () => {
    await db.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('is ok while tiles build and once built; degraded (still 200) with maps whose tiles failed', async () => {
    let progress = { ready: false, done: 1, total: 4, failed: [] as string[] };
    const app = buildServer({ db, uploadsDir: path.join(root, 'uploads'), tiles: false, distDir: path.join(root, 'dist'), tileProgress: () => progress });
    try {
      const building = await app.inject({ url: '/api/be/health' });
      expect(building.statusCode).toBe(200);
      expect(building.json()).toEqual({ status: 'ok', tiles: { ready: false, done: 1, total: 4, failed: [] }, database: { ok: true } });
      progress = { ready: true, done: 4, total: 4, failed: ['customs', 'woods'] };
      const failed = await app.inject({ url: '/api/be/health' });
      expect(failed.statusCode).toBe(200);
      expect(failed.headers['cache-control']).toBe('no-store');
      expect(failed.json()).toEqual({ status: 'degraded', tiles: { ready: true, done: 4, total: 4, failed: ['customs', 'woods'] }, database: { ok: true } });
    } finally {
      await app.close();
    }
  });
});

describe('SQLite with a full disk', () => {
  let app: FastifyInstance;
  let db: Db;
  let root: string;
  let cookies: RoleCookies;
  const log = logSink();
  const add = (uid: string, payload = testMarker(uid)) =>
    app.inject({ method: 'POST', url: '/api/be/admin/marker/add', headers: { 'content-type': 'application/json', cookie: cookies.admin }, payload: JSON.stringify(payload) } satisfies InjectOptions);

  beforeAll(async () => {
    root = tempDir();
    db = openDatabase({ sqliteFile: path.join(root, 'raidmap.sqlite') });
    await migrateToLatest(db);
    const repos = createRepositories(db);
    app = buildServer({ db, repos, uploadsDir: path.join(root, 'uploads'), tiles: false, distDir: path.join(root, 'dist'), logger: { level: 'error', stream: log.stream } });
    await app.ready();
    cookies = await signInRoles(app, repos);
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('answers 507 with a message, logs SQLITE_FULL in one line and keeps every stored marker', async () => {
    expect((await add('before')).statusCode).toBe(201);
    db.sqlite!.pragma(`max_page_count = ${db.sqlite!.pragma('page_count', { simple: true }) as number}`);
    const res = await add('too-big', testMarker('too-big', { desc: 'x'.repeat(4000) }));
    expect(res.statusCode).toBe(507);
    expect(res.json()).toEqual({ error: 'Insufficient Storage', message: DISK_FULL_MESSAGE });
    const line = log.lines.find((l) => l.msg === 'request failed: the disk is full');
    expect(line).toMatchObject({ code: 'SQLITE_FULL', reason: 'database or disk is full' });
    expect(JSON.stringify(log.lines)).not.toMatch(/cannot rollback/);

    db.sqlite!.pragma('max_page_count = 1073741823');
    const uids = (await sql<{ uid: string }>`select uid from markers order by uid`.execute(db.kysely)).rows.map((r) => r.uid);
    expect(uids).toEqual(['before']);
    // Space again: the same write goes through.
    expect((await add('too-big', testMarker('too-big', { desc: 'x'.repeat(4000) }))).statusCode).toBe(201);
  });
});

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('PostgreSQL connection cut', () => {
  const schema = `test_outage_${process.pid}`;
  let direct: Db;
  let db: Db;
  let app: FastifyInstance;
  let proxy: TcpProxy;
  let root: string;
  const lost: Error[] = [];
  const log = logSink();

  beforeAll(async () => {
    root = tempDir();
    direct = openDatabase({ databaseUrl: url! });
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(direct.kysely);
    await sql`create schema ${sql.id(schema)}`.execute(direct.kysely);
    const target = new URL(url!);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    db = openDatabase({ databaseUrl: proxy.url(url!), pgSchema: schema, onConnectionError: (error) => lost.push(error) });
    await migrateToLatest(db);
    app = buildServer({ db, uploadsDir: path.join(root, 'uploads'), tiles: false, distDir: path.join(root, 'dist'), logger: { level: 'error', stream: log.stream } });
    await app.ready();
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await db?.close();
    await proxy?.close();
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(direct.kysely);
    await direct.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('survives the cut, answers 503 meanwhile, and serves again once the database is back', async () => {
    const one = () => app.inject({ url: '/api/be/markers/one?uid=nothing-here' });
    expect((await one()).statusCode).toBe(404);
    expect((await app.inject({ url: '/api/be/health' })).statusCode).toBe(200);

    // Idle pooled connections break: said through onConnectionError, nothing thrown.
    proxy.down();
    await new Promise((r) => setTimeout(r, 200));
    expect(lost.length).toBeGreaterThan(0);
    expect(lost[0].message).toMatch(/Connection terminated/);

    const during = await one();
    expect(during.statusCode).toBe(503);
    expect(during.headers['retry-after']).toBe(String(RETRY_AFTER_S));
    expect(during.json()).toEqual({ error: 'Service Unavailable', message: UNAVAILABLE_MESSAGE });
    const health = await app.inject({ url: '/api/be/health' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toMatchObject({ status: 'unavailable', database: { ok: false, reason: expect.any(String) } });
    expect(JSON.stringify(health.json())).not.toMatch(/127\.0\.0\.1|raidmap_test/);
    // One short line per failed request: the cause, no stack, no client object.
    const line = log.lines.find((l) => typeof l.msg === 'string' && (l.msg as string).startsWith('request failed: the database'));
    expect(line).toBeDefined();
    expect(JSON.stringify(line)).not.toMatch(/stack|_poolUseCount|password/);

    proxy.up();
    expect((await one()).statusCode).toBe(404);
    expect((await app.inject({ url: '/api/be/health' })).json()).toMatchObject({ status: 'ok', database: { ok: true } });
  }, 60_000);
});
