/**
 * The marker lists built on a worker thread: the same bytes and hash as on the server's thread,
 * a write committed on the server's connection is in the next build, a failing build rejects
 * that build only, and a dead worker's builds are made on the fallback (on SQLite and, with
 * TEST_DATABASE_URL, PostgreSQL).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRepositories, migrateToLatest, type Repositories } from '../db';
import { testBackends, type TestDb } from '../testing/databases';
import { testMarker } from '../testing/markers';
import { decodeCompactBinary } from '../../src/domain/compact-binary';
import { type CompactFormat, inlineListSource, type MarkerListSource } from './list-source';
import { sharesDatabase, WorkerListSource } from './worker-list-source';

/** The source's worker, to kill it in a test. */
function workerOf(source: WorkerListSource): { terminate(): Promise<number> } | undefined {
  return (source as unknown as { worker?: { terminate(): Promise<number> } }).worker;
}

/** An inline source that counts its builds. */
function countingFallback(repos: Repositories): MarkerListSource & { builds: number } {
  const inline = inlineListSource(repos.markers);
  const counting = {
    builds: 0,
    full: (map: string) => {
      counting.builds += 1;
      return inline.full(map);
    },
    compact: (map: string, lang: 'en' | 'ru', format: CompactFormat) => {
      counting.builds += 1;
      return inline.compact(map, lang, format);
    },
    close: () => inline.close(),
  };
  return counting;
}

describe.each(testBackends())('marker lists on a worker thread ($name)', (backend) => {
  let db: TestDb;
  let repos: Repositories;
  let source: WorkerListSource;
  let fallback: ReturnType<typeof countingFallback>;
  let errors: Error[];

  beforeEach(async () => {
    db = await backend.open();
    await migrateToLatest(db);
    repos = createRepositories(db);
    await repos.markers.insertMany([
      testMarker('a', { name: 'Alpha', name_l10n: { ru: 'Альфа' } }),
      testMarker('b', { name: 'Beta <b>', geometry: { x: 55.5, y: 7 } }),
      testMarker('c', { map: 'customs' }),
    ]);
    errors = [];
    fallback = countingFallback(repos);
    source = new WorkerListSource({ database: db.settings, fallback, onError: (error) => errors.push(error) });
  });

  afterEach(async () => {
    await source.close();
    await db.close();
  });

  it('builds the same bytes and hash as the server thread, full and compact (JSON and binary), in both languages', async () => {
    const inline = inlineListSource(repos.markers);
    for (const [onWorker, here] of [
      [await source.full('factory'), await inline.full('factory')],
      [await source.compact('factory', 'en', 'json'), await inline.compact('factory', 'en', 'json')],
      [await source.compact('factory', 'ru', 'json'), await inline.compact('factory', 'ru', 'json')],
      [await source.compact('factory', 'en', 'binary'), await inline.compact('factory', 'en', 'binary')],
      [await source.compact('factory', 'ru', 'binary'), await inline.compact('factory', 'ru', 'binary')],
    ] as const) {
      expect(onWorker.identity.equals(here.identity)).toBe(true);
      expect(onWorker.hash).toBe(here.hash);
    }
    expect(JSON.parse((await source.full('factory')).identity.toString('utf8')).markers.map((m: { uid: string }) => m.uid)).toEqual(['a', 'b']);
    const binary = decodeCompactBinary((await source.compact('factory', 'ru', 'binary')).identity);
    expect(binary.markers.map((m) => [m.uid, m.label])).toEqual([
      ['a', 'Альфа'],
      ['b', 'Beta <b>'],
    ]);
    expect(source.started).toBe(1);
    expect(fallback.builds).toBe(0);
  });

  it('sees a write committed on the server connection in its next build', async () => {
    const before = await source.full('factory');
    const inserted = await repos.markers.insert(testMarker('d', { name: 'Delta' }));
    expect(inserted.ok).toBe(true);
    const after = await source.full('factory');
    expect(after.hash).not.toBe(before.hash);
    expect(after.identity.toString('utf8')).toContain('"Delta"');
    const compact = await source.compact('factory', 'en', 'json');
    expect(compact.identity.toString('utf8')).toContain('Delta');
  });

  it('runs builds asked for at once, each answered with its own list', async () => {
    const [factory, customs, ru] = await Promise.all([source.full('factory'), source.full('customs'), source.compact('factory', 'ru', 'json')]);
    expect(JSON.parse(factory.identity.toString()).markers).toHaveLength(2);
    expect(JSON.parse(customs.identity.toString()).markers).toHaveLength(1);
    expect(ru.identity.toString()).toContain('Альфа');
  });

  it("makes a dead worker's builds on the fallback, then starts another worker", async () => {
    await source.full('factory'); // the worker is up
    const pending = source.full('factory');
    await workerOf(source)!.terminate();
    const body = await pending;
    expect(JSON.parse(body.identity.toString()).markers).toHaveLength(2);
    expect(fallback.builds).toBe(1);
    expect(errors.map((e) => e.message)).toEqual([expect.stringContaining('exited')]);
    await source.full('factory');
    expect(source.started).toBe(2);
    expect(fallback.builds).toBe(1);
  });

  it('gives the worker up after three deaths in a row, and builds on the fallback from then on', async () => {
    for (let i = 0; i < 3; i += 1) {
      const pending = source.compact('factory', 'en', 'json');
      await workerOf(source)!.terminate();
      await pending;
    }
    expect(source.usingWorker).toBe(false);
    expect(errors.at(-1)?.message).toMatch(/died 3 times in a row/);
    const started = source.started;
    await source.full('factory');
    expect(source.started).toBe(started);
    expect(fallback.builds).toBe(4);
  });

  it('rejects a close()d source and the builds it held', async () => {
    const pending = expect(source.full('factory')).rejects.toThrow(/closed/);
    await source.close();
    await pending;
    await expect(source.full('factory')).rejects.toThrow(/closed/);
  });
});

describe.each(testBackends())('a failing build on the worker ($name)', (backend) => {
  it('rejects that build with the database error, and the worker stays', async () => {
    const db = await backend.open(); // not migrated: no markers table
    const source = new WorkerListSource({ database: db.settings, fallback: inlineListSource(createRepositories(db).markers) });
    try {
      await expect(source.full('factory')).rejects.toThrow(/markers/);
      // With its code, by which the API tells a database that does not answer (503) from a bug.
      await expect(source.full('factory')).rejects.toMatchObject({ code: backend.name === 'sqlite' ? 'SQLITE_ERROR' : '42P01' });
      await expect(source.compact('factory', 'en', 'json')).rejects.toThrow(/markers/);
      expect(source.started).toBe(1);
      expect(source.usingWorker).toBe(true);
    } finally {
      await source.close();
      await db.close();
    }
  });
});

describe('sharesDatabase', () => {
  it('is true for a file or a PostgreSQL URL, false for :memory:', () => {
    expect(sharesDatabase({ sqliteFile: '/data/raidmap.sqlite' })).toBe(true);
    expect(sharesDatabase({ databaseUrl: 'postgres://x@y/z' })).toBe(true);
    expect(sharesDatabase({ sqliteFile: ':memory:' })).toBe(false);
    expect(sharesDatabase({})).toBe(false);
    expect(() => new WorkerListSource({ database: { sqliteFile: ':memory:' }, fallback: inlineListSource({} as never) })).toThrow(/:memory:/);
  });
});
