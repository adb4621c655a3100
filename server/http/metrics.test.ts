/**
 * GET /api/be/metrics (who may read it, the exposition text, what it counts) and request ids
 * with the access log, on SQLite and PostgreSQL.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../app';
import { SESSION_COOKIE } from '../auth';
import { hashPassword } from '../auth/password';
import { createRepositories, migrateToLatest, type Db, type Repositories } from '../db';
import { tempDir, testBackends } from '../testing/databases';
import { openSse } from '../testing/sse';
import { DURATION_BUCKETS, METRICS_CONTENT_TYPE, Metrics, escapeLabel, formatValue, routeLabel, statusClass } from './metrics';
import { requestIdFor } from './request-log';

const TOKEN = 'a-metrics-token-of-forty-characters-0123';

function cookieOf(res: LightMyRequestResponse): string {
  const raw = res.headers['set-cookie'];
  const line = (Array.isArray(raw) ? raw : raw ? [raw] : []).find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (!line) throw new Error('no session cookie set');
  return line.split(';')[0];
}

/** Every sample line of the exposition: name{labels} value. */
function samples(text: string): Array<{ name: string; labels: Record<string, string>; value: number }> {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels: Record<string, string> = {};
      for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]] = pair[2];
      return { name: match[1], labels, value: match[3] === '+Inf' ? Infinity : Number(match[3]) };
    });
}

function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  return samples(text).find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

