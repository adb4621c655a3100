/**
 * Sign-in throttling, sign-up limits and the password strength rule (issue 9, defects 1, 2
 * and 8), and the counters' home in the database, shared by every server process on it: on
 * SQLite and PostgreSQL. Two apps here stand for two server processes: each has its own
 * connection (pool) to one database.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildServer } from '../app';
import { createRepositories, migrateToLatest, openDatabase, type Db, type Repositories } from '../db';
import { tempDir } from '../testing/databases';
import { hashPassword } from './password';
import { DEFAULT_AUTH_LIMITS, RateLimiter, type AuthLimits } from './rate-limit';

const OWNER_PASSWORD = 'granite-Meadow-58';
const MINUTE = 60_000;

interface Shared {
  name: 'sqlite' | 'postgres';
  /** Two connections to one fresh, migrated database. */
  open(): Promise<{ first: Db; second: Db; close(): Promise<void> }>;
}

function sharedBackends(): Shared[] {
  const backends: Shared[] = [
    {
      name: 'sqlite',
      open: async () => {
        const dir = tempDir();
        const file = path.join(dir, 'raidmap.sqlite');
        const first = openDatabase({ sqliteFile: file });
        await migrateToLatest(first);
        const second = openDatabase({ sqliteFile: file });
        return {
          first,
          second,
          close: async () => {
            await second.close();
            await first.close();
            fs.rmSync(dir, { recursive: true, force: true });
          },
        };
      },
    },
  ];
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    backends.push({
      name: 'postgres',
      open: async () => {
        const schema = `test_limits_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
        const first = openDatabase({ databaseUrl: url, pgSchema: schema });
        await sql`create schema ${sql.id(schema)}`.execute(first.kysely);
        await migrateToLatest(first);
        const second = openDatabase({ databaseUrl: url, pgSchema: schema });
        return {
          first,
          second,
          close: async () => {
            await second.close();
            await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(first.kysely);
            await first.close();
          },
        };
      },
    });
  }
  return backends;
}

describe.each(sharedBackends())('sign-in and sign-up limits on $name', (backend) => {
  let close: () => Promise<void>;
  let firstDb: Db;
  let secondDb: Db;
  let repos: Repositories;
  let otherRepos: Repositories;
  let root: string;
  let clock = Date.parse('2026-03-01T00:00:00Z');
  /** Every wait a slowed-down sign-in asked for, in order. */
  let sleeps: number[] = [];
  const apps: FastifyInstance[] = [];
  let app: FastifyInstance;
  /** A second server process on the same database. */
  let other: FastifyInstance;

  function serve(db: Db, reposOf: Repositories, limits: Partial<AuthLimits> = {}): FastifyInstance {
    const built = buildServer({
      db,
      repos: reposOf,
      uploadsDir: path.join(root, 'uploads'),
      tiles: false,
      distDir: path.join(root, 'dist'),
      assetsDir: path.join(root, 'assets'),
      // Limits as documented (not the environment's), and waits recorded instead of slept.
      auth: { now: () => clock, sleep: async (ms) => void sleeps.push(ms), limits: { ...DEFAULT_AUTH_LIMITS, ...limits } },
    });
    apps.push(built);
    return built;
  }

  const post = (server: FastifyInstance, url: string, remoteAddress: string, payload: unknown): Promise<LightMyRequestResponse> =>
    server.inject({ method: 'POST', url, remoteAddress, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
  const login = (remoteAddress: string, name: string, password: string, server = app) => post(server, '/api/be/auth/login', remoteAddress, { name, password });
  const register = (remoteAddress: string, name: string, password: string, server = app) => post(server, '/api/be/auth/register', remoteAddress, { name, password });

  beforeAll(async () => {
    root = tempDir();
    const opened = await backend.open();
    close = opened.close;
    firstDb = opened.first;
    secondDb = opened.second;
    repos = createRepositories(opened.first);
    otherRepos = createRepositories(opened.second);
    app = serve(opened.first, repos);
    other = serve(opened.second, otherRepos);
    await Promise.all(apps.map((a) => a.ready()));
    const hash = await hashPassword(OWNER_PASSWORD);
    for (const name of ['admin', 'owner', 'spread', 'parallel', 'shared', 'cleared']) await repos.users.create({ name, passwordHash: hash, admin: name === 'admin' });
  });

  afterAll(async () => {
    for (const a of apps) await a.close();
    await close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  beforeEach(() => {
    sleeps = [];
  });

  describe('sign-in (defect 1: nobody can lock an account)', () => {
    it('five wrong passwords for the admin from one address: the right one still signs in from another, at once', async () => {
      for (let i = 0; i < 5; i++) expect((await login('198.51.100.1', 'admin', `guess-${i}`)).statusCode).toBe(401);
      const refused = await login('198.51.100.1', 'admin', OWNER_PASSWORD);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json()).toMatchObject({ error: 'Too Many Requests', message: expect.stringMatching(/for this account from your address; try again in \d+ minute/) });
      sleeps = [];
      const owner = await login('198.51.100.2', 'admin', OWNER_PASSWORD);
      expect(owner.statusCode).toBe(200);
      expect(owner.json().user).toMatchObject({ name: 'admin', admin: true });
      // An address that has not failed is never slowed down.
      expect(sleeps).toEqual([]);
      // The failing address may try again once its window is over.
      const start = clock;
      clock += Number(refused.headers['retry-after']) * 1000;
      try {
        expect((await login('198.51.100.1', 'admin', OWNER_PASSWORD)).statusCode).toBe(200);
      } finally {
        clock = start;
      }
    });

    it('slows an address that keeps failing: a doubling wait before each try, then 429', async () => {
      const waits: number[][] = [];
      for (let i = 0; i < 5; i++) {
        sleeps = [];
        expect((await login('198.51.100.10', 'owner', `guess-${i}`)).statusCode).toBe(401);
        waits.push(sleeps);
      }
      expect(waits).toEqual([[], [250], [500], [1000], [2000]]);
      sleeps = [];
      expect((await login('198.51.100.10', 'owner', 'guess-5')).statusCode).toBe(429);
      // A refusal answers at once: nothing to wait for, nothing checked.
      expect(sleeps).toEqual([]);
      // Another account from the same address is not slowed (until the address-wide limit).
      expect((await login('198.51.100.10', 'cleared', OWNER_PASSWORD)).statusCode).toBe(200);
      expect(sleeps).toEqual([]);
    });

    it('a success clears the address\'s failures for that account', async () => {
      for (let i = 0; i < 4; i++) expect((await login('198.51.100.20', 'cleared', `guess-${i}`)).statusCode).toBe(401);
      expect((await login('198.51.100.20', 'cleared', OWNER_PASSWORD)).statusCode).toBe(200);
      sleeps = [];
      for (let i = 0; i < 5; i++) expect((await login('198.51.100.20', 'cleared', `guess-${i}`)).statusCode).toBe(401);
      expect(sleeps).toEqual([250, 500, 1000, 2000]);
    });

    it('a guessing attack spread over many addresses never refuses or slows the owner; each failing address waits the longest', async () => {
      const max = DEFAULT_AUTH_LIMITS.loginAccount!.max;
      for (let i = 0; i <= max + 5; i++) expect((await login(`203.0.113.${i + 1}`, 'spread', `guess-${i}`)).statusCode).toBe(401);
      sleeps = [];
      const owner = await login('192.0.2.200', 'spread', OWNER_PASSWORD);
      expect(owner.statusCode).toBe(200);
      expect(sleeps).toEqual([]);
      // An attacking address's second try waits the longest at once, not 250 ms.
      expect((await login('203.0.113.1', 'spread', 'guess-again')).statusCode).toBe(401);
      expect(sleeps).toEqual([DEFAULT_AUTH_LIMITS.loginDelayMaxMs]);
    });

    it('refuses an address that fails across many accounts (20), and no other address', async () => {
      for (let i = 0; i < 20; i++) expect((await login('198.51.100.30', `someone${i}`, 'wrong-password')).statusCode).toBe(401);
      const refused = await login('198.51.100.30', 'owner', OWNER_PASSWORD);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toMatch(/from your address/);
      expect((await login('198.51.100.31', 'owner', OWNER_PASSWORD)).statusCode).toBe(200);
    });

    it('counts concurrent guesses right: of 12 at once from one address, exactly 5 are checked', async () => {
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => login('198.51.100.40', 'parallel', `guess-${i}`)));
      const codes = answers.map((a) => a.statusCode).sort();
      expect(codes.filter((c) => c === 401)).toHaveLength(5);
      expect(codes.filter((c) => c === 429)).toHaveLength(7);
      expect((await repos.rateLimits.get('login:pair 198.51.100.40 parallel', clock))?.count).toBe(12);
      expect((await repos.rateLimits.get('login:account parallel', clock))?.count).toBe(5);
      expect((await login('198.51.100.41', 'parallel', OWNER_PASSWORD)).statusCode).toBe(200);
    });

    it('counts the client behind a trusted proxy (TRUST_PROXY), and believes no one else\'s X-Forwarded-For', async () => {
      const viaProxy = buildServer({
        db: firstDb,
        repos,
        uploadsDir: path.join(root, 'uploads'),
        tiles: false,
        distDir: path.join(root, 'dist'),
        assetsDir: path.join(root, 'assets'),
        trustProxy: ['10.0.0.1'],
        auth: { now: () => clock, sleep: async () => {}, limits: DEFAULT_AUTH_LIMITS },
      });
      apps.push(viaProxy);
      const through = (remoteAddress: string, client: string, password: string) =>
        viaProxy.inject({ method: 'POST', url: '/api/be/auth/login', remoteAddress, headers: { 'content-type': 'application/json', 'x-forwarded-for': client }, payload: { name: 'owner', password } });
      // Two clients behind one proxy: the failing one is refused, the other signs in.
      for (let i = 0; i < 5; i++) expect((await through('10.0.0.1', '198.51.100.110', `guess-${i}`)).statusCode).toBe(401);
      expect((await through('10.0.0.1', '198.51.100.110', OWNER_PASSWORD)).statusCode).toBe(429);
      expect((await through('10.0.0.1', '198.51.100.111', OWNER_PASSWORD)).statusCode).toBe(200);
      // A client that is not the proxy cannot pick its address with the header.
      for (let i = 0; i < 5; i++) expect((await through('198.51.100.112', `192.0.2.${i + 10}`, `guess-${i}`)).statusCode).toBe(401);
      expect((await through('198.51.100.112', '192.0.2.99', OWNER_PASSWORD)).statusCode).toBe(429);
    });

    it('counts an IPv6 client by its /64, so rotating addresses inside it does not help', async () => {
      for (let i = 0; i < 5; i++) expect((await login(`2001:db8:5:6::${i + 1}`, 'owner', `guess-${i}`)).statusCode).toBe(401);
      expect((await login('2001:db8:5:6::99', 'owner', OWNER_PASSWORD)).statusCode).toBe(429);
      expect((await login('2001:db8:5:7::1', 'owner', OWNER_PASSWORD)).statusCode).toBe(200);
    });
  });

  describe('sign-up (defect 2: limited per address and overall)', () => {
    it('creates five accounts from one address, then 429 with Retry-After and a clear message; other addresses go on', async () => {
      for (let i = 0; i < 5; i++) expect((await register('198.51.100.50', `flood${i}`, OWNER_PASSWORD)).statusCode).toBe(201);
      const refused = await register('198.51.100.50', 'flood5', OWNER_PASSWORD);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json()).toMatchObject({ error: 'Too Many Requests', message: expect.stringMatching(/^too many new accounts from your address; try again in \d+ minute/) });
      expect(await repos.users.getByName('flood5')).toBeUndefined();
      expect((await register('198.51.100.51', 'flood5', OWNER_PASSWORD)).statusCode).toBe(201);
    });

    it('counts every try from an address, refused ones too, before the strength check', async () => {
      for (let i = 0; i < 20; i++) expect((await register('198.51.100.60', `tries${i}`, 'password')).statusCode).toBe(400);
      const refused = await register('198.51.100.60', 'tries20', OWNER_PASSWORD);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toMatch(/^too many sign-up attempts from your address/);
      // Mistakes the form catches (a bad name) are not counted: they cost nothing.
      expect((await register('198.51.100.61', 'x', OWNER_PASSWORD)).statusCode).toBe(400);
      expect(await repos.rateLimits.get('signup:tries 198.51.100.61', clock)).toBeUndefined();
    });

    it('creates exactly five of eight concurrent sign-ups from one address', async () => {
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => register('198.51.100.70', `burst${i}`, OWNER_PASSWORD)));
      const created = answers.filter((a) => a.statusCode === 201);
      expect(created).toHaveLength(5);
      expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(3);
      const stored = await Promise.all(Array.from({ length: 8 }, (_, i) => repos.users.getByName(`burst${i}`)));
      expect(stored.filter(Boolean)).toHaveLength(5);
    });

    it('gives the count back when concurrent sign-ups race for one name', async () => {
      const answers = await Promise.all(Array.from({ length: 4 }, () => register('198.51.100.80', 'contested', OWNER_PASSWORD)));
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409, 409]);
      expect((await repos.rateLimits.get('signup:address 198.51.100.80', clock))?.count).toBe(1);
    });

    it('limits new accounts on the whole site, across addresses and server processes', async () => {
      const strict = { signUpAll: { max: 3, windowMs: 10 * MINUTE } };
      // Two more processes with a site-wide limit of 3, on a fresh window.
      const start = clock;
      clock += 61 * MINUTE;
      try {
        const one = serve(firstDb, repos, strict);
        const two = serve(secondDb, otherRepos, strict);
        await Promise.all([one.ready(), two.ready()]);
        expect((await register('192.0.2.1', 'site1', OWNER_PASSWORD, one)).statusCode).toBe(201);
        expect((await register('192.0.2.2', 'site2', OWNER_PASSWORD, two)).statusCode).toBe(201);
        expect((await register('192.0.2.3', 'site3', OWNER_PASSWORD, one)).statusCode).toBe(201);
        const refused = await register('192.0.2.4', 'site4', OWNER_PASSWORD, two);
        expect(refused.statusCode).toBe(429);
        expect(refused.json().message).toMatch(/^too many new accounts on the site just now; try again in \d+ minute/);
        // The refused address's own count was given back.
        expect((await repos.rateLimits.get('signup:address 192.0.2.4', clock))?.count).toBe(0);
      } finally {
        clock = start;
      }
    });
  });

  describe('new passwords (defect 8: no common or guessable ones)', () => {
    it.each([
      ['password', /too easy to guess: This is a heavily used password/],
      ['12345678', /too easy to guess: This is a heavily used password/],
      ['qwertyuiop', /too easy to guess: This is a frequently used password/],
      ['Password1!', /too easy to guess: This is similar to a commonly used password/],
      ['weakling2026', /must not contain the account name/],
      ['W3akl1ng!', /too easy to guess: There should not be any personal or page related data/],
    ])('refuses %j with why, and stores nothing', async (password, why) => {
      const res = await register('198.51.100.90', 'weakling', password);
      expect(res.statusCode).toBe(400);
      const body = res.json();
      expect(body).toMatchObject({ error: 'weak_password', field: 'password', message: expect.stringMatching(why) });
      expect(body.message).toMatch(/^password /);
      expect(Array.isArray(body.suggestions)).toBe(true);
      expect(await repos.users.getByName('weakling')).toBeUndefined();
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it('accepts a password zxcvbn finds hard to guess', async () => {
      const res = await register('198.51.100.91', 'strongling', 'violet kettle drum');
      expect(res.statusCode).toBe(201);
    });
  });

  describe('the counters live in the database', () => {
    it('two server processes share the sign-in limits', async () => {
      for (let i = 0; i < 3; i++) expect((await login('198.51.100.100', 'shared', `guess-${i}`, app)).statusCode).toBe(401);
      sleeps = [];
      for (let i = 3; i < 5; i++) expect((await login('198.51.100.100', 'shared', `guess-${i}`, other)).statusCode).toBe(401);
      // The second process slows the address as much as the first left it.
      expect(sleeps).toEqual([1000, 2000]);
      expect((await login('198.51.100.100', 'shared', OWNER_PASSWORD, app)).statusCode).toBe(429);
      expect((await login('198.51.100.100', 'shared', OWNER_PASSWORD, other)).statusCode).toBe(429);
      expect((await login('198.51.100.101', 'shared', OWNER_PASSWORD, other)).statusCode).toBe(200);
    });

    it('counts concurrent hits from two connections without losing one', async () => {
      const hits = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? repos : otherRepos).rateLimits.hit('test:concurrent', MINUTE, clock)));
      expect(hits.map((h) => h.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      expect(new Set(hits.map((h) => h.resetAt))).toEqual(new Set([clock + MINUTE]));
    });

    it('restarts an expired window on the next hit, never goes below zero, and purges expired counters', async () => {
      const store = repos.rateLimits;
      await store.hit('test:window', MINUTE, clock);
      await store.hit('test:window', MINUTE, clock + 1000);
      expect(await store.get('test:window', clock + 2000)).toEqual({ count: 2, resetAt: clock + MINUTE });
      expect(await store.get('test:window', clock + MINUTE)).toBeUndefined();
      expect(await store.hit('test:window', MINUTE, clock + MINUTE)).toEqual({ count: 1, resetAt: clock + 2 * MINUTE });
      await store.release('test:window', clock + MINUTE);
      await store.release('test:window', clock + MINUTE);
      expect((await store.get('test:window', clock + MINUTE))?.count).toBe(0);

      await store.hit('test:old', MINUTE, clock);
      await store.hit('test:young', 10 * MINUTE, clock);
      const later = clock + 5 * MINUTE;
      expect(await store.purgeExpired(later)).toBeGreaterThanOrEqual(1);
      expect(await store.get('test:old', clock)).toBeUndefined();
      expect(await store.get('test:young', later)).toMatchObject({ count: 1 });
    });

    it('the limiter purges expired counters as it counts, at most once a minute', async () => {
      let now = clock + 24 * 60 * MINUTE;
      const limiter = new RateLimiter(repos.rateLimits, () => now);
      await repos.rateLimits.hit('test:stale', MINUTE, now - 2 * MINUTE);
      await limiter.take('test:fresh', { max: 5, windowMs: MINUTE });
      expect(await repos.rateLimits.get('test:stale', now - 2 * MINUTE)).toBeUndefined();
      await repos.rateLimits.hit('test:stale2', 1000, now);
      now += 2000;
      await limiter.take('test:fresh', { max: 5, windowMs: MINUTE });
      // Within the minute: not purged yet (each take stays one statement).
      expect(await repos.rateLimits.get('test:stale2', now - 2000)).toBeDefined();
      now += MINUTE;
      await limiter.take('test:fresh', { max: 5, windowMs: MINUTE });
      expect(await repos.rateLimits.get('test:stale2', now - MINUTE - 2000)).toBeUndefined();
    });
  });

});
