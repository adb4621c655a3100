import { useEffect, useRef } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { getMap } from '../../domain/maps';
import { invalidPosHash, parsePosHash } from '../../domain/position';
import { isPositionOnMap } from '../../domain/position-bounds';
import { setPlayerPosition } from '../../state/player';
import type { PosLinkProblem } from './WhereAmI';

/**
 * `#pos=x_y_z` on the map page's address sets the where-am-I position once, and is then
 * removed from the address (path and query kept). A `#pos=` that is not exactly three numbers
 * sets nothing (spec §5), nor do three numbers that cannot be on this map (another map's
 * position, a made-up 1e308); either is removed too, so a reload or a shared copy of the address
 * does not carry it on, and `onProblem` gets what was wrong for the page to say why nothing
 * happened. Any other hash is left alone. The position is cleared when the map page closes.
 */
export function usePosHash(onProblem: (problem: PosLinkProblem) => void): void {
  const location = useLocation();
  const navigate = useNavigate();
  const { mapId = '' } = useParams();
  const { hash, pathname, search } = location;
  const problem = useRef(onProblem);
  problem.current = onProblem;

  useEffect(() => {
    const position = parsePosHash(hash);
    const bad = position ? null : invalidPosHash(hash);
    if (!position && bad === null) return;
    const map = getMap(mapId);
    if (bad !== null) problem.current({ kind: 'format', text: bad });
    else if (map && !isPositionOnMap(position!, map)) problem.current({ kind: 'offMap', position: position! });
    else setPlayerPosition(position);
    void navigate({ pathname, search, hash: '' }, { replace: true, preventScrollReset: true, state: location.state as unknown });
  }, [hash, pathname, search, navigate, location.state, mapId]);

  useEffect(() => () => setPlayerPosition(null), []);
}
