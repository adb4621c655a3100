// @vitest-environment jsdom
/**
 * The markers worker started before React's first render (issue 11): it parses the early
 * compact list as it arrives, the map page takes it once, and an untaken one is closed.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

const bytes = new ArrayBuffer(8);
const loads: unknown[][] = [];
const disposed: number[] = [];
let sources = 0;
let spawnFails = false;
vi.mock('../../api/tiles', async (original) => ({
  ...(await original<typeof import('../../api/tiles')>()),
  fetchTileManifest: (mapId: string) => Promise.resolve({ map: mapId }),
}));
vi.mock('../../api/markers', () => ({ fetchCompactMarkers: () => Promise.resolve(bytes) }));
vi.mock('./engineModule', () => ({ loadEngineModule: () => Promise.resolve({}) }));
vi.mock('./poster', () => ({ showPoster: () => true, discardHtmlPoster: () => undefined }));
vi.mock('./markerSource', () => ({
  createMarkerSource: () => {
    if (spawnFails) throw new Error('Worker is not defined');
    const id = ++sources;
    return {
      id,
      load: (...args: unknown[]) => (loads.push(args), Promise.resolve({ count: 3, format: 'compact' })),
      dispose: () => disposed.push(id),
    };
  },
}));

const { startEarlyMapLoad, takeEarlyCompact, takeEarlyMarkers } = await import('./earlyLoad');

describe('the early markers worker', () => {
  afterEach(() => {
    vi.useRealTimers();
    loads.length = 0;
    disposed.length = 0;
    spawnFails = false;
  });

  it('starts with the page, loads the early list into the worker, and is taken once, in its language only', async () => {
    startEarlyMapLoad('/map/customs', 'ru');
    expect(takeEarlyMarkers('customs', 'en')).toBeUndefined();
    const early = takeEarlyMarkers('customs', 'ru');
    expect(early).toBeDefined();
    await expect(early!.loaded).resolves.toEqual({ count: 3, format: 'compact' });
    expect(loads).toEqual([[bytes, 'customs', 'ru']]);
    expect(takeEarlyMarkers('customs', 'ru')).toBeUndefined();
    // The worker has the list: no raw request is left for the page.
    expect(takeEarlyCompact('customs', 'ru')).toBeUndefined();
    early!.source.dispose();
  });

  it('is closed when the page does not take it within a minute', async () => {
    vi.useFakeTimers();
    startEarlyMapLoad('/map/woods', 'en');
    const id = sources;
    await vi.advanceTimersByTimeAsync(59_000);
    expect(disposed).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(disposed).toEqual([id]);
    expect(takeEarlyMarkers('woods', 'en')).toBeUndefined();
  });

  it('is not closed once taken', async () => {
    vi.useFakeTimers();
    startEarlyMapLoad('/map/factory', 'en');
    const early = takeEarlyMarkers('factory', 'en');
    await vi.advanceTimersByTimeAsync(120_000);
    expect(disposed).toEqual([]);
    expect(early).toBeDefined();
  });

  it('where no worker can start, leaves the raw list for the page (which makes its own worker and says why)', async () => {
    spawnFails = true;
    startEarlyMapLoad('/map/lab', 'en');
    expect(takeEarlyMarkers('lab', 'en')).toBeUndefined();
    await expect(takeEarlyCompact('lab', 'en')).resolves.toBe(bytes);
  });
});
