// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { INLINE_MANIFEST_ID } from '../../domain/tiles';

const calls: string[] = [];
vi.mock('../../api/tiles', async (original) => ({
  ...(await original<typeof import('../../api/tiles')>()),
  fetchTileManifest: (mapId: string) => (calls.push(`manifest ${mapId}`), Promise.resolve({ map: mapId })),
}));
vi.mock('../../api/markers', () => ({
  fetchCompactMarkers: (mapId: string, lang: string) => (calls.push(`compact ${mapId} ${lang}`), Promise.reject(new Error('offline'))),
}));
vi.mock('./engineModule', () => ({ loadEngineModule: () => (calls.push('engine'), Promise.resolve({})) }));
vi.mock('./poster', () => ({
  showPoster: (map: { id: string }) => (calls.push(`poster ${map.id}`), true),
  discardHtmlPoster: () => calls.push('no poster'),
}));

const { startEarlyMapLoad, takeEarlyCompact, takeEarlyManifest } = await import('./earlyLoad');

describe('early map load (issue 11)', () => {
  beforeEach(() => {
    calls.length = 0;
  });

  it('starts nothing off a map address or for an unknown map (and shows no poster there)', () => {
    const paths = ['/', '/progression/quests', '/map/atlantis', '/map/customs/extra'];
    for (const path of paths) startEarlyMapLoad(path, 'en');
    expect(calls).toEqual(paths.map(() => 'no poster'));
    expect(takeEarlyManifest('customs')).toBeUndefined();
  });

  it("starts a map's engine chunk, manifest and compact list, each taken once, in its language only", async () => {
    startEarlyMapLoad('/map/customs', 'ru');
    expect(calls).toEqual(['engine', 'manifest customs', 'no poster', 'compact customs ru']);
    expect(takeEarlyCompact('customs', 'en')).toBeUndefined();
    expect(takeEarlyManifest('woods')).toBeUndefined();
    await expect(takeEarlyManifest('customs')).resolves.toEqual({ map: 'customs' });
    expect(takeEarlyManifest('customs')).toBeUndefined();
    // A failed early request fails the page's read, which shows its error and offers "Try again".
    await expect(takeEarlyCompact('customs', 'ru')).rejects.toThrow('offline');
    expect(takeEarlyCompact('customs', 'ru')).toBeUndefined();
  });

  describe('with the manifest in the page’s head', () => {
    const manifest = { map: 'customs', version: 'v1', tileSize: 256, minZ: 0, maxZ: 7, prebuiltMaxZ: 3, width: 4400, height: 3200, layers: ['main'], format: 'webp' };
    const inline = (value: unknown) => {
      const block = document.createElement('script');
      block.type = 'application/json';
      block.id = INLINE_MANIFEST_ID;
      block.textContent = typeof value === 'string' ? value : JSON.stringify(value);
      document.head.append(block);
    };
    afterEach(() => document.getElementById(INLINE_MANIFEST_ID)?.remove());

    it('takes it instead of asking, and shows the poster of the first view', async () => {
      inline(manifest);
      startEarlyMapLoad('/map/customs', 'en', '?quest=q1');
      expect(calls).toEqual(['engine', 'poster customs', 'compact customs en']);
      await expect(takeEarlyManifest('customs')).resolves.toEqual(manifest);
      await takeEarlyCompact('customs', 'en')?.catch(() => undefined);
    });

    it('shows no poster on the stream overlay (a see-through canvas)', async () => {
      inline(manifest);
      startEarlyMapLoad('/map/customs', 'en', '?overlay=1&zoom=2');
      expect(calls).toEqual(['engine', 'no poster', 'compact customs en']);
      await expect(takeEarlyManifest('customs')).resolves.toEqual(manifest);
      await takeEarlyCompact('customs', 'en')?.catch(() => undefined);
    });

    it('asks for it as before when the block is for another map or is not a manifest', async () => {
      for (const block of [{ ...manifest, map: 'woods' }, { ...manifest, layers: 'main' }, '{not json']) {
        calls.length = 0;
        inline(block);
        startEarlyMapLoad('/map/customs', 'en');
        expect(calls).toEqual(['engine', 'manifest customs', 'no poster', 'compact customs en']);
        await expect(takeEarlyManifest('customs')).resolves.toEqual({ map: 'customs' });
        await takeEarlyCompact('customs', 'en')?.catch(() => undefined);
        document.getElementById(INLINE_MANIFEST_ID)?.remove();
      }
    });
  });
});
