/**
 * The address's `obj` follows the open popup, so a copied address opens what is on screen:
 * another marker opened puts its uid there (replaced in place: no history entry per click).
 * Closing the popup (Close, Escape, a click on empty map, a deleted marker) clears `obj` and
 * `quest` (spec §4); the followed quests stay on the page, and `quest` comes back with the next
 * change of them (useQuestUrl `dropQuestParam`). Other parameters are kept.
 *
 * Until the page's own `?obj=` link is `settled` (useObjDeepLink) the address is left alone.
 */
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { useSnapshot } from 'valtio';
import { mapView } from '../../state/mapView';
import { dropQuestParam, QUEST_PARAM } from '../panels/useQuestUrl';
import { OBJ_PARAM } from './useObjDeepLink';

export function useObjUrl(settled: boolean): void {
  const { selectedUid } = useSnapshot(mapView);
  const [searchParams, setSearchParams] = useSearchParams();
  const wasOpen = useRef(false);
  useEffect(() => {
    if (!settled) return;
    const closing = selectedUid === null && wasOpen.current;
    wasOpen.current = selectedUid !== null;
    if (closing) dropQuestParam();
    const next = new URLSearchParams(searchParams);
    if (selectedUid) next.set(OBJ_PARAM, selectedUid);
    else next.delete(OBJ_PARAM);
    if (closing) next.delete(QUEST_PARAM);
    if (next.toString() === searchParams.toString()) return;
    setSearchParams(next, { replace: true, preventScrollReset: true });
  }, [settled, selectedUid, searchParams, setSearchParams]);
}
