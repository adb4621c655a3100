/**
 * Security headers (issue 9, defect 5) and time-outs and connection caps (defect 10).
 *
 * The headers are checked through `app.inject` on SQLite and PostgreSQL. The time-outs and the
 * cap are checked on real sockets against a listening server with short limits; they do not
 * touch the database, so they run on SQLite only.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, type BuildServerOptions } from '../app';
import { migrateToLatest, type Db } from '../db';
import { markersChannel } from '../live/hub';
import { tempDir, testBackends } from '../testing/databases';
import { openSse, type SseStream } from '../testing/sse';
import {
  DEFAULT_CONNECTION_LIMITS,
  UPLOAD_CSP,
  CSP_REPORT_PATH,
  addressKey,
  cdnOrigin,
  cspDirectives,
  cspHeader,
  isLongLivedRoute,
  parseCspReport,
  parseFrameAncestors,
  timeoutServerOptions,
  trustedProxyTest,
  type ConnectionLimits,
} from './security';

const METRICS_TOKEN = 'security-test-metrics-token-0123456789';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d8a4e40000000049454e44ae426082', 'hex');

function makeSite(root: string): { distDir: string; assetsDir: string; uploadsDir: string } {
  const distDir = path.join(root, 'dist');
  fs.mkdirSync(path.join(distDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>raidmap</title><div id="root"></div>');
  fs.writeFileSync(path.join(distDir, 'assets', 'index-abc123.js'), 'console.log("app")\n');
  const assetsDir = path.join(root, 'assets');
  fs.mkdirSync(path.join(assetsDir, 'icons'), { recursive: true });
  fs.writeFileSync(path.join(assetsDir, 'icons', 'safe.svg'), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"/>');
  const uploadsDir = path.join(root, 'uploads');
  fs.mkdirSync(path.join(uploadsDir, 'markers'), { recursive: true });
  fs.writeFileSync(path.join(uploadsDir, 'markers', 'shot.png'), PNG);
  // Files no upload route writes, but which an operator might copy in: never rendered.
  fs.writeFileSync(path.join(uploadsDir, 'markers', 'evil.html'), '<script>alert(1)</script>');
  fs.writeFileSync(path.join(uploadsDir, 'markers', 'evil.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  fs.writeFileSync(path.join(uploadsDir, 'markers', 'noext'), '<script>alert(1)</script>');
  return { distDir, assetsDir, uploadsDir };
}

describe('security headers: pure parts', () => {
  it('builds the page policy without unsafe-inline or unsafe-eval, framing nobody', () => {
    const header = cspHeader(cspDirectives());
    expect(header).toContain("default-src 'self'");
    expect(header).toContain("script-src 'self'");
    expect(header).toContain("worker-src 'self' blob:");
    expect(header).toContain("connect-src 'self'");
    expect(header).toContain("frame-ancestors 'none'");
    expect(header).toContain("object-src 'none'");
    expect(header).not.toMatch(/unsafe-(inline|eval)/);
    expect(cspHeader(cspDirectives({ imgOrigins: ['https://cdn.example.com'] }))).toContain("img-src 'self' data: blob: https://cdn.example.com");
  });

  it('reads OVERLAY_FRAME_ANCESTORS as CSP sources and refuses anything else', () => {
    expect(parseFrameAncestors(undefined)).toEqual([]);
    expect(parseFrameAncestors('  ')).toEqual([]);
    expect(parseFrameAncestors("'self' https://dashboard.twitch.tv, https://*.obsproject.com:8443")).toEqual(["'self'", 'https://dashboard.twitch.tv', 'https://*.obsproject.com:8443']);
    expect(parseFrameAncestors('*')).toEqual(['*']);
    expect(parseFrameAncestors('https:')).toEqual(['https:']);
    for (const bad of ["https://a.com; script-src 'unsafe-inline'", 'javascript:', "'unsafe-inline'", 'https://a.com/"x', "'none' https://a.com", 'data:']) {
      expect(() => parseFrameAncestors(bad), bad).toThrow(/frame-ancestors|'none'/);
    }
  });

  it('takes the CDN origin from VITE_CDN_BASE', () => {
    expect(cdnOrigin(undefined)).toBeUndefined();
    expect(cdnOrigin('')).toBeUndefined();
    expect(cdnOrigin('/static')).toBeUndefined();
    expect(cdnOrigin('https://cdn.example.com/raidmap/')).toBe('https://cdn.example.com');
    expect(() => cdnOrigin('ftp://cdn.example.com')).toThrow(/http/);
    expect(() => cdnOrigin('cdn.example.com')).toThrow(/URL/);
  });

  it('reads violation reports in the report-uri and the Reporting API forms, and names a bad field', () => {
    expect(
      parseCspReport({
        'csp-report': { 'document-uri': 'http://h/map/customs', 'violated-directive': 'script-src-elem', 'effective-directive': 'script-src-elem', 'blocked-uri': 'inline', 'source-file': 'http://h/assets/x.js', 'line-number': 3, 'script-sample': 'x'.repeat(400) },
      }),
    ).toEqual([{ directive: 'script-src-elem', blocked: 'inline', document: 'http://h/map/customs', source: 'http://h/assets/x.js', line: 3, sample: 'x'.repeat(300) }]);
    expect(parseCspReport({ 'csp-report': { 'violated-directive': "img-src 'self'" } })[0].directive).toBe('img-src');
    expect(
      parseCspReport([
        { type: 'csp-violation', body: { documentURL: 'http://h/', effectiveDirective: 'worker-src', blockedURL: 'http://evil/w.js', lineNumber: 'x' } },
        { type: 'deprecation', body: {} },
      ]),
    ).toEqual([{ directive: 'worker-src', blocked: 'http://evil/w.js', document: 'http://h/', source: '', line: undefined, sample: '' }]);
    for (const [body, field] of [[{}, /^csp-report:/], [{ 'csp-report': 'x' }, /^csp-report:/], [null, /^csp-report:/], [[], /^body:/], [[{ type: 'csp-violation' }], /^\[0\]\.body:/]] as const) {
      expect(() => parseCspReport(body), JSON.stringify(body)).toThrow(field);
    }
  });

  it('counts IPv4 addresses as they are and IPv6 addresses by their /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2::9')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0DB8:0001:0002:ffff::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey(undefined)).toBe('unknown');
  });

  it('knows the trusted proxies (TRUST_PROXY) by address, range or name', () => {
    const none = trustedProxyTest(false);
    expect(none('127.0.0.1')).toBe(false);
    const trusted = trustedProxyTest(['203.0.113.7', '10.1.0.0/16', 'loopback', '2001:db8::/32']);
    for (const address of ['203.0.113.7', '::ffff:203.0.113.7', '10.1.200.3', '127.0.0.1', '127.9.9.9', '::1', '2001:db8:5::1']) expect(trusted(address), address).toBe(true);
    for (const address of ['203.0.113.8', '10.2.0.1', '192.168.1.1', '2001:db9::1', 'fe80::1', undefined]) expect(trusted(address), String(address)).toBe(false);
    const named = trustedProxyTest(['uniquelocal', 'linklocal']);
    for (const address of ['10.0.0.1', '172.20.1.1', '192.168.0.9', 'fd00::1', '169.254.1.1', 'fe80::9']) expect(named(address), address).toBe(true);
    expect(named('172.32.0.1')).toBe(false);
  });

  it('passes the limits to Node: headers never longer than the whole request', () => {
    const options = timeoutServerOptions({ ...DEFAULT_CONNECTION_LIMITS, headersTimeoutMs: 9_000, requestTimeoutMs: 5_000 });
    expect(options.http).toEqual({ headersTimeout: 5_000, requestTimeout: 5_000, connectionsCheckingInterval: 1_000 });
    expect(options).toMatchObject({ connectionTimeout: 30_000, keepAliveTimeout: 10_000, requestTimeout: 5_000 });
    expect(isLongLivedRoute('/api/be/live/markers')).toBe(true);
    expect(isLongLivedRoute('/api/be/markers/list')).toBe(false);
    expect(isLongLivedRoute('/api/be/pilot/:code/events')).toBe(true);
    expect(isLongLivedRoute('/api/be/pilot/:code/messages')).toBe(false);
    expect(isLongLivedRoute(undefined)).toBe(false);
  });
});

describe.each(testBackends())('security headers on $name', (backend) => {
  let db: Db;
  let root: string;
  let app: FastifyInstance;
  let framed: FastifyInstance;

  beforeAll(async () => {
    root = tempDir();
    db = await backend.open();
    await migrateToLatest(db);
    const site = makeSite(root);
    app = buildServer({ db, ...site, tiles: false, security: { imgOrigins: ['https://cdn.example.com'] }, metricsToken: METRICS_TOKEN });
    framed = buildServer({ db, ...site, tiles: false, security: { overlayFrameAncestors: ["'self'", 'https://dashboard.twitch.tv'] } });
    await Promise.all([app.ready(), framed.ready()]);
  });

  afterAll(async () => {
    await app.close();
    await framed.close();
    await db.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const PAGE_AND_API = ['/', '/map/customs', '/quests', '/assets/index-abc123.js', '/api/be/health', '/api/be/markers/list?map=atlantis', '/api/be/user', '/no/such/file.js', '/icons/safe.svg'];

  it('sends the page policy, nosniff, DENY and the referrer policy on pages, files, the API and its errors', async () => {
    for (const url of PAGE_AND_API) {
      const res = await app.inject({ url });
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("default-src 'self'");
      expect(csp, url).toContain("img-src 'self' data: blob: https://cdn.example.com");
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      expect(res.headers['cross-origin-opener-policy'], url).toBe('same-origin');
      expect(res.headers['x-powered-by'], url).toBeUndefined();
    }
    // A state-changing call's refusal has them too.
    const post = await app.inject({ method: 'POST', url: '/api/be/auth/login', headers: { 'content-type': 'text/plain' }, payload: 'x' });
    expect(post.statusCode).toBe(415);
    expect(post.headers['x-content-type-options']).toBe('nosniff');
    expect(post.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('lets other origins embed the public files (a CDN), and nothing else', async () => {
    expect((await app.inject({ url: '/assets/index-abc123.js' })).headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect((await app.inject({ url: '/icons/safe.svg' })).headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect((await app.inject({ url: '/uploads/markers/shot.png' })).headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect((await app.inject({ url: '/api/be/health' })).headers['cross-origin-resource-policy']).toBe('same-origin');
    expect((await app.inject({ url: '/map/customs' })).headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  it('serves an uploaded image inline under a policy that runs nothing', async () => {
    const res = await app.inject({ url: '/uploads/markers/shot.png' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toBeUndefined();
    expect(res.headers['content-security-policy']).toBe(UPLOAD_CSP);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.rawPayload.equals(PNG)).toBe(true);
  });

  it('sends any other file under /uploads/ as a download, never as a page', async () => {
    for (const url of ['/uploads/markers/evil.html', '/uploads/markers/evil.svg', '/uploads/markers/noext']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe('application/octet-stream');
      expect(res.headers['content-disposition'], url).toBe('attachment');
      expect(res.headers['content-security-policy'], url).toBe(UPLOAD_CSP);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
    // A miss is the API's JSON 404, with the same locked-down policy.
    const missing = await app.inject({ url: '/uploads/markers/none.png' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^application\/json/);
    expect(missing.json()).toEqual({ error: 'Not Found', message: expect.stringContaining('/uploads/markers/none.png') });
    expect(missing.headers['content-security-policy']).toBe(UPLOAD_CSP);
  });

  it('takes violation reports from anyone, counts them by directive, and refuses bad bodies naming the field', async () => {
    const reports = async () => {
      const res = await app.inject({ url: '/api/be/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      return Object.fromEntries([...res.body.matchAll(/^raidmap_csp_reports_total\{directive="([^"]+)"\} (\d+)$/gm)].map((m) => [m[1], Number(m[2])]));
    };
    const before = await reports();
    const post = (type: string, payload: string, headers: Record<string, string> = {}) =>
      app.inject({ method: 'POST', url: CSP_REPORT_PATH, headers: { 'content-type': type, ...headers }, payload });
    const uri = JSON.stringify({ 'csp-report': { 'effective-directive': 'script-src-elem', 'blocked-uri': 'inline', 'document-uri': 'http://h/' } });
    // Browsers send no credentials and may name another origin; neither matters here.
    expect((await post('application/csp-report', uri)).statusCode).toBe(204);
    expect((await post('application/csp-report', uri, { origin: 'https://elsewhere.example' })).statusCode).toBe(204);
    const api = JSON.stringify([
      { type: 'csp-violation', body: { effectiveDirective: 'worker-src', blockedURL: 'blob:x' } },
      { type: 'csp-violation', body: { effectiveDirective: 'made-up', blockedURL: 'x' } },
    ]);
    expect((await post('application/reports+json', api)).statusCode).toBe(204);
    expect((await post('application/json', uri)).statusCode).toBe(204);
    const after = await reports();
    const delta = (key: string) => (after[key] ?? 0) - (before[key] ?? 0);
    expect([delta('script-src-elem'), delta('worker-src'), delta('other')]).toEqual([3, 1, 1]);

    for (const [type, payload, status, message] of [
      ['application/csp-report', '{not json', 400, /^body: not valid JSON/],
      ['application/csp-report', '{}', 400, /^csp-report: expected an object/],
      ['application/reports+json', '[]', 400, /^body: expected 1 to 100 reports/],
      ['application/csp-report', JSON.stringify({ 'csp-report': { sample: 'x'.repeat(20_000) } }), 413, /./],
    ] as const) {
      const res = await post(type, payload);
      expect(res.statusCode, payload.slice(0, 20)).toBe(status);
      expect(res.json()).toEqual({ error: expect.any(String), message: expect.stringMatching(message) });
    }
    // Text is read as text: not a report.
    expect((await post('text/plain', uri)).json()).toEqual({ error: 'Bad Request', message: expect.stringMatching(/^csp-report:/) });
    expect((await app.inject({ url: CSP_REPORT_PATH })).statusCode).toBe(404);
    expect(await reports()).toEqual(after);
  });

  it('lets only the overlay pages be framed, and only by OVERLAY_FRAME_ANCESTORS', async () => {
    for (const url of ['/overlay', '/overlay/customs', '/overlay/customs?key=abc']) {
      const res = await framed.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-security-policy'], url).toContain("frame-ancestors 'self' https://dashboard.twitch.tv");
      expect(res.headers['content-security-policy'], url).toContain("script-src 'self'");
      expect(res.headers['x-frame-options'], url).toBeUndefined();
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
    // Everything else stays unframeable on that server; nothing is framed on a server without the setting.
    for (const [server, url] of [[framed, '/map/customs'], [framed, '/overlayish'], [framed, '/api/be/health'], [app, '/overlay/customs']] as const) {
      const res = await server.inject({ url });
      expect(res.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options'], url).toBe('DENY');
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Time-outs and the connection cap, on real sockets.

interface RawSocket {
  socket: net.Socket;
  /** Everything the server sent. */
  received(): string;
  /** Resolves with the milliseconds from connecting to the server closing the socket. */
  closed: Promise<number>;
  isClosed(): boolean;
}

