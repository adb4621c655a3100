import { beforeEach, describe, expect, it, vi } from 'vitest';

const calls: string[] = [];
vi.mock('../../api/tiles', () => ({ fetchTileManifest: (mapId: string) => (calls.push(`manifest ${mapId}`), Promise.resolve({ map: mapId })) }));
vi.mock('../../api/markers', () => ({
  fetchCompactMarkers: (mapId: string, lang: string) => (calls.push(`compact ${mapId} ${lang}`), Promise.reject(new Error('offline'))),
}));
vi.mock('./engineModule', () => ({ loadEngineModule: () => (calls.push('engine'), Promise.resolve({})) }));

const { startEarlyMapLoad, takeEarlyCompact, takeEarlyManifest } = await import('./earlyLoad');

describe('early map load (issue 11)', () => {
  beforeEach(() => {
    calls.length = 0;
  });

  it('starts nothing off a map address or for an unknown map', () => {
    for (const path of ['/', '/progression/quests', '/map/atlantis', '/map/customs/extra']) startEarlyMapLoad(path, 'en');
    expect(calls).toEqual([]);
    expect(takeEarlyManifest('customs')).toBeUndefined();
  });

  it("starts a map's engine chunk, manifest and compact list, each taken once, in its language only", async () => {
    startEarlyMapLoad('/map/customs', 'ru');
    expect(calls).toEqual(['engine', 'manifest customs', 'compact customs ru']);
    expect(takeEarlyCompact('customs', 'en')).toBeUndefined();
    expect(takeEarlyManifest('woods')).toBeUndefined();
    await expect(takeEarlyManifest('customs')).resolves.toEqual({ map: 'customs' });
    expect(takeEarlyManifest('customs')).toBeUndefined();
    // A failed early request fails the page's read, which shows its error and offers "Try again".
    await expect(takeEarlyCompact('customs', 'ru')).rejects.toThrow('offline');
    expect(takeEarlyCompact('customs', 'ru')).toBeUndefined();
  });
});
