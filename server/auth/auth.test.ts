import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Marker } from '../../src/domain/marker';
import { buildServer } from '../app';
import { createRepositories, migrateToLatest, type Db, type Repositories } from '../db';
import { seedIfEmpty } from '../seed';
import { tempDir, testBackends } from '../testing/databases';
import { nameProblem, passwordProblem, SIGNED_IN_COOKIE } from '../../src/domain/account';
import { credentialsSchema } from '../routes/auth';
import { hashToken, SESSION_COOKIE, SESSION_TTL_MS } from './index';
import { hashPassword, verifyPassword } from './password';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d8a4e40000000049454e44ae426082', 'hex');

function cookieOf(res: LightMyRequestResponse): string {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
  const line = list.find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (!line) throw new Error('no session cookie set');
  return line.split(';')[0];
}

describe('password hashing', () => {
  it('stores scrypt$N$r$p$salt$hash and verifies in constant time', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('wrong horse', hash)).toBe(false);
    expect(await verifyPassword('x', 'garbage')).toBe(false);
    expect(await hashPassword('correct horse')).not.toBe(hash);
  });
});

describe.each(testBackends())('accounts and permissions on $name', (backend) => {
  let app: FastifyInstance;
  let db: Db;
  let repos: Repositories;
  let root: string;
  let uploadsDir: string;
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const cookies: Record<'visitor' | 'pro' | 'admin', string> = { visitor: '', pro: '', admin: '' };
  let questUids: string[];
  let someMarker: Marker;

  const json = (method: InjectOptions['method'], url: string, payload?: unknown, cookie?: string, headers: Record<string, string> = {}) =>
    app.inject({
      method,
      url,
      ...(payload !== undefined ? { payload: JSON.stringify(payload), headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}), ...headers } } : { headers: { ...(cookie ? { cookie } : {}), ...headers } }),
    });

  async function login(name: string, password: string): Promise<LightMyRequestResponse> {
    return json('POST', '/api/be/auth/login', { name, password });
  }

  async function signInAll(): Promise<void> {
    for (const role of ['visitor', 'pro', 'admin'] as const) {
      const res = await login(`${role}1`, 'password1');
      expect(res.statusCode).toBe(200);
      cookies[role] = cookieOf(res);
    }
  }

  beforeAll(async () => {
    root = tempDir();
    db = await backend.open();
    await migrateToLatest(db);
    repos = createRepositories(db);
    uploadsDir = path.join(root, 'uploads');
    await seedIfEmpty(db, repos, { maps: ['factory'], markersPerMap: 20, uploadsDir });
    // Slowed-down sign-ins answer at once here (server/auth/limits.test.ts checks the waits).
    app = buildServer({ db, repos, uploadsDir, tiles: false, distDir: path.join(root, 'dist'), assetsDir: path.join(root, 'assets'), auth: { now: () => clock, sleep: async () => {} } });
    await app.ready();
    const hash = await hashPassword('password1');
    await repos.users.create({ name: 'visitor1', passwordHash: hash });
    await repos.users.create({ name: 'pro1', passwordHash: hash, pro: true });
    await repos.users.create({ name: 'admin1', passwordHash: hash, admin: true });
    await signInAll();
    questUids = (await repos.quests.list()).map((q) => q.uid);
    someMarker = (await repos.markers.listByMap('factory'))[0];
  });

  afterAll(async () => {
    await app.close();
    await db.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  describe('sign-up, sign-in, sign-out', () => {
    it('registers, signs in with the new cookie, and refuses a taken name regardless of case', async () => {
      const res = await json('POST', '/api/be/auth/register', { name: 'NewUser', password: 'granite-Meadow-58' });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ user: { name: 'NewUser', pro: false, admin: false, questsDone: [], questsHidden: [] } });
      const me = await json('GET', '/api/be/user', undefined, cookieOf(res));
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ name: 'NewUser', pro: false, admin: false });
      const again = await json('POST', '/api/be/auth/register', { name: 'newuser', password: 'granite-Meadow-58' });
      expect(again.statusCode).toBe(409);
    });

    it('validates names and passwords on sign-up', async () => {
      for (const body of [{ name: 'ab', password: 'longenough' }, { name: 'bad name', password: 'longenough' }, { name: 'okname', password: 'short' }, { name: 'okname' }, { name: 5, password: 'longenough' }, [1, 2]]) {
        const res = await json('POST', '/api/be/auth/register', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().message).toBeTruthy();
      }
    });

    it('sets an HTTP-only SameSite=Lax cookie, Secure over https', async () => {
      const res = await login('pro1', 'password1');
      const line = String(res.headers['set-cookie']);
      expect(line).toMatch(/HttpOnly/);
      expect(line).toMatch(/SameSite=Lax/);
      expect(line).toMatch(/Path=\//);
      expect(line).not.toMatch(/Secure/);
      const token = cookieOf(res).split('=')[1];
      // Only the hash of the token is stored.
      expect(await repos.sessions.get(token)).toBeUndefined();
      expect(await repos.sessions.get(hashToken(token))).toBeDefined();
      const secure = await app.inject({ method: 'POST', url: '/api/be/auth/login', headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' }, payload: { name: 'pro1', password: 'password1' } });
      expect(secure.statusCode).toBe(200);
      const previous = process.env.NODE_ENV;
      process.env.NODE_ENV = 'production';
      try {
        const prod = await login('pro1', 'password1');
        expect(String(prod.headers['set-cookie'])).toMatch(/Secure/);
      } finally {
        process.env.NODE_ENV = previous;
      }
    });

    it('sets a script-readable signed-in hint beside the session, and clears it with the session', async () => {
      const cookies = (res: { headers: Record<string, unknown> }) => ([] as string[]).concat((res.headers['set-cookie'] as string | string[] | undefined) ?? []);
      const res = await login('pro1', 'password1');
      const session = cookies(res).find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
      const hint = cookies(res).find((c) => c.startsWith(`${SIGNED_IN_COOKIE}=`))!;
      expect(session).toMatch(/HttpOnly/);
      expect(hint).toMatch(new RegExp(`^${SIGNED_IN_COOKIE}=1;`));
      expect(hint).not.toMatch(/HttpOnly/);
      expect(hint).toMatch(/SameSite=Lax/);
      const out = await json('POST', '/api/be/auth/logout', undefined, cookieOf(res));
      expect(cookies(out).some((c) => c.startsWith(`${SIGNED_IN_COOKIE}=;`))).toBe(true);
      // A hint without a session is dropped, and the hint alone signs nobody in.
      const stray = await json('GET', '/api/be/user', undefined, `${SIGNED_IN_COOKIE}=1`);
      expect(stray.statusCode).toBe(401);
      expect(cookies(stray).some((c) => c.startsWith(`${SIGNED_IN_COOKIE}=;`))).toBe(true);
    });

    it('answers 401 with one generic message for a wrong password or an unknown name', async () => {
      const wrong = await login('visitor1', 'not-the-password');
      const unknown = await login('nobody-here', 'password1');
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrong.json().message).toBe(unknown.json().message);
      expect(wrong.headers['set-cookie']).toBeUndefined();
    });

    it('signs out: the session is revoked on the server', async () => {
      const cookie = cookieOf(await login('visitor1', 'password1'));
      expect((await json('GET', '/api/be/user', undefined, cookie)).statusCode).toBe(200);
      const out = await json('POST', '/api/be/auth/logout', undefined, cookie);
      expect(out.statusCode).toBe(200);
      expect(String(out.headers['set-cookie'])).toMatch(new RegExp(`${SESSION_COOKIE}=;`));
      expect((await json('GET', '/api/be/user', undefined, cookie)).statusCode).toBe(401);
    });

    it('rejects and purges an expired session, and renews one in use', async () => {
      const start = clock;
      const cookie = cookieOf(await login('visitor1', 'password1'));
      const id = hashToken(cookie.split('=')[1]);
      clock = start + 2 * 60 * 60_000;
      const renewed = await json('GET', '/api/be/user', undefined, cookie);
      expect(renewed.statusCode).toBe(200);
      expect(renewed.headers['set-cookie']).toBeDefined();
      expect(Date.parse((await repos.sessions.get(id))!.expiresAt)).toBe(clock + SESSION_TTL_MS);
      clock += SESSION_TTL_MS + 1000;
      try {
        const expired = await json('GET', '/api/be/user', undefined, cookie);
        expect(expired.statusCode).toBe(401);
        expect(await repos.sessions.get(id)).toBeUndefined();
      } finally {
        clock = start;
        // The purge removed every session that had expired by then, the shared ones too.
        await signInAll();
      }
    });

    it('refuses (429, Retry-After) only the address that failed five times for an account, until its window ends', async () => {
      await repos.users.create({ name: 'target', passwordHash: await hashPassword('password1') });
      const from = (remoteAddress: string, password: string) =>
        app.inject({ method: 'POST', url: '/api/be/auth/login', remoteAddress, headers: { 'content-type': 'application/json' }, payload: { name: 'target', password } });
      for (let i = 0; i < 5; i++) expect((await from('10.1.1.1', 'wrong-password')).statusCode).toBe(401);
      const limited = await from('10.1.1.1', 'password1');
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.json().message).toMatch(/from your address; try again in \d+ minute/);
      // The owner, from an address that has not failed, signs in.
      expect((await from('10.2.2.2', 'password1')).statusCode).toBe(200);
      const start = clock;
      clock += Number(limited.headers['retry-after']) * 1000;
      try {
        expect((await from('10.1.1.1', 'password1')).statusCode).toBe(200);
      } finally {
        clock = start;
      }
    });

    it('rate-limits failed sign-ins per address', async () => {
      const from = { remoteAddress: '10.9.8.7' };
      const attempt = (name: string) => app.inject({ method: 'POST', url: '/api/be/auth/login', ...from, headers: { 'content-type': 'application/json' }, payload: { name, password: 'wrong-password' } });
      for (let i = 0; i < 20; i++) expect((await attempt(`someone${i}`)).statusCode).toBe(401);
      expect((await attempt('someone-else')).statusCode).toBe(429);
      // Other addresses are unaffected.
      expect((await login('pro1', 'password1')).statusCode).toBe(200);
    });
  });

  describe('CSRF rules', () => {
    it('refuses form bodies with 415', async () => {
      const res = await app.inject({ method: 'POST', url: '/api/be/auth/login', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=pro1&password=password1' });
      expect(res.statusCode).toBe(415);
      expect(res.json().message).toMatch(/JSON/);
      const text = await app.inject({ method: 'POST', url: '/api/be/user/progress', headers: { 'content-type': 'text/plain', cookie: cookies.pro }, payload: '{"questsDone":[]}' });
      expect(text.statusCode).toBe(415);
    });

    it('refuses a foreign Origin with 403 and accepts its own', async () => {
      const foreign = await json('POST', '/api/be/auth/login', { name: 'pro1', password: 'password1' }, undefined, { origin: 'https://evil.example' });
      expect(foreign.statusCode).toBe(403);
      expect(foreign.json().message).toMatch(/cross-origin/);
      const own = await json('POST', '/api/be/auth/login', { name: 'pro1', password: 'password1' }, undefined, { origin: 'http://localhost', host: 'localhost' });
      expect(own.statusCode).toBe(200);
      const del = await json('DELETE', `/api/be/admin/marker/${someMarker.uid}`, undefined, cookies.admin, { origin: 'https://evil.example' });
      expect(del.statusCode).toBe(403);
      expect(await repos.markers.get(someMarker.uid)).toBeDefined();
    });
  });

  describe('GET /api/be/user and POST /api/be/user/progress', () => {
    it('answers 401 without a session or with a made-up one', async () => {
      expect((await json('GET', '/api/be/user')).statusCode).toBe(401);
      expect((await json('GET', '/api/be/user', undefined, `${SESSION_COOKIE}=made-up`)).statusCode).toBe(401);
      expect((await json('POST', '/api/be/user/progress', { questsDone: [] })).statusCode).toBe(401);
    });

    it('lets a pro user save done and hidden quests, each user only their own', async () => {
      const done = await json('POST', '/api/be/user/progress', { questsDone: [questUids[0], questUids[1]] }, cookies.pro);
      expect(done.statusCode).toBe(200);
      expect(done.json()).toMatchObject({ name: 'pro1', questsDone: [questUids[0], questUids[1]], questsHidden: [] });
      const hidden = await json('POST', '/api/be/user/progress', { questsHidden: [questUids[2]] }, cookies.pro);
      expect(hidden.json()).toMatchObject({ questsDone: [questUids[0], questUids[1]], questsHidden: [questUids[2]] });
      expect((await json('GET', '/api/be/user', undefined, cookies.pro)).json().questsHidden).toEqual([questUids[2]]);
      // Another user's progress is untouched; the body cannot name a user.
      const other = await json('GET', '/api/be/user', undefined, cookies.visitor);
      expect(other.json()).toMatchObject({ name: 'visitor1', questsDone: [], questsHidden: [] });
      expect((await json('POST', '/api/be/user/progress', { questsDone: [], name: 'visitor1' }, cookies.pro)).statusCode).toBe(400);
    });

    it('answers 403 with an upsell to a visitor account and 403 to an admin', async () => {
      const visitor = await json('POST', '/api/be/user/progress', { questsDone: [questUids[0]] }, cookies.visitor);
      expect(visitor.statusCode).toBe(403);
      expect(visitor.json().message).toMatch(/pro/);
      expect((await json('POST', '/api/be/user/progress', { questsDone: [questUids[0]] }, cookies.admin)).statusCode).toBe(403);
      expect((await json('GET', '/api/be/user', undefined, cookies.visitor)).json().questsDone).toEqual([]);
    });

    it('answers 400 for unknown quest uids, wrong types and bad shapes', async () => {
      const unknown = await json('POST', '/api/be/user/progress', { questsDone: [questUids[0], 'no-such-quest'] }, cookies.pro);
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().message).toMatch(/no-such-quest/);
      for (const body of [{ questsDone: 'x' }, { questsDone: [1] }, { questsDone: [], questsHidden: [] }, {}, [questUids[0]], null, { questsDone: Array(2001).fill(questUids[0]) }]) {
        const res = await json('POST', '/api/be/user/progress', body, cookies.pro);
        expect(res.statusCode, JSON.stringify(body)?.slice(0, 60)).toBe(400);
        expect(res.json().message).toBeTruthy();
      }
      const broken = await app.inject({ method: 'POST', url: '/api/be/user/progress', headers: { 'content-type': 'application/json', cookie: cookies.pro }, payload: '{"questsDone": [' });
      expect(broken.statusCode).toBe(400);
    });

    it('answers 413 JSON for an oversized body', async () => {
      const res = await json('POST', '/api/be/user/progress', { questsDone: ['x'.repeat(70 * 1024)] }, cookies.pro);
      expect(res.statusCode).toBe(413);
      expect(res.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    });
  });

  describe('admin routes', () => {
    const newMarker = () => ({ map: 'factory', category: someMarker.category, subCategory: someMarker.subCategory, level: 0, geometry: { x: 1, y: 2 }, name: 'Added' });

    const calls: { name: string; run: (cookie?: string) => Promise<LightMyRequestResponse> }[] = [
      { name: 'marker/add', run: (cookie) => json('POST', '/api/be/admin/marker/add', newMarker(), cookie) },
      { name: 'marker/update', run: (cookie) => json('POST', '/api/be/admin/marker/update', { ...someMarker, name: 'Renamed' }, cookie) },
      { name: 'maps/marker/upload/base64', run: (cookie) => json('POST', '/api/be/admin/maps/marker/upload/base64', { uid: `${someMarker.uid}-0`, map: 'factory', base64: PNG.toString('base64') }, cookie) },
      { name: 'GET users', run: (cookie) => json('GET', '/api/be/admin/users', undefined, cookie) },
      { name: 'users/pro', run: (cookie) => json('POST', '/api/be/admin/users/pro', { name: 'visitor1', pro: false }, cookie) },
      { name: 'DELETE marker/:uid', run: async (cookie) => {
        const uid = `del-${Math.random().toString(36).slice(2)}`;
        await repos.markers.insert({ ...newMarker(), uid, desc: '', imgs: [], name_l10n: {}, desc_l10n: {}, itemsUid: [] } as Marker);
        return json('DELETE', `/api/be/admin/marker/${uid}`, undefined, cookie);
      } },
    ];

    for (const call of calls) {
      it(`${call.name}: 401 without a session, 403 for visitor and pro, 2xx for admin`, async () => {
        expect((await call.run()).statusCode).toBe(401);
        expect((await call.run(cookies.visitor)).statusCode).toBe(403);
        expect((await call.run(cookies.pro)).statusCode).toBe(403);
        const ok = await call.run(cookies.admin);
        expect(ok.statusCode, ok.body).toBeGreaterThanOrEqual(200);
        expect(ok.statusCode).toBeLessThan(300);
      });
    }

    it('adds a marker with a server-assigned uid, updates it, deletes it, and the list follows', async () => {
      const added = await json('POST', '/api/be/admin/marker/add', newMarker(), cookies.admin);
      expect(added.statusCode).toBe(201);
      const { marker } = added.json() as { marker: Marker };
      expect(marker.uid).toMatch(/^[0-9a-f-]{36}$/);
      expect(marker.version).toBe(1);
      expect(marker).toMatchObject({ name: 'Added', geometry: { x: 1, y: 2 } });
      // The list is rebuilt in the background: a read 100 ms after a write has it (server/http/json-cache.ts).
      const settle = () => new Promise((resolve) => setTimeout(resolve, 110));
      await settle();
      let list = (await json('GET', '/api/be/markers/list?map=factory')).json() as { markers: Marker[] };
      expect(list.markers.some((m) => m.uid === marker.uid)).toBe(true);
      const updated = await json('POST', '/api/be/admin/marker/update', { ...marker, name: 'Changed' }, cookies.admin);
      expect(updated.json().marker.name).toBe('Changed');
      expect((await json('POST', '/api/be/admin/marker/update', { ...marker, uid: 'nope' }, cookies.admin)).statusCode).toBe(404);
      expect((await json('POST', '/api/be/admin/marker/add', { ...newMarker(), level: 'x' }, cookies.admin)).statusCode).toBe(400);
      expect((await json('DELETE', `/api/be/admin/marker/${marker.uid}`, undefined, cookies.admin)).statusCode).toBe(200);
      expect((await json('DELETE', `/api/be/admin/marker/${marker.uid}`, undefined, cookies.admin)).statusCode).toBe(404);
      await settle();
      list = (await json('GET', '/api/be/markers/list?map=factory')).json() as { markers: Marker[] };
      expect(list.markers.some((m) => m.uid === marker.uid)).toBe(false);
    });

    it('lists the accounts and grants and revokes pro by name; the user sees it at once', async () => {
      const list = await json('GET', '/api/be/admin/users', undefined, cookies.admin);
      const users = (list.json() as { users: { name: string; pro: boolean; admin: boolean }[] }).users;
      expect(users.find((u) => u.name === 'visitor1')).toEqual({ name: 'visitor1', pro: false, admin: false });
      expect(users.every((u) => !('passwordHash' in u) && !('questsDone' in u))).toBe(true);
      const granted = await json('POST', '/api/be/admin/users/pro', { name: 'VISITOR1', pro: true }, cookies.admin);
      expect(granted.statusCode, granted.body).toBe(200);
      expect(granted.json().user).toEqual({ name: 'visitor1', pro: true, admin: false });
      expect((await json('GET', '/api/be/user', undefined, cookies.visitor)).json().pro).toBe(true);
      const revoked = await json('POST', '/api/be/admin/users/pro', { name: 'visitor1', pro: false }, cookies.admin);
      expect(revoked.json().user.pro).toBe(false);
      expect((await json('GET', '/api/be/user', undefined, cookies.visitor)).json().pro).toBe(false);
    });

    it('refuses a malformed pro change with 400 and an unknown account with 404', async () => {
      const post = (body: unknown) => json('POST', '/api/be/admin/users/pro', body, cookies.admin);
      for (const body of [{ name: 'visitor1' }, { name: 'visitor1', pro: 'yes' }, { name: '', pro: true }, { name: 'visitor1', pro: true, admin: true }, [1]]) {
        const res = await post(body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().message).toBeTruthy();
      }
      const unknown = await post({ name: 'nobody-here', pro: true });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toMatch(/nobody-here/);
    });

    it('uploads an image from a data URL, writes the file and points the marker at it', async () => {
      // Names the image it replaces, as the editor does (the permission matrix above may have stored one).
      const replaces = (await repos.markers.get(someMarker.uid))!.imgs[0]?.img ?? null;
      const res = await json('POST', '/api/be/admin/maps/marker/upload/base64', { uid: `${someMarker.uid}-0`, map: 'factory', base64: `data:image/png;base64,${PNG.toString('base64')}`, replaces }, cookies.admin);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { marker: Marker; filePath: string; fileUrl: string };
      expect(body.fileUrl).toMatch(/^\/uploads\/markers\/.+\.png\?v=\d+$/);
      expect(body.marker.imgs[0].img).toBe(body.fileUrl);
      expect(fs.readFileSync(path.join(root, body.filePath)).equals(PNG)).toBe(true);
      const served = await app.inject({ url: body.fileUrl });
      expect(served.statusCode).toBe(200);
    });

    it('answers 400 for bad base64, non-images, a bad index and 404 for an unknown marker', async () => {
      const upload = (body: unknown) => json('POST', '/api/be/admin/maps/marker/upload/base64', body, cookies.admin);
      const garbled = await upload({ uid: `${someMarker.uid}-0`, map: 'factory', base64: '%%%not base64%%%' });
      expect(garbled.statusCode).toBe(400);
      expect(garbled.json().error).toBe('bad_base64');
      // A code a page can put in its own language, beside the English words.
      const text = await upload({ uid: `${someMarker.uid}-0`, map: 'factory', base64: Buffer.from('hello, not an image').toString('base64') });
      expect(text.statusCode).toBe(400);
      expect(text.json()).toEqual({ error: 'not_image', message: 'base64: the file is not a PNG, JPEG or WebP image' });
      const gif = await upload({ uid: `${someMarker.uid}-0`, map: 'factory', base64: `data:image/gif;base64,${PNG.toString('base64')}` });
      expect(gif.statusCode).toBe(400);
      expect(gif.json().error).toBe('not_image');
      expect((await upload({ uid: `${someMarker.uid}-99`, map: 'factory', base64: PNG.toString('base64') })).statusCode).toBe(400);
      expect((await upload({ uid: `${someMarker.uid}-0`, map: 'customs', base64: PNG.toString('base64') })).statusCode).toBe(400);
      expect((await upload({ uid: 'no-such-marker-0', map: 'factory', base64: PNG.toString('base64') })).statusCode).toBe(404);
      expect((await upload({ uid: 'noindex', map: 'factory', base64: PNG.toString('base64') })).statusCode).toBe(400);
      const big = await upload({ uid: `${someMarker.uid}-0`, map: 'factory', base64: 'A'.repeat(9 * 1024 * 1024) });
      expect(big.statusCode).toBe(413);
      // A non-admin is turned away before the body is read.
      const early = await json('POST', '/api/be/admin/maps/marker/upload/base64', { base64: 'A'.repeat(9 * 1024 * 1024) }, cookies.pro);
      expect(early.statusCode).toBe(403);
    });
  });
});

describe('the sign-up schema', () => {
  const names = ['', 'ab', 'abc', 'a'.repeat(32), 'a'.repeat(33), 'pro_user-2', 'with space', 'ünïcode', 'a.b', '-_-', 'x'.repeat(40) + '!'];
  const passwords = ['', '1234567', '12345678', 'x'.repeat(200), 'x'.repeat(201), 'пароль-длинный'];

  it('accepts exactly what the domain rules accept (the sign-up form checks those)', () => {
    for (const name of names) {
      for (const password of passwords) {
        const client = nameProblem(name) === null && passwordProblem(password) === null;
        expect(credentialsSchema.safeParse({ name, password }).success, `${name} / ${password}`).toBe(client);
      }
    }
  });
});