function connect(port: number): Promise<RawSocket> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let closed = false;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', () => {});
    const closedAt = new Promise<number>((done) =>
      socket.once('close', () => {
        closed = true;
        done(Date.now() - started);
      }),
    );
    socket.once('connect', () => resolve({ socket, received: () => text, closed: closedAt, isClosed: () => closed }));
    socket.once('error', reject);
  });
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Writes `chunk` every `everyMs` until the socket closes; returns the stop function. */
function trickle(raw: RawSocket, chunk: string, everyMs: number): () => void {
  const timer = setInterval(() => {
    if (!raw.isClosed()) raw.socket.write(chunk);
  }, everyMs);
  void raw.closed.then(() => clearInterval(timer));
  return () => clearInterval(timer);
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, sleep(ms).then(() => Promise.reject(new Error(`${what}: not within ${ms} ms`)))]);
}

const [sqlite] = testBackends();

describe('time-outs and the connection cap (real sockets)', () => {
  let db: Db;
  let root: string;
  let app: FastifyInstance | undefined;
  let port: number;
  const sockets: RawSocket[] = [];
  const streams: SseStream[] = [];

  beforeAll(async () => {
    root = tempDir();
    db = await sqlite.open();
    await migrateToLatest(db);
  });

  afterEach(async () => {
    for (const s of streams.splice(0)) s.close();
    for (const s of sockets.splice(0)) s.socket.destroy();
    await app?.close();
    app = undefined;
  });

  afterAll(async () => {
    await db.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  async function start(limits: Partial<ConnectionLimits>, extra: Partial<BuildServerOptions> = {}): Promise<void> {
    app = buildServer({ db, ...makeSite(fs.mkdtempSync(path.join(root, 'site-'))), tiles: false, limits: { checkIntervalMs: 100, ...limits }, ...extra });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as net.AddressInfo).port;
  }

  async function open(): Promise<RawSocket> {
    const raw = await connect(port);
    sockets.push(raw);
    return raw;
  }

  it('closes connections that trickle their headers, or send none, once the header time-out is up', async () => {
    await start({ headersTimeoutMs: 600, requestTimeoutMs: 5_000, connectionTimeoutMs: 10_000, keepAliveTimeoutMs: 5_000 });
    const trickling = await Promise.all(Array.from({ length: 20 }, () => open()));
    for (const raw of trickling) {
      raw.socket.write('GET /api/be/health HTTP/1.1\r\nHost: x\r\n');
      trickle(raw, 'X-Pad: 1\r\n', 100);
    }
    const silent = await open();
    const times = await within(Promise.all([...trickling, silent].map((raw) => raw.closed)), 3_000, 'trickling connections closed');
    for (const ms of times) {
      expect(ms).toBeGreaterThanOrEqual(500);
      expect(ms).toBeLessThan(2_000);
    }
    expect(trickling[0].received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes a connection that trickles its body once the request time-out is up', async () => {
    await start({ headersTimeoutMs: 500, requestTimeoutMs: 1_000, connectionTimeoutMs: 10_000, keepAliveTimeoutMs: 5_000 });
    const raw = await open();
    raw.socket.write('POST /api/be/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
    trickle(raw, ' ', 100);
    const ms = await within(raw.closed, 3_000, 'trickled body closed');
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(2_500);
  });

  it('closes an idle kept-alive connection after the keep-alive time-out', async () => {
    await start({ headersTimeoutMs: 5_000, requestTimeoutMs: 5_000, connectionTimeoutMs: 10_000, keepAliveTimeoutMs: 400 });
    const raw = await open();
    raw.socket.write('GET /api/be/health HTTP/1.1\r\nHost: x\r\n\r\n');
    // Node closes an idle kept-alive socket up to a second after the time-out it announces.
    const ms = await within(raw.closed, 3_000, 'idle keep-alive closed');
    expect(raw.received()).toMatch(/^HTTP\/1\.1 200/);
    expect(raw.received()).toMatch(/^Keep-Alive: timeout=\d+\r?$/im);
    expect(ms).toBeLessThan(2_500);
  });

  it('closes connections beyond the cap from one address at once, and lets one in when another goes', async () => {
    const token = 'metrics-token-for-the-cap-test-0123456789';
    await start({ maxConnectionsPerAddress: 3, headersTimeoutMs: 5_000, requestTimeoutMs: 5_000, keepAliveTimeoutMs: 5_000 }, { metricsToken: token });
    const kept = [await open(), await open(), await open()];
    await sleep(50);
    const over = [await open(), await open()];
    for (const raw of over) expect(await within(raw.closed, 1_000, 'over-cap socket closed')).toBeLessThan(1_000);
    expect(over.map((raw) => raw.received())).toEqual(['', '']);
    expect(kept.map((raw) => raw.isClosed())).toEqual([false, false, false]);

    // The three still work; once one goes, a new one is let in.
    kept[0].socket.write('GET /api/be/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await within(kept[0].closed, 2_000, 'answered and closed');
    expect(kept[0].received()).toMatch(/^HTTP\/1\.1 200/);
    await sleep(50);
    const next = await open();
    next.socket.write(`GET /api/be/metrics HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`);
    await within(next.closed, 2_000, 'metrics answered');
    expect(next.received()).toMatch(/^HTTP\/1\.1 200/);
    expect(next.received()).toMatch(/^raidmap_http_connections_refused_total 2$/m);
    expect(next.received()).toMatch(/^raidmap_http_open_connections 3$/m);
  });

  it('never refuses a trusted proxy (it carries many clients), but counts its connections', async () => {
    const token = 'metrics-token-for-the-proxy-test-0123456789';
    await start({ maxConnectionsPerAddress: 2, headersTimeoutMs: 5_000, requestTimeoutMs: 5_000, keepAliveTimeoutMs: 5_000 }, { metricsToken: token, trustProxy: ['127.0.0.1'] });
    const all = await Promise.all(Array.from({ length: 5 }, () => open()));
    await sleep(200);
    expect(all.map((raw) => raw.isClosed())).toEqual([false, false, false, false, false]);
    all[0].socket.write(`GET /api/be/metrics HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`);
    await within(all[0].closed, 2_000, 'metrics answered');
    expect(all[0].received()).toMatch(/^raidmap_http_open_connections 5$/m);
    expect(all[0].received()).toMatch(/^raidmap_http_connections_refused_total 0$/m);
  });

  it('keeps a live stream open past the request, header and inactivity time-outs', async () => {
    // No pings within the test: the stream is silent, as a quiet map's stream is for minutes.
    await start({ headersTimeoutMs: 300, requestTimeoutMs: 500, connectionTimeoutMs: 500, keepAliveTimeoutMs: 300 }, { livePingMs: 60_000 });
    const idle = await open();
    const stream = await openSse(`http://127.0.0.1:${port}/api/be/live/markers?map=customs`);
    streams.push(stream);
    expect(stream.response.status).toBe(200);
    await stream.next((m) => m.retry !== undefined);
    // The limits are in force: a connection that says nothing is gone long before the stream is done.
    expect(await within(idle.closed, 1_500, 'idle socket closed')).toBeLessThan(1_500);
    await sleep(2_000);
    app!.raidmap.live.publish(markersChannel('customs'), { kind: 'probe', at: 1 });
    const event = await stream.next((m) => m.event === 'marker', 2_000);
    expect(JSON.parse(event.data!)).toEqual({ kind: 'probe', at: 1 });
  });
});
