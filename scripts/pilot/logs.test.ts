import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MapId } from '../../src/domain/maps';
import { LogFollower } from './logs';
import { cleanupTempDirs, tempDir, waitFor } from './test-helpers';

const raid = (location: string) => `2025-03-14 19:07:12.345|0.16.1.3|Info|application|TRACE-NetworkGameCreate profileStatus: 'Profileid: x, Status: Busy, RaidMode: Online, Ip: 1.2.3.4, Port: 17000, Location: ${location}, Sid: y, GameMode: deathmatch'\n`;
const other = '2025-03-14 19:07:10.000|0.16.1.3|Info|application|Something else happened\n';

const followers: LogFollower[] = [];
afterEach(async () => {
  await Promise.all(followers.splice(0).map((f) => f.close()));
  cleanupTempDirs();
});

function follow(dir: string) {
  const maps: MapId[] = [];
  const lines: string[] = [];
  const follower = new LogFollower({ dir, pollMs: 20, onMap: (map) => maps.push(map), log: (line) => lines.push(line) });
  followers.push(follower);
  return { follower, maps, lines };
}

describe('LogFollower', () => {
  it('follows the newest log folder: only the raid in progress at start, then each appended raid line', async () => {
    const logs = tempDir();
    const old = path.join(logs, 'log_2025.03.13_18-00-00_0.16.1.3.35392');
    const current = path.join(logs, 'log_2025.03.14_19-02-11_0.16.1.3.35392');
    fs.mkdirSync(old);
    fs.mkdirSync(current);
    fs.writeFileSync(path.join(old, '2025.03.13_18-00-00_0.16.1.3.35392 application_000.log'), raid('Lighthouse'));
    const app = path.join(current, '2025.03.14_19-02-11_0.16.1.3.35392 application_000.log');
    fs.writeFileSync(app, other + raid('bigmap') + raid('Woods') + other);
    fs.writeFileSync(path.join(current, '2025.03.14_19-02-11_0.16.1.3.35392 network-connection_000.log'), raid('Shoreline'));
    const { follower, maps } = follow(logs);
    follower.start();
    await waitFor(() => maps.length === 1, 4000, 'the catch-up map');
    expect(maps).toEqual(['woods']); // the last raid of the session, not its history
    expect(follower.currentFolder).toBe(path.basename(current));

    fs.appendFileSync(app, other + raid('RezervBase'));
    await waitFor(() => maps.length === 2, 4000, 'the appended raid');
    expect(maps).toEqual(['woods', 'reserve']);

    // A partial line is kept until its end is written.
    const line = raid('Interchange');
    fs.appendFileSync(app, line.slice(0, 60));
    const polls = follower.polls;
    await waitFor(() => follower.polls >= polls + 3, 4000, 'polls');
    expect(maps).toHaveLength(2);
    fs.appendFileSync(app, line.slice(60));
    await waitFor(() => maps.length === 3, 4000, 'the completed line');
    expect(maps[2]).toBe('interchange');
  });

  it('switches to a new log folder (a new game session) and reads it from its start', async () => {
    const logs = tempDir();
    const first = path.join(logs, 'log_2025.03.14_19-02-11_0.16.1.3.35392');
    fs.mkdirSync(first);
    fs.writeFileSync(path.join(first, 'application.log'), raid('factory4_day'));
    const { follower, maps, lines } = follow(logs);
    follower.start();
    await waitFor(() => maps.length === 1, 4000, 'the first map');
    const next = path.join(logs, 'log_2025.03.14_21-30-00_0.16.1.3.35392');
    fs.mkdirSync(next);
    fs.writeFileSync(path.join(next, 'application.log'), raid('TarkovStreets') + raid('Sandbox_high'));
    await waitFor(() => maps.length === 3, 4000, 'the new session');
    expect(maps).toEqual(['factory', 'streets', 'ground-zero']);
    expect(lines.some((l) => l.includes('new game session'))).toBe(true);
  });

  it('goes on across rotation (renamed file) and reads a truncated file from its start', async () => {
    const logs = tempDir();
    const folder = path.join(logs, 'log_2025.03.14_19-02-11_0.16.1.3.35392');
    fs.mkdirSync(folder);
    const app = path.join(folder, 'application.log');
    fs.writeFileSync(app, other);
    const { follower, maps } = follow(logs);
    follower.start();
    await waitFor(() => follower.polls >= 2, 4000, 'polls');
    expect(maps).toEqual([]);

    // Rotation: the log is renamed and a new one begins under the old name.
    fs.renameSync(app, path.join(folder, 'application.1.log'));
    fs.appendFileSync(path.join(folder, 'application.1.log'), raid('laboratory'));
    fs.writeFileSync(app, raid('Labyrinth'));
    await waitFor(() => maps.length === 2, 4000, 'both rotated files');
    expect(maps.sort()).toEqual(['lab', 'labyrinth']);

    // Truncated: read again from the start.
    fs.writeFileSync(app, raid('develop'));
    await waitFor(() => maps.length === 3, 4000, 'the truncated file');
    expect(maps[2]).toBe('dev');
  });

  it('waits for a Logs folder that does not exist yet', async () => {
    const root = tempDir();
    const logs = path.join(root, 'Logs');
    const { follower, maps, lines } = follow(logs);
    follower.start();
    await waitFor(() => lines.some((l) => l.includes('not found; waiting')), 4000, 'the waiting message');
    fs.mkdirSync(path.join(logs, 'log_2025.03.14_19-02-11_0.16.1.3.35392'), { recursive: true });
    fs.writeFileSync(path.join(logs, 'log_2025.03.14_19-02-11_0.16.1.3.35392', 'application.log'), raid('Shoreline'));
    await waitFor(() => maps.length === 1, 4000, 'the map');
    expect(maps).toEqual(['shoreline']);
  });
});
