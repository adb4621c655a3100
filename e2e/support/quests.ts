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

/** Every quest with markers on `mapId`, in the server's order; throws when the seed has fewer than `atLeast`. */
export function questsWithMarkersOn(catalogue: QuestCatalogue, mapId: string, atLeast: number): Quest[] {
  const found = catalogue.quests.filter((q) => catalogue.maps[q.uid]?.includes(mapId));
  if (found.length < atLeast) throw new Error(`need ${atLeast} quests with markers on ${mapId}, found ${found.length}`);
  return found;
}

/** The first `count` quests with markers on `mapId`; throws when the seed has fewer. */
export function questsOnMap(catalogue: QuestCatalogue, mapId: string, count: number): Quest[] {
  return questsWithMarkersOn(catalogue, mapId, count).slice(0, count);
}

export const questUids = (list: readonly Quest[]): string[] => list.map((q) => q.uid);
