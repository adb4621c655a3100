/**
 * Showing a quest's markers turns back on the category filters that hide them (docs/DECISIONS.md
 * "Showing a quest's markers the filters hide"): the quest list's Show and the Quests page's map
 * link ask to see them, as Find a marker asks to see the marker chosen (which shows its category
 * too). It is never silent: the quest list says what was turned back on, with Undo (QuestList.tsx),
 * and the page's live region says it, as the panels fold away on a phone. Kept until the user
 * hides one of them again, says OK, or the map page goes.
 */
import { proxy, ref, subscribe } from 'valtio';
import { filtersHiding, joinFilters, namedFilters, noFilters, stillOn, type FiltersOn, type HiddenFilters, type MarkerKind } from '../../domain/filters-hiding';
import { i18n } from '../../i18n';
import { filters, setFiltersHidden } from '../../state/filters';
import { announce } from '../LiveAnnouncer';
import { categoryLabel, subCategoryLabel } from './labels';

export interface QuestFiltersOn {
  /** The map whose filters were changed. */
  mapId: string;
  on: FiltersOn;
}

export const questFiltersOn = proxy<{ last: QuestFiltersOn | null }>({ last: null });

/** The note still stands: same map, and none of what it turned on was hidden again. */
export function filtersNoteStands(last: QuestFiltersOn | null, state: HiddenFilters & { mapId: string | null } = filters): last is QuestFiltersOn {
  return !!last && state.mapId === last.mapId && stillOn(last.on, state);
}

// Once one of them is hidden again (or the map changes) the note is gone for good: showing that
// filter again later is the user's own doing, nothing to undo.
subscribe(filters, () => {
  if (questFiltersOn.last && !filtersNoteStands(questFiltersOn.last)) questFiltersOn.last = null;
});

/** "Quests, Key spawn": what was turned back on, in the current language. */
export function filtersOnText(on: FiltersOn, t = i18n.t): string {
  const named = namedFilters(on);
  const names = [...named.categories.map((id) => categoryLabel(t, id)), ...named.subCategories.map((id) => subCategoryLabel(t, id))].join(', ');
  return t('panels.questFiltersOn', { names });
}

/** Turns on the filters that hide these markers (a quest's), noting them for Undo; false when none hid them. */
export function showHiddenQuestMarkers(kinds: readonly MarkerKind[]): boolean {
  const mapId = filters.mapId;
  const hiding = filtersHiding(kinds, filters);
  if (!mapId || noFilters(hiding)) return false;
  setFiltersHidden(hiding, false);
  // A second Show while the first's note stands adds to it: one Undo hides both again.
  const last = questFiltersOn.last;
  const on = filtersNoteStands(last) ? joinFilters(last.on, hiding) : hiding;
  questFiltersOn.last = ref({ mapId, on });
  announce(filtersOnText(on));
  return true;
}

/** Undo: what was turned back on is hidden again (the quest stays followed). */
export function undoQuestFiltersOn(): void {
  const last = questFiltersOn.last;
  questFiltersOn.last = null;
  if (filtersNoteStands(last)) setFiltersHidden(last.on, true);
}

export function forgetQuestFiltersOn(): void {
  questFiltersOn.last = null;
}
