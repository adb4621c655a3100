/**
 * The quest cache (GET /api/be/quests, loaded once per page session) and the quests the
 * visitor follows on the map. Selection rules are the domain's (src/domain/quests.ts):
 * ids de-duplicated, free users cut to 3, a fourth addition ignored with a limit notice.
 */
import { proxy, ref } from 'valtio';
import { fetchQuests } from '../api/quests';
import { addToSelection, normalizeSelection, removeFromSelection, type Quest } from '../domain/quests';
import { isPro } from './session';

export type QuestsStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface QuestsState {
  status: QuestsStatus;
  /** The quest cache, as the server sent it (unsorted; the list sorts by language). */
  list: Quest[];
  /** uids of the followed quests, in the order they were chosen. */
  selected: string[];
  /** The limit notice shows (a selection was cut, or a fourth quest was refused). */
  limitNotice: boolean;
}

export const quests = proxy<QuestsState>({ status: 'idle', list: [], selected: [], limitNotice: false });

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

/** Follows exactly these quests (a `?quest=` link): de-duplicated, cut to the limit with a notice. */
export function selectQuests(ids: readonly string[]): void {
  const { ids: next, limited } = normalizeSelection(onlyKnown(ids), isPro());
  quests.selected = next;
  if (limited) quests.limitNotice = true;
}

/** Follows or unfollows one quest; a fourth for a free user is ignored and the notice shows. */
export function toggleQuest(uid: string): void {
  if (quests.selected.includes(uid)) {
    quests.selected = removeFromSelection(quests.selected, uid);
    return;
  }
  const { ids, limited } = addToSelection(quests.selected, uid, isPro());
  if (limited) quests.limitNotice = true;
  else quests.selected = ids;
}

export function closeLimitNotice(): void {
  quests.limitNotice = false;
}

/** The worker's quest filter: followed quests, and the known quest uids once the list is loaded. */
export function questFilterQuery(): { selectedQuests: string[]; knownQuests?: string[] } {
  const selectedQuests = [...quests.selected];
  return quests.status === 'ready' ? { selectedQuests, knownQuests: quests.list.map((q) => q.uid) } : { selectedQuests };
}

/** Back to nothing loaded and nothing followed (tests). */
export function resetQuests(): void {
  loading = null;
  quests.status = 'idle';
  quests.list = [];
  quests.selected = [];
  quests.limitNotice = false;
}
