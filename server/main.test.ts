/**
 * The real entry point as a process: first start seeds and listens, SIGTERM exits cleanly,
 * a second start on the same DATA_DIR reuses the database; a second server on a SQLite database
 * that one is running on is refused, naming it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from './testing/databases';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Started {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
}

function start(env: Record<string, string>): Promise<Started> {
  // Node itself with tsx's loader, not the tsx CLI: the CLI relays signals with a short grace
  // period and may kill a server that is still closing, which would hide the real exit code.
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: repoRoot, env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${text}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const match = /raidmap listening on (http:\/\/\S+)/.exec(text);
      if (match) {
        clearTimeout(timer);
        resolve({ child, baseUrl: match[1], output: () => text });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${text}`));
    });
  });
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.on('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

describe('server/main.ts', () => {
  const dataDir = tempDir();
  const env = { DATA_DIR: dataDir, SEED_MAPS: 'factory', MARKERS_PER_MAP: '200', TILES_DIR: path.join(dataDir, 'tiles') };
  const running: ChildProcess[] = [];

  afterAll(() => {
    for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('seeds, listens, serves and stops on SIGTERM; a restart reuses the database', async () => {
    const first = await start(env);
    running.push(first.child);
    expect(first.output()).toMatch(/seeded 200 sample markers on 1 map/);
    const health = await (await fetch(`${first.baseUrl}/api/be/health`)).json();
    expect(health).toMatchObject({ status: 'ok', tiles: { ready: expect.any(Boolean), done: expect.any(Number), total: expect.any(Number) } });
    const list = await (await fetch(`${first.baseUrl}/api/be/markers/list?map=factory`)).json();
    expect(list.markers).toHaveLength(200);
    expect(await stop(first.child)).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'raidmap.sqlite'))).toBe(true);

    const second = await start(env);
    running.push(second.child);
    expect(second.output()).toMatch(/already has markers: not seeding/);
    const again = await (await fetch(`${second.baseUrl}/api/be/markers/list?map=factory`)).json();
    expect(again).toEqual(list);
    expect(await stop(second.child)).toBe(0);
  }, 120_000);

  it('refuses a second server on the SQLite database of a running one, naming it; the first keeps serving', async () => {
    const first = await start(env);
    running.push(first.child);
    await expect(start(env)).rejects.toThrow(new RegExp(`exited with 1[\\s\\S]*in use by another raidmap server \\(pid ${first.child.pid} on [\\s\\S]*PostgreSQL`));
    const health = await fetch(`${first.baseUrl}/api/be/health`);
    expect(health.status).toBe(200);
    expect(await stop(first.child)).toBe(0);

    // A server on another DATA_DIR is another database: it starts beside the first.
    const again = await start(env);
    running.push(again.child);
    const otherDir = tempDir();
    try {
      const other = await start({ ...env, DATA_DIR: otherDir, TILES_DIR: path.join(otherDir, 'tiles') });
      running.push(other.child);
      expect(await stop(other.child)).toBe(0);
    } finally {
      fs.rmSync(otherDir, { recursive: true, force: true });
    }
    expect(await stop(again.child)).toBe(0);
  }, 120_000);

  it('refuses a bad setting with a message naming it', async () => {
    await expect(start({ ...env, PORT: 'eighty' })).rejects.toThrow(/exited with 1[\s\S]*bad setting PORT/);
  }, 60_000);

  it('says in one line, before touching the database, that its port is in use or its DATA_DIR cannot be written', async () => {
    const taken = await start(env);
    running.push(taken.child);
    const port = new URL(taken.baseUrl).port;
    const otherDir = tempDir();
    try {
      const refused = start({ ...env, PORT: port, DATA_DIR: otherDir, TILES_DIR: path.join(otherDir, 'tiles') });
      await expect(refused).rejects.toThrow(new RegExp(`exited with 1:\\nraidmap: port ${port} on 127\\.0\\.0\\.1 is in use \\(another server, or raidmap already running\\): stop it or set PORT to a free port\\n$`));
      // Nothing was migrated or seeded into the other folder.
      expect(fs.readdirSync(otherDir)).toEqual([]);
    } finally {
      fs.rmSync(otherDir, { recursive: true, force: true });
    }
    expect(await stop(taken.child)).toBe(0);

    const file = path.join(tempDir(), 'a-file');
    fs.writeFileSync(file, 'not a folder');
    try {
      await expect(start({ ...env, DATA_DIR: path.join(file, 'data'), TILES_DIR: path.join(file, 'tiles') })).rejects.toThrow(
        /exited with 1:\nraidmap: cannot write \S+ \(a part of the path is a file, not a folder\): check DATA_DIR \(now \S+\) and TILES_DIR\n$/,
      );
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  }, 120_000);

  it('stops in one line, before touching the database, for a TILES_DIR it cannot write, a HOST that is no address here (PORT=0 too) and a DATA_DIR on /proc', async () => {
    // A server that starts after all is stopped with the others (afterAll), and fails the test.
    const refused = (settings: Record<string, string>) =>
      start(settings).then((started) => {
        running.push(started.child);
        throw new Error(`started:\n${started.output()}`);
      });
    const otherDir = tempDir();
    const file = path.join(otherDir, 'a-file');
    fs.writeFileSync(file, 'not a folder');
    try {
      const data = path.join(otherDir, 'data');
      await expect(refused({ ...env, DATA_DIR: data, TILES_DIR: path.join(file, 'tiles') })).rejects.toThrow(
        new RegExp(`exited with 1:\\nraidmap: cannot write ${path.join(file, 'tiles').replaceAll('/', '\\/')} \\(a part of the path is a file, not a folder\\): check DATA_DIR \\(now \\S+\\) and TILES_DIR\\n$`),
      );
      await expect(refused({ ...env, DATA_DIR: data, TILES_DIR: file })).rejects.toThrow(/exited with 1:\nraidmap: cannot write \S+a-file \(a file stands where a folder must be\): check DATA_DIR/);
      // No database was created.
      expect(fs.existsSync(path.join(data, 'raidmap.sqlite'))).toBe(false);
      await expect(refused({ ...env, DATA_DIR: data, HOST: '203.0.113.7', PORT: '0' })).rejects.toThrow(
        /exited with 1:\nraidmap: HOST=203\.0\.113\.7 is not an address of this machine: [^\n]+\n$/,
      );
      expect(fs.existsSync(path.join(data, 'raidmap.sqlite'))).toBe(false);
      await expect(refused({ ...env, DATA_DIR: '/proc/raidmap' })).rejects.toThrow(/exited with 1:\nraidmap: bad setting DATA_DIR: \/proc\/raidmap is on the kernel's \/proc file system/);
    } finally {
      fs.rmSync(otherDir, { recursive: true, force: true });
    }
  }, 120_000);
});
