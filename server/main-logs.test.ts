/**
 * The server's lines as a process (docs/SERVER.md, "Logs and metrics"): plain start-up lines,
 * then JSON through the logger at LOG_LEVEL; one listening line at every level, none at
 * silent; a map.json that cannot be used logged once, as JSON, without a stack.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from './testing/databases';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A port free now (at silent the server says none). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Runs the server until `until(stdout)` holds (or 60 s), asks for `urlPath` when listening, stops it; its stdout. */
async function run(env: Record<string, string>, urlPath: string, times: number, during?: (output: () => string, pid: number) => Promise<void>): Promise<{ out: string; port: number }> {
  const port = await freePort();
  const dataDir = tempDir();
  dirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_MAPS: 'factory', MARKERS_PER_MAP: '10', DEMO_ACCOUNTS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const up = await fetch(`http://127.0.0.1:${port}/api/be/health`).then((r) => r.ok, () => false);
      if (up) break;
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`server did not start:\n${out}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    for (let i = 0; i < times; i++) await fetch(`http://127.0.0.1:${port}${urlPath}`);
    await during?.(() => out, child.pid!);
    // The tile build logs in the background: a moment for its lines.
    await new Promise((r) => setTimeout(r, 500));
  } finally {
    await new Promise((resolve) => {
      child.on('exit', resolve);
      child.kill('SIGTERM');
    });
  }
  return { out, port };
}

/** The local TCP ports of a process's sockets (Linux: its fds' socket inodes, found in /proc/net/tcp*). */
function localPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    const link = (() => {
      try {
        return fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        return '';
      }
    })();
    const match = /^socket:\[(\d+)\]$/.exec(link);
    if (match) inodes.add(match[1]);
  }
  const ports: number[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!fs.existsSync(file)) continue;
    for (const line of fs.readFileSync(file, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length > 9 && inodes.has(cols[9])) ports.push(parseInt(cols[1].split(':')[1], 16));
    }
  }
  return ports;
}

function brokenAssets(): string {
  const assets = tempDir();
  dirs.push(assets);
  fs.mkdirSync(path.join(assets, 'maps', 'customs'), { recursive: true });
  fs.writeFileSync(path.join(assets, 'maps', 'customs', 'map.svg'), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><g id="main"/></svg>');
  fs.writeFileSync(path.join(assets, 'maps', 'customs', 'map.json'), '{"placement": {"fill": "yes"}}');
  return assets;
}

describe('server/main.ts lines', () => {
  it('at info: plain start-up lines, then JSON only; one listening line; a bad map.json logged once without a stack', async () => {
    const assets = brokenAssets();
    const { out, port } = await run({ LOG_LEVEL: 'info', ASSETS_DIR: assets }, '/tiles/customs/manifest.json', 3);
    const lines = out.trim().split('\n');
    const firstJson = lines.findIndex((l) => l.startsWith('{'));
    expect(lines.slice(0, firstJson).join('\n')).toMatch(/seeded 10 sample markers/);
    const after = lines.slice(firstJson);
    expect(after.filter((l) => !l.startsWith('{'))).toEqual([]);
    const json = after.map((l) => JSON.parse(l) as { level: number; msg: string; err?: unknown });
    expect(out).not.toContain('Server listening at');
    expect(json.filter((l) => l.msg === `raidmap listening on http://127.0.0.1:${port}`)).toHaveLength(1);
    const broken = json.filter((l) => l.msg.includes('tiles: customs:') && l.level === 50);
    expect(broken).toHaveLength(1);
    expect(broken[0].msg).toContain(`${path.join(assets, 'maps', 'customs', 'map.json')}: placement: expected one of`);
    expect(broken[0].err).toBeUndefined();
    expect(json.filter((l) => l.msg === 'tile manifest failed')).toEqual([]);
    // A normal stop: at info, and the last line says it is done.
    expect(json.filter((l) => /SIGTERM|closed/.test(l.msg)).map((l) => [l.level, l.msg])).toEqual([
      [30, 'SIGTERM: closing'],
      [30, 'closed'],
    ]);
    expect(json.at(-1)?.msg).toBe('closed');
  }, 90_000);

  it('at warn (the default): the plain listening line; at silent: nothing at all', async () => {
    const warn = await run({}, '/api/be/health', 0);
    expect(warn.out.split('\n').filter((l) => l.includes('listening'))).toEqual([`raidmap listening on http://127.0.0.1:${warn.port}`]);
    // A normal stop is logged at info: nothing of it at the default level.
    expect(warn.out).not.toMatch(/"msg":"(SIGTERM: closing|closed)"/);
    // Nor an error from the background work the stop cut short.
    expect(warn.out).not.toMatch(/background preparation failed/);
    const silent = await run({ LOG_LEVEL: 'silent' }, '/api/be/health', 0);
    expect(silent.out).toBe('');
  }, 120_000);

  it.skipIf(!process.env.TEST_DATABASE_URL)('on PostgreSQL: a lost listening connection and its return are JSON lines, the reason a field', async () => {
    const url = process.env.TEST_DATABASE_URL!;
    const schema = `main_logs_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.query(`create schema ${schema}`);
      const { out } = await run({ LOG_LEVEL: 'info', DATABASE_URL: url, DATABASE_SCHEMA: schema }, '/api/be/health', 0, async (output, serverPid) => {
        // The listening connection of this server process, by its local TCP ports (other tests may run hubs too).
        const { rows } = await admin.query<{ pid: number }>("select pid from pg_stat_activity where application_name = 'raidmap-live' and client_port = any($1)", [
          localPorts(serverPid),
        ]);
        expect(rows).toHaveLength(1);
        await admin.query('select pg_terminate_backend($1)', [rows[0].pid]);
        const deadline = Date.now() + 10_000;
        while (!output().includes('listening for live events on PostgreSQL again') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      });
      const lines = out.trim().split('\n');
      const after = lines.slice(lines.findIndex((l) => l.startsWith('{')));
      expect(after.filter((l) => !l.startsWith('{'))).toEqual([]);
      const json = after.map((l) => JSON.parse(l) as { level: number; msg: string; reason?: string; attempts?: number });
      const live = json.filter((l) => l.msg.startsWith('live: '));
      expect(live.map((l) => [l.level, l.msg])).toEqual([
        [40, 'live: lost the PostgreSQL connection that listens for live events; reconnecting'],
        [30, 'live: listening for live events on PostgreSQL again'],
      ]);
      expect(live[0].reason).toMatch(/terminating connection due to administrator command/);
    } finally {
      await admin.query(`drop schema if exists ${schema} cascade`).catch(() => undefined);
      await admin.end();
    }
  }, 120_000);
});
