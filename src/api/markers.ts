import { COMPACT_BINARY_TYPE } from '../domain/compact-binary';
import type { Language } from '../domain/marker';
import type { MapId } from '../domain/maps';
import { ApiError, apiUrl, getArrayBuffer, getJson, request } from './client';

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
 * nothing changed). The ETag of what was read is kept for `compactListChanged`.
 */
export async function fetchCompactMarkers(mapId: string, lang: Language, signal?: AbortSignal): Promise<ArrayBuffer> {
  const path = compactPath(mapId, lang);
  const askedAt = performance.now();
  const response = await request(path, { signal, headers: { accept: COMPACT_BINARY_TYPE } });
  let buffer: ArrayBuffer;
  try {
    buffer = await response.arrayBuffer();
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw error;
    throw new ApiError(apiUrl(path), response.status, 'network', 'The response was cut off');
  }
  const etag = response.headers.get('etag');
  if (etag) readEtags.set(path, etag);
  else readEtags.delete(path);
  noteListAskedAt(buffer, askedAt);
  return buffer;
}

/** When each list read here was asked for (performance.now()), by its bytes. */
const askedAtOf = new WeakMap<ArrayBuffer, number>();

/** Notes when the list `buffer` holds was asked for (fetchCompactMarkers does; tests too). */
export function noteListAskedAt(buffer: ArrayBuffer, at: number): void {
  askedAtOf.set(buffer, at);
}

/**
 * When the list in `buffer` was asked for (performance.now()), or undefined when it was not read
 * by fetchCompactMarkers: the markers source puts back on it the changes made after
 * (src/domain/list-replay.ts).
 */
export function listAskedAt(buffer: ArrayBuffer): number | undefined {
  return askedAtOf.get(buffer);
}

/** The ETag of the compact list last read, by its path. */
const readEtags = new Map<string, string>();

function compactPath(mapId: string, lang: Language): string {
  return `/api/be/markers/compact?map=${encodeURIComponent(mapId)}&lang=${lang}&format=binary`;
}

/**
 * Whether the server's compact list of a map now differs from the one this page last read: a
 * HEAD request past the browser's cache with the read list's ETag (304: the same). A page whose
 * list came from the cache without asking (opened through Back / Forward), or that read it
 * before its live feed was listening, learns this way that it missed changes. Null when it
 * cannot tell (the list was never read here, or no ETag); throws when the server cannot be reached.
 */
export async function compactListChanged(mapId: string, lang: Language, signal?: AbortSignal): Promise<boolean | null> {
  const path = compactPath(mapId, lang);
  const etag = readEtags.get(path);
  if (!etag) return null;
  const response = await fetch(apiUrl(path), {
    method: 'HEAD',
    cache: 'no-store',
    credentials: 'same-origin',
    signal,
    headers: { accept: COMPACT_BINARY_TYPE, 'if-none-match': etag },
  });
  if (response.status === 304) return false;
  if (!response.ok) throw new ApiError(apiUrl(path), response.status, `http_${response.status}`, `HTTP ${response.status}`);
  return response.headers.get('etag') !== etag;
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
