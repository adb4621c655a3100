import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlayerPosition } from '../../src/domain/position';
import { ScreenshotWatcher, type ScreenshotWatcherOptions } from './screenshots';
import { cleanupTempDirs, screenshotName, tempDir, waitFor } from './test-helpers';

const watchers: ScreenshotWatcher[] = [];
afterEach(async () => {
  await Promise.all(watchers.splice(0).map((w) => w.close()));
  cleanupTempDirs();
});

function watchDir(dir: string, options: Partial<ScreenshotWatcherOptions> = {}) {
  const positions: PlayerPosition[] = [];
  const files: string[] = [];
  const lines: string[] = [];
  let readyCount = 0;
  const watcher = new ScreenshotWatcher({
    dir,
    folderPollMs: 30,
    writeFinishMs: 30,
    onPosition: (position, file) => {
      positions.push(position);
      files.push(file);
    },
    onReady: () => readyCount++,
    log: (line) => lines.push(line),
    ...options,
  });
  watchers.push(watcher);
  watcher.start();
  return { watcher, positions, files, lines, ready: () => readyCount };
}

describe('ScreenshotWatcher', () => {
  it('reports a new screenshot at once, and ignores old ones and other files', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, screenshotName(1, 1)), 'old screenshot');
    const { positions, ready } = watchDir(dir);
    await waitFor(() => ready() === 1, 4000, 'ready');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'x');
    fs.writeFileSync(path.join(dir, '2025-03-14[19-07]_1 (0).png'), 'x');
    fs.writeFileSync(path.join(dir, `${screenshotName(2, 2)}.tmp`), 'x');
    fs.writeFileSync(path.join(dir, screenshotName(-153.2, 88.67, 2.41)), ''); // empty: only the name matters
    await waitFor(() => positions.length === 1, 4000, 'the position');
    expect(positions[0]).toEqual({ x: -153.2, y: 88.67, z: 2.41, look: 90 });
    // A file renamed into a screenshot name (as some writers do) is seen too. Its temp file was
    // written first, so it is given a later time, as a new screenshot has: older ones are skipped
    // by design, and whether the two writes above fell in one tick of the file system's clock
    // was up to the machine's load.
    const temp = path.join(dir, `${screenshotName(2, 2)}.tmp`);
    const later = new Date(fs.statSync(path.join(dir, screenshotName(-153.2, 88.67, 2.41))).mtimeMs + 1000);
    fs.utimesSync(temp, later, later);
    fs.renameSync(temp, path.join(dir, screenshotName(3, 3)));
    await waitFor(() => positions.length === 2, 4000, 'the renamed one');
    expect(positions[1].x).toBe(3);
  });

  it('waits for a folder that does not exist yet, and reports what appears in it', async () => {
    const root = tempDir();
    const dir = path.join(root, 'Escape from Tarkov', 'Screenshots');
    const { positions, lines, ready } = watchDir(dir);
    await waitFor(() => lines.some((l) => l.includes('does not exist yet')), 4000, 'the waiting message');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, screenshotName(10, 20)), 'x'); // maybe before the watch starts
    await waitFor(() => ready() === 1, 4000, 'ready');
    fs.writeFileSync(path.join(dir, screenshotName(11, 21)), 'x');
    await waitFor(() => positions.length === 2, 4000, 'both positions');
    expect(positions.map((p) => p.x)).toEqual([10, 11]);
  });

  it('reports a burst of 20 files, the newest last', async () => {
    const dir = tempDir();
    const { positions, ready } = watchDir(dir);
    await waitFor(() => ready() === 1, 4000, 'ready');
    const base = Date.now();
    for (let i = 0; i < 20; i++) {
      // Written under a temp name, then renamed (as many writers do), each with its own
      // modification time as screenshots taken one after another have.
      const temp = path.join(dir, `shot-${i}.tmp`);
      fs.writeFileSync(temp, 'x');
      fs.utimesSync(temp, new Date(base), new Date(base + i * 10));
      fs.renameSync(temp, path.join(dir, screenshotName(100 + i, 5, 1.5, i)));
    }
    await waitFor(() => positions.at(-1)?.x === 119, 4000, 'the newest position');
    // Each reported once; out-of-order listings may skip older ones, never report them last.
    const xs = positions.map((p) => p.x);
    expect(new Set(xs).size).toBe(xs.length);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
  });

  it('deletes each screenshot once read when asked to', async () => {
    const dir = tempDir();
    const { positions, ready } = watchDir(dir, { deleteAfterRead: true });
    await waitFor(() => ready() === 1, 4000, 'ready');
    const keep = path.join(dir, 'notes.txt');
    fs.writeFileSync(keep, 'mine');
    const shot = path.join(dir, screenshotName(7, 8));
    fs.writeFileSync(shot, 'x');
    await waitFor(() => positions.length === 1, 4000, 'the position');
    await waitFor(() => !fs.existsSync(shot), 4000, 'the deletion');
    expect(fs.existsSync(keep)).toBe(true);
  });

  it('waits again when the folder is removed, and watches it once it is back', async () => {
    const dir = path.join(tempDir(), 'shots');
    fs.mkdirSync(dir);
    const { positions, ready, lines } = watchDir(dir);
    await waitFor(() => ready() === 1, 4000, 'ready');
    fs.rmSync(dir, { recursive: true });
    await waitFor(() => lines.some((l) => l.includes('is gone')), 4000, 'the gone message');
    fs.mkdirSync(dir);
    await waitFor(() => ready() === 2, 4000, 'ready again');
    fs.writeFileSync(path.join(dir, screenshotName(4, 4)), 'x');
    await waitFor(() => positions.length === 1, 4000, 'the position');
  });
});
