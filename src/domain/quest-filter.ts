/**
 * The Quests page's filter (docs/DECISIONS.md "Filtering the Quests page"): which quests a typed
 * text names, by the quest's name or its trader, in English or Russian whatever the page's
 * language (a player may know a quest by either name). Matching ignores case and, in Russian,
 * ё against е, as Find a marker does (marker-search.ts `foldSearchText`). Each word typed must
 * be found in one of the quest's names or its trader's ("prapor evidence", «прапор улики»).
 * Blank text keeps every quest. The order is the list's own (no ranking): the page is sorted.
 */
import { foldSearchText } from './marker-search';
import type { Quest } from './quests';

/** The words of a filter text, folded; none for blank text. */
export function filterWords(text: string): string[] {
  return foldSearchText(text).split(/\s+/).filter(Boolean);
}

/**
 * The quests `text` names, in their given order. `traderNames` gives the names a trader is known
 * by (its id and its name in each language); the trader's id is matched anyway.
 */
export function filterQuests<T extends Pick<Quest, 'name' | 'ruName' | 'trader'>>(
  quests: readonly T[],
  text: string,
  traderNames: (trader: string) => readonly string[] = () => [],
): T[] {
  const words = filterWords(text);
  if (words.length === 0) return [...quests];
  return quests.filter((quest) => {
    const fields = [quest.name, quest.ruName, quest.trader, ...traderNames(quest.trader)].map(foldSearchText);
    return words.every((word) => fields.some((field) => field.includes(word)));
  });
}
