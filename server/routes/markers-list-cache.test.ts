/**
 * The marker list under writes (issue 9, defect 9), through the admin routes on SQLite and
 * PostgreSQL: writes are coalesced into background rebuilds, readers never wait for Brotli, a
 * read 100 ms after an acknowledged write has it, and every response's ETag is its body's.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Marker } from '../../src/domain/marker';
import { buildServer } from '../app';
import { SESSION_COOKIE } from '../auth';
import { hashPassword } from '../auth/password';
import { createRepositories, migrateToLatest, type Db, type Repositories } from '../db';
import { JSON_CACHE_DEFAULTS } from '../http/json-cache';
import { markersChannel } from '../live/hub';
import { tempDir, testBackends } from '../testing/databases';
import { testMarker } from '../testing/markers';

const BOUND_MS = JSON_CACHE_DEFAULTS.maxStaleMs;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const marker = testMarker;

/** The identity body of a list response, decoded from whatever encoding it came in. */
function identityOf(res: LightMyRequestResponse): Buffer {
  const raw = res.rawPayload;
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(raw);
  if (encoding === 'gzip') return zlib.gunzipSync(raw);
  return raw;
}

/** The ETag the body must carry: its content hash, suffixed by the encoding. */
function expectedEtag(res: LightMyRequestResponse): string {
  const hash = createHash('sha256').update(identityOf(res)).digest('base64url').slice(0, 32);
  const encoding = res.headers['content-encoding'];
  return encoding === 'br' ? `"${hash}-br"` : encoding === 'gzip' ? `"${hash}-gz"` : `"${hash}"`;
}

