/**
 * Opening one marker the way a `?obj=` link does (spec §2), shared by the link
 * (useObjDeepLink.ts) and Find a marker (src/ui/panels/openFoundMarker.ts): its category and
 * subcategory are shown, its level selected, its quest followed (a quest marker is drawn only
 * while its quest is followed; `followLinkedQuest` never shows the limit notice: at the free
 * limit the quest followed longest gives its place, and the popup names it with Undo:
 * questSwap.ts), its popup opened and the map asked to centre on it.
 */
import type { Marker } from '../../domain/marker';
import { setCategoryHidden, setSubCategoryHidden } from '../../state/filters';
import { selectMarker, setLevel } from '../../state/mapView';
import { requestFocus } from '../../state/popup';
import { loadSession, session } from '../../state/session';
import { followQuestOf, forgetQuestSwap } from './questSwap';

/** Who is signed in decides how many quests may be followed (pro: more than 3): ask before following one. */
export function sessionKnown(): Promise<void> {
  return session.status === 'ready' || session.status === 'error' ? Promise.resolve() : loadSession();
}

export function showLinkedMarker(found: Marker): void {
  setCategoryHidden(found.category, false);
  setSubCategoryHidden(found.subCategory, false);
  setLevel(found.level);
  if (found.questUid) followQuestOf(found.uid, found.questUid);
  else forgetQuestSwap();
  selectMarker(found.uid);
  requestFocus(found.geometry.x, found.geometry.y);
}
