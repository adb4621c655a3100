/**
 * The live position feed's routes (server/pilot/routes.ts, docs/PILOT.md "Server") on SQLite,
 * and on PostgreSQL when TEST_DATABASE_URL is set: pairing, lookup, publishing, unpairing,
 * refused messages and tokens, expiry on an injected clock, the two rate limits, ordering of
 * concurrent publishes, the four roles, the event stream on a listening server, and (on
 * PostgreSQL) a position crossing from one server process to another's stream.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAIRING_ALPHABET, PAIRING_TTL_MS, formatPairingCode } from '../../src/domain/pilot';
import { buildServer, type BuildServerOptions } from '../app';
import { signInRoles } from '../testing/accounts';
import { createRepositories, migrateToLatest, type Db } from '../db';
import { PilotPairingRepository } from '../db/pilot-pairings';
import { MemoryLiveHub } from '../live/hub';
import { ConfigError } from '../config';
import { tempDir, testBackends } from '../testing/databases';
import { GappyHub, appFolders, closePgProcesses, dropListeningConnection, startPgProcess, waitFor, type PgProcess } from '../testing/processes';
import { openSse, type SseMessage, type SseStream } from '../testing/sse';
import { DEFAULT_PILOT_LIMITS, pilotLimitsFromEnv } from './limits';
import { PILOT_CHANNEL, WATCHERS_TTL_MS } from './routes';

const HOUR = 3_600_000;
const url = process.env.TEST_DATABASE_URL;

interface Pairing {
  code: string;
  token: string;
  expiresAt: string;
}

const position = (x: number, y = 2, z = 3, look: number | null = 90) => ({ type: 'position', data: { x, y, z, look } });

/** Requests against one app, from one address, with an optional session cookie. */
function client(app: FastifyInstance, remoteAddress = '127.0.0.1', cookie = '') {
  const call = (method: InjectOptions['method'], target: string, options: { body?: string; token?: string | null; headers?: Record<string, string> } = {}) =>
    app.inject({
      method,
      url: target,
      remoteAddress,
      headers: {
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(cookie ? { cookie } : {}),
        ...options.headers,
      },
      ...(options.body !== undefined ? { payload: options.body } : {}),
    });
  return {
    call,
    pair: async (): Promise<Pairing> => {
      const res = await call('POST', '/api/be/pilot/pairings', { body: '{}' });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as Pairing;
    },
    info: (code: string) => call('GET', `/api/be/pilot/${encodeURIComponent(code)}`),
    send: (pairing: Pick<Pairing, 'code' | 'token'>, message: unknown) =>
      call('POST', `/api/be/pilot/${pairing.code}/messages`, { body: typeof message === 'string' ? message : JSON.stringify(message), token: pairing.token }),
    unpair: (pairing: Pick<Pairing, 'code' | 'token'>) => call('DELETE', `/api/be/pilot/${pairing.code}`, { body: '{}', token: pairing.token }),
  };
}

describe('pilot limits from the environment', () => {
  it('default, parse RATE_LIMIT_PILOT_* like the sign-in rules, and name a bad variable', () => {
    expect(pilotLimitsFromEnv({})).toEqual(DEFAULT_PILOT_LIMITS);
    expect(pilotLimitsFromEnv({ RATE_LIMIT_PILOT_PAIRINGS: '5/1m', RATE_LIMIT_PILOT_GUESSES: 'off' })).toEqual({ pairings: { max: 5, windowMs: 60_000 }, guesses: null });
    expect(() => pilotLimitsFromEnv({ RATE_LIMIT_PILOT_GUESSES: 'lots' })).toThrow(ConfigError);
    expect(() => pilotLimitsFromEnv({ RATE_LIMIT_PILOT_GUESSES: 'lots' })).toThrow(/^RATE_LIMIT_PILOT_GUESSES: expected a count per time/);
  });
});

