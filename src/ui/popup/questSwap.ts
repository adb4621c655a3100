/**
 * The quest a marker's opening swapped in (a `?obj=` link, Find a marker: showLinkedMarker.ts).
 * A quest marker is drawn only while its quest is followed, so opening one follows its quest; a
 * visitor already following 3 (the free limit) has the quest followed longest give its place
 * (state/quests.ts `followLinkedQuest`). That is never silent: the marker's popup names the
 * quest swapped out, with Undo (MarkerPopupView.tsx, docs/DECISIONS.md "Opening a quest marker
 * at the free limit"). Kept while that marker's popup is open.
 */
import { proxy, ref } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import { questGivingPlace, undoSwap, type QuestSwap } from '../../domain/quest-marker-shown';
import { selectMarker, mapView } from '../../state/mapView';
import { followLinkedQuest, quests, selectQuests } from '../../state/quests';
import { followsQuestsWithoutLimit } from '../../state/session';

export interface QuestSwapState {
  /** The swap made as `markerUid` was opened, or null. */
  last: (QuestSwap & { markerUid: string }) | null;
}

export const questSwap = proxy<QuestSwapState>({ last: null });

// Told while its marker's popup is open: another marker opened, or the popup closed, ends it.
subscribeKey(mapView, 'selectedUid', (uid) => {
  if (questSwap.last && questSwap.last.markerUid !== uid) questSwap.last = null;
});

/** Follows `questUid` for the marker `markerUid` being opened, noting the quest that gave its place, if any. */
export function followQuestOf(markerUid: string, questUid: string): void {
  const before = [...quests.selected];
  const dropped = questGivingPlace(before, questUid, followsQuestsWithoutLimit());
  followLinkedQuest(questUid);
  questSwap.last = dropped && !quests.selected.includes(dropped) ? ref({ markerUid, followed: questUid, dropped, before }) : null;
}

/** Another marker opened: the last swap is no longer the popup's to tell. */
export function forgetQuestSwap(): void {
  questSwap.last = null;
}

/**
 * Undo: the quest swapped out is followed again in its place, the marker's quest no longer, and
 * the marker's popup closes, as its marker leaves the map with its quest.
 */
export function undoQuestSwap(): void {
  const swap = questSwap.last;
  if (!swap) return;
  questSwap.last = null;
  selectQuests(undoSwap(quests.selected, swap));
  if (mapView.selectedUid === swap.markerUid) selectMarker(null);
}
