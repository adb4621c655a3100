/**
 * The site's own map link for a quest (the Quests page): `?follow=` adds the quest to what the
 * tab follows on that map and shows where its markers are (useQuestUrl.ts, docs/DECISIONS.md
 * "The Quests page's map link adds its quest"); a shared link's `?quest=` replaces instead.
 * Apart from useQuestUrl so the Quests page does not load the map page's modules with it.
 */
export const FOLLOW_PARAM = 'follow';

export function questMapLink(mapId: string, questUid: string): string {
  return `/map/${encodeURIComponent(mapId)}?${FOLLOW_PARAM}=${encodeURIComponent(questUid)}`;
}
