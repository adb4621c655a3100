/**
 * What Find a marker's text names besides labels: the categories and subcategories whose names
 * in the page's language (or their English ids, or the aliases below) have a word starting with
 * the text, and the quests whose name does. The worker is handed their ids
 * (src/domain/marker-search.ts: `namedIds`, `searchMarkers`); it has no translations.
 */
import type { TFunction } from 'i18next';
import { CATEGORIES } from '../../domain/categories';
import type { Language } from '../../domain/marker';
import { namedIds, type NamedByText } from '../../domain/marker-search';
import { questName, type Quest } from '../../domain/quests';
import { categoryLabel, subCategoryLabel } from './labels';

/**
 * Other words players search a category or subcategory by, per language: a comma-separated list
 * under these keys ("exit" for Extractions: the category is named "Extractions" but players say
 * exit or exfil).
 */
export const SEARCH_ALIAS_KEYS: Readonly<Record<string, string>> = {
  Extractions: 'panels.search.aliases.extractions',
  Transition: 'panels.search.aliases.transition',
  'Key Spawn': 'panels.search.aliases.keySpawn',
  Unlock: 'panels.search.aliases.unlock',
  Loot: 'panels.search.aliases.loot',
};

function aliases(t: TFunction, id: string): string[] {
  const key = SEARCH_ALIAS_KEYS[id];
  return key ? t(key).split(',').map((a) => a.trim()).filter(Boolean) : [];
}

/** The ids the text names: the markers of those subcategories, quests and categories match too. */
export function namedByText(t: TFunction, lang: Language, quests: readonly Pick<Quest, 'uid' | 'name' | 'ruName'>[], text: string): NamedByText {
  const categories = CATEGORIES.map((c) => [c.id, [categoryLabel(t, c.id), c.id, ...aliases(t, c.id)]] as const);
  const subCategories = CATEGORIES.flatMap((c) => c.subCategories).map((s) => [s.id, [subCategoryLabel(t, s.id), s.id, ...aliases(t, s.id)]] as const);
  const questNames = quests.map((q) => [q.uid, [questName(q, lang), q.name]] as const);
  return {
    subCategories: namedIds(subCategories, text),
    quests: namedIds(questNames, text),
    categories: namedIds(categories, text),
  };
}