describe('metrics: pure parts', () => {
  it('escapes label values and writes numbers as the format wants', () => {
    expect(escapeLabel('a"b\\c\nd')).toBe('a\\"b\\\\c\\nd');
    expect(formatValue(Infinity)).toBe('+Inf');
    expect(formatValue(Number.NaN)).toBe('NaN');
    expect(formatValue(0.25)).toBe('0.25');
    expect(statusClass(204)).toBe('2xx');
    expect(statusClass(503)).toBe('5xx');
    expect(routeLabel(undefined)).toBe('(fallback)');
    expect(routeLabel('/tiles/:map/manifest.json')).toBe('/tiles/:map/manifest.json');
  });

  it('keeps cumulative histogram buckets, a sum and a count per series; streams apart', () => {
    const metrics = new Metrics((route) => route.startsWith('/live'));
    for (const seconds of [0.0005, 0.003, 0.003, 0.2, 30]) {
      const end = metrics.started('/a');
      metrics.observe('GET', '/a', 200, seconds);
      end();
      end();
    }
    const endStream = metrics.started('/live/x');
    metrics.observe('WEIRD', '/a', 500, 0.01);
    const text = metrics.render();
    const bucket = (le: string) => sample(text, 'raidmap_http_request_duration_seconds_bucket', { route: '/a', status: '2xx', le });
    expect(bucket('0.001')).toBe(1);
    expect(bucket('0.005')).toBe(3);
    expect(bucket('0.25')).toBe(4);
    expect(bucket('10')).toBe(4);
    expect(bucket('+Inf')).toBe(5);
    expect(samples(text).filter((s) => s.name === 'raidmap_http_request_duration_seconds_bucket' && s.labels.status === '2xx')).toHaveLength(DURATION_BUCKETS.length + 1);
    expect(sample(text, 'raidmap_http_request_duration_seconds_count', { route: '/a', status: '2xx' })).toBe(5);
    expect(sample(text, 'raidmap_http_request_duration_seconds_sum', { route: '/a', status: '2xx' })).toBeCloseTo(30.2065, 6);
    expect(sample(text, 'raidmap_http_requests_total', { method: 'OTHER', route: '/a', status: '5xx' })).toBe(1);
    expect(sample(text, 'raidmap_http_requests_in_flight')).toBe(0);
    expect(sample(text, 'raidmap_live_streams', { route: '/live/x' })).toBe(1);
    endStream();
    expect(sample(metrics.render(), 'raidmap_live_streams', { route: '/live/x' })).toBe(0);
  });

  it('leaves out a probe that has no figure and refuses a name twice', () => {
    const metrics = new Metrics();
    metrics.gauge('raidmap_known', 'known', () => 7);
    metrics.gauge('raidmap_unknown', 'unknown', () => undefined);
    metrics.counter('raidmap_broken', 'throws', () => {
      throw new Error('no');
    });
    const text = metrics.render();
    expect(text).toMatch(/^# TYPE raidmap_known gauge\nraidmap_known 7$/m);
    expect(text).not.toContain('raidmap_unknown');
    expect(text).not.toContain('raidmap_broken');
    expect(() => metrics.gauge('raidmap_known', 'again', () => 1)).toThrow(/already/);
  });

  it('takes a sane incoming request id and makes one up otherwise', () => {
    expect(requestIdFor('abc-123_x.y:z')).toBe('abc-123_x.y:z');
    expect(requestIdFor(' trimmed ')).toBe('trimmed');
    for (const bad of [undefined, '', 'a'.repeat(65), 'has space', 'new\nline', 'quote"', '<script>', ['a', 'b']]) {
      expect(requestIdFor(bad), String(bad)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
  });
});

describe.each(testBackends())('GET /api/be/metrics on $name', (backend) => {
  let app: FastifyInstance;
  let noToken: FastifyInstance;
  let db: Db;
  let repos: Repositories;
  let root: string;
  let base: string;
  const logLines: Array<Record<string, unknown>> = [];
  const cookies: Record<'visitor' | 'pro' | 'admin', string> = { visitor: '', pro: '', admin: '' };

  const call = (server: FastifyInstance, url: string, headers: Record<string, string> = {}, method: InjectOptions['method'] = 'GET') => server.inject({ method, url, headers });
  const metricsText = async () => {
    const res = await call(app, '/api/be/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    root = tempDir();
    db = await backend.open();
    await migrateToLatest(db);
    repos = createRepositories(db);
    const log = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) logLines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const common = { db, repos, uploadsDir: path.join(root, 'uploads'), distDir: path.join(root, 'dist'), assetsDir: path.join(root, 'assets'), tilesDir: path.join(root, 'tiles') };
    app = buildServer({ ...common, metricsToken: TOKEN, livePingMs: 60_000, logger: { level: 'info', stream: log } });
    noToken = buildServer({ ...common, tiles: false });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
    await noToken.ready();
    const hash = await hashPassword('password1');
    await repos.users.create({ name: 'visitor1', passwordHash: hash });
    await repos.users.create({ name: 'pro1', passwordHash: hash, pro: true });
    await repos.users.create({ name: 'admin1', passwordHash: hash, admin: true });
    for (const [role, name] of [['visitor', 'visitor1'], ['pro', 'pro1'], ['admin', 'admin1']] as const) {
      const res = await app.inject({ method: 'POST', url: '/api/be/auth/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ name, password: 'password1' }) });
      expect(res.statusCode).toBe(200);
      cookies[role] = cookieOf(res);
    }
  });

  afterAll(async () => {
    await app.close();
    await noToken.close();
    await db.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('lets admins and the METRICS_TOKEN bearer read it; anonymous 401, visitors and pro users 403', async () => {
    const cases: Array<[string, FastifyInstance, Record<string, string>, number]> = [
      ['anonymous', app, {}, 401],
      ['visitor', app, { cookie: cookies.visitor }, 403],
      ['pro', app, { cookie: cookies.pro }, 403],
      ['admin', app, { cookie: cookies.admin }, 200],
      ['bearer', app, { authorization: `Bearer ${TOKEN}` }, 200],
      ['bearer, any case and spaces', app, { authorization: `bearer   ${TOKEN} ` }, 200],
      ['admin on a server without a token', noToken, { cookie: cookies.admin }, 200],
      ['visitor on a server without a token', noToken, { cookie: cookies.visitor }, 403],
    ];
    for (const [who, server, headers, status] of cases) {
      const res = await call(server, '/api/be/metrics', headers);
      expect(res.statusCode, who).toBe(status);
      if (status === 200) {
        expect(res.headers['content-type'], who).toBe(METRICS_CONTENT_TYPE);
        expect(res.headers['cache-control'], who).toBe('no-store');
        expect(res.body, who).toMatch(/^# HELP raidmap_http_requests_total /m);
      } else {
        expect(res.json(), who).toEqual({ error: status === 401 ? 'Unauthorized' : 'Forbidden', message: expect.any(String) });
        expect(res.body, who).not.toContain('raidmap_');
      }
    }
  });

  it('refuses a wrong, malformed or unexpected Authorization header with 401 naming it, even for an admin', async () => {
    const cases: Array<[string, FastifyInstance, Record<string, string>, RegExp]> = [
      ['wrong token', app, { authorization: 'Bearer not-the-token' }, /wrong metrics token/],
      ['a prefix of the token', app, { authorization: `Bearer ${TOKEN.slice(0, -1)}` }, /wrong metrics token/],
      ['wrong token with an admin cookie', app, { authorization: 'Bearer nope', cookie: cookies.admin }, /wrong metrics token/],
      ['basic', app, { authorization: `Basic ${Buffer.from(`admin:${TOKEN}`).toString('base64')}` }, /authorization: expected "Bearer/],
      ['bearer without a token', app, { authorization: 'Bearer' }, /authorization: expected "Bearer/],
      ['two tokens', app, { authorization: `Bearer ${TOKEN} ${TOKEN}` }, /authorization: expected "Bearer/],
      ['bearer on a server without a token', noToken, { authorization: `Bearer ${TOKEN}` }, /no METRICS_TOKEN/],
    ];
    for (const [what, server, headers, message] of cases) {
      const res = await call(server, '/api/be/metrics', headers);
      expect(res.statusCode, what).toBe(401);
      expect(res.json(), what).toEqual({ error: 'Unauthorized', message: expect.stringMatching(message) });
      expect(res.headers['www-authenticate'], what).toMatch(/^Bearer realm="metrics"/);
    }
    // Query strings change nothing; other methods are not routes.
    expect((await call(app, `/api/be/metrics?token=${TOKEN}`)).statusCode).toBe(401);
    expect((await call(app, '/api/be/metrics', { authorization: `Bearer ${TOKEN}` }, 'POST')).statusCode).toBe(404);
  });

  it('counts requests by method, route pattern and status class, with latencies', async () => {
    const before = await metricsText();
    const count = (text: string, labels: Record<string, string>) => sample(text, 'raidmap_http_requests_total', labels) ?? 0;
    const health = { method: 'GET', route: '/api/be/health', status: '2xx' };
    const fallback404 = { method: 'GET', route: '(fallback)', status: '4xx' };
    const list400 = { method: 'GET', route: '/api/be/markers/list', status: '4xx' };
    // Concurrent requests are each counted once.
    await Promise.all(Array.from({ length: 50 }, () => call(app, '/api/be/health')));
    await call(app, '/no/such/thing.js');
    await call(app, `/api/be/no-such-route-${'x'.repeat(40)}`);
    await call(app, '/api/be/markers/list');
    await call(app, '/api/be/markers/list?map=');
    const after = await metricsText();
    expect(count(after, health) - count(before, health)).toBe(50);
    expect(count(after, fallback404) - count(before, fallback404)).toBe(2);
    expect(count(after, list400) - count(before, list400)).toBe(2);
    // Raw URLs never become labels.
    expect(after).not.toContain('no-such-route');
    expect(after).not.toContain('map=');
    expect(sample(after, 'raidmap_http_request_duration_seconds_count', health)).toBe(count(after, health));
    expect(sample(after, 'raidmap_http_request_duration_seconds_bucket', { ...health, le: '+Inf' })).toBe(count(after, health));
    expect(sample(after, 'raidmap_http_request_duration_seconds_sum', health)).toBeGreaterThan(0);
    // The scrape in progress is the only request in flight.
    expect(sample(after, 'raidmap_http_requests_in_flight')).toBe(1);
    for (const name of ['process_resident_memory_bytes', 'process_cpu_user_seconds_total', 'nodejs_heap_size_used_bytes', 'process_open_fds', 'raidmap_tile_renders_total', 'raidmap_http_open_connections']) {
      expect(sample(after, name), name).toBeGreaterThanOrEqual(0);
    }
    // Every line is a comment or a sample; every sample's metric has a TYPE.
    const typed = new Set([...after.matchAll(/^# TYPE (\S+) (counter|gauge|histogram)$/gm)].map((m) => m[1]));
    for (const s of samples(after)) expect(typed.has(s.name.replace(/_(bucket|sum|count)$/, '')) || typed.has(s.name), s.name).toBe(true);
  });

  it('shows the open live streams and counts one when it ends', async () => {
    const stream = await openSse(`${base}/api/be/live/markers?map=customs`);
    await stream.next((m) => m.retry !== undefined);
    const route = { route: '/api/be/live/markers' };
    expect(sample(await metricsText(), 'raidmap_live_streams', route)).toBe(1);
    const second = await openSse(`${base}/api/be/live/markers?map=factory`);
    await second.next((m) => m.retry !== undefined);
    expect(sample(await metricsText(), 'raidmap_live_streams', route)).toBe(2);
    stream.close();
    second.close();
    await expect.poll(async () => sample(await metricsText(), 'raidmap_live_streams', route)).toBe(0);
    const text = await metricsText();
    expect(sample(text, 'raidmap_http_requests_total', { ...route, status: '2xx' })).toBeGreaterThanOrEqual(2);
    // Streams are not in the latency histogram (they last minutes).
    expect(sample(text, 'raidmap_http_request_duration_seconds_count', route)).toBeUndefined();
  });

  it('answers with a request id, takes a sane one from X-Request-Id, and logs one line per request with it', async () => {
    const fresh = await call(app, '/api/be/health');
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const again = await call(app, '/api/be/health');
    expect(again.headers['x-request-id']).not.toBe(fresh.headers['x-request-id']);

    const given = await call(app, '/api/be/markers/list?map=atlantis', { 'x-request-id': 'proxy-4711' });
    expect(given.headers['x-request-id']).toBe('proxy-4711');
    const hostile = await call(app, '/api/be/health', { 'x-request-id': '"}\n{"level":60' });
    expect(hostile.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);

    await expect.poll(() => logLines.filter((l) => l.reqId === 'proxy-4711').length).toBe(1);
    const line = logLines.find((l) => l.reqId === 'proxy-4711')!;
    expect(line).toMatchObject({ level: 30, msg: 'request', method: 'GET', url: '/api/be/markers/list?map=atlantis', route: '/api/be/markers/list', status: 404, ip: '127.0.0.1' });
    expect(typeof line.ms).toBe('number');
    expect(logLines.filter((l) => l.reqId === fresh.headers['x-request-id'])).toHaveLength(1);
    expect(logLines.some((l) => l.msg === 'incoming request' || l.msg === 'request completed')).toBe(false);
  });

  it('writes no access line at the default level, warn', async () => {
    const lines: string[] = [];
    const quiet = buildServer({
      db,
      repos,
      uploadsDir: path.join(root, 'uploads'),
      distDir: path.join(root, 'dist'),
      tiles: false,
      logger: { level: 'warn', stream: new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(chunk.toString('utf8')), done()) }) },
    });
    try {
      expect((await quiet.inject({ url: '/api/be/health' })).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect((await quiet.inject({ url: '/no/such/file.js' })).statusCode).toBe(404);
      expect(lines).toEqual([]);
    } finally {
      await quiet.close();
    }
  });
});
