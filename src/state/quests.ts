/**
 * The quest cache (GET /api/be/quests, loaded once per page session) and the quests the
 * visitor follows on the map. Selection rules are the domain's (src/domain/quests.ts):
 * ids de-duplicated, free users cut to 3, a fourth addition ignored with a limit notice.
 * Also how the user's own progress shows: done quests dimmed, hidden ones marked, and with
 * own progress in force (pro) their markers left off the map.
 */
import { proxy, ref } from 'valtio';
import { fetchQuests } from '../api/quests';
import { addToSelection, normalizeSelection, removeFromSelection, type Quest, type QuestAction } from '../domain/quests';
import { roleOf, type RoleFlags } from '../domain/roles';
import { followsQuestsWithoutLimit, runQuestAction, session, sessionCheck, tryProFeature, type QuestActionResult } from './session';
import { effectiveSettings } from './settings';
import { readTabStored, writeTabStored } from './storage';

export type QuestsStatus = 'idle' | 'loading' | 'ready' | 'error';

/**
 * Why the limit notice shows, so that it says what happened: a fourth quest was refused
 * (`refused`); the user lost the unlimited list (signed out, session ended, no longer pro) and
 * `setAside` were unfollowed for now (`lostPro`); a link named `total` quests and only the first
 * ones are followed (`link`).
 */
export type LimitWhy = { reason: 'refused' } | { reason: 'lostPro'; setAside: string[] } | { reason: 'link'; total: number };

export interface QuestsState {
  status: QuestsStatus;
  /** The quest cache, as the server sent it (unsorted; the list sorts by language). */
  list: Quest[];
  /** uids of the followed quests, in the order they were chosen. */
  selected: string[];
  /** The limit notice shows (a selection was cut, or a fourth quest was refused). */
  limitNotice: boolean;
  /** What the limit notice says happened (set with `limitNotice`). */
  limitWhy: LimitWhy;
  /**
   * The quests the free limit took away when the user lost pro (or admin): a session that ended,
   * a sign-out, or a reload that found the session ended. Followed again, in their order, when the
   * user signs back in with no limit. Kept for the tab (`CUT_BY_LIMIT_KEY`), so a reload keeps them.
   */
  cutByLimit: string[];
  /** The place of the page (a list row, the marker popup…) whose quest action failed last: the error shows there. */
  progressErrorAt: string | null;
  /**
   * A fourth quest picked where the server failed to say who is signed in (twice: at page load and
   * on the pick): the user may well be pro, so instead of the limit notice the page says the
   * account could not be checked, with Try again (`retryUncheckedQuest`). Shown only while the
   * session's status is 'error'. Null: none.
   */
  uncheckedQuest: string | null;
}

/** sessionStorage (per tab, as the followed quests are): `quests.cutByLimit` as a JSON list. */
export const CUT_BY_LIMIT_KEY = 'quests:cutByLimit';

