import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Marker } from '../../src/domain/marker';
import { buildServer } from '../app';
import { createRepositories, migrateToLatest, type Db, type Repositories } from '../db';
import { seedIfEmpty } from '../seed';
import { tempDir, testBackends } from '../testing/databases';

describe.each(testBackends())('GET /api/be/quests/maps on $name', (backend) => {
  let app: FastifyInstance;
  let db: Db;
  let repos: Repositories;
  let root: string;

  beforeAll(async () => {
    root = tempDir();
    db = await backend.open();
    await migrateToLatest(db);
    repos = createRepositories(db);
    await seedIfEmpty(db, repos, { maps: ['customs', 'factory'], markersPerMap: 320, uploadsDir: path.join(root, 'uploads') });
    app = buildServer({ db, repos, uploadsDir: path.join(root, 'uploads'), distDir: path.join(root, 'dist'), tiles: false });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    await db.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  async function markersOf(map: string): Promise<Marker[]> {
    return ((await app.inject({ url: `/api/be/markers/list?map=${map}` })).json() as { markers: Marker[] }).markers;
  }

  it('lists, for each quest, exactly the maps where it has markers, with an ETag', async () => {
    const res = await app.inject({ url: '/api/be/quests/maps' });
    expect(res.statusCode).toBe(200);
    const { maps } = res.json() as { maps: Record<string, string[]> };

    const expected = new Map<string, Set<string>>();
    for (const map of ['customs', 'factory']) {
      for (const m of await markersOf(map)) if (m.questUid) (expected.get(m.questUid) ?? expected.set(m.questUid, new Set()).get(m.questUid)!).add(map);
    }
    expect(expected.size).toBeGreaterThan(0);
    expect(Object.keys(maps).sort()).toEqual([...expected.keys()].sort());
    for (const [uid, set] of expected) expect(maps[uid]).toEqual([...set].sort());

    const { quests } = (await app.inject({ url: '/api/be/quests' })).json() as { quests: { uid: string }[] };
    const known = new Set(quests.map((q) => q.uid));
    expect(Object.keys(maps).every((uid) => known.has(uid))).toBe(true);

    const cached = await app.inject({ url: '/api/be/quests/maps', headers: { 'if-none-match': res.headers.etag as string } });
    expect(cached.statusCode).toBe(304);
  });

  it('follows marker changes', async () => {
    const before = (await app.inject({ url: '/api/be/quests/maps' })).json() as { maps: Record<string, string[]> };
    const customsOnly = Object.entries(before.maps).find(([, list]) => list.length === 1 && list[0] === 'customs');
    expect(customsOnly).toBeDefined();
    const [questUid] = customsOnly!;
    const factoryMarker = (await markersOf('factory')).find((m) => !m.questUid)!;
    await repos.markers.update({ ...factoryMarker, questUid });
    // Rebuilt in the background: a read 100 ms after a write has it (server/http/json-cache.ts).
    await new Promise((resolve) => setTimeout(resolve, 110));

    const after = (await app.inject({ url: '/api/be/quests/maps' })).json() as { maps: Record<string, string[]> };
    expect(after.maps[questUid]).toEqual(['customs', 'factory']);
  });
});
