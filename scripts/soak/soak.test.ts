import { describe, expect, it } from 'vitest';
import { checkMix, countLost, dueAt, formatLoss, newTally, recordWrite, summariseWrites, type MixFigures } from './figures';
import { parseSoakOptions, soakSchemaName } from './options';

describe('parseSoakOptions', () => {
  it('defaults to 20 s, 50 connections, 100 writes/s on SQLite, both parts', () => {
    const o = parseSoakOptions([]);
    expect(o).toMatchObject({ seconds: 20, concurrency: 50, writesPerSecond: 100, dbs: ['sqlite'], parts: { mix: true, kill: true }, killAfterMs: 2000 });
    expect(o.databaseUrl).toBeUndefined();
  });

  it('reads every option, inline or separate', () => {
    const o = parseSoakOptions(['--seconds=5', '--concurrency', '10', '--writes-per-second', '0', '--kill', '--kill-after-ms', '1500', '--kill-writers=4', '--markers', '1_000', '--tiles-dir', '/tmp/t']);
    expect(o).toMatchObject({ seconds: 5, concurrency: 10, writesPerSecond: 0, parts: { mix: false, kill: true }, killAfterMs: 1500, killWriters: 4, markers: 1000, tilesDir: '/tmp/t' });
  });

  it('takes the PostgreSQL URL from the flag, DATABASE_URL, then TEST_DATABASE_URL', () => {
    expect(parseSoakOptions(['--pg'], { TEST_DATABASE_URL: 'postgres://t' }).databaseUrl).toBe('postgres://t');
    expect(parseSoakOptions(['--db', 'pg'], { DATABASE_URL: 'postgresql://d', TEST_DATABASE_URL: 'postgres://t' }).databaseUrl).toBe('postgresql://d');
    expect(parseSoakOptions(['--db', 'both', '--database-url', 'postgres://f'], { DATABASE_URL: 'postgres://d' })).toMatchObject({ dbs: ['sqlite', 'pg'], databaseUrl: 'postgres://f' });
    expect(parseSoakOptions([], { DATABASE_URL: 'postgres://d' }).dbs).toEqual(['sqlite']);
  });

  it('refuses bad input with a reason', () => {
    expect(() => parseSoakOptions(['--pg'], {})).toThrow(/needs a PostgreSQL URL/);
    expect(() => parseSoakOptions(['--pg'], { DATABASE_URL: 'mysql://x' })).toThrow(/postgres:\/\//);
    expect(() => parseSoakOptions(['--seconds', '0'])).toThrow(/--seconds needs a whole number from 1 to 600/);
    expect(() => parseSoakOptions(['--seconds', '1.5'])).toThrow(/whole number/);
    expect(() => parseSoakOptions(['--concurrency'])).toThrow(/needs a value/);
    expect(() => parseSoakOptions(['--db', 'mysql'])).toThrow(/sqlite, pg or both/);
    expect(() => parseSoakOptions(['--mix', '--kill'])).toThrow(/default/);
    expect(() => parseSoakOptions(['--fast'])).toThrow(/unknown option/);
  });

  it('makes schema names that DATABASE_SCHEMA accepts', () => {
    const name = soakSchemaName(12345, 1_700_000_000_000, 'kill');
    expect(name).toMatch(/^[a-z_][a-z0-9_]{0,62}$/);
    expect(soakSchemaName(1, 2, 'MIX-1')).toBe('soak_mix_1_1_2');
  });
});

describe('soak figures', () => {
  it('tallies writes by kind and status, counting only the expected status as ok', () => {
    const t = newTally();
    recordWrite(t, 'add', 201, 5, 201);
    recordWrite(t, 'update', 200, 15, 200);
    recordWrite(t, 'update', 409, 7, 200);
    recordWrite(t, 'delete', undefined, 0, 200);
    t.skipped = 2;
    const s = summariseWrites(t, 2);
    expect(s).toMatchObject({ ok: 2, errors: 2, skipped: 2, perSecond: 1, byStatus: { 'add 201': 1, 'delete error': 1, 'update 200': 1, 'update 409': 1 } });
    expect(s.p50).toBe(7);
  });

  const mix = (over: Partial<MixFigures['reads']> = {}, writes: Partial<MixFigures['writes']> = {}): MixFigures => ({
    db: 'sqlite',
    seconds: 20,
    concurrency: 50,
    writesWanted: 100,
    reads: { perSecond: 2500, requests: 50_000, p50: 10, p99: 40, max: 80, errors: 0, bytesPerResponse: 20_000, encoding: 'br', ...over },
    writes: { perSecond: 99, p50: 3, p99: 20, ok: 1980, errors: 0, skipped: 0, byStatus: {}, ...writes },
  });

  it('checks the issue targets: reads, p99, compression, the write rate and errors', () => {
    expect(checkMix(mix()).map((c) => c.met)).toEqual([true, true, true, true]);
    expect(checkMix(mix({ perSecond: 1999 }))[0].met).toBe(false);
    expect(checkMix(mix({ encoding: '' }))[0].met).toBe(false);
    expect(checkMix(mix({ p99: 51 }))[1].met).toBe(false);
    expect(checkMix(mix({}, { perSecond: 80 }))[2].met).toBe(false);
    expect(checkMix({ ...mix(), writesWanted: 10 })[2].met).toBeNull();
    expect(checkMix(mix({ errors: 1 }))[3].met).toBe(false);
  });

  it('counts acknowledged writes missing or behind after a restart', () => {
    const acked = new Map([['a', 1], ['b', 2], ['c', 1], ['d', 3]]);
    const stored = new Map([['a', 1], ['b', 1], ['d', 4], ['x', 1]]);
    const loss = countLost(acked, stored, ['a', 'b', 'c', 'd', 'x', 'y']);
    expect(loss).toEqual({ acknowledged: 4, kept: 2, missing: ['c'], behind: ['b'], storedUnacknowledged: 1 });
    expect(formatLoss('sqlite', loss, { killedAtMs: 2000, sent: 10, restartMs: 900 }).at(-1)).toMatch(/✗ 0 acknowledged writes lost: 2 lost \(c, b\)/);
    expect(formatLoss('sqlite', countLost(new Map([['a', 1]]), new Map([['a', 1]])), { killedAtMs: 1, sent: 1, restartMs: 1 }).at(-1)).toMatch(/✓/);
  });

  it('paces writes on an open-loop schedule', () => {
    expect(dueAt(0, 100)).toBe(0);
    expect(dueAt(50, 100)).toBe(500);
    expect(() => dueAt(1, 0)).toThrow(RangeError);
  });
});
