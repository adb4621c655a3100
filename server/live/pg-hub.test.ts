/**
 * PgLiveHub against a real PostgreSQL (TEST_DATABASE_URL): messages cross between hubs (two
 * server processes' worth), large ones in chunks, in order; the listening connection comes
 * back after the database drops it (a TCP proxy cuts it) and reports a gap; a full outbox
 * tells the other processes of the gap.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTcpProxy, type TcpProxy } from '../testing/tcp-proxy';
import type { LiveMessageInfo } from './hub';
import { NOTIFY_PAYLOAD_LIMIT, PgLiveHub, consoleLiveLog, isStatementError, pgChannelName, splitUtf8, type LiveLog } from './pg-hub';

const url = process.env.TEST_DATABASE_URL;

async function waitFor(what: string, check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('pg-hub helpers', () => {
  it('cuts text into pieces of at most N bytes, never inside a character, that join back', () => {
    const text = `${'a'.repeat(10)}${'ж'.repeat(10)}${'€'.repeat(10)}${'🗺️'.repeat(10)}`;
    for (const max of [4, 5, 7, 16, 100]) {
      const parts = splitUtf8(text, max);
      expect(parts.join('')).toBe(text);
      for (const part of parts) {
        expect(Buffer.byteLength(part)).toBeLessThanOrEqual(max);
        expect(part.length).toBeGreaterThan(0);
        // No lone surrogate at either end (a split emoji).
        expect(Buffer.from(part, 'utf8').toString('utf8')).toBe(part);
      }
    }
    expect(splitUtf8('short', 10)).toEqual(['short']);
    expect(splitUtf8('', 10)).toEqual(['']);
    expect(() => splitUtf8('x', 3)).toThrow(/at least 4/);
  });

  it('tells a statement that failed from a connection that failed', () => {
    expect(isStatementError({ code: '22023' })).toBe(true); // invalid parameter value
    expect(isStatementError({ code: '42P01' })).toBe(true);
    expect(isStatementError({ code: '57P01' })).toBe(false); // terminated by an administrator
    expect(isStatementError({ code: '08006' })).toBe(false); // connection failure
    expect(isStatementError({ code: 'ECONNRESET' })).toBe(false);
    expect(isStatementError(new Error('Connection terminated unexpectedly'))).toBe(false);
    expect(isStatementError(null)).toBe(false);
  });

  it('writes a console line with the reason after a colon, not run into the message', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      consoleLiveLog.warn({ reason: 'terminating connection due to administrator command' }, 'lost the connection; reconnecting');
      consoleLiveLog.warn({ err: new Error('refused'), attempt: 2 }, 'cannot LISTEN');
      consoleLiveLog.warn({}, 'bare');
      expect(warn.mock.calls).toEqual([
        ['live: lost the connection; reconnecting: {"reason":"terminating connection due to administrator command"}'],
        ['live: cannot LISTEN: refused {"attempt":2}'],
        ['live: bare'],
      ]);
    } finally {
      warn.mockRestore();
    }
  });

  it('names the channel after the schema, within PostgreSQL identifier length', () => {
    expect(pgChannelName()).toBe('raidmap_live');
    expect(pgChannelName('site_b')).toBe('raidmap_live_site_b');
    expect(pgChannelName('s'.repeat(63))).toHaveLength(63);
  });
});

describe.skipIf(!url)(url ? 'PgLiveHub on PostgreSQL' : 'PgLiveHub on PostgreSQL: skipped, TEST_DATABASE_URL is not set (bash scripts/ensure-postgres.sh prints one)', () => {
  const hubs: PgLiveHub[] = [];
  const proxies: TcpProxy[] = [];
  const logs: string[] = [];
  /** Each line with its fields, as the JSON logger gets them. */
  const lines: Array<{ level: string; msg: string; obj: object }> = [];
  const line = (level: string) => (obj: object, msg: string) => {
    logs.push(`${level} ${msg}`);
    lines.push({ level, msg, obj });
  };
  const log: LiveLog = { info: line('info'), warn: line('warn'), error: line('error') };

  afterEach(async () => {
    await Promise.all(hubs.splice(0).map((h) => h.close()));
    await Promise.all(proxies.splice(0).map((p) => p.close()));
    logs.length = 0;
    lines.length = 0;
  });

  /** Hubs on one fresh channel, listening. */
  async function hubsOn(count: number, options: Partial<ConstructorParameters<typeof PgLiveHub>[0]> = {}): Promise<PgLiveHub[]> {
    const pgChannel = `raidmap_live_test_${randomUUID().replaceAll('-', '')}`;
    const made = Array.from({ length: count }, () => new PgLiveHub({ connectionString: url!, pgChannel, log, reconnectMinMs: 20, reconnectMaxMs: 200, ...options }));
    hubs.push(...made);
    await Promise.all(made.map((h) => h.ready()));
    return made;
  }

  function record(hub: PgLiveHub, channel: string) {
    const got: { data: unknown; json: string; info: LiveMessageInfo }[] = [];
    hub.subscribe(channel, (data, json, info) => got.push({ data, json, info }));
    return got;
  }

  it('delivers to the subscribers of another process (remote) and to its own once (local)', async () => {
    const [a, b] = await hubsOn(2);
    const onA = record(a, 'markers:factory');
    const onB = record(b, 'markers:factory');
    const otherChannel = record(b, 'markers:woods');
    a.publish('markers:factory', { kind: 'remove', uid: 'x', at: new Date(0) });
    expect(onA).toEqual([{ data: { kind: 'remove', uid: 'x', at: '1970-01-01T00:00:00.000Z' }, json: expect.any(String), info: { remote: false } }]);
    await waitFor('the message on B', () => onB.length === 1);
    expect(onB[0]).toEqual({ data: { kind: 'remove', uid: 'x', at: '1970-01-01T00:00:00.000Z' }, json: onA[0].json, info: { remote: true } });
    // A hears its own NOTIFY too and skips it; nothing else arrives anywhere.
    await new Promise((r) => setTimeout(r, 150));
    expect(onA).toHaveLength(1);
    expect(onB).toHaveLength(1);
    expect(otherChannel).toHaveLength(0);
    expect(a.stats.sent).toBe(1);
    expect(b.stats.received).toBe(1);
  });

  it('sends a message far over the 8000-byte NOTIFY limit in chunks and joins it again', async () => {
    const [a, b] = await hubsOn(2);
    const onB = record(b, 'big');
    // ~230 KB of mixed one- to four-byte characters: a marker with every text at its bound and more.
    const text = Array.from({ length: 60_000 }, (_, i) => ['a', 'ж', '€', '🗺️'][i % 4]).join('');
    const data = { marker: { uid: 'big', desc: text, name_l10n: { ru: text.slice(0, 5000) } } };
    expect(Buffer.byteLength(JSON.stringify(data))).toBeGreaterThan(20 * NOTIFY_PAYLOAD_LIMIT);
    a.publish('big', data);
    a.publish('big', { after: true });
    await waitFor('both messages on B', () => onB.length === 2);
    expect(onB.map((m) => m.data)).toEqual([data, { after: true }]);
    expect(a.stats.sent).toBeGreaterThan(20);
  });

  it('keeps the order of many messages published at once, from two processes', async () => {
    const [a, b, c] = await hubsOn(3);
    const onC = record(c, 'n');
    for (let i = 0; i < 300; i++) (i % 2 ? a : b).publish('n', { from: i % 2 ? 'a' : 'b', i });
    await waitFor('600 messages', () => onC.length === 300, 10_000);
    for (const from of ['a', 'b']) {
      const seq = onC.map((m) => m.data as { from: string; i: number }).filter((m) => m.from === from).map((m) => m.i);
      expect(seq).toEqual([...seq].sort((x, y) => x - y));
      expect(seq).toHaveLength(150);
    }
  });

  it('reconnects with back-off when the connection is cut, reports a gap, and sends what was published meanwhile', async () => {
    const target = new URL(url!);
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    proxies.push(proxy);
    const pgChannel = `raidmap_live_test_${randomUUID().replaceAll('-', '')}`;
    const a = new PgLiveHub({ connectionString: proxy.url(url!), pgChannel, log, reconnectMinMs: 20, reconnectMaxMs: 100 });
    const b = new PgLiveHub({ connectionString: url!, pgChannel, log });
    hubs.push(a, b);
    await Promise.all([a.ready(), b.ready()]);
    const gapsA: string[] = [];
    a.onGap((reason) => gapsA.push(reason));
    const onA = record(a, 'c');
    const onB = record(b, 'c');

    proxy.down();
    await waitFor('A to notice', () => !a.listening);
    // Published while A cannot reach the database: delivered on A at once, queued for B.
    a.publish('c', { n: 1 });
    b.publish('c', { n: 2 }); // A misses this one: that is the gap
    expect(onA.map((m) => m.data)).toEqual([{ n: 1 }]);
    // Several attempts fail while the proxy refuses (the back-off keeps them apart).
    await new Promise((r) => setTimeout(r, 300));
    expect(a.listening).toBe(false);
    expect(logs.filter((l) => l.includes('cannot LISTEN')).length).toBeGreaterThanOrEqual(2);
    expect(logs.filter((l) => l.includes('cannot LISTEN')).length).toBeLessThan(30);

    proxy.up();
    await waitFor('A to listen again', () => a.listening);
    expect(gapsA).toHaveLength(1);
    expect(gapsA[0]).toMatch(/may have been missed/);
    await waitFor('the queued message on B', () => onB.length === 2);
    expect(onB.map((m) => m.data)).toEqual([{ n: 2 }, { n: 1 }]);
    // And both ways work again.
    b.publish('c', { n: 3 });
    await waitFor('the next message on A', () => onA.length === 2);
    expect(onA[1]).toMatchObject({ data: { n: 3 }, info: { remote: true } });
    expect(a.stats.connects).toBe(2);
  });

  it('comes back when the database ends its session (pg_terminate_backend)', async () => {
    const [a, b] = await hubsOn(2);
    const gapsB: string[] = [];
    b.onGap((reason) => gapsB.push(reason));
    const onB = record(b, 'c');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const pid = b.listenerPid;
      expect(pid).toBeGreaterThan(0);
      await admin.query('select pg_terminate_backend($1)', [pid]);
    } finally {
      await admin.end();
    }
    await waitFor('B to reconnect', () => gapsB.length === 1);
    // Through the logger: the loss at warn with PostgreSQL's words as a field, then the return at info.
    const lost = lines.filter((l) => l.msg.startsWith('lost the PostgreSQL connection'));
    expect(lost).toEqual([{ level: 'warn', msg: 'lost the PostgreSQL connection that listens for live events; reconnecting', obj: { reason: expect.stringMatching(/terminat/) } }]);
    expect(lines.filter((l) => l.msg.includes('again'))).toEqual([
      { level: 'info', msg: 'listening for live events on PostgreSQL again', obj: { attempts: 1, downMs: expect.any(Number) } },
    ]);
    a.publish('c', 'after');
    await waitFor('the message on B', () => onB.length === 1);
    expect(onB[0].data).toBe('after');
  });

  it('loses no message when its session is ended while it sends a burst (sent again after reconnecting)', async () => {
    const [a, b] = await hubsOn(2);
    const onB = record(b, 'c');
    const gapsB: string[] = [];
    b.onGap((reason) => gapsB.push(reason));
    const pid = a.listenerPid;
    const killer = new pg.Client({ connectionString: url });
    await killer.connect();
    try {
      for (let n = 0; n < 3000; n++) {
        a.publish('c', { n });
        if (n === 1000) await killer.query('select pg_terminate_backend($1)', [pid]);
        if (n % 100 === 99) await new Promise((r) => setImmediate(r));
      }
    } finally {
      await killer.end();
    }
    await waitFor('every message on B', () => new Set(onB.map((m) => (m.data as { n: number }).n)).size === 3000, 15_000);
    // Some may come twice (a batch committed just before the session ended); none is missing.
    expect(gapsB).toEqual([]);
    expect(a.stats.connects).toBe(2);
    expect(a.stats.dropped).toBe(0);
  });

  it('drops the oldest messages past the outbox bound and tells the other processes of the gap', async () => {
    const target = new URL(url!);
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    proxies.push(proxy);
    const pgChannel = `raidmap_live_test_${randomUUID().replaceAll('-', '')}`;
    const a = new PgLiveHub({ connectionString: proxy.url(url!), pgChannel, log, reconnectMinMs: 20, reconnectMaxMs: 50, maxOutbox: 5 });
    const b = new PgLiveHub({ connectionString: url!, pgChannel, log });
    hubs.push(a, b);
    await Promise.all([a.ready(), b.ready()]);
    const gapsB: string[] = [];
    b.onGap((reason) => gapsB.push(reason));
    const onB = record(b, 'c');

    proxy.down();
    await waitFor('A to notice', () => !a.listening);
    for (let n = 0; n < 20; n++) a.publish('c', { n });
    proxy.up();
    await waitFor('the kept messages on B', () => onB.length === 5);
    expect(onB.map((m) => (m.data as { n: number }).n)).toEqual([15, 16, 17, 18, 19]);
    expect(gapsB).toHaveLength(1);
    expect(gapsB[0]).toMatch(/dropped live messages/);
    expect(a.stats.dropped).toBe(15);
    expect(logs.some((l) => l.includes('were dropped'))).toBe(true);
  });

  it('ignores notifications on its channel that are not live messages', async () => {
    const [b] = await hubsOn(1);
    const onB = record(b, 'c');
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      for (const payload of ['not json', '{"o":"x","i":1,"k":5,"n":2,"c":"c"}\n{}', '{"o":"x","i":1,"k":0,"n":1,"c":"c"}\nnot json', '{"o":"x","i":2,"k":0,"n":1,"c":"c"}\n{"ok":1}']) {
        await other.query('select pg_notify($1, $2)', [b.pgChannel, payload]);
      }
    } finally {
      await other.end();
    }
    await waitFor('the good message', () => onB.length === 1);
    expect(onB[0].data).toEqual({ ok: 1 });
    expect(logs.filter((l) => l.startsWith('warn ignoring'))).toHaveLength(3);
  });

  it('stops on close: no reconnecting, later publishes go nowhere', async () => {
    const [a, b] = await hubsOn(2);
    const onB = record(b, 'c');
    await a.close();
    a.publish('c', 1);
    expect(a.listening).toBe(false);
    await new Promise((r) => setTimeout(r, 100));
    expect(onB).toHaveLength(0);
    expect(a.subscriberCount()).toBe(0);
  });
});
