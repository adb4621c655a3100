/**
 * One render of a thing at a time across server processes that share a tile folder (a local
 * disk, or a shared volume several hosts mount): a lock file created with O_EXCL beside the
 * tiles. Within one process the store already shares a render between requests (its
 * in-flight map); this covers the other processes.
 *
 *   renderOnce(lock, { reuse, render })
 *     ├─ create lock (O_EXCL) ── ok ─ reuse()? (finished elsewhere meanwhile) ─ else render()
 *     │                               └─ heartbeat: touch the lock every staleMs/3 ─ release
 *     └─ exists ─ wait until it is gone (or stale: its holder died) ─ reuse()? ─ else try again
 *
 * `reuse` reads what a finished render left (the tiles, written by atomic renames, so a
 * reader never sees half a file) and answers undefined while anything is missing. A lock not
 * touched for `staleMs` belongs to a process that died (kill -9, a lost host): the next waiter
 * removes it and renders. After `maxWaitMs` of waiting a caller renders without the lock
 * rather than fail (two renders write the same bytes; the renames keep every file whole).
 */
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface RenderLockOptions {
  /** A lock untouched this long is taken to be a dead process's (ms). Default 20,000. */
  staleMs?: number;
  /** Longest wait for another process's render before rendering anyway (ms). Default 120,000. */
  maxWaitMs?: number;
}

export interface RenderOnceWork<T> {
  /** The finished result on disk, or undefined when it is not (all) there. */
  reuse: () => Promise<T | undefined>;
  /** Makes the result (and writes it where `reuse` finds it). */
  render: () => Promise<T>;
}

export const DEFAULT_STALE_MS = 20_000;
export const DEFAULT_MAX_WAIT_MS = 120_000;

/** What the locks of this process did (tests, logs). */
export const renderLockStats = {
  /** Renders made under a lock this process took. */
  rendered: 0,
  /** Waits for a lock another process (or store) held. */
  waited: 0,
  /** Results read from disk instead of rendering (another process made them). */
  reused: 0,
  /** Stale locks removed (their holder died). */
  staleRemoved: 0,
  /** Renders made without the lock after waiting maxWaitMs. */
  gaveUpWaiting: 0,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface HeldLock {
  release(): Promise<void>;
}

/** Creates the lock file if nobody holds it; undefined when it exists already. */
async function tryLock(file: string, staleMs: number): Promise<HeldLock | undefined> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const token = `${os.hostname()} ${process.pid} ${randomUUID()}\n`;
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw error;
  }
  try {
    await handle.writeFile(token);
  } finally {
    await handle.close();
  }
  // The heartbeat: a long render keeps its lock fresh, so nobody takes it for a dead one.
  const beat = setInterval(() => {
    const now = new Date();
    fs.utimes(file, now, now).catch(() => undefined);
  }, Math.max(10, Math.floor(staleMs / 3)));
  beat.unref();
  return {
    async release() {
      clearInterval(beat);
      // Only our own lock: after a stale takeover the file may be another process's.
      const content = await fs.readFile(file, 'utf8').catch(() => undefined);
      if (content === token) await fs.unlink(file).catch(() => undefined);
    },
  };
}

/** Waits until `file` is gone, removing it if stale; returns at `deadline` regardless. */
async function waitUntilFree(file: string, staleMs: number, deadline: number): Promise<void> {
  let delay = 20;
  for (;;) {
    let stat;
    try {
      stat = await fs.stat(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    if (Date.now() - stat.mtimeMs > staleMs) {
      // Its holder stopped touching it: remove it, if it is still that same file.
      const again = await fs.stat(file).catch(() => undefined);
      if (again && again.ino === stat.ino && again.mtimeMs === stat.mtimeMs) {
        await fs.unlink(file).catch(() => undefined);
        renderLockStats.staleRemoved++;
      }
      return;
    }
    if (Date.now() >= deadline) return;
    await sleep(delay);
    delay = Math.min(200, delay * 2);
  }
}

/**
 * Runs `work.render()` unless another process is rendering the same thing (holding
 * `lockFile`), in which case waits for it and answers `work.reuse()`.
 */
export async function renderOnce<T>(lockFile: string, work: RenderOnceWork<T>, options: RenderLockOptions = {}): Promise<T> {
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const deadline = Date.now() + (options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS);
  for (;;) {
    const lock = await tryLock(lockFile, staleMs);
    if (lock) {
      try {
        // Another process may have finished between our look at the disk and taking the lock.
        const done = await work.reuse();
        if (done !== undefined) {
          renderLockStats.reused++;
          return done;
        }
        renderLockStats.rendered++;
        return await work.render();
      } finally {
        await lock.release();
      }
    }
    renderLockStats.waited++;
    await waitUntilFree(lockFile, staleMs, deadline);
    const done = await work.reuse();
    if (done !== undefined) {
      renderLockStats.reused++;
      return done;
    }
    if (Date.now() >= deadline) {
      renderLockStats.gaveUpWaiting++;
      return work.render();
    }
    // Free (the other render failed, or its holder died): try to take it ourselves.
  }
}

/** The contents of every file, or undefined when any is missing. */
export async function readAll(files: readonly string[]): Promise<Buffer[] | undefined> {
  try {
    return await Promise.all(files.map((file) => fs.readFile(file)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
