/**
 * Start-up is idempotent: a second start on the same DATA_DIR reuses the database (no second
 * seeding, the same markers), and a start on tiles already cut rewrites none of them.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { PREBUILT_MAX_Z } from '../src/domain/tiles';
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

/** Path → modification time of every prebuilt tile (z ≤ PREBUILT_MAX_Z): {map}/{version}/{layer}/{z}/... */
function prebuiltTiles(tilesDir: string): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (dir: string, depth: number) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth === 3 && !(Number(entry.name) <= PREBUILT_MAX_Z)) continue;
        walk(path, depth + 1);
      } else if (depth >= 4) {
        out.set(path, statSync(path).mtimeMs);
      }
    }
  };
  walk(tilesDir, 0);
  return out;
}

describe('restarting the server', () => {
  test('reuses the database, and rewrites no tile already cut', async () => {
    // Tiles the global server already cut, shared by both starts.
    const tilesDir = inject('tilesDir');
    const before = prebuiltTiles(tilesDir);
    expect(before.size).toBeGreaterThan(100);
    const env = { SEED_MAPS: 'factory', TILES_DIR: tilesDir };

    server = await startServer({ repoRoot, dataDir, env, tilesTimeoutMs: 120_000 });
    expect(server.health.tiles.ready).toBe(true);
    const first = await markerUids(server.baseUrl, 'factory');
    expect(first.length).toBeGreaterThanOrEqual(300);
    await server.stop();

    server = await startServer({ repoRoot, dataDir, env, tilesTimeoutMs: 120_000 });
    expect(server.health.tiles.ready).toBe(true);
    expect(server.health.tiles.done).toBe(server.health.tiles.total);
    const second = await markerUids(server.baseUrl, 'factory');
    // Same markers, no second seeding (which would add new uids or duplicates).
    expect(second).toEqual(first);

    const after = prebuiltTiles(tilesDir);
    const rewritten = [...before].filter(([path, mtime]) => after.get(path) !== mtime).map(([path]) => path);
    expect(rewritten.slice(0, 5), `${rewritten.length} prebuilt tiles rewritten or removed`).toEqual([]);
  }, 300_000);
});
