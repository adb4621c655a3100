/**
 * Two server apps on one PostgreSQL schema, each with its own database pool, caches and
 * PgLiveHub: what two `npm run serve` processes do (the e2e test e2e/multi-server.e2e.ts runs
 * real processes). Sessions, marker changes, list caches and live streams cross between them;
 * a lost listening connection ends the streams and drops the caches. The bridge alone is
 * checked on SQLite and PostgreSQL with an in-process hub.
 */
import fs from 'node:fs';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Marker } from '../../src/domain/marker';
import { MAP_IDS } from '../../src/domain/maps';
import { SESSION_COOKIE } from '../auth';
import { hashPassword } from '../auth/password';
import { createRepositories, migrateToLatest, type Db, type MarkerChange } from '../db';
import { openSse, type SseMessage, type SseStream } from '../testing/sse';
import { tempDir, testBackends } from '../testing/databases';
import { GappyHub, closePgProcesses, dropListeningConnection, startPgProcess, waitFor, type PgProcess } from '../testing/processes';
import { MARKERS_CHANGED_CHANNEL, bridgeMarkerEvents } from './bridge';
import { MemoryLiveHub, markersChannel } from './hub';
import { testMarker } from '../testing/markers';

const url = process.env.TEST_DATABASE_URL;

const marker = testMarker;

describe.each(testBackends())('bridgeMarkerEvents with an in-process hub on $name', (backend) => {
  it('publishes changes once, replays only remote "changed" messages, and drops every map on a gap', async () => {
    const db = await backend.open();
    try {
      await migrateToLatest(db);
      const { markers } = createRepositories(db);
      const hub = new GappyHub();
      const stop = bridgeMarkerEvents(markers, hub);
      const changed: string[] = [];
      const offChanged = markers.onChange((map) => changed.push(map));
      // What this process sends out (remote messages are delivered, never sent again).
      const published: unknown[] = [];
      hub.subscribe(MARKERS_CHANGED_CHANNEL, (data, _json, { remote }) => {
        if (!remote) published.push(data);
      });
      const events: MarkerChange[] = [];
      hub.subscribe(markersChannel('factory'), (data) => events.push(data as MarkerChange));

      await markers.insert(marker('b-1'), { user: 'admin1' });
      // One local change: one "changed" published, one invalidation, one event; no echo.
      expect(changed).toEqual(['factory']);
      expect(published).toEqual([{ map: 'factory' }]);
      expect(events).toEqual([expect.objectContaining({ kind: 'upsert', map: 'factory', by: 'admin1' })]);

      // Another process's "changed": replayed to this process's caches, not published again.
      hub.deliver(MARKERS_CHANGED_CHANNEL, JSON.stringify({ map: 'woods' }), true);
      expect(changed).toEqual(['factory', 'woods']);
      expect(published).toEqual([{ map: 'factory' }]);
      // A malformed one is ignored.
      hub.deliver(MARKERS_CHANGED_CHANNEL, JSON.stringify({ map: 7 }), true);
      hub.deliver(MARKERS_CHANGED_CHANNEL, 'null', true);
      expect(changed).toHaveLength(2);
      // A gap: every map's caches are dropped, nothing is published.
      hub.gap();
      expect(changed.slice(2).sort()).toEqual([...MAP_IDS].sort());
      expect(published).toHaveLength(1);

      stop();
      hub.gap();
      offChanged();
      await markers.insert(marker('b-2'));
      expect(published).toHaveLength(1);
      expect(changed).toHaveLength(2 + MAP_IDS.length);
      expect(hub.subscriberCount(MARKERS_CHANGED_CHANNEL)).toBe(1);
      await hub.close();

      // With a hub that is not shared, nothing is subscribed for remote messages.
      const alone = new MemoryLiveHub();
      const stopAlone = bridgeMarkerEvents(markers, alone);
      expect(alone.subscriberCount()).toBe(0);
      stopAlone();
    } finally {
      await db.close();
    }
  });
});

function cookieOf(res: LightMyRequestResponse): string {
  const raw = res.headers['set-cookie'];
  const line = (Array.isArray(raw) ? raw : raw ? [raw] : []).find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (!line) throw new Error('no session cookie set');
  return line.split(';')[0];
}

interface Process extends PgProcess {
  call(method: InjectOptions['method'], url: string, payload?: unknown, cookie?: string): Promise<LightMyRequestResponse>;
}

