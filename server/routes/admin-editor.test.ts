/**
 * The admin editor's server half (docs/EDITOR.md "Server"): versions and conflicts, history,
 * client uids, concurrent writes, and the live stream read from a real listening server.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Marker } from '../../src/domain/marker';
import type { MarkerChange as ClientMarkerChange } from '../../src/api/live';
import type { HistoryEntry as ClientHistoryEntry } from '../../src/api/admin';
import { buildServer } from '../app';
import { SESSION_COOKIE } from '../auth';
import { hashPassword } from '../auth/password';
import { createRepositories, migrateToLatest, type Db, type Repositories } from '../db';
import type { HistoryEntry } from '../db/marker-history';
import type { MarkerChange } from '../db/markers';
import { markersChannel } from '../live/hub';
import { openSse, type SseMessage, type SseStream } from '../testing/sse';
import { tempDir, testBackends } from '../testing/databases';
import { testMarker } from '../testing/markers';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d8a4e40000000049454e44ae426082', 'hex');

// The server's and the client's copies of the wire types stay the same (checked by tsc).
const sameChange = (change: MarkerChange): ClientMarkerChange => change;
const sameChangeBack = (change: ClientMarkerChange): MarkerChange => change;
const sameEntry = (entry: HistoryEntry): ClientHistoryEntry => entry;
const sameEntryBack = (entry: ClientHistoryEntry): HistoryEntry => entry;
void [sameChange, sameChangeBack, sameEntry, sameEntryBack];

const marker = testMarker;

/** A 4 × 4 PNG of one colour. */
const solidPng = (r: number, g: number, b: number) => sharp({ create: { width: 4, height: 4, channels: 3, background: { r, g, b } } }).png().toBuffer();
let RED: Buffer, BLUE: Buffer, GREEN: Buffer;
beforeAll(async () => {
  [RED, BLUE, GREEN] = await Promise.all([solidPng(255, 0, 0), solidPng(0, 0, 255), solidPng(0, 255, 0)]);
});

function cookieOf(res: LightMyRequestResponse): string {
  const raw = res.headers['set-cookie'];
  const line = (Array.isArray(raw) ? raw : raw ? [raw] : []).find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (!line) throw new Error('no session cookie set');
  return line.split(';')[0];
}

const isMarkerEvent = (m: SseMessage) => m.event === 'marker';
const changeOf = (m: SseMessage) => JSON.parse(m.data!) as MarkerChange;

