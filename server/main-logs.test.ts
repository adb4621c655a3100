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
async function run(env: Record<string, string>, urlPath: string, times: number): Promise<{ out: string; port: number }> {
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
  }, 90_000);

  it('at warn (the default): the plain listening line; at silent: nothing at all', async () => {
    const warn = await run({}, '/api/be/health', 0);
    expect(warn.out.split('\n').filter((l) => l.includes('listening'))).toEqual([`raidmap listening on http://127.0.0.1:${warn.port}`]);
    // The shutdown through the logger, at warn: JSON, shown at the default level.
    expect(warn.out).toMatch(/^\{.*"level":40.*"msg":"SIGTERM: closing"\}$/m);
    const silent = await run({ LOG_LEVEL: 'silent' }, '/api/be/health', 0);
    expect(silent.out).toBe('');
  }, 120_000);
});
