/**
 * Quests (spec §3 Quest, Item; §4 quest actions; §5 selection rules).
 */
import type { Language } from './marker';

export interface Quest {
  uid: string;
  name: string;
  ruName: string;
  trader: string;
  requiredForKappa: boolean;
  requiredForLightkeeper: boolean;
  wikiUrl: string;
}

export interface Item {
  uid: string;
  name: string;
  ruName: string;
}

/** Free users may follow at most this many quests at once (spec §9). */
export const FREE_QUEST_LIMIT = 3;

export interface QuestSelection {
  ids: string[];
  /** True when ids were dropped to respect the limit: the UI shows the limit notice. */
  limited: boolean;
}

/** De-duplicates (first occurrence wins), drops empty ids, and cuts to the limit for non-pro users. */
export function normalizeSelection(ids: readonly string[], pro: boolean): QuestSelection {
  const unique = [...new Set(ids.map((id) => id.trim()).filter(Boolean))];
  if (pro || unique.length <= FREE_QUEST_LIMIT) return { ids: unique, limited: false };
  return { ids: unique.slice(0, FREE_QUEST_LIMIT), limited: true };
}

/** Adds a quest to the selection; beyond the free limit the addition is ignored (limited). */
export function addToSelection(current: readonly string[], uid: string, pro: boolean): QuestSelection {
  if (current.includes(uid)) return { ids: [...current], limited: false };
  if (!pro && current.length >= FREE_QUEST_LIMIT) return { ids: [...current], limited: true };
  return { ids: [...current, uid], limited: false };
}

export function removeFromSelection(current: readonly string[], uid: string): string[] {
  return current.filter((id) => id !== uid);
}

/** `?quest=a,b,c` → ids (trimmed, empty parts dropped). */
export function parseQuestParam(value: string | null): string[] {
  return value ? value.split(',').map((s) => s.trim()).filter(Boolean) : [];
}

const collators = new Map<Language, Intl.Collator>();

/** One collator per language: making one loads the locale's data (tens of ms on a slow laptop). */
function collatorFor(lang: Language): Intl.Collator {
  let collator = collators.get(lang);
  if (!collator) {
    collator = new Intl.Collator(lang, { sensitivity: 'base', numeric: true });
    collators.set(lang, collator);
  }
  return collator;
}

/** Sorted by Russian name in the ru locale, otherwise by name (spec §5). */
export function sortQuests<T extends Pick<Quest, 'name' | 'ruName'>>(quests: readonly T[], lang: Language): T[] {
  if (quests.length < 2) return [...quests];
  const key = (q: T) => (lang === 'ru' ? q.ruName || q.name : q.name);
  const collator = collatorFor(lang);
  return [...quests].sort((a, b) => collator.compare(key(a), key(b)));
}

export function questName(quest: Pick<Quest, 'name' | 'ruName'>, lang: Language): string {
  return lang === 'ru' ? quest.ruName || quest.name : quest.name;
}

/** Markers tied to quests that are not in the quest list are dropped (spec §5). */
export function dropUnknownQuestMarkers<T extends { questUid?: string | null }>(markers: readonly T[], knownQuestUids: ReadonlySet<string>): T[] {
  return markers.filter((m) => !m.questUid || knownQuestUids.has(m.questUid));
}

export interface QuestProgress {
  questsDone: string[];
  questsHidden: string[];
}

export type QuestAction = 'complete' | 'reopen' | 'hide' | 'show';

/** complete adds to questsDone, reopen removes; hide adds to questsHidden, show removes (spec §4). */
export function applyQuestAction(progress: QuestProgress, action: QuestAction, questUid: string): QuestProgress {
  const add = (list: string[]) => (list.includes(questUid) ? list : [...list, questUid]);
  const remove = (list: string[]) => list.filter((id) => id !== questUid);
  switch (action) {
    case 'complete':
      return { ...progress, questsDone: add(progress.questsDone) };
    case 'reopen':
      return { ...progress, questsDone: remove(progress.questsDone) };
    case 'hide':
      return { ...progress, questsHidden: add(progress.questsHidden) };
    case 'show':
      return { ...progress, questsHidden: remove(progress.questsHidden) };
  }
}

/**
 * With "own progress" on (pro), a quest marker shows only while its quest is active:
 * not done and not hidden (spec §4).
 */
export function isQuestActive(questUid: string, progress: QuestProgress): boolean {
  return !progress.questsDone.includes(questUid) && !progress.questsHidden.includes(questUid);
}
