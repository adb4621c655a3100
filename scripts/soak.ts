/**
 * `npm run soak`: load and fault runs against a local server that this script starts itself
 * (issue 9, "Tests and numbers"). Bounded in time; reports figures and never fails on a target.
 *
 * 1. Read/write mix: `--concurrency` connections (autocannon) read the customs marker list with
 *    `accept-encoding: br, gzip` for `--seconds`, while a paced loop sends `--writes-per-second`
 *    admin writes (a marker added, updated with the version the add returned, then deleted with
 *    the update's version, so the list keeps its size). Prints req/s, p50/p99 latency, errors and
 *    the targets (≥ 2,000 req/s compressed, p99 ≤ 50 ms, 100 writes/s, 0 errors).
 * 2. kill -9 during a write burst: `--kill-writers` concurrent writers add markers (client-chosen
 *    uids) and update every other one; every acknowledged write's uid and version is recorded; the
 *    server's process group gets SIGKILL `--kill-after-ms` into the burst; the server restarts
 *    on the same data (folder, database and schema) and the marker list is checked for every
 *    acknowledged write (target: 0 lost).
 *
 * On SQLite by default; `--db pg` (or `--pg`, `--db both`) on PostgreSQL in a fresh schema per
 * server run, dropped afterwards. The server runs with the demo accounts (NODE_ENV=development,
 * DEMO_ACCOUNTS=1) and customs seeded; its tiles go to `--tiles-dir` (kept, so the background
 * tile build is paid once; the mix waits for it, since it would take the CPU).
 */
import { performance } from 'node:perf_hooks';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { MAPS } from '../src/domain/maps';
import { freshDataDir, startServer, type RunningServer } from '../e2e/support/server';
import { adminCookie } from './bench/editor-server';
import { countLost, dueAt, formatLoss, formatMix, newTally, recordWrite, summariseWrites, type MixFigures, type WriteTally } from './soak/figures';
import { parseSoakOptions, soakSchemaName, type SoakDb, type SoakOptions } from './soak/options';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MAP = 'customs';
const LIST_PATH = `/api/be/markers/list?map=${MAP}`;
/** Writer connections of the mix: writes beyond this many in flight are skipped (and counted). */
const WRITE_SLOTS = 16;

const running = new Set<RunningServer>();
process.on('exit', () => {
  for (const server of running) server.killNow();
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const server of running) server.killNow();
    process.exit(130);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request over a keep-alive agent (raw bytes: no decompression). */
function request(agent: http.Agent, baseUrl: string, method: string, urlPath: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = http.request(
      `${baseUrl}${urlPath}`,
      { method, agent, headers: { ...headers, ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}) }, timeout: 30_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(payload);
  });
}

/** A new marker of the default type on customs, spread over the map. */
function soakMarker(uid: string, i: number): Record<string, unknown> {
  const { width, height } = MAPS[MAP].size;
  return {
    uid, map: MAP, category: 'Markers', subCategory: 'Marker', level: 1,
    geometry: { x: Math.round(((i * 37) % 1000) / 1000 * width), y: Math.round(((i * 61) % 1000) / 1000 * height) },
    name: `soak ${i}`, desc: '', imgs: [], name_l10n: {}, desc_l10n: {}, questUid: null, itemsUid: [],
  };
}

interface Database {
  db: SoakDb;
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** The server's database settings: SQLite in the data folder, or a fresh PostgreSQL schema. */
async function database(options: SoakOptions, db: SoakDb, part: string): Promise<Database> {
  if (db === 'sqlite') return { db, env: { DATABASE_URL: '', DATABASE_SCHEMA: '' }, drop: async () => {} };
  const url = options.databaseUrl!;
  const schema = soakSchemaName(process.pid, Date.now(), part);
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`create schema "${schema}"`);
  return { db, env: { DATABASE_URL: url, DATABASE_SCHEMA: schema }, drop: () => run(`drop schema if exists "${schema}" cascade`) };
}

function serverEnv(options: SoakOptions, dbEnv: Record<string, string>): Record<string, string> {
  return {
    NODE_ENV: 'development',
    DEMO_ACCOUNTS: '1',
    SEED_MAPS: MAP,
    MARKERS_PER_MAP: String(options.markers),
    TILES_DIR: options.tilesDir,
    LOG_LEVEL: 'warn',
    // Every reader and writer connection comes from 127.0.0.1: room for all of them.
    MAX_CONNECTIONS_PER_ADDRESS: String(Math.max(64, options.concurrency + Math.max(WRITE_SLOTS, options.killWriters) + 16)),
    ...dbEnv,
  };
}

async function start(options: SoakOptions, dataDir: string, dbEnv: Record<string, string>, waitForTiles: boolean): Promise<RunningServer> {
  const server = await startServer({ repoRoot: REPO_ROOT, dataDir, env: serverEnv(options, dbEnv), startTimeoutMs: 180_000, tilesTimeoutMs: waitForTiles ? 900_000 : 0 });
  running.add(server);
  return server;
}

