/**
 * The ids the map page's skip links (src/ui/map/SkipLinks.tsx) move the focus to, set by the
 * components that own them: Find a marker's field (its search region while the field waits for
 * the markers), the quest list's heading, the admin's tools panel.
 */
export const SKIP_TARGETS = {
  searchInput: 'map-search-input',
  search: 'map-search',
  quests: 'quest-list-title',
  adminTools: 'admin-tools',
} as const;
