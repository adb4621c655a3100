import type { MapId } from '../domain/maps';
import { INLINE_MANIFEST_ID, type TileManifest } from '../domain/tiles';
import { ApiError, apiUrl, getJson } from './client';

function isManifest(value: unknown): value is TileManifest {
  const m = value as TileManifest;
  return (
    !!m && typeof m === 'object' && typeof m.map === 'string' && typeof m.version === 'string' &&
    [m.tileSize, m.minZ, m.maxZ, m.prebuiltMaxZ, m.width, m.height].every(Number.isFinite) &&
    Array.isArray(m.layers) && (m.format === 'webp' || m.format === 'png')
  );
}

/** The tile manifest of a map (`/tiles/{map}/manifest.json`): version, zoom range, layers, format. */
export async function fetchTileManifest(mapId: MapId, signal?: AbortSignal): Promise<TileManifest> {
  const path = `/tiles/${encodeURIComponent(mapId)}/manifest.json`;
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
