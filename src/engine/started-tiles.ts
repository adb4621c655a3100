/**
 * The tile side of a map scene, started before its renderer: the layer, the worker that fetches
 * and decodes its tiles, and the first view's requests, so they download and decode while the
 * renderer initialises. Arrived tiles wait for the scene, which uploads and draws them from its
 * first frame.
 */
import type { MapDefinition } from '../domain/maps';
import type { TileManifest } from '../domain/tiles';
import { Camera } from './camera';
import type { EarlyTiles, TileFetchService } from './early-tiles';
import type { ViewportSize } from './kernels/camera';
import { createWorkerTileFetcher } from './tile-fetch-protocol';
import { TileLayer } from './tile-layer';

export const DEFAULT_TILE_BUDGET = 192 * 1024 * 1024;

export interface StartedTiles {
  layer: TileLayer;
  /** Fetches and decodes tiles off this thread (null: this thread fetches and decodes). */
  fetcher: TileFetchService | null;
  /** Lets go of the early requests the first view did not take (once the map is ready). */
  releaseEarly: () => void;
}

export interface TileStartOptions {
  map: MapDefinition;
  manifest: TileManifest;
  tileBase?: string;
  tileBudgetBytes?: number;
  /** The page's early tile worker, already fetching this map's first view (early-tiles.ts). */
  earlyTiles?: EarlyTiles;
  /**
   * Fetch and decode in a tile worker of this scene's own (the main thread's scene); false in
   * a worker already off the main thread (the render worker decodes its own tiles).
   */
  fetchWorker?: boolean;
}

/** Starts the tile layer and requests the first view's tiles (the default level, the start zoom, the viewport). */
export function startTiles(options: TileStartOptions, viewport: ViewportSize, dpr: number): StartedTiles {
  const early = options.earlyTiles?.mapId === options.map.id ? options.earlyTiles : undefined;
  if (options.earlyTiles && !early) options.earlyTiles.dispose();
  const fetcher = early ? early.fetcher : options.fetchWorker === false ? null : createWorkerTileFetcher();
  const layer = new TileLayer({
    fetcher: early ? early.fetch : fetcher?.fetch,
    map: options.map,
    manifest: options.manifest,
    tileBase: options.tileBase ?? '',
    budgetBytes: options.tileBudgetBytes ?? DEFAULT_TILE_BUDGET,
  });
  layer.setLevel(options.map.defaultLevel);
  layer.update(new Camera(options.map, viewport).state, viewport, dpr, performance.now());
  return { layer, fetcher, releaseEarly: () => early?.release() };
}

/** Stops what startTiles started, for a scene that never came to be. */
export function disposeStartedTiles(tiles: StartedTiles): void {
  tiles.releaseEarly();
  tiles.layer.dispose();
  tiles.fetcher?.dispose();
}
