/**
 * The first view's tiles, fetched and decoded before the engine's chunk has run (issue 11).
 *
 * The map is ready when the first view's tiles are drawn, and on a cold load they arrived last:
 * the tile worker started with the engine, after its chunk had loaded and run, and its fetches
 * and decodes then took 300 ms more (docs/PERFORMANCE.md, "First paint, fourth session"). The
 * page's early load (src/ui/map/earlyLoad.ts) now starts the tile worker with the page and asks
 * it for the tiles the engine's first view will want (the same camera and tile math, at the
 * engine's level); the engine takes the worker and these requests when it starts.
 *
 * A request the engine takes is its own from then on (its abort cancels it in the worker); the
 * ones it never asks for are released once the map is ready: cancelled, or closed as they come.
 * No PixiJS here: this module is part of the page's first script.
 *
 * Where the first view's level is prebuilt, its tiles come in one tile bundle, as in the render
 * worker (`tile-bundle-fetch.ts`; each tile decoded off the main thread by createImageBitmap,
 * every other tile from the tile worker). A page that starts on a replaced drawing's version
 * (its HTML or manifest read just before the switch, docs/TILES.md) then loses one request, not
 * the first view's tiles one by one: the bundle's 404 fails each tile as its own 404 would, and
 * the tile layer reads the manifest and asks for the new version. Where the tiles do go one by
 * one (a first view deeper than the prebuilt levels), the first answer that says the version is
 * gone (`versionGone`) cancels the early requests still waiting (those the browser has not sent
 * yet never reach the server) and fails them with that answer, so that the layer does not ask
 * for them again at the old version.
 */
import { layerOpacities, type MapDefinition } from '../domain/maps';
import { bundleEntries, bundleSize, MAX_BUNDLE_TILES, tileBundlePath } from '../domain/tile-bundle';
import { tilePath, type TileManifest } from '../domain/tiles';
import type { ViewportSize } from './kernels/camera';
import { firstView } from './kernels/first-view';
import { versionGone } from './kernels/tile-refresh';
import { visibleTiles, type TileRange } from './kernels/tiles';
import { BundledTileFetcher, browserBundleIo, type BundleIo } from './tile-bundle-fetch';
import { createWorkerTileFetcher } from './tile-fetch-protocol';
import type { TileFetcher } from './tile-loader';
import { TileHttpError, tileErrorStatus } from './tile-response';

/** The engine's first view on `viewport`: its tile range and the floors shown at `level`; null for an empty viewport. */
function firstViewTiles(map: MapDefinition, manifest: TileManifest, viewport: ViewportSize, dpr: number, level: number): { range: TileRange; floors: string[] } | null {
  if (!(viewport.width > 0 && viewport.height > 0)) return null;
  const range = visibleTiles(firstView(map, viewport), viewport, dpr, manifest);
  const opacities = layerOpacities(map, level);
  return { range, floors: manifest.layers.filter((layer) => (opacities[layer] ?? 0) > 0) };
}

/**
 * The URLs of the tiles the engine's first view asks for on `viewport` at `dpr`: the engine's
 * tile level, every floor shown at `level`, floors interleaved tile by tile, centre-out (pure).
 */
export function firstViewTileUrls(
  map: MapDefinition,
  manifest: TileManifest,
  viewport: ViewportSize,
  dpr: number,
  tileBase: string,
  level = map.defaultLevel,
): string[] {
  const view = firstViewTiles(map, manifest, viewport, dpr, level);
  if (!view) return [];
  const { range: { tiles }, floors } = view;
  const urls: string[] = [];
  for (const t of tiles) for (const floor of floors) urls.push(`${tileBase}${tilePath(manifest, floor, t.z, t.x, t.y)}`);
  return urls;
}

/** One request for the first view's tiles: its URL and, in its order, the tile URLs it holds (src/domain/tile-bundle.ts). */
export interface FirstViewBundle {
  url: string;
  entries: string[];
}

/**
 * The bundle of the tiles `firstViewTileUrls` lists (the same URLs), or null where the first
 * view's level is not prebuilt (no bundle is served for it) or it holds no tile or too many.
 */
export function firstViewBundle(
  map: MapDefinition,
  manifest: TileManifest,
  viewport: ViewportSize,
  dpr: number,
  tileBase: string,
  level = map.defaultLevel,
): FirstViewBundle | null {
  const view = firstViewTiles(map, manifest, viewport, dpr, level);
  if (!view) return null;
  const { floors } = view;
  const { z, minX, maxX, minY, maxY } = view.range;
  const range = { z, minX, maxX, minY, maxY };
  const size = bundleSize(floors, range);
  if (z > manifest.prebuiltMaxZ || size === 0 || size > MAX_BUNDLE_TILES || maxX < minX || maxY < minY) return null;
  return {
    url: `${tileBase}${tileBundlePath(manifest, floors, range)}`,
    entries: bundleEntries(floors, range).map((t) => `${tileBase}${tilePath(manifest, t.layer, t.z, t.x, t.y)}`),
  };
}