async function stop(server: RunningServer): Promise<void> {
  await server.stop();
  running.delete(server);
}

/** Writes paced at `perSecond` (open loop) until stopped: add → update (version) → delete (version). */
function startWriter(baseUrl: string, cookie: string, perSecond: number): { stop(): Promise<{ tally: WriteTally; seconds: number }> } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: WRITE_SLOTS });
  const tally = newTally();
  const followUps: (() => Promise<void>)[] = [];
  const headers = { cookie, accept: 'application/json' };
  let stopped = false;
  let inFlight = 0;
  let serial = 0;
  const started = performance.now();
  let ended = started;

  const send = async (kind: string, method: string, urlPath: string, body: unknown, expected: number): Promise<Answer | undefined> => {
    const t0 = performance.now();
    try {
      const answer = await request(agent, baseUrl, method, urlPath, headers, body);
      recordWrite(tally, kind, answer.status, performance.now() - t0, expected);
      return answer.status === expected ? answer : undefined;
    } catch {
      recordWrite(tally, kind, undefined, 0, expected);
      return undefined;
    }
  };
  const cycle = () => async () => {
    const n = ++serial;
    const uid = `soak-${process.pid}-${n}`;
    const added = await send('add', 'POST', '/api/be/admin/marker/add', soakMarker(uid, n), 201);
    if (!added) return;
    const marker = (JSON.parse(added.body.toString('utf8')) as { marker: { version: number; geometry: { x: number; y: number } } }).marker;
    followUps.push(async () => {
      const moved = { ...marker, geometry: { x: marker.geometry.x + 1, y: marker.geometry.y }, version: marker.version };
      const updated = await send('update', 'POST', '/api/be/admin/marker/update', moved, 200);
      if (!updated) return;
      const version = (JSON.parse(updated.body.toString('utf8')) as { marker: { version: number } }).marker.version;
      followUps.push(async () => {
        await send('delete', 'DELETE', `/api/be/admin/marker/${uid}?version=${version}`, undefined, 200);
      });
    });
  };

  const loop = (async () => {
    if (perSecond <= 0) return;
    for (let i = 0; !stopped; i += 1) {
      const wait = started + dueAt(i, perSecond) - performance.now();
      if (wait > 0) await sleep(wait);
      if (stopped) break;
      if (inFlight >= WRITE_SLOTS) {
        tally.skipped += 1;
        continue;
      }
      const op = followUps.shift() ?? cycle();
      inFlight += 1;
      void op().finally(() => {
        inFlight -= 1;
      });
    }
  })();

  return {
    async stop() {
      stopped = true;
      ended = performance.now();
      await loop;
      while (inFlight > 0) await sleep(5);
      agent.destroy();
      return { tally, seconds: (ended - started) / 1000 };
    },
  };
}

