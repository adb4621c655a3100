/**
 * Opening one marker the way a `?obj=` link does (spec §2), shared by the link
 * (useObjDeepLink.ts) and Find a marker (src/ui/panels/openFoundMarker.ts): its category and
 * subcategory are shown, its level selected, its quest followed (a quest marker is drawn only
 * while its quest is followed; `followLinkedQuest` never shows the limit notice), its popup
 * opened and the map asked to centre on it.
 */
import type { Marker } from '../../domain/marker';
import { setCategoryHidden, setSubCategoryHidden } from '../../state/filters';
import { selectMarker, setLevel } from '../../state/mapView';
import { requestFocus } from '../../state/popup';
import { followLinkedQuest } from '../../state/quests';
import { loadSession, session } from '../../state/session';

/** Who is signed in decides how many quests may be followed (pro: more than 3): ask before following one. */
export function sessionKnown(): Promise<void> {
  return session.status === 'ready' || session.status === 'error' ? Promise.resolve() : loadSession();
}

export function showLinkedMarker(found: Marker): void {
  setCategoryHidden(found.category, false);
  setSubCategoryHidden(found.subCategory, false);
  setLevel(found.level);
  if (found.questUid) followLinkedQuest(found.questUid);
  selectMarker(found.uid);
  requestFocus(found.geometry.x, found.geometry.y);
}
