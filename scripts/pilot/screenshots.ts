/**
 * The screenshot watcher: each new game screenshot's file NAME holds the player's position, so
 * a file is reported the moment it appears (chokidar's `add`), without waiting for the game to
 * finish writing the image (no awaitWriteFinish: that would add its stability time to every
 * position's latency).
 *
 * - Files with other names never get chokidar's attention (`ignored`).
 * - Screenshots already in the folder when the watcher starts are not reported
 *   (`ignoreInitial`). A folder that did not exist yet (no screenshot taken on this PC yet) is
 *   looked for every `folderPollMs` and watched once it appears; then the files already in it
 *   are new ones and are reported (those modified since the watcher started).
 * - A folder removed later is waited for again.
 * - A screenshot older (by modification time) than one already reported is skipped: files of a
 *   burst may be listed out of order, and the newest position must be the last one reported.
 * - With `deleteAfterRead`, a screenshot is deleted once the game has finished writing it (its
 *   size stopped changing): deleting a file being written fails on Windows.
 */
import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { positionFromScreenshotFile } from '../../src/domain/pilot-watcher';
import type { PlayerPosition } from '../../src/domain/position';
import { wait } from './wait';

export interface ScreenshotWatcherOptions {
  dir: string;
  onPosition: (position: PlayerPosition, file: string) => void;
  log: (line: string) => void;
  /** The folder is watched (new files are seen from now on); called on each (re)start of the watch. */
  onReady?: (dir: string) => void;
  /** The folder does not exist (yet, or any more); called each time the watcher starts waiting. */
  onWaiting?: (dir: string) => void;
  /** Delete each screenshot once its position is read. */
  deleteAfterRead?: boolean;
  /** How often to look for a missing folder, or whether the watched one is still there (ms). */
  folderPollMs?: number;
  /** Before deleting, a file is written once its size has not changed for this long (ms). */
  writeFinishMs?: number;
  /** Files modified before this time (epoch ms) are old screenshots, never reported. Default: now. */
  since?: number;
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await fs.stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

/** Tries to delete a file this many times (a game or an antivirus may hold it open for a moment). */
const DELETE_ATTEMPTS = 5;

export class ScreenshotWatcher {
  private readonly controller = new AbortController();
  private readonly dir: string;
  private readonly since: number;
  private newestMtime = Number.NEGATIVE_INFINITY;
  private loop: Promise<void> | null = null;
  private readonly deletions = new Set<Promise<void>>();
  /** Whether the folder is being watched right now (ready: new files are seen). */
  watching = false;
  /** Screenshots reported so far. */
  reported = 0;

  constructor(private readonly options: ScreenshotWatcherOptions) {
    this.dir = path.resolve(options.dir);
    this.since = options.since ?? Date.now();
  }

  get folder(): string {
    return this.dir;
  }

  start(): void {
    this.loop ??= this.run();
  }

  async close(): Promise<void> {
    this.controller.abort();
    await this.loop;
    await Promise.all(this.deletions);
  }

  private async run(): Promise<void> {
    const { signal } = this.controller;
    const pollMs = this.options.folderPollMs ?? 1000;
    let waited = false;
    let told = false;
    while (!signal.aborted) {
      if (!(await isDirectory(this.dir))) {
        if (!told) {
          this.options.log(`screenshots folder ${this.dir} does not exist yet; waiting for it`);
          this.options.onWaiting?.(this.dir);
        }
        told = true;
        waited = true;
        await wait(pollMs, signal);
        continue;
      }
      told = false;
      // A folder that appeared while we waited holds only new screenshots: report them.
      const gone = await this.watchFolder(waited, pollMs);
      if (gone && !signal.aborted) {
        this.options.log(`screenshots folder ${this.dir} is gone; waiting for it`);
        this.options.onWaiting?.(this.dir);
        told = true;
        waited = true;
      }
    }
  }

  /** Watches the existing folder until it is removed (true) or the watcher is closed (false). */
  private watchFolder(reportExisting: boolean, pollMs: number): Promise<boolean> {
    const { signal } = this.controller;
    return new Promise<boolean>((resolve) => {
      const watcher: FSWatcher = watch(this.dir, {
        depth: 0,
        alwaysStat: true,
        ignoreInitial: !reportExisting,
        awaitWriteFinish: false,
        // Other files never get chokidar's attention.
        ignored: (file: string) => path.resolve(file) !== this.dir && positionFromScreenshotFile(file) === null,
      });
      let ready = false;
      let finished = false;
      let check: ReturnType<typeof setInterval> | null = null;
      const finish = (gone: boolean) => {
        if (finished) return;
        finished = true;
        signal.removeEventListener('abort', onAbort);
        if (check !== null) clearInterval(check);
        this.watching = false;
        void watcher.close().then(
          () => resolve(gone),
          () => resolve(gone),
        );
      };
      const onAbort = () => finish(false);
      signal.addEventListener('abort', onAbort, { once: true });
      // chokidar does not say the same thing on every OS when the watched folder goes: look.
      const stillThere = () => void isDirectory(this.dir).then((exists) => !exists && finish(true));

      watcher.on('add', (file: string, stats?: Stats) => {
        if (finished) return;
        // Before 'ready' come the files already there (only when reportExisting): new since the start?
        if (!ready && (stats?.mtimeMs ?? 0) < this.since) return;
        this.found(file, stats);
      });
      watcher.on('unlinkDir', (dir: string) => {
        if (path.resolve(dir) === this.dir) finish(true);
      });
      watcher.on('error', (error: unknown) => {
        if (finished) return;
        this.options.log(`screenshots folder: ${(error as Error).message}`);
        stillThere();
      });
      watcher.on('ready', () => {
        ready = true;
        // The folder may have gone between the check and the watch.
        void isDirectory(this.dir).then((exists) => {
          if (finished) return;
          if (!exists) return finish(true);
          this.watching = true;
          check = setInterval(stillThere, pollMs);
          this.options.onReady?.(this.dir);
        });
      });
    });
  }

  private found(file: string, stats: Stats | undefined): void {
    if (this.controller.signal.aborted) return;
    const position = positionFromScreenshotFile(file);
    if (position === null) return;
    const mtime = stats?.mtimeMs;
    if (mtime !== undefined) {
      if (mtime < this.newestMtime) return;
      this.newestMtime = mtime;
    }
    this.reported++;
    this.options.onPosition(position, file);
    if (this.options.deleteAfterRead) {
      const deletion = this.deleteWhenWritten(file);
      this.deletions.add(deletion);
      void deletion.finally(() => this.deletions.delete(deletion));
    }
  }

  /** Deletes the file once its size and time stopped changing for `writeFinishMs`. */
  private async deleteWhenWritten(file: string): Promise<void> {
    const ms = this.options.writeFinishMs ?? 300;
    const signal = this.controller.signal;
    let previous: Stats | null = null;
    for (;;) {
      let current: Stats;
      try {
        current = await fs.stat(file);
      } catch {
        return; // gone already
      }
      if (previous && previous.size === current.size && previous.mtimeMs === current.mtimeMs) break;
      previous = current;
      await wait(ms, signal);
      if (signal.aborted) return;
    }
    for (let attempt = 1; ; attempt++) {
      try {
        await fs.rm(file, { force: true });
        return;
      } catch (error) {
        if (attempt >= DELETE_ATTEMPTS || signal.aborted) {
          this.options.log(`could not delete ${path.basename(file)}: ${(error as Error).message}`);
          return;
        }
        await wait(ms * attempt, signal);
      }
    }
  }
}
