/**
 * A `?obj=` link whose marker is not on the open map may name another map's marker (a link
 * copied with the wrong map, or a map's name typed by hand): the server is asked where that
 * marker is (`GET /api/be/markers/one`), and the page goes to the same link on that map
 * (useObjDeepLink.ts). Only a uid the server does not know is "Marker not found".
 */
import { fetchMarker } from '../../api/markers';
import { isMapId, type MapId } from '../../domain/maps';
import { CONNECTION_PARAM } from '../../domain/pilot';

/**
 * The map the server has the marker `uid` on, when that is not `current`; null when it is
 * `current`, when the server has no such marker, or when it cannot be asked (then the link is
 * said to be gone, as before: the page cannot tell).
 */
export async function otherMapOf(uid: string, current: string | null): Promise<MapId | null> {
  let raw: unknown;
  try {
    raw = await fetchMarker(uid);
  } catch (error) {
    console.warn('raidmap: could not ask the server where the linked marker is', error);
    return null;
  }
  if (!raw || typeof raw !== 'object') return null;
  const { uid: got, map } = raw as { uid?: unknown; map?: unknown };
  return got === uid && typeof map === 'string' && isMapId(map) && map !== current ? map : null;
}

/**
 * The page's link on `map`: the same query (`obj`, the link's `quest`, `render`…), less a
 * pilot `connection` this page has taken in already.
 */
export function linkOnMap(map: MapId, search: string): string {
  const params = new URLSearchParams(search);
  params.delete(CONNECTION_PARAM);
  const query = params.toString();
  return `/map/${map}${query ? `?${query}` : ''}`;
}
