/**
 * A live client that falls too far behind (stream.ts) is really disconnected: its socket is
 * destroyed at once, not ended behind megabytes of queued events it will never read, so the
 * stream and connection counts drop and the per-address cap frees its slot. Real sockets.
 * The pilot feed's stream uses the same writer (openEventStream).
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../app';
import { migrateToLatest, type Db } from '../db';
import { tempDir, testBackends } from '../testing/databases';
import { markersChannel } from './hub';

const TOKEN = 'stream-test-token';
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** A raw client that asks for the stream and then reads nothing (paused). */
function stalledReader(port: number, url: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.once('connect', () => {
      socket.write(`GET ${url} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n`);
      socket.pause();
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

const [sqlite] = testBackends();

describe('a live client too far behind (real sockets)', () => {
  let db: Db;
  let root: string;
  let app: FastifyInstance;
  let port: number;
  const logLines: Array<{ msg?: string }> = [];
  const sockets: net.Socket[] = [];

  beforeAll(async () => {
    root = tempDir();
    db = await sqlite.open();
    await migrateToLatest(db);
    const logStream = { write: (line: string) => logLines.push(JSON.parse(line) as { msg?: string }) };
    app = buildServer({
      db,
      uploadsDir: path.join(root, 'uploads'),
      distDir: path.join(root, 'dist'),
      assetsDir: path.join(root, 'assets'),
      tiles: false,
      metricsToken: TOKEN,
      livePingMs: 60_000,
      // Two readers from this address fill the cap: a third connection (a metrics scrape) is
      // refused until one of them is really gone.
      limits: { maxConnectionsPerAddress: 2 },
      logger: { level: 'warn', stream: logStream },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as net.AddressInfo).port;
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await app?.close();
    await db?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  /** GET /api/be/metrics on a connection of its own, closed after the answer. */
  const scrape = () =>
    new Promise<{ status: number; text: string }>((done, fail) => {
      const req = http.get({ host: '127.0.0.1', port, path: '/api/be/metrics', agent: false, headers: { authorization: `Bearer ${TOKEN}`, connection: 'close' } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => done({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', fail);
    });
  const openConnections = () => new Promise<number>((done, fail) => app.server.getConnections((error, count) => (error ? fail(error) : done(count))));

  it('destroys the socket of a reader that reads nothing once it is too far behind, and frees its slot', async () => {
    for (let i = 0; i < 2; i++) sockets.push(await stalledReader(port, '/api/be/live/markers?map=interchange'));
    await expect.poll(() => app.raidmap.live.subscriberCount(markersChannel('interchange'))).toBe(2);
    expect(await openConnections()).toBe(2);

    // ~35 KB events, as a large marker's update is, until both readers are dropped.
    const big = { kind: 'update', marker: { uid: 'big', desc: 'x'.repeat(35_000) } };
    for (let i = 0; i < 600 && app.raidmap.live.subscriberCount(markersChannel('interchange')) > 0; i++) {
      app.raidmap.live.publish(markersChannel('interchange'), { ...big, at: i });
      if (i % 20 === 0) await sleep(5);
    }
    expect(logLines.filter((l) => l.msg === 'live client too far behind: closing its stream')).toHaveLength(2);
    expect(app.raidmap.live.subscriberCount(markersChannel('interchange'))).toBe(0);
    // Gone at once, though neither client read a byte or closed its end.
    await expect.poll(openConnections, { timeout: 1_000 }).toBe(0);

    // The cap counts a socket out on its 'close' event, a tick after the handle goes.
    await expect.poll(() => scrape().then((r) => r.status, () => 0), { timeout: 1_000 }).toBe(200);
    const { text } = await scrape();
    expect(text).toMatch(/^raidmap_live_streams\{route="\/api\/be\/live\/markers"\} 0$/m);
    // Only the scrape's own connection is left.
    expect(text).toMatch(/^raidmap_http_open_connections 1$/m);
  });
});
