/**
 * Start-up is idempotent: a second start on the same DATA_DIR reuses the database (no second
 * seeding, the same markers) and the tiles already cut (ready at once, nothing rebuilt).
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { freshDataDir, startServer, type RunningServer } from './support/server';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = freshDataDir('raidmap-e2e-restart-');
let server: RunningServer | undefined;

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function markerUids(base: string, mapId: string): Promise<string[]> {
  const response = await fetch(`${base}/api/be/markers/list?map=${mapId}`);
  expect(response.status).toBe(200);
  const { markers } = (await response.json()) as { markers: { uid: string }[] };
  return markers.map((m) => m.uid).sort();
}

describe('restarting the server', () => {
  test('reuses the database and the tiles', async () => {
    // The tiles the global server already cut: a start on them must find them ready.
    const env = { SEED_MAPS: 'factory', TILES_DIR: inject('tilesDir') };
    server = await startServer({ repoRoot, dataDir, env, tilesTimeoutMs: 30_000 });
    expect(server.health.tiles.ready).toBe(true);
    const first = await markerUids(server.baseUrl, 'factory');
    expect(first.length).toBeGreaterThanOrEqual(300);
    await server.stop();

    const restartedAt = Date.now();
    server = await startServer({ repoRoot, dataDir, env, tilesTimeoutMs: 30_000 });
    expect(server.health.tiles.ready).toBe(true);
    expect(server.health.tiles.done).toBe(server.health.tiles.total);
    expect(Date.now() - restartedAt).toBeLessThan(30_000);
    const second = await markerUids(server.baseUrl, 'factory');
    // Same markers, no second seeding (which would add new uids or duplicates).
    expect(second).toEqual(first);
  });
});
