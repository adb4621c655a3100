/**
 * One server process per SQLite database (server/db/sqlite-lock.ts): a second one is refused
 * with the first one's pid, distinct databases do not meet, and a holder that died leaves
 * nothing behind.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/databases';
import { DatabaseInUseError, lockSqliteDatabase, type SqliteLock } from './sqlite-lock';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A separate process that takes the lock of `sqliteFile` and holds it until killed. */
function holdInAnotherProcess(sqliteFile: string): Promise<ChildProcess> {
  const script = `import('./server/db/sqlite-lock.ts').then((m) => { m.lockSqliteDatabase(${JSON.stringify(sqliteFile)}); console.log('locked'); setInterval(() => {}, 1000); })`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('locked')) resolve(child);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`lock holder exited with ${code}: ${output}`)));
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.on('exit', () => resolve());
  });
}

describe('lockSqliteDatabase', () => {
  const dir = tempDir();
  const held: SqliteLock[] = [];
  const take = (file: string) => {
    const lock = lockSqliteDatabase(file);
    held.push(lock);
    return lock;
  };

  afterAll(() => {
    for (const lock of held) lock.release();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a second holder of the same database, naming the first; free again once released', () => {
    const file = path.join(dir, 'one', 'raidmap.sqlite');
    const first = take(file);
    expect(first.file).toBe(`${file}.lock`);
    let refusal: unknown;
    try {
      lockSqliteDatabase(file, { pid: 99999, host: 'other', startedAt: 'now' });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DatabaseInUseError);
    expect((refusal as DatabaseInUseError).owner).toMatchObject({ pid: process.pid });
    expect((refusal as Error).message).toMatch(new RegExp(`in use by another raidmap server \\(pid ${process.pid} on `));
    expect((refusal as Error).message).toMatch(/PostgreSQL/);

    first.release();
    expect(() => take(file)).not.toThrow();
  });

  it('lets two databases in distinct folders be held at once', () => {
    take(path.join(dir, 'a', 'raidmap.sqlite'));
    expect(() => take(path.join(dir, 'b', 'raidmap.sqlite'))).not.toThrow();
  });

  it('refuses while another process holds it, and takes it once that process is killed', async () => {
    const file = path.join(dir, 'shared', 'raidmap.sqlite');
    const holder = await holdInAnotherProcess(file);
    try {
      expect(() => lockSqliteDatabase(file)).toThrow(new RegExp(`pid ${holder.pid} `));
    } finally {
      const gone = exited(holder);
      holder.kill('SIGKILL');
      await gone;
    }
    // The lock died with its process: no stale file to remove by hand.
    expect(() => take(file)).not.toThrow();
  }, 60_000);
});