describe.each(testBackends())('pilot routes on $name', (backend) => {
  let db: Db;
  let root: string;
  let app: FastifyInstance;
  let clock = Date.UTC(2030, 0, 1);
  const cookies: Record<'visitor' | 'pro' | 'admin', string> = { visitor: '', pro: '', admin: '' };
  const apps: FastifyInstance[] = [];

  const build = async (extra: Partial<BuildServerOptions> = {}, pilot: BuildServerOptions['pilot'] = {}) => {
    const built = buildServer({
      db,
      ...appFolders(root),
      ...extra,
      pilot: { now: () => clock, limits: { pairings: null, guesses: null }, sweepEveryMs: 0, ...pilot },
    });
    apps.push(built);
    await built.ready();
    return built;
  };

  beforeAll(async () => {
    root = tempDir();
    db = await backend.open();
    await migrateToLatest(db);
    app = await build();
    const repos = createRepositories(db);
    Object.assign(cookies, await signInRoles(app, repos));
  });

  afterAll(async () => {
    for (const built of apps) await built.close();
    await db?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('pairs, looks up, publishes, pings and unpairs; only the token hash is stored', async () => {
    const c = client(app);
    const pairing = await c.pair();
    expect(pairing.code).toMatch(new RegExp(`^[${PAIRING_ALPHABET}]{10}$`));
    expect(pairing.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(pairing.expiresAt).toBe(new Date(clock + PAIRING_TTL_MS).toISOString());
    const row = await new PilotPairingRepository(db).get(pairing.code);
    expect(row?.tokenHash).toBe(createHash('sha256').update(pairing.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(pairing.token);
    // A taken code is refused (the route then draws another), the stored pairing untouched.
    expect(await new PilotPairingRepository(db).create(pairing.code, 'f'.repeat(64), clock)).toBe(false);
    expect((await new PilotPairingRepository(db).get(pairing.code))?.tokenHash).toBe(row?.tokenHash);

    // An empty body pairs too; codes differ.
    const bare = await c.call('POST', '/api/be/pilot/pairings');
    expect(bare.statusCode).toBe(201);
    expect((bare.json() as Pairing).code).not.toBe(pairing.code);
    expect((await c.call('POST', '/api/be/pilot/pairings', { body: '[1]' })).statusCode).toBe(400);

    // Lower case and a dash are the same code.
    const info = await c.info(formatPairingCode(pairing.code).toLowerCase());
    expect(info.statusCode).toBe(200);
    expect(info.headers['cache-control']).toBe('no-store');
    expect(info.json()).toEqual({ code: pairing.code, expiresAt: new Date(clock + PAIRING_TTL_MS).toISOString(), watchers: 0, knowsMap: false });

    const sent = await c.send(pairing, position(10));
    expect(sent.statusCode, sent.body).toBe(200);
    // No map yet: the answer says so, so a publisher that had sent one (before a restart) sends it again.
    expect(sent.json()).toEqual({ ok: true, watchers: 0, knowsMap: false });
    expect((await c.send(pairing, { type: 'ping' })).json()).toEqual({ type: 'pong', watchers: 0, knowsMap: false });
    expect((await c.send(pairing, { type: 'map', data: { map: 'woods' } })).json()).toEqual({ ok: true, watchers: 0, knowsMap: true });
    expect((await c.send(pairing, { type: 'ping' })).json()).toEqual({ type: 'pong', watchers: 0, knowsMap: true });
    // Positions never reach the database: the row is as it was, but for the use mark.
    expect(Object.keys((await new PilotPairingRepository(db).get(pairing.code))!).sort()).toEqual(['code', 'createdAt', 'lastUsedAt', 'tokenHash']);

    const removed = await c.unpair(pairing);
    expect(removed.statusCode).toBe(204);
    expect((await c.info(pairing.code)).statusCode).toBe(404);
    expect((await c.send(pairing, position(1))).statusCode).toBe(404);
    expect((await c.unpair(pairing)).statusCode).toBe(404);
    expect((await c.call('GET', `/api/be/pilot/${pairing.code}/events`)).statusCode).toBe(404);
    expect((await c.info(pairing.code)).json()).toMatchObject({ error: 'Not Found', message: expect.stringContaining('unknown') });
  });

  it('answers 400 to a malformed code on every route', async () => {
    const c = client(app);
    for (const code of ['ABC', 'O0O0O0O0O0', 'ABCDEFGHJKM', '%20']) {
      for (const res of [
        await c.info(code),
        await c.call('GET', `/api/be/pilot/${code}/events`),
        await c.send({ code, token: 'x' }, position(1)),
        await c.unpair({ code, token: 'x' }),
      ]) {
        expect(res.statusCode, `${code}: ${res.body}`).toBe(400);
        expect(res.json()).toMatchObject({ error: 'Bad Request', message: expect.stringContaining('is not a pairing code') });
      }
    }
  });

  it('refuses bad messages with 400 naming the problem, and the pairing keeps working', async () => {
    const c = client(app);
    const pairing = await c.pair();
    const bad: Array<[string, unknown, RegExp]> = [
      ['not JSON', '{"type": "position", ', /not valid JSON/],
      ['no body', undefined, /message/],
      ['an array', '[]', /message/],
      ['an unknown type', { type: 'teleport' }, /type/],
      ['a string coordinate', { type: 'position', data: { x: '1', y: 2, z: 3, look: 0 } }, /data\.x/],
      ['a far coordinate', position(1e6), /data\.x/],
      ['a look past 360', position(1, 2, 3, 361), /data\.look/],
      ['a non-finite number', '{"type":"position","data":{"x":1e999,"y":2,"z":3,"look":0}}', /data\.x/],
      ['a missing field', { type: 'position', data: { x: 1, y: 2, z: 3 } }, /data\.look/],
      ['an unknown map', { type: 'map', data: { map: 'moon' } }, /data\.map/],
      ['an extra field', { ...position(1), extra: 'x'.repeat(8000) }, /message|extra/],
      ['an extra data field', { type: 'position', data: { x: 1, y: 2, z: 3, look: 0, w: 1 } }, /data/],
    ];
    for (const [what, body, problem] of bad) {
      const res =
        body === undefined
          ? await c.call('POST', `/api/be/pilot/${pairing.code}/messages`, { token: pairing.token })
          : await c.send(pairing, body);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
      expect((res.json() as { message: string }).message, what).toMatch(problem);
    }
    // Far over the body limit: 413 before anything is parsed.
    const huge = await c.send(pairing, { ...position(1), extra: 'x'.repeat(40_000) });
    expect(huge.statusCode).toBe(413);
    // Nothing else happened: the pairing works, with what was last published.
    expect((await c.send(pairing, position(5))).statusCode).toBe(200);
    expect((await c.info(pairing.code)).statusCode).toBe(200);
  });

  it('refuses a position far outside the map last sent (or outside every map before one) with 400, and keeps the last one', async () => {
    const c = client(app);
    const pairing = await c.pair();
    // No map yet: a position must be on some map.
    const nowhere = await c.send(pairing, position(50_000));
    expect(nowhere.statusCode, nowhere.body).toBe(400);
    expect(nowhere.json()).toEqual({ error: 'outside_map', message: 'bad message: data: the position (x 50000, y 2) is outside every map', map: null });
    expect((await c.send(pairing, position(-153.2, 88.67))).statusCode).toBe(200);

    expect((await c.send(pairing, { type: 'map', data: { map: 'factory' } })).statusCode).toBe(200);
    // Factory is some 150 m across: 500 m away is another map (or no map at all).
    const far = await c.send(pairing, position(500, 0));
    expect(far.statusCode, far.body).toBe(400);
    expect(far.json()).toMatchObject({ error: 'outside_map', map: 'factory' });
    expect((far.json() as { message: string }).message).toMatch(/^bad message: data: the position \(x 500, y 0\) is outside Factory, the map last sent: x must be within -?\d+…\d+ and y within -?\d+…\d+$/);
    expect((await c.send(pairing, position(-200, 0))).statusCode).toBe(400);
    // Near the edge of the drawing (within the margin) is taken, and the height is not checked.
    expect((await c.send(pairing, position(90, -90, 5000))).statusCode).toBe(200);
    // On a larger map the same place is fine.
    expect((await c.send(pairing, { type: 'map', data: { map: 'woods' } })).statusCode).toBe(200);
    expect((await c.send(pairing, position(500, 0))).statusCode).toBe(200);
  });

  it('answers 401 without a token and 403 with a wrong one, on messages and unpairing', async () => {
    const c = client(app);
    const pairing = await c.pair();
    const other = await c.pair();
    for (const route of [
      (token: string | null) => c.call('POST', `/api/be/pilot/${pairing.code}/messages`, { body: JSON.stringify(position(1)), token }),
      (token: string | null) => c.call('DELETE', `/api/be/pilot/${pairing.code}`, { body: '{}', token }),
    ]) {
      const missing = await route(null);
      expect(missing.statusCode).toBe(401);
      expect(missing.headers['www-authenticate']).toBe('Bearer');
      expect((await route(other.token)).statusCode).toBe(403);
      expect((await route('not-the-token')).statusCode).toBe(403);
    }
    const basic = await c.call('POST', `/api/be/pilot/${pairing.code}/messages`, { body: JSON.stringify(position(1)), headers: { authorization: `Basic ${pairing.token}` } });
    expect(basic.statusCode).toBe(401);
    // Still there, and the right token works.
    expect((await c.send(pairing, position(1))).statusCode).toBe(200);
    expect((await c.unpair(pairing)).statusCode).toBe(204);
  });

  it('forgets a pairing unused for 24 h; a used one lives on; the sweep deletes expired rows and ends them', async () => {
    const c = client(app);
    const idle = await c.pair();
    const busy = await c.pair();
    clock += 23 * HOUR;
    expect((await c.send(busy, position(1))).statusCode).toBe(200);
    expect((await c.info(busy.code)).json()).toMatchObject({ expiresAt: new Date(clock + PAIRING_TTL_MS).toISOString() });
    clock += HOUR + 1;
    for (const res of [await c.info(idle.code), await c.call('GET', `/api/be/pilot/${idle.code}/events`), await c.send(idle, position(1)), await c.unpair(idle)]) {
      expect(res.statusCode).toBe(404);
    }
    // The lookup deleted the expired row on the way.
    expect(await new PilotPairingRepository(db).get(idle.code)).toBeUndefined();
    expect((await c.info(busy.code)).statusCode).toBe(200);
    expect((await c.send(busy, position(2))).statusCode).toBe(200);

    // The periodic sweep (another app on the database, with its own hub): deletes, says 'expired'.
    const forgotten = await c.pair();
    clock += PAIRING_TTL_MS + 1;
    const hub = new MemoryLiveHub();
    const heard: unknown[] = [];
    hub.subscribe(PILOT_CHANNEL, (data) => {
      if ((data as { code?: string }).code === forgotten.code) heard.push(data);
    });
    await build({ live: hub }, { sweepEveryMs: 20 });
    await waitFor('the sweep', async () => (await new PilotPairingRepository(db).get(forgotten.code)) === undefined);
    await waitFor('the end message', () => heard.length > 0);
    expect(heard).toEqual([{ code: forgotten.code, end: 'expired' }]);
    expect((await c.info(forgotten.code)).statusCode).toBe(404);
  });

  /** `count` different well-formed codes, none of them `except`. */
  const unknownCodes = (count: number, except: string) =>
    [...PAIRING_ALPHABET]
      .map((char) => char.repeat(10))
      .filter((code) => code !== except)
      .slice(0, count);

  it('limits failed guesses per address: 429 with retry-after and the rule named, for lookups, streams and tokens', async () => {
    const limited = await build({}, { limits: { pairings: null, guesses: { max: 3, windowMs: 10 * 60_000 } } });
    const guesser = client(limited, '203.0.113.7');
    const owner = client(limited, '198.51.100.1');
    const pairing = await owner.pair();
    const [first, second, third] = unknownCodes(3, pairing.code);
    expect((await guesser.info(first)).statusCode).toBe(404);
    expect((await guesser.call('GET', `/api/be/pilot/${second}/events`)).statusCode).toBe(404);
    expect((await guesser.send({ code: pairing.code, token: 'wrong' }, position(1))).statusCode).toBe(403);
    const refused = await guesser.info(third);
    expect(refused.statusCode).toBe(429);
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({ error: 'Too Many Requests', limit: 'guesses', retryAfter: wait });
    // Past the rule, even a real code is refused to that address (it learns nothing more)…
    expect((await guesser.info(pairing.code)).statusCode).toBe(429);
    expect((await guesser.call('GET', `/api/be/pilot/${pairing.code}/events`)).statusCode).toBe(429);
    expect((await guesser.send({ code: pairing.code, token: 'another wrong one' }, position(1))).statusCode).toBe(429);
    // …while other addresses go on, and a success is never counted.
    for (let i = 0; i < 5; i++) expect((await owner.send(pairing, position(i))).statusCode).toBe(200);
    expect((await owner.info(pairing.code)).statusCode).toBe(200);
    // The window ends.
    clock += 10 * 60_000 + 1;
    expect((await guesser.info(pairing.code)).statusCode).toBe(200);
    // Missing tokens count too, each code once.
    const tokenless = client(limited, '203.0.113.8');
    const others = unknownCodes(4, pairing.code);
    for (const code of others.slice(0, 3)) expect((await tokenless.send({ code, token: '' }, position(1))).statusCode).toBe(401);
    expect((await tokenless.send({ code: others[3], token: '' }, position(1))).statusCode).toBe(429);
  });

  it('stops brute force: many different wrong codes from one address, as before (default rule: 20 per 10 minutes)', async () => {
    const limited = await build({}, { limits: { pairings: null, guesses: DEFAULT_PILOT_LIMITS.guesses } });
    const guesser = client(limited, '203.0.113.30');
    const owner = client(limited, '198.51.100.30');
    const pairing = await owner.pair();
    const codes = unknownCodes(DEFAULT_PILOT_LIMITS.guesses!.max + 1, pairing.code);
    const answers: number[] = [];
    for (const code of codes) answers.push((await guesser.info(code)).statusCode);
    expect(answers).toEqual([...Array<number>(DEFAULT_PILOT_LIMITS.guesses!.max).fill(404), 429]);
    // Now nothing is looked up for it, a real code included, until the window ends.
    expect((await guesser.info(pairing.code)).statusCode).toBe(429);
    expect((await guesser.info(codes[0])).statusCode).toBe(429);
    clock += DEFAULT_PILOT_LIMITS.guesses!.windowMs + 1;
    expect((await guesser.info(pairing.code)).statusCode).toBe(200);
  });

  it('a page asking again and again for one ended code locks nobody out of its address: publisher and followers go on', async () => {
    const limited = await build({}, { limits: { pairings: null, guesses: { max: 3, windowMs: 10 * 60_000 } } });
    const home = client(limited, '203.0.113.40');
    const ended = await home.pair();
    expect((await home.unpair(ended)).statusCode).toBe(204);
    // A page remembering the ended code: its stream and its check on every map page load.
    for (let load = 0; load < 15; load++) {
      expect((await home.call('GET', `/api/be/pilot/${ended.code}/events`)).statusCode).toBe(404);
      expect((await home.info(ended.code)).statusCode).toBe(404);
    }
    // The same address publishes to a new pairing and follows it.
    const live = await home.pair();
    expect((await home.send(live, position(1))).statusCode).toBe(200);
    expect((await home.info(live.code)).statusCode).toBe(200);
    expect((await home.call('HEAD', `/api/be/pilot/${live.code}/events`)).statusCode).toBe(200);
    expect((await home.unpair(live)).statusCode).toBe(204);
  });

  it("an address locked out by guessing still publishes with its own pairing's token; a wrong token there is 429", async () => {
    const limited = await build({}, { limits: { pairings: null, guesses: { max: 2, windowMs: 10 * 60_000 } } });
    const home = client(limited, '203.0.113.50');
    const pairing = await home.pair();
    for (const code of unknownCodes(3, pairing.code)) await home.info(code);
    expect((await home.info(pairing.code)).statusCode).toBe(429);
    expect((await home.send(pairing, position(1))).statusCode).toBe(200);
    expect((await home.send(pairing, { type: 'ping' })).json()).toMatchObject({ type: 'pong' });
    // Nothing more is learnt with a wrong token or none: the same 429 as for an unknown code.
    expect((await home.send({ code: pairing.code, token: 'wrong' }, position(1))).statusCode).toBe(429);
    expect((await home.send({ code: pairing.code, token: '' }, position(1))).statusCode).toBe(429);
    expect((await home.unpair(pairing)).statusCode).toBe(204);
  });

  it('limits new pairings per address', async () => {
    const limited = await build({}, { limits: { pairings: { max: 2, windowMs: HOUR }, guesses: null } });
    const c = client(limited, '203.0.113.20');
    await c.pair();
    await c.pair();
    const refused = await c.call('POST', '/api/be/pilot/pairings', { body: '{}' });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({ limit: 'pairings', retryAfter: Number(refused.headers['retry-after']) });
    expect((await client(limited, '203.0.113.21').call('POST', '/api/be/pilot/pairings', { body: '{}' })).statusCode).toBe(201);
  });

  it('gives anonymous callers, visitors, pro users and admins the same answers: the token is the permission', async () => {
    const outcomes: Record<string, number[]> = {};
    for (const [role, cookie] of [['anonymous', ''], ['visitor', cookies.visitor], ['pro', cookies.pro], ['admin', cookies.admin]] as const) {
      const c = client(app, '127.0.0.1', cookie);
      const res = await c.call('POST', '/api/be/pilot/pairings', { body: '{}' });
      const pairing = res.json() as Pairing;
      const other = await client(app).pair();
      outcomes[role] = [
        res.statusCode,
        (await c.info(pairing.code)).statusCode,
        (await c.info(other.code)).statusCode,
        (await c.call('HEAD', `/api/be/pilot/${other.code}/events`)).statusCode,
        (await c.send(pairing, position(1))).statusCode,
        (await c.send({ code: other.code, token: pairing.token }, position(1))).statusCode,
        (await c.send({ code: other.code, token: '' }, position(1))).statusCode,
        (await c.unpair({ code: other.code, token: pairing.token })).statusCode,
        (await c.unpair(pairing)).statusCode,
        (await c.info(pairing.code)).statusCode,
      ];
    }
    const expected = [201, 200, 200, 200, 200, 403, 401, 403, 204, 404];
    expect(outcomes).toEqual({ anonymous: expected, visitor: expected, pro: expected, admin: expected });
  });

  describe('the event stream on a listening server', () => {
    let base = '';
    let live: FastifyInstance;
    const streams: SseStream[] = [];
    const isPilot = (m: SseMessage) => m.event === 'pilot';

    beforeAll(async () => {
      live = await build();
      base = await live.listen({ host: '127.0.0.1', port: 0 });
    });
    afterAll(() => {
      for (const s of streams) s.close();
    });

    const open = async (code: string) => {
      const s = await openSse(`${base}/api/be/pilot/${code}/events`);
      streams.push(s);
      return s;
    };

    it('replays the last map and position, then streams what is published, and ends on unpairing', async () => {
      const c = client(live);
      const pairing = await c.pair();
      await c.send(pairing, position(1));
      await c.send(pairing, { type: 'map', data: { map: 'woods' } });
      await c.send(pairing, position(2));
      const at = clock;

      const head = await c.call('HEAD', `/api/be/pilot/${pairing.code}/events`);
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-type']).toMatch(/^text\/event-stream/);

      const s = await open(formatPairingCode(pairing.code).toLowerCase());
      expect(s.response.status).toBe(200);
      expect(s.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(await s.next()).toEqual({ retry: 2000 });
      expect(JSON.parse((await s.next(isPilot)).data!)).toEqual({ type: 'map', data: { map: 'woods' }, at });
      expect(JSON.parse((await s.next(isPilot)).data!)).toEqual({ type: 'position', data: { x: 2, y: 2, z: 3, look: 90 }, at });

      expect((await c.info(pairing.code)).json()).toMatchObject({ watchers: 1 });
      clock += 1000;
      const sent = await c.send(pairing, position(3, 4, 5, null));
      expect(sent.json()).toEqual({ ok: true, watchers: 1, knowsMap: true });
      expect(JSON.parse((await s.next(isPilot)).data!)).toEqual({ type: 'position', data: { x: 3, y: 4, z: 5, look: null }, at: clock });

      expect((await c.unpair(pairing)).statusCode).toBe(204);
      const end = await s.next((m) => m.event === 'end');
      expect(JSON.parse(end.data!)).toEqual({ reason: 'deleted' });
      expect(await s.ended()).toBe(true);
      await waitFor('no watchers', async () => (await c.info(pairing.code)).statusCode === 404);
    });

    it('a refused far position reaches no watcher; the same map sent again keeps the time of the change for a later watcher', async () => {
      const c = client(live);
      const pairing = await c.pair();
      const s = await open(pairing.code);
      await c.send(pairing, { type: 'map', data: { map: 'woods' } });
      const changedAt = clock;
      expect(JSON.parse((await s.next(isPilot)).data!)).toMatchObject({ type: 'map', data: { map: 'woods' } });
      expect((await c.send(pairing, position(1e5))).statusCode).toBe(400);
      clock += 1000;
      await c.send(pairing, position(7));
      // The first pilot event after the map is the accepted position: the refused one never went out.
      expect(JSON.parse((await s.next(isPilot)).data!)).toMatchObject({ type: 'position', data: { x: 7 } });
      // The publisher sends its map again (after a restart it cannot tell this process kept it).
      clock += 1000;
      await c.send(pairing, { type: 'map', data: { map: 'woods' } });
      expect(JSON.parse((await s.next(isPilot)).data!)).toMatchObject({ type: 'map', data: { map: 'woods' } });
      // A watcher opening now gets the map as of its change, older than the position: the position is drawn.
      const late = await open(pairing.code);
      expect(JSON.parse((await late.next(isPilot)).data!)).toEqual({ type: 'map', data: { map: 'woods' }, at: changedAt });
      expect(JSON.parse((await late.next(isPilot)).data!)).toMatchObject({ type: 'position', data: { x: 7 }, at: changedAt + 1000 });
    });

    it('answers 404 and 400 before opening a stream', async () => {
      const unknown = await fetch(`${base}/api/be/pilot/2222222222/events`);
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get('content-type')).toMatch(/application\/json/);
      expect((await fetch(`${base}/api/be/pilot/nope/events`)).status).toBe(400);
    });

    it('delivers 20 concurrent publishes, all accepted, in the order they arrived', async () => {
      const c = client(live);
      const pairing = await c.pair();
      const s = await open(pairing.code);
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => c.send(pairing, position(i))));
      expect(results.map((r) => r.statusCode)).toEqual(results.map(() => 200));
      const xs: number[] = [];
      while (xs.length < 20) xs.push((JSON.parse((await s.next(isPilot)).data!) as { data: { x: number } }).data.x);
      expect(xs).toEqual(Array.from({ length: 20 }, (_, i) => i));
      // A watcher that connects now gets the last one.
      const late = await open(pairing.code);
      expect(JSON.parse((await late.next(isPilot)).data!)).toMatchObject({ data: { x: 19 } });
      expect((await c.info(pairing.code)).json()).toMatchObject({ watchers: 2 });
    });

    it('a closing app ends its streams', async () => {
      const other = await build();
      const otherBase = await other.listen({ host: '127.0.0.1', port: 0 });
      const pairing = await client(other).pair();
      const s = await openSse(`${otherBase}/api/be/pilot/${pairing.code}/events`);
      streams.push(s);
      expect(await s.next()).toEqual({ retry: 2000 });
      apps.splice(apps.indexOf(other), 1);
      await other.close();
      expect(await s.ended()).toBe(true);
    });
  });
});

interface FeedProcess {
  app: FastifyInstance;
  base: string;
}

const isPilot = (m: SseMessage) => m.event === 'pilot';

/** The first two events a new watcher of `code` on `p` gets (its replay), or fewer after `ms`. */
async function replayOn(p: FeedProcess, code: string, ms = 300): Promise<unknown[]> {
  const s = await openSse(`${p.base}/api/be/pilot/${code}/events`);
  const got: unknown[] = [];
  try {
    for (let i = 0; i < 2; i++) got.push(JSON.parse((await s.next(isPilot, ms)).data!));
  } catch {
    // No more replayed: fewer than two.
  } finally {
    s.close();
  }
  return got;
}

/**
 * The probe's two-process checks (no sticky sessions): what one process received, the other
 * knows: the replay, the map a position is checked against, and the watcher count. `settle`
 * waits for something that crosses the hub (at once in process, milliseconds on PostgreSQL).
 */
async function crossProcessFeed(a: FeedProcess, b: FeedProcess, settle: (what: string, check: () => Promise<boolean>) => Promise<void>) {
  const onA = client(a.app);
  const onB = client(b.app);
  const pairing = await onA.pair();
  expect((await onA.send(pairing, { type: 'map', data: { map: 'woods' } })).statusCode).toBe(200);
  expect((await onA.send(pairing, position(10, 20))).statusCode).toBe(200);
  expect((await onB.send(pairing, { type: 'map', data: { map: 'customs' } })).statusCode).toBe(200);
  const latest = await onB.send(pairing, position(-100, 50));
  expect(latest.statusCode, latest.body).toBe(200);
  // A watcher on A gets what B received last, not A's older map and position.
  const want = [
    { type: 'map', data: { map: 'customs' }, at: expect.any(Number) },
    { type: 'position', data: { x: -100, y: 50, z: 3, look: 90 }, at: expect.any(Number) },
  ];
  await settle('the replay on A of what B received', async () => {
    const got = await replayOn(a, pairing.code);
    return got.length === 2 && (got[0] as { data: { map: string } }).data.map === 'customs' && (got[1] as { data: { x: number } }).data.x === -100;
  });
  expect(await replayOn(a, pairing.code)).toEqual(want);
  expect(await replayOn(b, pairing.code)).toEqual(want);

  // The map A received is the one B checks a position against.
  expect((await onA.send(pairing, { type: 'map', data: { map: 'factory' } })).statusCode).toBe(200);
  await settle('B to refuse a position off the map A received', async () => (await onB.send(pairing, position(500, 0))).statusCode === 400);
  const refused = await onB.send(pairing, position(500, 0));
  expect(refused.statusCode).toBe(400);
  expect(refused.json()).toMatchObject({ error: 'outside_map', map: 'factory' });
  expect((await onA.send(pairing, position(500, 0))).json()).toMatchObject({ error: 'outside_map', map: 'factory' });
  expect((await onB.send(pairing, { type: 'ping' })).json()).toMatchObject({ knowsMap: true });

  // A page following the code through B counts on A; closing it uncounts it.
  const s = await openSse(`${b.base}/api/be/pilot/${pairing.code}/events`);
  try {
    expect(await s.next()).toEqual({ retry: 2000 });
    await settle('A to count the watcher on B', async () => (await onA.info(pairing.code)).json<{ watchers: number }>().watchers === 1);
    expect((await onA.send(pairing, position(1, 2))).json()).toEqual({ ok: true, watchers: 1, knowsMap: true });
    expect((await onB.info(pairing.code)).json()).toMatchObject({ watchers: 1 });
    const onAToo = await openSse(`${a.base}/api/be/pilot/${pairing.code}/events`);
    await settle('both to count 2', async () => (await onA.info(pairing.code)).json<{ watchers: number }>().watchers === 2 && (await onB.info(pairing.code)).json<{ watchers: number }>().watchers === 2);
    onAToo.close();
    await settle('B to count 1 again', async () => (await onB.info(pairing.code)).json<{ watchers: number }>().watchers === 1);
  } finally {
    s.close();
  }
  await settle('A to count 0', async () => (await onA.info(pairing.code)).json<{ watchers: number }>().watchers === 0);
  return pairing;
}

describe.each(testBackends())('pilot across two apps on one in-process hub on $name', (backend) => {
  let db: Db;
  let root: string;
  let clock = Date.UTC(2030, 0, 1);
  const apps: FastifyInstance[] = [];
  // An in-process hub shared by the apps, as if it were PostgreSQL's: the test makes its gaps.
  const hub = new GappyHub();

  const start = async (): Promise<FeedProcess> => {
    const app = buildServer({
      db,
      live: hub,
      ...appFolders(root),
      pilot: { now: () => clock, limits: { pairings: null, guesses: null }, sweepEveryMs: 0 },
    });
    apps.push(app);
    return { app, base: await app.listen({ host: '127.0.0.1', port: 0 }) };
  };

  beforeAll(async () => {
    root = tempDir();
    db = await backend.open();
    await migrateToLatest(db);
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    await hub.close();
    await db?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('each app replays, checks against and counts what the other received', async () => {
    const a = await start();
    const b = await start();
    // Streams end when the server sees their sockets close: waited for, like on PostgreSQL.
    const pairing = await crossProcessFeed(a, b, (what, check) => waitFor(what, check));

    // A process that starts now (a restart) knows nothing yet: it replays nothing rather than something stale.
    const c = await start();
    expect(await replayOn(c, pairing.code)).toEqual([]);
    expect((await client(c.app).send(pairing, { type: 'ping' })).json()).toMatchObject({ knowsMap: false });
    // The publisher sends its map again (to any process): every one knows it.
    expect((await client(b.app).send(pairing, { type: 'map', data: { map: 'reserve' } })).statusCode).toBe(200);
    expect((await client(c.app).send(pairing, { type: 'ping' })).json()).toMatchObject({ knowsMap: true });
    expect(await replayOn(c, pairing.code)).toEqual([expect.objectContaining({ type: 'map', data: { map: 'reserve' } })]);

    // After a gap (events may have been missed), A forgets them all: no replay, and `knowsMap` false asks for the map again.
    hub.gap();
    expect(await replayOn(a, pairing.code)).toEqual([]);
    expect((await client(a.app).info(pairing.code)).json()).toMatchObject({ knowsMap: false });

    // A process that stops saying its count (it died) is counted no more once it expires.
    const s = await openSse(`${b.base}/api/be/pilot/${pairing.code}/events`);
    try {
      await s.next();
      expect((await client(a.app).info(pairing.code)).json()).toMatchObject({ watchers: 1 });
      // A process that starts asks the others: it counts them at once, not at their next heartbeat.
      const e = await start();
      expect((await client(e.app).info(pairing.code)).json()).toMatchObject({ watchers: 1 });
      clock += WATCHERS_TTL_MS - 1;
      expect((await client(a.app).info(pairing.code)).json()).toMatchObject({ watchers: 1 });
      clock += 1;
      expect((await client(a.app).info(pairing.code)).json()).toMatchObject({ watchers: 0 });
      expect((await client(b.app).info(pairing.code)).json()).toMatchObject({ watchers: 1 });
    } finally {
      s.close();
    }

    // A closing process uncounts its watchers at once.
    const d = await start();
    const onD = await openSse(`${d.base}/api/be/pilot/${pairing.code}/events`);
    await onD.next();
    expect((await client(a.app).info(pairing.code)).json()).toMatchObject({ watchers: 1 });
    apps.splice(apps.indexOf(d.app), 1);
    await d.app.close();
    expect((await client(a.app).info(pairing.code)).json()).toMatchObject({ watchers: 0 });
  });
});

describe.skipIf(!url)(url ? 'pilot across two server processes on one PostgreSQL schema' : 'pilot across two processes: skipped, TEST_DATABASE_URL is not set (bash scripts/ensure-postgres.sh prints one)', () => {
  const postgres = testBackends().find((b) => b.name === 'postgres')!;
  let first: Db;
  let root: string;
  const processes: PgProcess[] = [];
  const streams: SseStream[] = [];

  async function startProcess(schema: string) {
    const p = await startPgProcess(url!, schema, root, { pilot: { limits: { pairings: null, guesses: null }, sweepEveryMs: 0 } });
    processes.push(p);
    return p;
  }

  beforeAll(async () => {
    root = tempDir();
    first = await postgres.open();
    await migrateToLatest(first);
  });

  afterAll(async () => {
    for (const s of streams) s.close();
    await closePgProcesses(processes);
    await first?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("a position published to A reaches a stream opened on B, B replays it, and unpairing on A ends B's stream", async () => {
    const a = await startProcess(first.schema!);
    const b = await startProcess(first.schema!);
    const onA = client(a.app);
    const pairing = await onA.pair();
    // B knows the pairing (one database).
    expect((await client(b.app).info(pairing.code)).statusCode).toBe(200);

    const s = await openSse(`${b.base}/api/be/pilot/${pairing.code}/events`);
    streams.push(s);
    expect(await s.next()).toEqual({ retry: 2000 });
    expect((await onA.send(pairing, { type: 'map', data: { map: 'shoreline' } })).statusCode).toBe(200);
    expect((await onA.send(pairing, position(42))).statusCode).toBe(200);
    expect(JSON.parse((await s.next((m) => m.event === 'pilot')).data!)).toMatchObject({ type: 'map', data: { map: 'shoreline' } });
    expect(JSON.parse((await s.next((m) => m.event === 'pilot')).data!)).toMatchObject({ type: 'position', data: { x: 42 } });

    // B remembered what it heard: a second watcher on B gets it replayed.
    const late = await openSse(`${b.base}/api/be/pilot/${pairing.code}/events`);
    streams.push(late);
    expect(JSON.parse((await late.next((m) => m.event === 'pilot')).data!)).toMatchObject({ type: 'map', data: { map: 'shoreline' } });
    expect(JSON.parse((await late.next((m) => m.event === 'pilot')).data!)).toMatchObject({ type: 'position', data: { x: 42 } });

    expect((await onA.unpair(pairing)).statusCode).toBe(204);
    for (const stream of [s, late]) {
      expect(JSON.parse((await stream.next((m) => m.event === 'end')).data!)).toEqual({ reason: 'deleted' });
      expect(await stream.ended()).toBe(true);
    }
  });

  it('each process replays, checks against and counts what the other received (no sticky sessions)', async () => {
    const [a, b] = processes;
    await crossProcessFeed(a, b, (what, check) => waitFor(what, check));
  });

  it("after B's listening connection drops, B replays nothing it may have missed, until the publisher sends again", async () => {
    const [a, b] = processes;
    const onA = client(a.app);
    const pairing = await onA.pair();
    await onA.send(pairing, { type: 'map', data: { map: 'woods' } });
    await waitFor('B to know the map', async () => (await client(b.app).info(pairing.code)).json<{ knowsMap: boolean }>().knowsMap);
    await dropListeningConnection(url!, b);
    await waitFor('B to forget after the gap', async () => !(await client(b.app).info(pairing.code)).json<{ knowsMap: boolean }>().knowsMap);
    await waitFor('B to listen again', () => b.hub.listening);
    expect(await replayOn(b, pairing.code)).toEqual([]);
    await onA.send(pairing, { type: 'map', data: { map: 'lighthouse' } });
    await waitFor('B to know the new map', async () => (await client(b.app).info(pairing.code)).json<{ knowsMap: boolean }>().knowsMap);
    expect(await replayOn(b, pairing.code)).toEqual([expect.objectContaining({ data: { map: 'lighthouse' } })]);
  });
});