/** What fetches and decodes tiles for the early requests: the tile worker, or the render worker's own fetch. */
export interface TileFetchService {
  fetch: TileFetcher<ImageBitmap>;
  dispose(): void;
}

interface Primed {
  promise: Promise<ImageBitmap>;
  controller: AbortController;
  /** Cancelled because another request of its version found that version gone: fails with this status. */
  goneStatus?: number;
}

/** A tile worker started early, with its requests for the first view. */
export class EarlyTiles {
  private readonly primed = new Map<string, Primed>();
  /** Early requests not answered yet, taken or not (all of the one tile version the page started on). */
  private readonly waiting = new Set<Primed>();

  constructor(
    readonly fetcher: TileFetchService,
    readonly mapId: string,
    urls: readonly string[],
  ) {
    for (const url of urls) {
      if (this.primed.has(url)) continue;
      const entry = { controller: new AbortController() } as Primed;
      entry.promise = fetcher.fetch(url, entry.controller.signal).then(
        (bitmap) => {
          this.waiting.delete(entry);
          return bitmap;
        },
        (error: unknown) => {
          this.waiting.delete(entry);
          if (entry.goneStatus !== undefined) throw new TileHttpError(url, entry.goneStatus);
          const status = tileErrorStatus(error);
          if (status !== undefined && versionGone(status)) this.failWaiting(status);
          throw error;
        },
      );
      entry.promise.catch(() => undefined); // observed by whoever takes it, or released
      this.waiting.add(entry);
      this.primed.set(url, entry);
    }
  }

  /** An early request found its version gone: every other one still waiting is cancelled and fails as it did. */
  private failWaiting(status: number): void {
    const waiting = [...this.waiting];
    this.waiting.clear();
    for (const entry of waiting) {
      if (entry.controller.signal.aborted) continue; // cancelled by its taker, or released: an AbortError
      entry.goneStatus = status;
      entry.controller.abort();
    }
  }

  /** How many early requests no one has taken yet. */
  get untaken(): number {
    return this.primed.size;
  }

  /** The tile layer's fetch: the early request for a URL (once), else a new one. */
  readonly fetch: TileFetcher<ImageBitmap> = (url, signal) => {
    const entry = this.primed.get(url);
    if (!entry) return this.fetcher.fetch(url, signal);
    this.primed.delete(url);
    if (signal.aborted) entry.controller.abort();
    else signal.addEventListener('abort', () => entry.controller.abort(), { once: true });
    return entry.promise;
  };

  /** Lets go of the requests no one took: cancelled in the worker, or closed as they arrive. */
  release(): void {
    for (const { promise, controller } of this.primed.values()) {
      controller.abort();
      promise.then(
        (bitmap) => bitmap.close(),
        () => undefined,
      );
    }
    this.primed.clear();
  }

  /** Releases the requests and stops the worker (for early tiles the engine never took). */
  dispose(): void {
    this.release();
    this.fetcher.dispose();
  }
}

/**
 * The first view's bundle in front of `tiles`: its tiles from the bundle (`io`), every other tile
 * (and one the bundle lacks) from `tiles`; disposing of it disposes of both.
 */
export function withFirstViewBundle(bundle: FirstViewBundle, tiles: TileFetchService, io: BundleIo): TileFetchService {
  const bundled = new BundledTileFetcher(bundle, tiles.fetch, io);
  return {
    fetch: bundled.fetch,
    dispose: () => {
      bundled.dispose();
      tiles.dispose();
    },
  };
}

/**
 * Starts the tile worker and the first view's requests (in one bundle where its level is
 * prebuilt); null where there is no worker (the engine then makes its own).
 */
export function startEarlyTiles(map: MapDefinition, manifest: TileManifest, viewport: ViewportSize, dpr: number, tileBase: string): EarlyTiles | null {
  const urls = firstViewTileUrls(map, manifest, viewport, dpr, tileBase);
  if (urls.length === 0) return null;
  const worker = createWorkerTileFetcher();
  if (!worker) return null;
  const bundle = firstViewBundle(map, manifest, viewport, dpr, tileBase);
  return new EarlyTiles(bundle ? withFirstViewBundle(bundle, worker, browserBundleIo(manifest.format)) : worker, map.id, urls);
}
