import type { MapId } from '../domain/maps';
import { INLINE_MANIFEST_ID, isTileManifest as isManifest, tileManifestPath, type TileManifest } from '../domain/tiles';
import { ApiError, apiUrl, getJson } from './client';

/** The tile manifest of a map (`/tiles/{map}/manifest.json`): version, zoom range, layers, format. */
export async function fetchTileManifest(mapId: MapId, signal?: AbortSignal): Promise<TileManifest> {
  const path = tileManifestPath(mapId);
  const body = await getJson<unknown>(path, { signal });
  if (!isManifest(body)) throw new ApiError(apiUrl(path), 200, 'bad_manifest', 'The tile manifest is malformed');
  return body;
}

/**
 * The manifest of `mapId` that the server put in the page's head (server/http/map-page-head.ts),
 * or undefined when there is none, it is for another map or it is malformed (the page then fetches it).
 */
export function readInlineManifest(mapId: MapId, doc: Document = document): TileManifest | undefined {
  const text = doc.getElementById(INLINE_MANIFEST_ID)?.textContent;
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isManifest(value) && value.map === mapId ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Where tiles load from (prefix of `tilePath`). */
export function tileBase(): string {
  return apiUrl('');
}