describe.each(testBackends())('admin editor server on $name', (backend) => {
  let app: FastifyInstance;
  let db: Db;
  let repos: Repositories;
  let root: string;
  let base: string;
  const streams: SseStream[] = [];
  const cookies: Record<'visitor' | 'pro' | 'admin' | 'admin2', string> = { visitor: '', pro: '', admin: '', admin2: '' };

  const call = (method: InjectOptions['method'], url: string, payload?: unknown, cookie?: string) =>
    app.inject({
      method,
      url,
      headers: { ...(payload !== undefined ? { 'content-type': 'application/json' } : {}), ...(cookie ? { cookie } : {}) },
      ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
    });
  const add = (body: unknown, cookie = cookies.admin) => call('POST', '/api/be/admin/marker/add', body, cookie);
  const update = (body: unknown, cookie = cookies.admin) => call('POST', '/api/be/admin/marker/update', body, cookie);
  const remove = (uid: string, query = '', cookie = cookies.admin) => call('DELETE', `/api/be/admin/marker/${uid}${query}`, undefined, cookie);
  // A helper's cookie defaults to admin1's; '' is signed out.
  const history = (uid: string, cookie = cookies.admin) => call('GET', `/api/be/admin/marker/${uid}/history`, undefined, cookie);
  /**
   * An upload into image `index`. `replaces` says which image it means (the form's view): by
   * default the one stored there now (null: a new image); 'omit' leaves it out (an older page).
   */
  const upload = async (uid: string, index: number, cookie = cookies.admin, png: Buffer = PNG, replaces: string | null | 'stored' | 'omit' = 'stored', extra: Record<string, unknown> = {}) => {
    const target = replaces === 'stored' ? ((await repos.markers.get(uid))?.imgs[index]?.img ?? null) : replaces;
    const body = { uid: `${uid}-${index}`, map: 'factory', base64: `data:image/png;base64,${png.toString('base64')}`, ...(target !== 'omit' ? { replaces: target } : {}), ...extra };
    return call('POST', '/api/be/admin/maps/marker/upload/base64', body, cookie);
  };
  const stream = async (map: string, headers: Record<string, string> = {}) => {
    const s = await openSse(`${base}/api/be/live/markers?map=${map}`, headers);
    streams.push(s);
    return s;
  };

  beforeAll(async () => {
    root = tempDir();
    db = await backend.open();
    await migrateToLatest(db);
    repos = createRepositories(db);
    app = buildServer({ db, repos, uploadsDir: path.join(root, 'uploads'), tiles: false, distDir: path.join(root, 'dist'), assetsDir: path.join(root, 'assets'), livePingMs: 150 });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
    const hash = await hashPassword('password1');
    await repos.users.create({ name: 'visitor1', passwordHash: hash });
    await repos.users.create({ name: 'pro1', passwordHash: hash, pro: true });
    await repos.users.create({ name: 'admin1', passwordHash: hash, admin: true });
    await repos.users.create({ name: 'admin2', passwordHash: hash, admin: true });
    for (const [role, name] of [['visitor', 'visitor1'], ['pro', 'pro1'], ['admin', 'admin1'], ['admin2', 'admin2']] as const) {
      const res = await call('POST', '/api/be/auth/login', { name, password: 'password1' });
      expect(res.statusCode).toBe(200);
      cookies[role] = cookieOf(res);
    }
  });

  afterAll(async () => {
    for (const s of streams) s.close();
    await app.close();
    await db.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  describe('permissions', () => {
    it('history: 401 signed out, 403 for visitor and pro, 200 for an admin', async () => {
      await repos.markers.insert(marker('perm-1'));
      expect((await history('perm-1', '')).statusCode).toBe(401);
      expect((await history('perm-1', cookies.visitor)).statusCode).toBe(403);
      expect((await history('perm-1', cookies.pro)).statusCode).toBe(403);
      const ok = await history('perm-1', cookies.admin);
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['cache-control']).toBe('no-store');
      expect((ok.json() as { history: HistoryEntry[] }).history).toHaveLength(1);
    });

    it('the live stream is public: 200 text/event-stream for anyone, signed in or not', async () => {
      for (const cookie of [undefined, cookies.visitor, cookies.pro, cookies.admin]) {
        const s = await stream('factory', cookie ? { cookie } : {});
        expect(s.response.status).toBe(200);
        expect(s.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
        expect(s.response.headers.get('cache-control')).toMatch(/no-cache/);
        expect(await s.next()).toEqual({ retry: 2000 });
        s.close();
      }
    });

    it('writes stay admin only: 401 and 403 change nothing', async () => {
      await repos.markers.insert(marker('perm-2'));
      for (const [cookie, status] of [['', 401], [cookies.visitor, 403], [cookies.pro, 403]] as const) {
        expect((await update({ ...marker('perm-2', { name: 'x' }), version: 1 }, cookie)).statusCode).toBe(status);
        expect((await remove('perm-2', '?version=1', cookie)).statusCode).toBe(status);
        expect((await add(marker('perm-3'), cookie)).statusCode).toBe(status);
      }
      expect(await repos.markers.get('perm-2')).toMatchObject({ name: 'Marker perm-2', version: 1 });
      expect(await repos.markers.get('perm-3')).toBeUndefined();
    });
  });

  describe('bad input', () => {
    it('refuses a body that is not an object', async () => {
      for (const body of [[1, 2], 'text', 5, null]) {
        for (const send of [add, update]) {
          const res = await send(body);
          expect(res.statusCode, JSON.stringify(body)).toBe(400);
          expect(res.json()).toEqual({ error: 'Bad Request', message: expect.stringMatching(/JSON object/) });
        }
      }
    });

    it('refuses a bad client uid', async () => {
      for (const uid of ['bad uid', 'a/b', '', 'x'.repeat(65), 5, 'ünï']) {
        const res = await add(marker('unused', { uid: uid as string }));
        expect(res.statusCode, String(uid)).toBe(400);
        expect(res.json().message).toMatch(/uid/);
      }
    });

    it('refuses a version that is not a whole number', async () => {
      await repos.markers.insert(marker('bad-v'));
      for (const version of ['1', 1.5, -1, null, true]) {
        const res = await update({ ...marker('bad-v'), version });
        expect(res.statusCode, JSON.stringify(version)).toBe(400);
        expect(res.json().message).toMatch(/version/);
      }
      for (const query of ['?version=abc', '?version=1.5', '?version=-1', '?version=', '?version=1&version=1', '?version=1e3']) {
        const res = await remove('bad-v', query);
        expect(res.statusCode, query).toBe(400);
        expect(res.json()).toEqual({ error: 'Bad Request', message: expect.stringMatching(/version/) });
      }
      expect(await repos.markers.get('bad-v')).toMatchObject({ version: 1 });
    });

    it('refuses an unknown, missing or repeated map on the live stream', async () => {
      for (const url of ['/api/be/live/markers?map=atlantis', '/api/be/live/markers', '/api/be/live/markers?map=', '/api/be/live/markers?map=factory&map=customs']) {
        const res = await call('GET', url);
        expect(res.statusCode, url).toBe(400);
        expect(res.json()).toEqual({ error: 'Bad Request', message: expect.any(String) });
      }
      expect((await call('GET', '/api/be/live/markers?map=atlantis')).json().message).toMatch(/unknown map "atlantis"/);
    });

    it('answers 404 not_found for an unknown marker', async () => {
      expect((await update({ ...marker('ghost'), version: 1 })).json()).toEqual({ error: 'not_found', message: 'no marker with uid "ghost"' });
      const del = await remove('ghost', '?version=1');
      expect(del.statusCode).toBe(404);
      expect(del.json().error).toBe('not_found');
      expect((await history('ghost')).json()).toEqual({ history: [] });
    });
  });

  describe('versions and conflicts', () => {
    it('adds with a client uid, and a taken uid answers 409 with the stored marker', async () => {
      const res = await add({ ...marker('client-uid_1'), version: 7 });
      expect(res.statusCode).toBe(201);
      expect(res.json().marker).toMatchObject({ uid: 'client-uid_1', version: 1 });
      const again = await add({ ...marker('client-uid_1'), name: 'Other' });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ error: 'conflict', message: expect.stringContaining('client-uid_1'), marker: expect.objectContaining({ uid: 'client-uid_1', name: 'Marker client-uid_1', version: 1 }) });
    });

    it('of two updates based on one version the first wins; the second gets 409 with the winner', async () => {
      await repos.markers.insert(marker('race-1'));
      const first = await update({ ...marker('race-1', { name: 'First' }), version: 1 });
      expect(first.statusCode).toBe(200);
      expect(first.json().marker).toMatchObject({ name: 'First', version: 2 });
      const second = await update({ ...marker('race-1', { name: 'Second' }), version: 1 }, cookies.admin2);
      expect(second.statusCode).toBe(409);
      expect(second.json()).toEqual({ error: 'conflict', message: expect.any(String), marker: expect.objectContaining({ name: 'First', version: 2 }) });
      // Without a version the update is unconditional.
      const blind = await update(marker('race-1', { name: 'Blind' }));
      expect(blind.json().marker).toMatchObject({ name: 'Blind', version: 3 });
    });

    it('deletes only the version it was based on, and answers the deletion version', async () => {
      await repos.markers.insert(marker('del-1'));
      await update({ ...marker('del-1', { name: 'Changed' }), version: 1 });
      const stale = await remove('del-1', '?version=1');
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toEqual({ error: 'conflict', message: expect.any(String), marker: expect.objectContaining({ name: 'Changed', version: 2 }) });
      expect(await repos.markers.get('del-1')).toBeDefined();
      const ok = await remove('del-1', '?version=2');
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ ok: true, uid: 'del-1', version: 3 });
      expect(await repos.markers.get('del-1')).toBeUndefined();
      expect((await update({ ...marker('del-1'), version: 2 })).statusCode).toBe(404);
      // Undo of the delete: the same uid comes back with the next version.
      const back = await add(marker('del-1', { name: 'Changed' }));
      expect(back.statusCode).toBe(201);
      expect(back.json().marker).toMatchObject({ uid: 'del-1', version: 4 });
    });

    it('20 parallel updates based on one version: exactly one wins, the rest get 409 with the winner', async () => {
      await repos.markers.insert(marker('par-1'));
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => update({ ...marker('par-1', { name: `writer ${i}` }), version: 1 }, i % 2 ? cookies.admin : cookies.admin2)));
      const won = results.filter((r) => r.statusCode === 200);
      const lost = results.filter((r) => r.statusCode === 409);
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(19);
      const winner = won[0].json().marker as Marker;
      expect(winner.version).toBe(2);
      for (const r of lost) expect(r.json().marker).toEqual(winner);
      expect(await repos.markers.get('par-1')).toEqual(winner);
      expect((await history('par-1')).json().history).toHaveLength(2);
    });

    it('20 parallel deletes based on one version: exactly one deletes', async () => {
      await repos.markers.insert(marker('par-2'));
      const results = await Promise.all(Array.from({ length: 20 }, () => remove('par-2', '?version=1')));
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
      expect(results.every((r) => r.statusCode === 200 || r.statusCode === 404 || r.statusCode === 409)).toBe(true);
      expect((await history('par-2')).json().history.filter((h: HistoryEntry) => h.action === 'delete')).toHaveLength(1);
    });

    it('keeps stored pass-through fields that an update leaves out', async () => {
      await repos.markers.insert({ ...marker('pass-1'), floorName: 'Office', custom: { keep: true } } as Marker);
      const res = await update({ ...marker('pass-1', { name: 'Renamed' }), version: 1 });
      expect(res.statusCode).toBe(200);
      expect(res.json().marker).toMatchObject({ name: 'Renamed', floorName: 'Office', custom: { keep: true }, version: 2 });
      const list = (await call('GET', '/api/be/markers/list?map=factory')).json() as { markers: Marker[] };
      expect(list.markers.find((m) => m.uid === 'pass-1')).toMatchObject({ floorName: 'Office', version: 2 });
    });

    it('two uploads to images 0 and 1 of one marker at once both keep their image', async () => {
      for (let round = 0; round < 5; round++) {
        const uid = `img-${round}`;
        await repos.markers.insert(marker(uid, { imgs: [{ img: '/uploads/sample/a.webp', name: 'first', desc: '' }] }));
        const [zero, one] = await Promise.all([upload(uid, 0), upload(uid, 1, cookies.admin2)]);
        expect(zero.statusCode, zero.body).toBe(200);
        expect(one.statusCode, one.body).toBe(200);
        const stored = (await repos.markers.get(uid))!;
        expect(stored.imgs).toHaveLength(2);
        expect(stored.imgs[0]).toMatchObject({ name: 'first', img: expect.stringMatching(new RegExp(`^/uploads/markers/${uid}-0-[0-9a-f]{16}\\.png\\?v=\\d+$`)) });
        expect(stored.imgs[1].img).toMatch(new RegExp(`^/uploads/markers/${uid}-1-[0-9a-f]{16}\\.png\\?v=\\d+$`));
        expect(stored.version).toBe(3);
        const actions = ((await history(uid)).json().history as HistoryEntry[]).map((h) => [h.action, h.version]);
        expect(actions).toEqual([['update', 3], ['update', 2], ['add', 1]]);
      }
    });
  });

  describe('uploaded images: a file of its own per upload, never overwritten', () => {
    const uploaded = async (uid: string, index: number, png: Buffer, cookie = cookies.admin) => {
      const res = await upload(uid, index, cookie, png);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { marker: Marker; filePath: string; fileUrl: string };
      expect(body.fileUrl).toMatch(new RegExp(`^/uploads/markers/${uid}-${index}-[0-9a-f]{16}\\.png\\?v=\\d+$`));
      expect(body.filePath).toBe(`uploads/markers/${body.fileUrl.slice('/uploads/markers/'.length).split('?')[0]}`);
      return body;
    };
    /** The bytes the site serves at an image URL. */
    const served = async (url: string) => {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      return res.rawPayload;
    };
    const pathOf = (url: string) => url.split('?')[0];

    it('an image removed from the list, then another uploaded at its index: both pictures stay, each at its own URL', async () => {
      await repos.markers.insert(marker('pic-remove'));
      await uploaded('pic-remove', 0, RED);
      const second = await uploaded('pic-remove', 1, BLUE);
      const [red, blue] = second.marker.imgs.map((i) => i.img);
      // The form's Remove on the first image.
      const removed = await update({ ...second.marker, imgs: [second.marker.imgs[1]] });
      expect(removed.statusCode, removed.body).toBe(200);
      const green = (await uploaded('pic-remove', 1, GREEN)).fileUrl;
      const stored = (await repos.markers.get('pic-remove'))!;
      expect(stored.imgs.map((i) => i.img)).toEqual([blue, green]);
      expect(new Set([red, blue, green].map(pathOf)).size).toBe(3);
      expect((await served(blue)).equals(BLUE)).toBe(true);
      expect((await served(green)).equals(GREEN)).toBe(true);
      // The removed image (in the history, for an undo) is still there too.
      expect((await served(red)).equals(RED)).toBe(true);
    });

    it('images reordered (Up / Down), then one replaced: the others keep their pictures', async () => {
      await repos.markers.insert(marker('pic-order'));
      await uploaded('pic-order', 0, RED);
      const two = (await uploaded('pic-order', 1, BLUE)).marker;
      const swapped = (await update({ ...two, imgs: [two.imgs[1], two.imgs[0]] })).json().marker as Marker;
      const green = (await uploaded('pic-order', 1, GREEN)).fileUrl;
      const stored = (await repos.markers.get('pic-order'))!;
      expect(stored.imgs.map((i) => i.img)).toEqual([swapped.imgs[0].img, green]);
      expect((await served(stored.imgs[0].img)).equals(BLUE)).toBe(true);
      expect((await served(green)).equals(GREEN)).toBe(true);
      expect((await served(two.imgs[0].img)).equals(RED)).toBe(true);
    });

    it('two uploads to one index give two URLs, each showing its own picture', async () => {
      await repos.markers.insert(marker('pic-twice'));
      const first = (await uploaded('pic-twice', 0, RED)).fileUrl;
      const second = (await uploaded('pic-twice', 0, BLUE)).fileUrl;
      expect(pathOf(first)).not.toBe(pathOf(second));
      expect((await repos.markers.get('pic-twice'))!.imgs.map((i) => i.img)).toEqual([second]);
      expect((await served(first)).equals(RED)).toBe(true);
      expect((await served(second)).equals(BLUE)).toBe(true);
      // The same picture uploaded again is a new file all the same.
      const again = (await uploaded('pic-twice', 0, BLUE)).fileUrl;
      expect(pathOf(again)).not.toBe(pathOf(second));
    });

    it("a copy's image survives the original's image being replaced", async () => {
      await repos.markers.insert(marker('pic-original'));
      const original = (await uploaded('pic-original', 0, RED)).marker;
      // The editor's Copy: a new marker with the original's fields, images included.
      const { uid: _uid, version: _version, ...fields } = original;
      const copyRes = await add({ ...fields, geometry: { x: 10, y: 20 } });
      expect(copyRes.statusCode, copyRes.body).toBe(201);
      const copy = copyRes.json().marker as Marker;
      expect(copy.imgs[0].img).toBe(original.imgs[0].img);
      const replaced = (await uploaded('pic-original', 0, GREEN)).fileUrl;
      expect((await served(replaced)).equals(GREEN)).toBe(true);
      const storedCopy = (await repos.markers.get(copy.uid))!;
      expect(storedCopy.imgs[0].img).toBe(original.imgs[0].img);
      expect((await served(storedCopy.imgs[0].img)).equals(RED)).toBe(true);
    });

    it('concurrent uploads into one image: one is stored, the others answer 409 and leave no file', async () => {
      await repos.markers.insert(marker('pic-race'));
      const first = (await uploaded('pic-race', 0, RED)).marker.imgs[0].img;
      const pictures = await Promise.all(Array.from({ length: 8 }, (_, i) => solidPng(i * 30, 255 - i * 30, 7)));
      // Eight at once, each meaning what it saw: six replace image 0, two add image 1.
      const answers = await Promise.all(pictures.map((png, i) => upload('pic-race', i < 6 ? 0 : 1, i % 2 ? cookies.admin2 : cookies.admin, png, i < 6 ? first : null)));
      const ok = answers.flatMap((res, i) => (res.statusCode === 200 ? [i] : []));
      expect(ok.filter((i) => i < 6), 'one replaces image 0').toHaveLength(1);
      expect(ok.filter((i) => i >= 6), 'one adds image 1').toHaveLength(1);
      const stored = (await repos.markers.get('pic-race'))!;
      for (const [i, res] of answers.entries()) {
        if (ok.includes(i)) continue;
        expect(res.statusCode, res.body).toBe(409);
        expect(res.json()).toMatchObject({ error: 'conflict', message: expect.stringMatching(/was changed meanwhile/) });
      }
      expect(stored.version).toBe(4);
      expect(stored.imgs).toHaveLength(2);
      for (const i of ok) {
        const url = (answers[i].json() as { fileUrl: string }).fileUrl;
        expect(stored.imgs.map((image) => image.img)).toContain(url);
        expect((await served(url)).equals(pictures[i]), url).toBe(true);
      }
      // Only the stored uploads' files are there (and the first): a refused one left nothing.
      const files = fs.readdirSync(path.join(root, 'uploads', 'markers')).filter((name) => name.startsWith('pic-race-'));
      expect(files).toHaveLength(3);
    });

    it("an upload meant for an image another admin removed meanwhile answers 409 and keeps theirs (the probe's case A)", async () => {
      await repos.markers.insert(marker('pic-a'));
      await uploaded('pic-a', 0, RED);
      const loaded = (await uploaded('pic-a', 1, BLUE)).marker;
      const [cache1, cache2] = loaded.imgs.map((image, i) => ({ ...image, name: `Cache ${i + 1}/2` }));
      const named = (await update({ ...loaded, imgs: [cache1, cache2] })).json().marker as Marker;
      // Admin 2 removes image 0; admin 1, who loaded the version before, uploads into "Cache 1/2".
      const removed = await update({ ...named, imgs: [cache2] }, cookies.admin2);
      expect(removed.statusCode, removed.body).toBe(200);
      const res = await upload('pic-a', 0, cookies.admin, GREEN, cache1.img);
      expect(res.statusCode, res.body).toBe(409);
      const body = res.json() as { error: string; message: string; marker: Marker };
      expect(body.error).toBe('conflict');
      expect(body.message).toMatch(/^marker "pic-a" was changed meanwhile: the upload was meant for image 0 \(/);
      expect(body.marker).toEqual(removed.json().marker);
      expect(await repos.markers.get('pic-a')).toEqual(removed.json().marker);
      // The marker's version too, when the page sends it.
      const stale = await upload('pic-a', 0, cookies.admin, GREEN, cache2.img, { version: named.version });
      expect(stale.statusCode, stale.body).toBe(409);
      expect((await upload('pic-a', 0, cookies.admin, GREEN, cache2.img, { version: named.version! + 1 })).statusCode).toBe(200);
    });

    it('two uploads adding the same new image at once: one is stored, the other answers 409 (case B)', async () => {
      for (let round = 0; round < 3; round++) {
        const uid = `pic-b-${round}`;
        await repos.markers.insert(marker(uid, { imgs: [{ img: '/uploads/sample/a.webp', name: 'kept', desc: '' }] }));
        const answers = await Promise.all([upload(uid, 1, cookies.admin, RED, null), upload(uid, 1, cookies.admin2, BLUE, null)]);
        expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 409]);
        const stored = (await repos.markers.get(uid))!;
        expect(stored.imgs).toHaveLength(2);
        expect(stored.imgs[0]).toEqual({ img: '/uploads/sample/a.webp', name: 'kept', desc: '' });
        expect(stored.version).toBe(2);
      }
    });

    it("an older page's upload (no replaces) may add an image, never replace one", async () => {
      await repos.markers.insert(marker('pic-old', { imgs: [{ img: '/uploads/sample/a.webp', name: 'kept', desc: '' }] }));
      const replace = await upload('pic-old', 0, cookies.admin, RED, 'omit');
      expect(replace.statusCode, replace.body).toBe(409);
      expect(replace.json().message).toMatch(/meant for a new image 0, but image 0 is \/uploads\/sample\/a\.webp/);
      expect((await upload('pic-old', 1, cookies.admin, RED, 'omit')).statusCode).toBe(200);
      // Beyond the end it is the old 400, as before.
      expect((await upload('pic-old', 5, cookies.admin, RED, 'omit')).statusCode).toBe(400);
      expect((await repos.markers.get('pic-old'))!.imgs[0]).toEqual({ img: '/uploads/sample/a.webp', name: 'kept', desc: '' });
    });

    it('refuses a malformed target with 400, and only admins upload (401, 403, 403)', async () => {
      await repos.markers.insert(marker('pic-bad'));
      for (const extra of [{ replaces: 5 }, { replaces: '' }, { replaces: 'x'.repeat(5000) }, { version: -1 }, { version: 1.5 }, { version: '1' }]) {
        const res = await upload('pic-bad', 0, cookies.admin, RED, 'omit', extra);
        expect(res.statusCode, JSON.stringify(extra)).toBe(400);
        expect(res.json().message).toMatch(/^(replaces|version)/);
      }
      for (const [cookie, status] of [['', 401], [cookies.visitor, 403], [cookies.pro, 403]] as const) {
        expect((await upload('pic-bad', 0, cookie, RED, null)).statusCode).toBe(status);
      }
      expect((await repos.markers.get('pic-bad'))!).toMatchObject({ imgs: [], version: 1 });
      expect(fs.existsSync(path.join(root, 'uploads', 'markers')) ? fs.readdirSync(path.join(root, 'uploads', 'markers')).filter((n) => n.startsWith('pic-bad-')) : []).toEqual([]);
    });
  });

  it('keeps a history row per change: who, when, before and after, newest first', async () => {
    const added = (await add(marker('hist-1'))).json().marker as Marker;
    const updated = (await update({ ...added, name: 'Second' }, cookies.admin2)).json().marker as Marker;
    expect((await remove('hist-1', `?version=${updated.version}`)).statusCode).toBe(200);
    const res = await history('hist-1');
    const entries = (res.json() as { history: HistoryEntry[] }).history;
    expect(entries.map((e) => [e.action, e.user, e.version])).toEqual([
      ['delete', 'admin1', 3],
      ['update', 'admin2', 2],
      ['add', 'admin1', 1],
    ]);
    expect(entries[0]).toEqual({ id: expect.any(Number), uid: 'hist-1', map: 'factory', action: 'delete', user: 'admin1', at: expect.any(String), version: 3, before: updated, after: null });
    expect(entries[1].before).toEqual(added);
    expect(entries[1].after).toEqual(updated);
    expect(entries[2].before).toBeNull();
    expect(entries[2].after).toEqual(added);
    expect(entries[0].id).toBeGreaterThan(entries[1].id);
    expect(Date.parse(entries[0].at)).toBeGreaterThanOrEqual(Date.parse(entries[2].at));
  });

  it('answers at most 100 history rows', async () => {
    await repos.markers.insert(marker('hist-many'));
    for (let i = 0; i < 105; i++) await repos.markers.update(marker('hist-many', { name: `v${i}` }));
    const entries = (await history('hist-many')).json().history as HistoryEntry[];
    expect(entries).toHaveLength(100);
    expect(entries[0].version).toBe(106);
  });

  describe('live stream', () => {
    it('sends upsert and remove events of its own map with the acting admin, and nothing of other maps', async () => {
      const factory = await stream('factory');
      const customs = await stream('customs');
      await factory.next();
      await customs.next();

      const added = (await add(marker('live-1'))).json().marker as Marker;
      expect(changeOf(await factory.next(isMarkerEvent))).toEqual({ kind: 'upsert', map: 'factory', marker: added, by: 'admin1' });

      const updated = (await update({ ...added, name: 'Live' }, cookies.admin2)).json().marker as Marker;
      expect(changeOf(await factory.next(isMarkerEvent))).toEqual({ kind: 'upsert', map: 'factory', marker: updated, by: 'admin2' });

      const uploaded = (await upload('live-1', 0)).json().marker as Marker;
      expect(changeOf(await factory.next(isMarkerEvent))).toEqual({ kind: 'upsert', map: 'factory', marker: uploaded, by: 'admin1' });

      // A 409 publishes nothing; a move is a remove here and an upsert there.
      expect((await update({ ...added, name: 'Stale' })).statusCode).toBe(409);
      const moved = (await update({ ...uploaded, map: 'customs' })).json().marker as Marker;
      expect(changeOf(await factory.next(isMarkerEvent))).toEqual({ kind: 'remove', map: 'factory', uid: 'live-1', version: moved.version, by: 'admin1' });
      expect(changeOf(await customs.next(isMarkerEvent))).toEqual({ kind: 'upsert', map: 'customs', marker: moved, by: 'admin1' });

      expect((await remove('live-1', `?version=${moved.version}`, cookies.admin2)).statusCode).toBe(200);
      expect(changeOf(await customs.next(isMarkerEvent))).toEqual({ kind: 'remove', map: 'customs', uid: 'live-1', version: moved.version! + 1, by: 'admin2' });

      // Everything factory got, in order: nothing of customs' own changes.
      expect(factory.seen.filter(isMarkerEvent).map((m) => changeOf(m).kind)).toEqual(['upsert', 'upsert', 'upsert', 'remove']);
    });

    it('is not compressed or buffered, and pings', async () => {
      const s = await stream('woods', { 'accept-encoding': 'gzip, deflate, br' });
      expect(s.response.headers.get('content-encoding')).toBeNull();
      expect(await s.next()).toEqual({ retry: 2000 });
      // The event arrives while the response is still open: nothing waits for a buffer to fill.
      await repos.markers.insert(marker('live-woods', { map: 'woods' }), { user: 'script' });
      expect(changeOf(await s.next(isMarkerEvent, 3000))).toMatchObject({ kind: 'upsert', map: 'woods', by: 'script' });
      expect(await s.next((m) => m.comment === 'ping', 3000)).toEqual({ comment: 'ping' });
    });

    it('drops a listener when its client goes away', async () => {
      const channel = markersChannel('lab');
      const before = app.raidmap.live.subscriberCount(channel);
      const s = await stream('lab');
      await s.next();
      expect(app.raidmap.live.subscriberCount(channel)).toBe(before + 1);
      s.close();
      const deadline = Date.now() + 5000;
      while (app.raidmap.live.subscriberCount(channel) !== before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(app.raidmap.live.subscriberCount(channel)).toBe(before);
    });
  });
});

describe('live streams when the app closes', () => {
  it('ends every open stream, so close() does not wait for them', async () => {
    const backend = testBackends()[0];
    const db = await backend.open();
    const root = tempDir();
    try {
      await migrateToLatest(db);
      const app = buildServer({ db, uploadsDir: path.join(root, 'uploads'), tiles: false, distDir: path.join(root, 'dist') });
      const base = await app.listen({ host: '127.0.0.1', port: 0 });
      const streams = await Promise.all(['factory', 'factory', 'customs'].map((map) => openSse(`${base}/api/be/live/markers?map=${map}`)));
      for (const s of streams) expect(await s.next()).toEqual({ retry: 2000 });
      expect(app.raidmap.live.subscriberCount()).toBe(3);
      const started = Date.now();
      await app.close();
      expect(Date.now() - started).toBeLessThan(5000);
      for (const s of streams) expect(await s.ended(2000)).toBe(true);
      expect(app.raidmap.live.subscriberCount()).toBe(0);
    } finally {
      await db.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