function storedCut(): string[] {
  try {
    const value: unknown = JSON.parse(readTabStored(CUT_BY_LIMIT_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((uid): uid is string => typeof uid === 'string') : [];
  } catch {
    return [];
  }
}

export const quests = proxy<QuestsState>({ status: 'idle', list: [], selected: [], limitNotice: false, limitWhy: { reason: 'refused' }, cutByLimit: storedCut(), progressErrorAt: null, uncheckedQuest: null });

function setCut(uids: string[]): void {
  quests.cutByLimit = uids;
  writeTabStored(CUT_BY_LIMIT_KEY, uids.length > 0 ? JSON.stringify(uids) : null);
}

/** Keeps aside the quests of `before` that the limit left out of `after` (after those kept already). */
function keepCut(before: readonly string[], after: readonly string[]): void {
  const cut = before.filter((uid) => !after.includes(uid) && !quests.cutByLimit.includes(uid));
  if (cut.length > 0) setCut([...quests.cutByLimit, ...cut]);
}

let loading: Promise<void> | null = null;

function knownUids(): Set<string> | null {
  return quests.status === 'ready' ? new Set(quests.list.map((q) => q.uid)) : null;
}

/** Keeps only quests of the list, once the list is known. */
function onlyKnown(ids: readonly string[]): string[] {
  const known = knownUids();
  return known ? ids.filter((id) => known.has(id.trim())) : [...ids];
}

/** Replaces the quest cache; followed quests that are not in it are dropped. */
export function setQuestList(list: readonly Quest[]): void {
  quests.list = ref([...list]) as Quest[];
  quests.status = 'ready';
  const kept = onlyKnown(quests.selected);
  if (kept.length !== quests.selected.length) quests.selected = kept;
}

/** Loads the quest cache once; later calls reuse it. A failure leaves the list empty (status 'error'). */
export function loadQuests(): Promise<void> {
  if (quests.status === 'ready') return Promise.resolve();
  if (loading) return loading;
  quests.status = 'loading';
  loading = fetchQuests()
    .then((list) => setQuestList(list))
    .catch((error: unknown) => {
      quests.status = 'error';
      console.warn('raidmap: the quest list could not be loaded', error);
    })
    .finally(() => {
      loading = null;
    });
  return loading;
}

/**
 * Follows exactly these quests (a `?quest=` link): de-duplicated, cut to the limit with a notice.
 * Where the page found a pro session ended (a reload after it expired), the sign-in dialog says
 * so instead of the notice, and the quests cut are kept aside for the sign-in (enforceQuestLimit).
 */
export function selectQuests(ids: readonly string[]): void {
  const known = onlyKnown(ids);
  const { ids: next, limited } = normalizeSelection(known, followsQuestsWithoutLimit());
  quests.selected = next;
  if (!limited) return;
  if (session.ended) keepCut(known, next);
  else showLimitNotice({ reason: 'link', total: normalizeSelection(known, true).ids.length });
}

function showLimitNotice(why: LimitWhy): void {
  quests.limitWhy = why;
  quests.limitNotice = true;
}

/**
 * Follows or unfollows one quest; a fourth for a visitor is ignored and the notice shows (pro users
 * and admins have no limit). Where the page does not know who is signed in, it asks first.
 */
export function toggleQuest(uid: string): void {
  if (quests.selected.includes(uid)) {
    quests.selected = removeFromSelection(quests.selected, uid);
    return;
  }
  const { ids, limited } = addToSelection(quests.selected, uid, followsQuestsWithoutLimit());
  if (!limited) {
    quests.selected = ids;
    return;
  }
  // A fourth quest while the page still asks who is signed in: the user may be pro. Decide on the answer.
  const checking = sessionCheck();
  if (checking) {
    void checking.then(() => {
      if (!quests.selected.includes(uid)) toggleQuest(uid);
    });
    return;
  }
  // The server failed to say who is signed in: not taken for "a visitor" (the limit notice sells pro).
  if (session.status === 'error' && !session.user) {
    void followOnceChecked(uid);
    return;
  }
  showLimitNotice({ reason: 'refused' });
}

/**
 * A fourth quest where the page could not learn who is signed in: the server is asked again (as
 * for a pro control, `tryProFeature`). Its answer decides as at page load: a pro user or an admin
 * follows the quest, a visitor gets the limit notice, an ended session asks for a sign-in (a pro
 * sign-in then follows it). Failing again, `quests.uncheckedQuest` says so, with Try again.
 */
async function followOnceChecked(uid: string): Promise<void> {
  const follow = () => {
    if (!quests.selected.includes(uid)) toggleQuest(uid);
  };
  await tryProFeature('questsBeyondLimit', follow);
  if (session.status === 'error' && !session.user) {
    quests.uncheckedQuest = uid;
    return;
  }
  quests.uncheckedQuest = null;
  // An ended session: the sign-in dialog asks, and `follow` runs after a pro sign-in (tryProFeature).
  if (!session.ended) follow();
}

/** Try again where a fourth quest could not check the account: asks the server again for it. */
export function retryUncheckedQuest(): Promise<void> {
  const uid = quests.uncheckedQuest;
  return uid ? followOnceChecked(uid) : Promise.resolve();
}

/** The note that a fourth quest could not check the account was closed. */
export function closeUncheckedQuest(): void {
  quests.uncheckedQuest = null;
}

/**
 * Follows the quest of a linked marker (`?obj=`): a quest marker is drawn only while its quest
 * is followed, and the link must show its marker. The visitor did not ask to follow anything,
 * so the limit notice never shows: where a free user follows 3 quests already, the quest
 * followed longest gives its place to the link's quest.
 */
export function followLinkedQuest(uid: string): void {
  if (quests.selected.includes(uid)) return;
  const { ids, limited } = addToSelection(quests.selected, uid, followsQuestsWithoutLimit());
  quests.selected = limited ? [...quests.selected.slice(1), uid] : ids;
}

export function closeLimitNotice(): void {
  quests.limitNotice = false;
}

/**
 * The limit applied again to what is followed, as the signed-in user changes. When a pro user
 * or an admin signs out (or the session ends, or they are pro no longer), more than 3 followed
 * quests are cut to 3 and the limit notice shows; the quests cut are kept aside, and a sign-in
 * with no limit (pro or admin again) follows them again and closes the notice: a session that
 * expired mid-raid loses nothing.
 */
export function enforceQuestLimit(): void {
  if (followsQuestsWithoutLimit()) {
    const back = onlyKnown(quests.cutByLimit).filter((uid) => !quests.selected.includes(uid));
    setCut([]);
    if (back.length > 0) quests.selected = [...quests.selected, ...back];
    quests.limitNotice = false;
    return;
  }
  const { ids, limited } = normalizeSelection(quests.selected, false);
  if (!limited) return;
  keepCut(quests.selected, ids);
  const setAside = quests.selected.filter((uid) => !ids.includes(uid));
  quests.selected = ids;
  showLimitNotice({ reason: 'lostPro', setAside });
}

export interface QuestFilterQuery {
  selectedQuests: string[];
  knownQuests?: string[];
  hiddenQuests?: string[];
}

/**
 * The worker's quest filter: followed quests, the known quest uids once the list is loaded,
 * and, while own progress is in force (pro, setting on), the done and hidden quests.
 */
export function questFilterQuery(): QuestFilterQuery {
  const query: QuestFilterQuery = { selectedQuests: [...quests.selected] };
  if (quests.status === 'ready') query.knownQuests = quests.list.map((q) => q.uid);
  const user = session.user;
  if (user && effectiveSettings(user).ownProgress) query.hiddenQuests = [...new Set([...user.questsDone, ...user.questsHidden])];
  return query;
}

export interface QuestMarks {
  /** Completed: shown dimmed. */
  done: boolean;
  /** Hidden by the user: marked, and left out of the list while own progress is in force. */
  hidden: boolean;
}

/** How a quest shows to this user (spec §4): admins see no progress at all, everyone else their own. */
export function questMarks(user: (RoleFlags & { questsDone?: readonly string[]; questsHidden?: readonly string[] }) | null | undefined, questUid: string): QuestMarks {
  if (!user || roleOf(user) === 'admin') return { done: false, hidden: false };
  return { done: !!user.questsDone?.includes(questUid), hidden: !!user.questsHidden?.includes(questUid) };
}

/** The last quest action asked (its place, for the error), for "Try again". */
let lastAction: { place: string; action: QuestAction; questUid: string } | null = null;

/**
 * complete / reopen / hide / show (state/session's runQuestAction) on behalf of one place of
 * the page, so that a failure is shown at that place and nowhere else.
 */
export async function runQuestActionAt(place: string, action: QuestAction, questUid: string): Promise<QuestActionResult> {
  lastAction = { place, action, questUid };
  // Asked again after a sign-in (the session had ended) from the same place, so its error shows there.
  const result = await runQuestAction(action, questUid, () => void runQuestActionAt(place, action, questUid));
  if (result === 'failed' || result === 'unchecked') quests.progressErrorAt = place;
  return result;
}

/** "Try again" where the last quest action could not check the account: the same action, from the same place. */
export function retryQuestAction(): Promise<QuestActionResult> | null {
  if (!lastAction) return null;
  const { place, action, questUid } = lastAction;
  return runQuestActionAt(place, action, questUid);
}

/** Back to nothing loaded and nothing followed (tests). */
export function resetQuests(): void {
  loading = null;
  quests.status = 'idle';
  quests.list = [];
  quests.selected = [];
  quests.limitNotice = false;
  quests.limitWhy = { reason: 'refused' };
  setCut([]);
  quests.progressErrorAt = null;
  quests.uncheckedQuest = null;
  lastAction = null;
}
