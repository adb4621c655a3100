/**
 * The server's quests and the maps their markers are on, for e2e tests that follow quests.
 */
import type { Quest } from '../../src/domain/quests';

export interface QuestCatalogue {
  quests: Quest[];
  /** Quest uid → the maps its markers are on. */
  maps: Record<string, string[]>;
}

/** Reads `/api/be/quests` and `/api/be/quests/maps` of the server at `baseUrl`. */
export async function questCatalogue(baseUrl: string): Promise<QuestCatalogue> {
  const [quests, maps] = await Promise.all([
    fetch(`${baseUrl}/api/be/quests`).then((r) => r.json() as Promise<{ quests: Quest[] }>),
    fetch(`${baseUrl}/api/be/quests/maps`).then((r) => r.json() as Promise<{ maps: Record<string, string[]> }>),
  ]);
  return { quests: quests.quests, maps: maps.maps };
}

/** The first `count` quests with markers on `mapId`; throws when the seed has fewer. */
export function questsOnMap(catalogue: QuestCatalogue, mapId: string, count: number): Quest[] {
  const found = catalogue.quests.filter((q) => catalogue.maps[q.uid]?.includes(mapId)).slice(0, count);
  if (found.length < count) throw new Error(`need ${count} quests with markers on ${mapId}, found ${found.length}`);
  return found;
}

export const questUids = (list: readonly Quest[]): string[] => list.map((q) => q.uid);
