/**
 * Why a quest marker is drawn or not, and what opening one (a `?obj=` link, Find a marker)
 * changes. A quest marker is drawn only while its quest is followed, and, while a pro user's own
 * progress is in force, not when they completed or hid its quest (state/quests.ts
 * `questFilterQuery`). Opening such a marker follows its quest (`followLinkedQuest`): at the
 * free limit the quest followed longest gives its place, which the popup then names with Undo
 * (docs/DECISIONS.md "Opening a quest marker at the free limit").
 */
import { addToSelection } from './quests';

/** The followed quest that gives its place when `questUid` is followed for a marker, or null (followed already, room left, no limit). */
export function questGivingPlace(selected: readonly string[], questUid: string, unlimited: boolean): string | null {
  const { limited } = addToSelection(selected, questUid, unlimited);
  return limited ? (selected[0] ?? null) : null;
}

/** One quest swapped for another as a marker was opened. */
export interface QuestSwap {
  /** The quest followed for the marker. */
  followed: string;
  /** The quest that gave its place. */
  dropped: string;
  /** The followed quests before, in their order. */
  before: readonly string[];
}

/** The swap still stands: the marker's quest is followed and the one dropped is not (the user changed neither since). */
export function swapStands(selected: readonly string[], swap: QuestSwap): boolean {
  return selected.includes(swap.followed) && !selected.includes(swap.dropped);
}

/**
 * The followed quests with a swap undone: the dropped quest back in its place, the marker's
 * quest gone; any other change made since is kept.
 */
export function undoSwap(selected: readonly string[], swap: QuestSwap): string[] {
  const kept = swap.before.filter((uid) => uid === swap.dropped || selected.includes(uid));
  return [...kept, ...selected.filter((uid) => uid !== swap.followed && !kept.includes(uid))];
}

export interface ProgressOf {
  questsDone?: readonly string[];
  questsHidden?: readonly string[];
}

/**
 * Why the user's own progress keeps a quest's markers off the map (done, hidden by them, or
 * both), or null when it does not: only while own progress is in force (`ownProgress`: pro,
 * setting on), as the worker's filter has it.
 */
export function hiddenByProgress(user: ProgressOf | null | undefined, ownProgress: boolean, questUid: string): { done: boolean; hidden: boolean } | null {
  if (!user || !ownProgress) return null;
  const done = !!user.questsDone?.includes(questUid);
  const hidden = !!user.questsHidden?.includes(questUid);
  return done || hidden ? { done, hidden } : null;
}
