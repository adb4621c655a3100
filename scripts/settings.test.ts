import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../server/config';
import { databaseOptions } from '../server/db';
import { tempDir } from '../server/testing/databases';
import { describeDatabase, loadSettings, MissingDatabaseError, openSiteDatabase } from './settings';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the scripts and the server read one set of settings', () => {
  it('opens the database the server opens: PostgreSQL in DATABASE_SCHEMA, or the SQLite file', () => {
    const pg = loadSettings({ DATA_DIR: '/srv/d', DATABASE_URL: 'postgres://u:secret@db:5432/site', DATABASE_SCHEMA: 'site_a' });
    expect(databaseOptions(pg)).toEqual({ databaseUrl: 'postgres://u:secret@db:5432/site', pgSchema: 'site_a' });
    expect(describeDatabase(pg)).toBe('PostgreSQL db:5432/site (schema site_a)');
    const lite = loadSettings({ DATA_DIR: '/srv/d' });
    expect(databaseOptions(lite)).toEqual({ sqliteFile: '/srv/d/raidmap.sqlite' });
    expect(describeDatabase(lite)).toBe('/srv/d/raidmap.sqlite');
  });

  it('refuses a missing SQLite database without creating it, unless asked to create one', async () => {
    const dir = tempDir('raidmap-settings-');
    dirs.push(dir);
    const config = loadSettings({ DATA_DIR: path.join(dir, 'typo') });
    await expect(openSiteDatabase(config, { create: false })).rejects.toThrow(MissingDatabaseError);
    expect(fs.existsSync(path.join(dir, 'typo'))).toBe(false);
    const made = await openSiteDatabase(config, { create: true });
    await made.db.close();
    expect(made.created).toBe(true);
    const again = await openSiteDatabase(config, { create: false });
    await again.db.close();
    expect(again.created).toBe(false);
  });
});

describe('npm run serve under a supervisor', () => {
  it('execs node, so a SIGTERM sent to npm closes the server instead of orphaning it', async () => {
    const scripts = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.serve).toBe('exec node --import tsx server/main.ts');
    expect(scripts.start).toMatch(/&& exec npm run serve$/);
  });

  it.skipIf(process.platform !== 'linux')('really: npm exits, and node with it, after "SIGTERM: closing" and "closed"', async () => {
    const dir = tempDir('raidmap-serve-');
    dirs.push(dir);
    const env = { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, TILES_DIR: path.join(dir, 'tiles'), DIST_DIR: path.join(dir, 'dist'), SEED_MAPS: 'factory', MARKERS_PER_MAP: '0', DEMO_ACCOUNTS: '0', DATABASE_URL: '', DATABASE_SCHEMA: '',
      // A normal stop logs at info (docs/SERVER.md): the default level, warn, shows none of it.
      LOG_LEVEL: 'info' };
    const npm = spawn('npm', ['run', 'serve'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    const collect = (chunk: Buffer) => (text += chunk.toString());
    npm.stdout.on('data', collect);
    npm.stderr.on('data', collect);
    const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
    // Every process under npm, so that a failing run leaves none behind.
    const tree: number[] = [];
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    const childrenOf = (pid: number): string[] => {
      try {
        return execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map((line) => line.trim());
      } catch (error) {
        // ps exits 1 when the process has no children.
        if ((error as { status?: number }).status === 1) return [];
        throw error;
      }
    };
    try {
      const deadline = Date.now() + 60_000;
      while (!/raidmap listening on/.test(text) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(text).toMatch(/raidmap listening on/);
      const children = childrenOf(npm.pid!);
      for (const line of children) {
        const pid = Number(line.split(' ')[0]);
        tree.push(pid, ...childrenOf(pid).map((l) => Number(l.split(' ')[0])));
      }
      // npm's only child is node itself (no shell between them).
      expect(children).toEqual([expect.stringMatching(/^\d+ node --import tsx server\/main\.ts$/)]);
      npm.kill('SIGTERM');
      await exited;
      expect(text).toMatch(/"msg":"SIGTERM: closing"/);
      // The server closed everything before it exited (its last line).
      expect(text).toMatch(/"msg":"closed"/);
      const gone = Date.now() + 15_000;
      while (tree.some(alive) && Date.now() < gone) await new Promise((r) => setTimeout(r, 100));
      expect(tree.filter(alive)).toEqual([]);
    } finally {
      if (npm.exitCode === null) npm.kill('SIGKILL');
      for (const pid of tree) if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  }, 90_000);
});