const isMarkerEvent = (m: SseMessage) => m.event === 'marker';

describe.skipIf(!url)(url ? 'two server processes on one PostgreSQL schema' : 'two server processes: skipped, TEST_DATABASE_URL is not set (bash scripts/ensure-postgres.sh prints one)', () => {
  const postgres = testBackends().find((b) => b.name === 'postgres')!;
  let first: Db;
  let root: string;
  let a: Process;
  let b: Process;
  const streams: SseStream[] = [];
  let admin = '';

  async function startProcess(schema: string): Promise<Process> {
    // Its own pool and repositories, as another process would have.
    const p = await startPgProcess(url!, schema, root);
    const call: Process['call'] = (method, target, payload, cookie) =>
      p.app.inject({
        method,
        url: target,
        headers: { ...(payload !== undefined ? { 'content-type': 'application/json' } : {}), ...(cookie ? { cookie } : {}) },
        ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
      });
    return { ...p, call };
  }

  const stream = async (p: Process, map: string) => {
    const s = await openSse(`${p.base}/api/be/live/markers?map=${map}`);
    streams.push(s);
    return s;
  };
  const list = async (p: Process, map = 'factory') => {
    const res = await p.call('GET', `/api/be/markers/list?map=${map}`);
    expect(res.statusCode).toBe(200);
    return { etag: res.headers.etag, uids: (res.json() as { markers: Marker[] }).markers.map((m) => m.uid) };
  };

  beforeAll(async () => {
    root = tempDir();
    first = await postgres.open();
    await migrateToLatest(first);
    const repos = createRepositories(first);
    await repos.users.create({ name: 'admin1', passwordHash: await hashPassword('password1'), admin: true });
    await repos.users.create({ name: 'visitor1', passwordHash: await hashPassword('password1') });
    a = await startProcess(first.schema!);
    b = await startProcess(first.schema!);
    const login = await a.call('POST', '/api/be/auth/login', { name: 'admin1', password: 'password1' });
    expect(login.statusCode).toBe(200);
    admin = cookieOf(login);
  });

  afterAll(async () => {
    for (const s of streams) s.close();
    await closePgProcesses([a, b]);
    await first?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('a session made on A works on B, and signing out on A ends it on B', async () => {
    const login = await a.call('POST', '/api/be/auth/login', { name: 'visitor1', password: 'password1' });
    const cookie = cookieOf(login);
    const onB = await b.call('GET', '/api/be/user', undefined, cookie);
    expect(onB.statusCode).toBe(200);
    expect(onB.json()).toMatchObject({ name: 'visitor1' });
    // Roles hold on B too: a visitor's session is refused admin writes, no session is 401.
    expect((await b.call('POST', '/api/be/admin/marker/add', marker('by-visitor'), cookie)).statusCode).toBe(403);
    expect((await b.call('POST', '/api/be/admin/marker/add', marker('by-nobody'))).statusCode).toBe(401);
    expect((await a.call('POST', '/api/be/auth/logout', {}, cookie)).statusCode).toBeLessThan(300);
    expect((await b.call('GET', '/api/be/user', undefined, cookie)).statusCode).toBe(401);
    // The admin's session, made on A, can write on B.
    expect((await b.call('POST', '/api/be/admin/marker/add', marker('from-b-session'), admin)).statusCode).toBe(201);
  });

  it("an add, update and delete on A reach B's live stream, and B's list has it 100 ms after the event", async () => {
    const before = await list(b);
    const onB = await stream(b, 'factory');
    const added = await a.call('POST', '/api/be/admin/marker/add', marker('cross-1'), admin);
    expect(added.statusCode).toBe(201);
    const stored = added.json().marker as Marker;
    const event = JSON.parse((await onB.next(isMarkerEvent)).data!) as MarkerChange;
    expect(event).toEqual({ kind: 'upsert', map: 'factory', marker: stored, by: 'admin1' });
    // "changed" went out before the event on one connection: B's cache was invalidated before
    // the event, and a read that much later (the list cache's 100 ms bound) has the marker.
    await new Promise((r) => setTimeout(r, 110));
    const after = await list(b);
    expect(after.uids).toContain('cross-1');
    expect(after.etag).not.toBe(before.etag);

    const updated = await a.call('POST', '/api/be/admin/marker/update', { ...stored, name: 'Renamed' }, admin);
    expect(updated.statusCode).toBe(200);
    expect(JSON.parse((await onB.next(isMarkerEvent)).data!)).toMatchObject({ kind: 'upsert', marker: { uid: 'cross-1', name: 'Renamed' } });
    const removed = await a.call('DELETE', `/api/be/admin/marker/cross-1?version=${(updated.json().marker as Marker).version}`, undefined, admin);
    expect(removed.statusCode).toBe(200);
    expect(JSON.parse((await onB.next(isMarkerEvent)).data!)).toMatchObject({ kind: 'remove', uid: 'cross-1' });
    await waitFor("B's list without it", async () => !(await list(b)).uids.includes('cross-1'));
  });

  it('a marker far over the NOTIFY size limit arrives whole', async () => {
    const onB = await stream(b, 'factory');
    const long = 'Длинное описание маркера. '.repeat(150).slice(0, 3900);
    const big = marker('cross-big', { desc: long, desc_l10n: { en: long, ru: long }, name_l10n: { ru: 'Ж'.repeat(190) } });
    const added = await a.call('POST', '/api/be/admin/marker/add', big, admin);
    expect(added.statusCode).toBe(201);
    expect(Buffer.byteLength(added.body)).toBeGreaterThan(20_000);
    const event = JSON.parse((await onB.next((m) => isMarkerEvent(m) && m.data!.includes('cross-big'))).data!) as MarkerChange;
    expect(event).toEqual({ kind: 'upsert', map: 'factory', marker: added.json().marker, by: 'admin1' });
  });

  it('concurrent writes on both processes: every stream hears every change, both lists agree', async () => {
    const onA = await stream(a, 'customs');
    const onB = await stream(b, 'customs');
    const uids = Array.from({ length: 20 }, (_, i) => `conc-${i}`);
    const results = await Promise.all(uids.map((uid, i) => (i % 2 ? a : b).call('POST', '/api/be/admin/marker/add', marker(uid, { map: 'customs', geometry: { x: 100 + i, y: 100 } }), admin)));
    expect(results.map((r) => r.statusCode)).toEqual(uids.map(() => 201));
    for (const s of [onA, onB]) {
      const heard = new Set<string>();
      while (heard.size < uids.length) heard.add((JSON.parse((await s.next(isMarkerEvent)).data!) as { marker: Marker }).marker.uid);
      expect([...heard].sort()).toEqual([...uids].sort());
    }
    // Within the list cache's bound both processes serve the same body, with every marker.
    await waitFor('the same list on both', async () => {
      const [listA, listB] = await Promise.all([list(a, 'customs'), list(b, 'customs')]);
      return listA.etag === listB.etag && uids.every((uid) => listB.uids.includes(uid));
    });
  });

  it("a bulk write on A (no per-marker events) drops B's cached list too", async () => {
    const before = await list(b, 'woods');
    const reposA = a.app.raidmap.repos;
    await reposA.markers.insertMany([marker('bulk-1', { map: 'woods' }), marker('bulk-2', { map: 'woods' })]);
    reposA.markers.notifyChanged(['woods']);
    await waitFor("B's list to show the bulk write", async () => (await list(b, 'woods')).uids.includes('bulk-2'));
    expect((await list(b, 'woods')).etag).not.toBe(before.etag);
  });

  it("when B's listening connection is lost, B's streams end and its caches drop what it may have missed", async () => {
    const onB = await stream(b, 'interchange');
    await list(b, 'interchange');
    // A change B cannot hear: written straight into the database (as if its NOTIFY were lost).
    await createRepositories(first).markers.insertMany([marker('missed-1', { map: 'interchange' })]);
    expect((await list(b, 'interchange')).uids).not.toContain('missed-1');
    await dropListeningConnection(url!, b);
    expect(await onB.ended(5000)).toBe(true);
    await waitFor('B to listen again', () => b.hub.listening);
    await waitFor("B's list to show what it missed", async () => (await list(b, 'interchange')).uids.includes('missed-1'));
    // And B hears A again.
    const again = await stream(b, 'interchange');
    await a.call('POST', '/api/be/admin/marker/add', marker('after-gap', { map: 'interchange' }), admin);
    expect(JSON.parse((await again.next(isMarkerEvent)).data!)).toMatchObject({ marker: { uid: 'after-gap' } });
  });
});
