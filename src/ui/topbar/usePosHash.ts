import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { parsePosHash } from '../../domain/position';
import { setPlayerPosition } from '../../state/player';

/**
 * `#pos=x_y_z` on the map page's address sets the where-am-I position once, and is then
 * removed from the address (path and query kept). A hash that is not exactly three numbers
 * is ignored and left alone. The position is cleared when the map page closes.
 */
export function usePosHash(): void {
  const location = useLocation();
  const navigate = useNavigate();
  const { hash, pathname, search } = location;

  useEffect(() => {
    const position = parsePosHash(hash);
    if (!position) return;
    setPlayerPosition(position);
    void navigate({ pathname, search, hash: '' }, { replace: true, preventScrollReset: true, state: location.state as unknown });
  }, [hash, pathname, search, navigate, location.state]);

  useEffect(() => () => setPlayerPosition(null), []);
}