describe.each(testBackends())('marker list under writes on $name', (backend) => {
  let app: FastifyInstance;
  let db: Db;
  let repos: Repositories;
  let root: string;
  let admin = '';

  const call = (method: InjectOptions['method'], url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    app.inject({
      method,
      url,
      headers: { ...(payload !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
    });
  const list = (headers: Record<string, string> = {}) => call('GET', '/api/be/markers/list?map=factory', undefined, headers);
  const namesIn = (res: LightMyRequestResponse) => new Map((JSON.parse(identityOf(res).toString()) as { markers: Marker[] }).markers.map((m) => [m.uid, m.name]));

  beforeAll(async () => {
    root = tempDir();
    db = await backend.open();
    await migrateToLatest(db);
    repos = createRepositories(db);
    await repos.markers.insertMany(Array.from({ length: 200 }, (_, i) => marker(`m${String(i).padStart(3, '0')}`)));
    app = buildServer({ db, repos, uploadsDir: path.join(root, 'uploads'), tiles: false, distDir: path.join(root, 'dist'), assetsDir: path.join(root, 'assets') });
    await app.ready();
    await repos.users.create({ name: 'admin1', passwordHash: await hashPassword('password1'), admin: true });
    const res = await call('POST', '/api/be/auth/login', { name: 'admin1', password: 'password1' });
    const raw = res.headers['set-cookie'];
    admin = (Array.isArray(raw) ? raw : [raw ?? '']).find((c) => c.startsWith(`${SESSION_COOKIE}=`))!.split(';')[0];
  });

  afterAll(async () => {
    await app.close();
    await db.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it(`a read ${BOUND_MS} ms after an acknowledged write has it; ETag and 304 follow the body`, async () => {
    const before = await list({ 'accept-encoding': 'br' });
    const oldTag = before.headers.etag as string;
    expect(oldTag).toBe(expectedEtag(before));
    const res = await call('POST', '/api/be/admin/marker/update', marker('m000', { name: 'Renamed' }), { cookie: admin });
    expect(res.statusCode).toBe(200);
    // At once: either body, but always with its own ETag.
    const soon = await list({ 'accept-encoding': 'br' });
    expect(soon.headers.etag).toBe(expectedEtag(soon));
    await sleep(BOUND_MS + 10);
    const after = await list({ 'accept-encoding': 'br' });
    expect(namesIn(after).get('m000')).toBe('Renamed');
    expect(after.headers.etag).toBe(expectedEtag(after));
    expect(after.headers.etag).not.toBe(oldTag);
    // The old ETag no longer matches: 200 with the new body; the new one answers 304.
    const revalidated = await list({ 'accept-encoding': 'br', 'if-none-match': oldTag });
    expect(revalidated.statusCode).toBe(200);
    expect(namesIn(revalidated).get('m000')).toBe('Renamed');
    const notModified = await list({ 'accept-encoding': 'gzip', 'if-none-match': after.headers.etag as string });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
  });

  it('coalesces a burst of change notices into one rebuild', async () => {
    await list();
    await sleep(BOUND_MS + 10);
    await list();
    const load = vi.spyOn(repos.markers, 'listJsonByMap');
    try {
      for (let i = 0; i < 100; i++) repos.markers.notifyChanged(['factory']);
      await sleep(BOUND_MS + 10);
      await list();
      expect(load).toHaveBeenCalledTimes(1);
    } finally {
      load.mockRestore();
    }
  });

  it('readers during 40 concurrent admin writes all get 200 with a matching ETag, and then see every write', async () => {
    const writes = Array.from({ length: 40 }, (_, i) =>
      call('POST', '/api/be/admin/marker/update', marker(`m${String(i + 100).padStart(3, '0')}`, { name: `Burst ${i}` }), { cookie: admin }),
    );
    const reads = Array.from({ length: 80 }, (_, i) => list({ 'accept-encoding': ['br', 'gzip', 'identity'][i % 3] }));
    const [w, r] = await Promise.all([Promise.all(writes), Promise.all(reads)]);
    expect(w.map((x) => x.statusCode).every((c) => c === 200)).toBe(true);
    for (const res of r) {
      expect(res.statusCode).toBe(200);
      expect(res.headers.etag).toBe(expectedEtag(res));
    }
    await sleep(BOUND_MS + 10);
    const names = namesIn(await list({ 'accept-encoding': 'br' }));
    for (let i = 0; i < 40; i++) expect(names.get(`m${String(i + 100).padStart(3, '0')}`)).toBe(`Burst ${i}`);
  });

  it('a revalidation right after a write is answered with it, never a stale 304 (GET and HEAD, full and compact lists)', async () => {
    const compact = (headers: Record<string, string> = {}, method: InjectOptions['method'] = 'GET') =>
      call(method, '/api/be/markers/compact?map=factory&lang=en', undefined, headers);
    const labelOf = (res: LightMyRequestResponse, uid: string) => {
      const body = JSON.parse(identityOf(res).toString()) as { uid: string[]; label: string[] };
      return body.label[body.uid.indexOf(uid)];
    };
    // Settled lists, their ETags as a page holds them.
    await sleep(BOUND_MS + 10);
    const fullTag = (await list()).headers.etag as string;
    const compactTag = (await compact()).headers.etag as string;
    // The page hears the write on its live feed and at once asks whether its lists are current
    // (the operator's race: 37 ms after the write, well inside the cache's 100 ms bound).
    const heard = new Promise<LightMyRequestResponse[]>((resolve) => {
      const off = app.raidmap.live.subscribe(markersChannel('factory'), () => {
        off();
        resolve(Promise.all([compact({ 'if-none-match': compactTag }), compact({ 'if-none-match': compactTag }, 'HEAD'), list({ 'if-none-match': fullTag })]));
      });
    });
    const res = await call('POST', '/api/be/admin/marker/update', marker('m001', { name: 'Heard live' }), { cookie: admin });
    expect(res.statusCode).toBe(200);
    const [get, head, full] = await heard;
    expect(get.statusCode).toBe(200);
    expect(labelOf(get, 'm001')).toBe('Heard live');
    expect(get.headers.etag).not.toBe(compactTag);
    expect(head.statusCode).toBe(200);
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(full.statusCode).toBe(200);
    expect(namesIn(full).get('m001')).toBe('Heard live');
    // An acknowledged write, then a revalidation at once: the same.
    const tag = get.headers.etag as string;
    expect((await call('POST', '/api/be/admin/marker/update', marker('m001', { name: 'Acknowledged' }), { cookie: admin })).statusCode).toBe(200);
    const after = await compact({ 'if-none-match': tag });
    expect(after.statusCode).toBe(200);
    expect(labelOf(after, 'm001')).toBe('Acknowledged');
    // Nothing changed since: 304.
    expect((await compact({ 'if-none-match': after.headers.etag as string })).statusCode).toBe(304);
  });
});
