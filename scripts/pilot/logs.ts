/**
 * The log follower: the game writes a `log_<date>_<version>` folder per session under its Logs
 * folder; its `*application*.log` files name the location of each raid
 * (`TRACE-NetworkGameCreate … Location: bigmap`). Every `pollMs` the follower:
 *
 * - takes the newest `log_*` folder (a newer one appearing means a new game session: it
 *   switches to it and reads it from the start);
 * - reads the bytes appended to each application log since the last offset, keeping a partial
 *   last line until its end is written;
 * - starts over a file that shrank (truncated) or was replaced (another file identity);
 * - reports the map of each raid-start line.
 *
 * It polls rather than waiting for change events: the game keeps its logs open and appends to
 * them, and change events for such files are late or missing on Windows; a stat per file per
 * second costs nothing. On start it reads what is already in the newest folder but reports only
 * the last map found there (the raid in progress, if any), not the whole session's history.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { isApplicationLog, mapIdFromLogLine, newestLogFolder } from '../../src/domain/game-log';
import type { MapId } from '../../src/domain/maps';
import { wait } from './wait';

export interface LogFollowerOptions {
  /** The game's Logs folder (holding the log_* folders). */
  dir: string;
  onMap: (map: MapId, line: string) => void;
  log: (line: string) => void;
  pollMs?: number;
}

interface FollowedFile {
  offset: number;
  decoder: StringDecoder;
  partial: string;
}

/** Bytes read per read call; a long backlog is read in several. */
const CHUNK = 64 * 1024;
/** Longest line kept while waiting for its end. */
const MAX_LINE = 1024 * 1024;

export class LogFollower {
  private readonly controller = new AbortController();
  private readonly dir: string;
  private folder: string | null = null;
  /** Followed files by identity. */
  private files = new Map<string, FollowedFile>();
  private loop: Promise<void> | null = null;
  private toldMissing = false;
  /** Polls done so far (tests wait on it). */
  polls = 0;

  constructor(private readonly options: LogFollowerOptions) {
    this.dir = path.resolve(options.dir);
  }

  /** The log folder followed now (its name), or null. */
  get currentFolder(): string | null {
    return this.folder;
  }

  start(): void {
    this.loop ??= this.run();
  }

  async close(): Promise<void> {
    this.controller.abort();
    await this.loop;
  }

  private async run(): Promise<void> {
    const { signal } = this.controller;
    let first = true;
    while (!signal.aborted) {
      try {
        await this.poll(first);
        first = false;
      } catch (error) {
        this.options.log(`game logs: ${(error as Error).message}`);
      }
      this.polls++;
      await wait(this.options.pollMs ?? 1000, signal);
    }
  }

  /** One look at the logs. On the first (`catchUp`), only the last map already written is reported. */
  async poll(catchUp = false): Promise<void> {
    let names: string[];
    try {
      names = (await fs.readdir(this.dir, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    } catch {
      if (!this.toldMissing) this.options.log(`game logs folder ${this.dir} not found; waiting for it`);
      this.toldMissing = true;
      return;
    }
    if (this.toldMissing || (catchUp && this.folder === null)) this.options.log(`following game logs in ${this.dir}`);
    this.toldMissing = false;
    const newest = newestLogFolder(names);
    if (newest === null) return;
    if (newest !== this.folder) {
      if (this.folder !== null) this.options.log(`new game session: ${newest}`);
      this.folder = newest;
      this.files = new Map();
    }

    const folderPath = path.join(this.dir, newest);
    let logs: string[];
    try {
      logs = (await fs.readdir(folderPath)).filter(isApplicationLog).sort();
    } catch {
      return; // removed meanwhile: the next poll finds the newest again
    }
    let lastMap: { map: MapId; line: string } | null = null;
    const seen = new Set<string>();
    for (const name of logs) {
      await this.readNew(path.join(folderPath, name), seen, (line) => {
        const map = mapIdFromLogLine(line);
        if (map === null) return;
        if (catchUp) lastMap = { map, line };
        else this.options.onMap(map, line);
      });
      if (this.controller.signal.aborted) return;
    }
    // Forget files gone from the folder (a file renamed by rotation is still known by identity).
    for (const identity of this.files.keys()) if (!seen.has(identity)) this.files.delete(identity);
    if (lastMap !== null) {
      const { map, line } = lastMap;
      this.options.onMap(map, line);
    }
  }

  /**
   * Reads the complete lines appended to `file` since the last call. Files are known by identity
   * (device and inode; Windows gives a file index there), not name: a log renamed by rotation
   * goes on from where it was, and a new file under an old name is read from its start.
   */
  private async readNew(file: string, seen: Set<string>, onLine: (line: string) => void): Promise<void> {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(file, 'r');
    } catch {
      return;
    }
    try {
      const stats = await handle.stat();
      const identity = stats.ino ? `${stats.dev}:${stats.ino}` : `path:${file}`;
      seen.add(identity);
      let followed = this.files.get(identity);
      if (!followed || stats.size < followed.offset) {
        // New, or truncated: read it from the start.
        followed = { offset: 0, decoder: new StringDecoder('utf8'), partial: '' };
        this.files.set(identity, followed);
      }
      const buffer = Buffer.alloc(CHUNK);
      while (followed.offset < stats.size) {
        const { bytesRead } = await handle.read(buffer, 0, Math.min(CHUNK, stats.size - followed.offset), followed.offset);
        if (bytesRead === 0) break;
        followed.offset += bytesRead;
        const text = followed.partial + followed.decoder.write(buffer.subarray(0, bytesRead));
        const lines = text.split('\n');
        followed.partial = lines.pop() ?? '';
        // A "line" that never ends is no log line: do not hold it all in memory.
        if (followed.partial.length > MAX_LINE) followed.partial = '';
        for (const line of lines) onLine(line.replace(/\r$/, ''));
      }
    } finally {
      await handle.close();
    }
  }
}
