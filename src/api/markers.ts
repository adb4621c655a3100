import { COMPACT_BINARY_TYPE } from '../domain/compact-binary';
import type { Language } from '../domain/marker';
import type { MapId } from '../domain/maps';
import { ApiError, getArrayBuffer, getJson } from './client';

/**
 * The full marker list of a map as raw bytes (`{ markers: Marker[] }` JSON): it is parsed and
 * validated in the markers worker, never on the main thread. Other clients' list; the map page
 * reads the compact one (fetchCompactMarkers).
 */
export function fetchMarkerList(mapId: MapId, signal?: AbortSignal): Promise<ArrayBuffer> {
  return getArrayBuffer(`/api/be/markers/list?map=${encodeURIComponent(mapId)}`, { signal });
}

/**
 * The compact marker list of a map (issue 11: columns of what the map draws and filters, labels
 * in `lang`) as raw bytes for the markers worker, in binary (src/domain/compact-binary.ts: read
 * as typed arrays, no JSON.parse). Revalidated with its ETag (304 from the browser's cache when
 * nothing changed).
 */
export function fetchCompactMarkers(mapId: string, lang: Language, signal?: AbortSignal): Promise<ArrayBuffer> {
  return getArrayBuffer(`/api/be/markers/compact?map=${encodeURIComponent(mapId)}&lang=${lang}&format=binary`, { signal, headers: { accept: COMPACT_BINARY_TYPE } });
}

/** One full marker (descriptions, images, items, translations), or null when the server has no marker with that uid. */
export async function fetchMarker(uid: string, signal?: AbortSignal): Promise<unknown> {
  try {
    const body = await getJson<{ marker?: unknown }>(`/api/be/markers/one?uid=${encodeURIComponent(uid)}`, { signal });
    return body?.marker ?? null;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}