async function runMix(options: SoakOptions, db: SoakDb): Promise<MixFigures> {
  const dataDir = freshDataDir('raidmap-soak-');
  const dbSettings = await database(options, db, 'mix');
  let server: RunningServer | undefined;
  try {
    console.log(`[${db}] starting the server (the first run also builds the tiles into ${options.tilesDir}; the mix waits for them)…`);
    server = await start(options, dataDir, dbSettings.env, true);
    const cookie = await adminCookie(server.baseUrl);
    const agent = new http.Agent({ keepAlive: true });
    // Warm: the list and its Brotli variant (the server also builds them in the background).
    const sample = await request(agent, server.baseUrl, 'GET', LIST_PATH, { 'accept-encoding': 'br, gzip' });
    agent.destroy();
    if (sample.status !== 200) throw new Error(`GET ${LIST_PATH} answered ${sample.status}: ${sample.body.toString('utf8').slice(0, 200)}`);
    const encoding = String(sample.headers['content-encoding'] ?? '');

    console.log(`[${db}] read/write mix: ${options.seconds} s, ${options.concurrency} connections, ${options.writesPerSecond} writes/s…`);
    const writer = startWriter(server.baseUrl, cookie, options.writesPerSecond);
    const result = await autocannon({ url: `${server.baseUrl}${LIST_PATH}`, connections: options.concurrency, duration: options.seconds, headers: { 'accept-encoding': 'br, gzip' }, timeout: 10 });
    const { tally, seconds } = await writer.stop();
    const requests = result.requests.total;
    return {
      db,
      seconds: options.seconds,
      concurrency: options.concurrency,
      writesWanted: options.writesPerSecond,
      reads: {
        perSecond: requests / (result.duration || options.seconds),
        requests,
        p50: result.latency.p50,
        p99: result.latency.p99,
        max: result.latency.max,
        errors: result.errors + result.timeouts + result.non2xx,
        bytesPerResponse: requests > 0 ? result.throughput.total / requests : Number.NaN,
        encoding,
      },
      writes: summariseWrites(tally, seconds),
    };
  } finally {
    if (server) await stop(server);
    await dbSettings.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function runKill(options: SoakOptions, db: SoakDb): Promise<string[]> {
  const dataDir = freshDataDir('raidmap-soak-kill-');
  const dbSettings = await database(options, db, 'kill');
  let server: RunningServer | undefined;
  try {
    console.log(`[${db}] kill -9: starting the server…`);
    const first = await start(options, dataDir, dbSettings.env, false);
    server = first;
    const cookie = await adminCookie(first.baseUrl);
    const exited = new Promise<void>((resolve) => first.onUnexpectedExit(() => resolve()));
    const agent = new http.Agent({ keepAlive: true, maxSockets: options.killWriters });
    const headers = { cookie, accept: 'application/json' };
    const acknowledged = new Map<string, number>();
    const attempted = new Set<string>();
    const statuses = new Map<string, number>();
    let killed = false;
    let sent = 0;
    const count = (key: string) => statuses.set(key, (statuses.get(key) ?? 0) + 1);
    const send = async (kind: string, urlPath: string, body: unknown, expected: number): Promise<number | undefined> => {
      sent += 1;
      try {
        const answer = await request(agent, first.baseUrl, 'POST', urlPath, headers, body);
        count(`${kind} ${answer.status}`);
        // Any answer received came before the kill (a dead process sends nothing).
        return answer.status === expected ? (JSON.parse(answer.body.toString('utf8')) as { marker: { version: number } }).marker.version : undefined;
      } catch {
        count(`${kind} ${killed ? 'cut by the kill' : 'error'}`);
        return undefined;
      }
    };
    const writer = async (w: number) => {
      for (let n = 1; !killed; n += 1) {
        const uid = `kill-${w}-${n}`;
        attempted.add(uid);
        const version = await send('add', '/api/be/admin/marker/add', soakMarker(uid, w * 10_000 + n), 201);
        if (version === undefined) continue;
        acknowledged.set(uid, version);
        if (n % 2 === 0 && !killed) {
          const marker = { ...soakMarker(uid, w * 10_000 + n), name: `updated ${n}`, version };
          const next = await send('update', '/api/be/admin/marker/update', marker, 200);
          if (next !== undefined) acknowledged.set(uid, next);
        }
      }
    };
    console.log(`[${db}] kill -9: ${options.killWriters} writers; SIGKILL ${options.killAfterMs} ms into the burst…`);
    const burstStart = performance.now();
    const writers = Array.from({ length: options.killWriters }, (_, w) => writer(w));
    await sleep(options.killAfterMs);
    const killedAtMs = Math.round(performance.now() - burstStart);
    killed = true;
    first.killNow();
    await Promise.race([exited, sleep(10_000)]);
    await Promise.allSettled(writers);
    agent.destroy();
    running.delete(first);
    server = undefined;

    const restartStart = performance.now();
    server = await start(options, dataDir, dbSettings.env, false);
    const restartMs = Math.round(performance.now() - restartStart);
    const reader = new http.Agent({ keepAlive: false });
    const list = await request(reader, server.baseUrl, 'GET', LIST_PATH, { accept: 'application/json' });
    if (list.status !== 200) throw new Error(`after the restart GET ${LIST_PATH} answered ${list.status}`);
    const stored = new Map((JSON.parse(list.body.toString('utf8')) as { markers: { uid: string; version?: number }[] }).markers.map((m) => [m.uid, m.version ?? 1]));
    const loss = countLost(acknowledged, stored, attempted);
    const answers = [...statuses].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k}×${n}`).join(', ');
    return [...formatLoss(db, loss, { killedAtMs, sent, restartMs }), `  answers before the kill: ${answers}`];
  } finally {
    if (server) await stop(server);
    await dbSettings.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  let options: SoakOptions;
  try {
    options = parseSoakOptions(process.argv.slice(2), process.env);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  fs.mkdirSync(options.tilesDir, { recursive: true });
  const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
  const header = `soak ${new Date().toISOString()} on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}; load average at start ${load()}`;
  console.log(header);
  const lines: string[] = [header];
  for (const db of options.dbs) {
    if (options.parts.mix) {
      const figures = await runMix(options, db);
      const out = [...formatMix(figures), `  load average after the mix: ${load()}`];
      out.forEach((l) => console.log(l));
      lines.push(...out);
    }
    if (options.parts.kill) {
      const out = await runKill(options, db);
      out.forEach((l) => console.log(l));
      lines.push(...out);
    }
  }
  console.log(`\nsummary\n${lines.join('\n')}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('soak failed:', error);
    process.exit(1);
  },
);
