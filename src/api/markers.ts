import type { MapId } from '../domain/maps';
import { getArrayBuffer } from './client';

/**
 * The marker list of a map as raw bytes (`{ markers: Marker[] }` JSON): it is parsed and
 * validated in the markers worker, never on the main thread.
 */
export function fetchMarkerList(mapId: MapId, signal?: AbortSignal): Promise<ArrayBuffer> {
  return getArrayBuffer(`/api/be/markers/list?map=${encodeURIComponent(mapId)}`, { signal });
}
