/**
 * `?obj={uid}` (spec §2): once the markers are loaded, shows that marker's category and level,
 * follows its quest (a quest marker is drawn only while its quest is followed; within the free
 * limit), opens its popup and asks the wiring to centre the map on it. Done once per page.
 */
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { setCategoryHidden, setSubCategoryHidden } from '../../state/filters';
import { selectMarker, setLevel } from '../../state/mapView';
import { requestFocus } from '../../state/popup';
import { quests, toggleQuest } from '../../state/quests';
import { isWorkerClosed, type MarkerSource } from '../map/markerSource';

export function useObjDeepLink(source: MarkerSource | null, loaded: boolean): void {
  const [searchParams] = useSearchParams();
  const objParam = useRef(searchParams.get('obj'));

  useEffect(() => {
    const uid = objParam.current;
    if (!uid || !source || !loaded) return;
    objParam.current = null;
    source
      .get(uid)
      .then((found) => {
        if (!found) return;
        setCategoryHidden(found.category, false);
        setSubCategoryHidden(found.subCategory, false);
        setLevel(found.level);
        if (found.questUid && !quests.selected.includes(found.questUid)) toggleQuest(found.questUid);
        selectMarker(found.uid);
        requestFocus(found.geometry.x, found.geometry.y);
      })
      .catch((error: unknown) => {
        if (!isWorkerClosed(error)) console.error('raidmap: opening the linked marker failed', error);
      });
  }, [source, loaded]);
}
