/**
 * The quest a map link of the Quests page added (`?follow=`, useQuestUrl.ts; docs/DECISIONS.md
 * "The Quests page's map link adds its quest"). The link adds to what the tab follows on that
 * map; a visitor already following 3 (the free limit) has the quest followed longest give its
 * place, as opening a quest marker does (popup/questSwap.ts), and that is never silent: the
 * quest list names the quest swapped out, with Undo (QuestList.tsx), and the page's live region
 * says it, as the panels may be folded away on a phone. Kept until the user changes what is
 * followed or the map page goes.
 */
import { proxy, ref } from 'valtio';
import { questGivingPlace, undoSwap, type QuestSwap } from '../../domain/quest-marker-shown';
import { followLinkedQuest, quests, selectQuests } from '../../state/quests';
import { followsQuestsWithoutLimit } from '../../state/session';

export const questLinkSwap = proxy<{ last: QuestSwap | null }>({ last: null });

/** Follows `questUid` for a map link, noting the quest that gave its place, if any. */
export function followFromLink(questUid: string): void {
  const before = [...quests.selected];
  const dropped = questGivingPlace(before, questUid, followsQuestsWithoutLimit());
  followLinkedQuest(questUid);
  if (dropped && !quests.selected.includes(dropped)) questLinkSwap.last = ref({ followed: questUid, dropped, before });
}

/** Undo: the quest swapped out is followed again in its place, the link's quest no longer. */
export function undoLinkSwap(): void {
  const swap = questLinkSwap.last;
  if (!swap) return;
  questLinkSwap.last = null;
  selectQuests(undoSwap(quests.selected, swap));
}

export function forgetLinkSwap(): void {
  questLinkSwap.last = null;
}
