/**
 * `?obj={uid}` (spec §2): once the markers are loaded, shows that marker's category and level,
 * follows its quest (a quest marker is drawn only while its quest is followed:
 * state/quests.ts `followLinkedQuest`, which never shows the limit notice, as the visitor asked
 * for nothing; a free user's oldest followed quest makes room), opens its popup and asks the
 * wiring to centre the map on it. Done once per page.
 *
 * A link whose marker is not on this map may name another map's marker: the server says which
 * map it is on, and the page goes to the same link there (`/map/{that map}?obj=…`, the link's
 * other parameters kept, the history entry replaced: otherMapLink.ts), where it opens as above.
 * A link whose marker does not exist (any more) opens nothing: `gone` is then true until the
 * visitor dismisses the notice. Either way the link is `settled` afterwards, and from then on
 * the address's `obj` follows the open popup (useObjUrl), which drops a gone marker's uid.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { selectMarker } from '../../state/mapView';
import { isWorkerClosed, type MarkerSource } from '../map/markerSource';
import { linkOnMap, otherMapOf } from './otherMapLink';
import { sessionKnown, showLinkedMarker } from './showLinkedMarker';

export const OBJ_PARAM = 'obj';

export interface ObjDeepLink {
  /** The link's marker was looked for (or there was no link): the address may follow the popup now. */
  settled: boolean;
  /** The link's marker does not exist: its notice shows. */
  gone: boolean;
  dismissGone: () => void;
}

export function useObjDeepLink(source: MarkerSource | null, loaded: boolean): ObjDeepLink {
  const [searchParams] = useSearchParams();
  const objParam = useRef(searchParams.get(OBJ_PARAM));
  /** The link as it came (before the page wrote its own `quest` into the address): carried to another map. */
  const linkSearch = useRef(searchParams.toString());
  const { mapId = null } = useParams();
  const navigate = useNavigate();
  // Read when the marker is looked for; neither is a reason to look again.
  const page = useRef({ mapId, navigate });
  page.current = { mapId, navigate };
  const [settled, setSettled] = useState(!objParam.current);
  const [gone, setGone] = useState(false);
  const dismissGone = useCallback(() => setGone(false), []);

  useEffect(() => {
    const uid = objParam.current;
    if (!uid || !source || !loaded) return;
    objParam.current = null;
    let cancelled = false;
    let finished = false;
    const settle = () => {
      finished = true;
      setSettled(true);
    };
    source
      .get(uid)
      .then(async (found) => {
        if (found?.questUid) await sessionKnown();
        if (cancelled) return;
        if (found) {
          showLinkedMarker(found);
          settle();
          return;
        }
        const elsewhere = await otherMapOf(uid, page.current.mapId);
        if (cancelled) return;
        if (elsewhere) {
          // This page leaves (its map screen is keyed by map); the next one opens the link.
          finished = true;
          void page.current.navigate(linkOnMap(elsewhere, linkSearch.current), { replace: true });
          return;
        }
        setGone(true);
        settle();
      })
      .catch((error: unknown) => {
        if (cancelled || isWorkerClosed(error)) return;
        console.error('raidmap: opening the linked marker failed', error);
        // The popup's own read then fails the same way and offers Try again; the link stays.
        selectMarker(uid);
        settle();
      });
    return () => {
      // Not done yet (a new worker, say): the next run opens the link instead.
      cancelled = true;
      if (!finished) objParam.current = uid;
    };
  }, [source, loaded]);

  return { settled, gone, dismissGone };
}
