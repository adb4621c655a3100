/**
 * Starts the real raidmap server (`tsx server/main.ts`) as a child process on a free port,
 * waits until `GET /api/be/health` answers, and stops it (with its whole process group).
 * Used by the end-to-end global setup and by the benchmark.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface HealthBody {
  status: string;
  tiles: { ready: boolean; done: number; total: number };
}

export interface StartServerOptions {
  /** Repository root (where server/main.ts lives). */
  repoRoot: string;
  /** Data folder for the database; a fresh temp folder when omitted. */
  dataDir?: string;
  /** Extra environment for the server (MARKERS_PER_MAP, SEED_MAPS, TILES_DIR...). */
  env?: Record<string, string>;
  /** How long to wait for the health endpoint (ms). */
  startTimeoutMs?: number;
  /** After the server is up, wait up to this long (ms) for the tile pyramids to be ready; 0 skips. */
  tilesTimeoutMs?: number;
  /** The port to listen on (a restart on the same address); a free one when omitted. */
  port?: number;
}

export interface RunningServer {
  baseUrl: string;
  port: number;
  dataDir: string;
  /** The server's stdout and stderr so far (last 200 lines). */
  logs(): string[];
  /** The last health answer seen. */
  health: HealthBody;
  stop(): Promise<void>;
  /** Synchronous SIGKILL of the server's process group, for process 'exit' handlers. */
  killNow(): void;
  /** Calls back when the server exits on its own (not through stop()), with the reason. */
  onUnexpectedExit(listener: (reason: string) => void): void;
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      if (address === null || typeof address === 'string') {
        probe.close();
        reject(new Error('could not read the probe port'));
        return;
      }
      const { port } = address;
      probe.close(() => resolvePort(port));
    });
  });
}

export function freshDataDir(prefix = 'raidmap-e2e-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function fetchHealth(baseUrl: string): Promise<HealthBody | null> {
  try {
    const response = await fetch(`${baseUrl}/api/be/health`, { signal: AbortSignal.timeout(2000) });
    if (!response.ok) return null;
    return (await response.json()) as HealthBody;
  } catch {
    return null;
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolveStop) => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) {
      resolveStop();
      return;
    }
    const pid = child.pid;
    const kill = (signal: NodeJS.Signals) => {
      try {
        // The child leads its own process group (detached): this reaches tsx and its node child.
        process.kill(-pid, signal);
      } catch {
        try {
          child.kill(signal);
        } catch {
          // already gone
        }
      }
    };
    const hard = setTimeout(() => kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(hard);
      resolveStop();
    });
    kill('SIGTERM');
  });
}

export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const repoRoot = resolve(options.repoRoot);
  const entry = join(repoRoot, 'server', 'main.ts');
  if (!existsSync(entry)) {
    throw new Error(`server entry ${entry} does not exist: the server has not been written yet`);
  }
  const tsx = join(repoRoot, 'node_modules', '.bin', 'tsx');
  if (!existsSync(tsx)) throw new Error(`${tsx} is missing: run npm ci first`);

  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? freshDataDir();
  const host = '127.0.0.1';
  const baseUrl = `http://${host}:${port}`;
  const lines: string[] = [];
  // Whole lines only: a chunk may end in the middle of one (a JSON log line cut in two parses as neither).
  const partial = { stdout: '', stderr: '' };
  const keeper = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
    const parts = (partial[stream] + chunk.toString('utf8')).split('\n');
    partial[stream] = parts.pop() ?? '';
    for (const line of parts) {
      if (line.trim() === '') continue;
      lines.push(line);
      // At LOG_LEVEL=info every request adds a line: enough kept for the start-up's.
      if (lines.length > 2000) lines.shift();
    }
  };

  const child = spawn(tsx, [entry], {
    cwd: repoRoot,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: host, DATA_DIR: dataDir, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout?.on('data', keeper('stdout'));
  child.stderr?.on('data', keeper('stderr'));
  let exited: string | null = null;
  child.on('exit', (code, signal) => {
    exited = `exited with ${signal ?? `code ${code}`}`;
  });

  let stopping = false;
  const stop = () => {
    stopping = true;
    return stopChild(child);
  };
  const fail = async (why: string): Promise<never> => {
    await stop();
    throw new Error(`raidmap server at ${baseUrl} ${why}\n--- server output ---\n${lines.join('\n')}`);
  };

  const startDeadline = Date.now() + (options.startTimeoutMs ?? 90_000);
  let health: HealthBody | null = null;
  while (health === null) {
    if (exited !== null) return fail(exited);
    if (Date.now() > startDeadline) return fail('did not answer /api/be/health in time');
    health = await fetchHealth(baseUrl);
    if (health === null) await sleep(250);
  }
  if (health.status !== 'ok') return fail(`health says ${JSON.stringify(health)}`);

  const tilesDeadline = Date.now() + (options.tilesTimeoutMs ?? 0);
  while (!health.tiles?.ready && Date.now() < tilesDeadline) {
    if (exited !== null) return fail(exited);
    await sleep(500);
    health = (await fetchHealth(baseUrl)) ?? health;
  }

  const running: RunningServer = {
    baseUrl,
    port,
    dataDir,
    logs: () => [...lines],
    health,
    stop,
    onUnexpectedExit: (listener) => {
      child.on('exit', (code, signal) => {
        if (!stopping) listener(`exited with ${signal ?? `code ${code}`}`);
      });
    },
    killNow: () => {
      if (child.pid === undefined || child.exitCode !== null) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    },
  };
  return running;
}
