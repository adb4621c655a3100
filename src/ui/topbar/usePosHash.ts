import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { invalidPosHash, parsePosHash } from '../../domain/position';
import { setPlayerPosition } from '../../state/player';

/**
 * `#pos=x_y_z` on the map page's address sets the where-am-I position once, and is then
 * removed from the address (path and query kept). A `#pos=` that is not exactly three numbers
 * sets nothing (spec §5); it is removed too, so a reload or a shared copy of the address does
 * not carry it on, and `onInvalid` gets its text for the page to say why nothing happened.
 * Any other hash is left alone. The position is cleared when the map page closes.
 */
export function usePosHash(onInvalid: (text: string) => void): void {
  const location = useLocation();
  const navigate = useNavigate();
  const { hash, pathname, search } = location;
  const invalid = useRef(onInvalid);
  invalid.current = onInvalid;

  useEffect(() => {
    const position = parsePosHash(hash);
    const bad = position ? null : invalidPosHash(hash);
    if (!position && bad === null) return;
    if (position) setPlayerPosition(position);
    else invalid.current(bad!);
    void navigate({ pathname, search, hash: '' }, { replace: true, preventScrollReset: true, state: location.state as unknown });
  }, [hash, pathname, search, navigate, location.state]);

  useEffect(() => () => setPlayerPosition(null), []);
}
