/**
 * A `?quest=` link naming more quests than the free limit, opened where the server failed to say
 * who is signed in (GET /api/be/user: a network failure or a 5xx, not a 401). The user may well be
 * pro, so the link is not cut for good as a visitor's would be (useQuestUrl.ts): the first
 * FREE_QUEST_LIMIT are followed now, the others wait (`waiting`) and stay named in the address and
 * in the tab's memory, so a reload asks again. The page says the account could not be checked,
 * with Try again (LinkUncheckedNotice.tsx), not "About Pro". The next answer from the server,
 * whatever asked (Try again, Settings, a quest action, another tab), decides as at page load
 * (`settleLinkUnchecked`): a pro user or an admin follows them all, a visitor gets the link's limit
 * notice, an ended session asks for a sign-in and keeps them aside for it (docs/DECISIONS.md
 * "A quest link where the account could not be checked").
 */
import { proxy } from 'valtio';
import { FREE_QUEST_LIMIT, normalizeSelection } from '../../domain/quests';
import { quests, selectQuests } from '../../state/quests';
import { loadSession } from '../../state/session';

export interface QuestLinkUnchecked {
  /** The link's quests beyond the free limit, not followed until the server says who is signed in. */
  waiting: string[];
  /** How many quests the link names (de-duplicated). */
  total: number;
  /** The notice shows (Close hides it; the quests still wait for an answer). */
  noticeOpen: boolean;
}

export const questLinkUnchecked = proxy<QuestLinkUnchecked>({ waiting: [], total: 0, noticeOpen: false });

/** The link's quests the quest cache knows (all of them until it is loaded: it drops the others then). */
function known(uids: readonly string[]): string[] {
  if (quests.status !== 'ready') return [...uids];
  const list = new Set(quests.list.map((q) => q.uid));
  return uids.filter((uid) => list.has(uid));
}

/** Follows a link's first quests within the free limit; the others wait for the account check. */
export function followLinkUnchecked(linked: readonly string[]): void {
  const all = normalizeSelection(known(linked), true).ids;
  const now = all.slice(0, FREE_QUEST_LIMIT);
  selectQuests(now);
  questLinkUnchecked.waiting = all.slice(FREE_QUEST_LIMIT);
  questLinkUnchecked.total = all.length;
  questLinkUnchecked.noticeOpen = questLinkUnchecked.waiting.length > 0;
}

/** What the address and the tab's memory name: the followed quests, then the link's waiting ones. */
export function namedQuests(): string[] {
  const selected = quests.selected;
  return [...selected, ...questLinkUnchecked.waiting.filter((uid) => !selected.includes(uid))];
}

/**
 * The server said who is signed in: the waiting quests join what is followed now, under the
 * limit of the user it found (selectQuests: a visitor's list is cut with the link's notice).
 */
export function settleLinkUnchecked(): void {
  if (questLinkUnchecked.waiting.length === 0) return;
  const named = namedQuests();
  forgetLinkUnchecked();
  selectQuests(named);
}

/** Try again: asks the server who is signed in; its answer settles the link (useQuestUrl watches for it). */
export function retryLinkUnchecked(): Promise<void> {
  return loadSession();
}

/** The notice was closed: the quests still wait, followed once the server answers. */
export function closeLinkUncheckedNotice(): void {
  questLinkUnchecked.noticeOpen = false;
}

/** Nothing waits (the map page went, or the link was settled). */
export function forgetLinkUnchecked(): void {
  questLinkUnchecked.waiting = [];
  questLinkUnchecked.total = 0;
  questLinkUnchecked.noticeOpen = false;
}
