import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { subscribe } from 'valtio';
import type { MapId } from '../../domain/maps';
import { overlaySearch } from '../../domain/overlay';
import { CONNECTION_PARAM, normalizePairingCode } from '../../domain/pilot';
import { connect, dismissLinkProblem, pilot, rejectLink, resume, suspend, takeMapChange } from '../../state/pilot';

/**
 * The map page's side of the live position feed (issue 10): `?connection=CODE` (any map page)
 * follows that code, remembers it and leaves the address (the rest of the query and the hash
 * kept); a `?connection=` that is no code leaves the address too, and the page says so and
 * follows nothing (state/pilot rejectLink) rather than the code remembered before. Without it
 * the remembered code is followed, with no click, unless the server said it is gone (then the
 * top bar shows it gone and nothing is asked: state/pilot resume). Positions move the
 * where-am-I marker (state/pilot → state/player → wirePlayer); when the publisher's map
 * changes to another map the page goes there (`/map/{map}`, other query parameters dropped
 * except the stream overlay's), still following; the stream overlay goes there whenever it
 * shows another map than the player's (state/pilot takeMapChange `always`). The feed is closed
 * when the map page closes.
 */
export function usePilotConnection(mapId: MapId): void {
  const location = useLocation();
  const navigate = useNavigate();
  const { pathname, search, hash } = location;
  // The stream overlay stays one on the next map (read when the map changes, not a dependency).
  const overlayRef = useRef('');
  overlayRef.current = overlaySearch(search);

  // ?connection=CODE: follow it (or say it is no code), then take it out of the address.
  useEffect(() => {
    const params = new URLSearchParams(search);
    const value = params.get(CONNECTION_PARAM);
    if (value === null) return;
    const code = normalizePairingCode(value);
    if (code) connect(code, mapId);
    else rejectLink(value);
    params.delete(CONNECTION_PARAM);
    const rest = params.toString();
    void navigate({ pathname, search: rest ? `?${rest}` : '', hash }, { replace: true, preventScrollReset: true, state: location.state as unknown });
  }, [search, pathname, hash, mapId, navigate, location.state]);

  // The remembered code, on every map page; closed when the page closes.
  useEffect(() => {
    // After the effect above, which has already followed a code in the query (or refused it).
    resume(mapId);
    return suspend;
  }, [mapId]);

  // The notice about a link with no code lasts while the map page is open.
  useEffect(() => dismissLinkProblem, []);

  // The publisher went to another map: follow it. The overlay follows whenever it shows
  // another map than the player's (it has no menu to go there by); once per map asked, as the
  // feed's other updates arrive before the page has moved.
  useEffect(() => {
    let asked: MapId | null = null;
    const follow = () => {
      const next = takeMapChange(mapId, overlayRef.current !== '');
      if (!next || next === asked) return;
      asked = next;
      void navigate(`/map/${next}${overlayRef.current}`);
    };
    follow();
    return subscribe(pilot, follow);
  }, [mapId, navigate]);
}
