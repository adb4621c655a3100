/**
 * Starts `npm run pilot`'s program (scripts/pilot.ts) as a child process on a screenshots
 * folder with an existing pairing, for the e2e tests and the latency benchmark; resolves once
 * it says it watches (docs/PILOT-WATCHER.md: no other line holds the word "watching").
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface WatcherOptions {
  repoRoot: string;
  baseUrl: string;
  folder: string;
  code: string;
  token: string;
  /** How long to wait for "watching" (default 30 s). */
  timeoutMs?: number;
}

export function startWatcherProcess({ repoRoot, baseUrl, folder, code, token, timeoutMs = 30_000 }: WatcherOptions): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/pilot.ts', '--server', baseUrl, '--screenshots', folder, '--code', code, '--token', token], {
    cwd: repoRoot,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the watcher did not start watching in ${timeoutMs / 1000} s:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (/watching/i.test(output)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (status) => {
      clearTimeout(timer);
      reject(new Error(`the watcher exited (${status}) before watching:\n${output}`));
    });
  });
}
