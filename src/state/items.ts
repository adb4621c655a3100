/**
 * Lookup caches the marker popup and the quests page name things with: the item cache
 * (`GET /api/be/items`) and the maps each quest has markers on (`GET /api/be/quests/maps`).
 * Quest names come from the quest cache in `state/quests.ts`. Each list is fetched once per
 * page session; a failed fetch is tried again the next time it is asked for.
 */
import { proxy, ref } from 'valtio';
import { getJson } from '../api/client';
import { fetchItems, type Item } from '../api/items';
import type { Language } from '../domain/marker';
import { questName, type Quest } from '../domain/quests';

export type CacheStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface LookupState {
  itemsStatus: CacheStatus;
  /** Items by uid (replaced as a whole, never edited, so kept out of valtio's tracking). */
  items: Readonly<Record<string, Item>>;
  questMapsStatus: CacheStatus;
  /** Map ids where each quest has markers, by quest uid. */
  questMaps: Readonly<Record<string, readonly string[]>>;
}

export const lookups = proxy<LookupState>({
  itemsStatus: 'idle',
  items: ref({} as Record<string, Item>),
  questMapsStatus: 'idle',
  questMaps: ref({} as Record<string, string[]>),
});

/** `GET /api/be/quests/maps` → map ids by quest uid (anything malformed is dropped). */
export async function fetchQuestMaps(signal?: AbortSignal): Promise<Record<string, string[]>> {
  const body = await getJson<{ maps?: unknown }>('/api/be/quests/maps', { signal });
  const maps: Record<string, string[]> = {};
  if (!body?.maps || typeof body.maps !== 'object') return maps;
  for (const [uid, list] of Object.entries(body.maps as Record<string, unknown>)) {
    if (Array.isArray(list)) maps[uid] = list.filter((id): id is string => typeof id === 'string');
  }
  return maps;
}

let itemsRequest: Promise<void> | null = null;
let questMapsRequest: Promise<void> | null = null;

/** Loads the item cache once; later calls share the first request. */
export function loadItems(): Promise<void> {
  if (itemsRequest && lookups.itemsStatus !== 'error') return itemsRequest;
  lookups.itemsStatus = 'loading';
  itemsRequest = fetchItems()
    .then((list) => {
      lookups.items = ref(Object.fromEntries(list.map((item) => [item.uid, item])));
      lookups.itemsStatus = 'ready';
    })
    .catch((error: unknown) => {
      lookups.itemsStatus = 'error';
      console.warn('raidmap: the item list could not be loaded', error);
    });
  return itemsRequest;
}

/** Loads which maps each quest has markers on, once (see loadItems). */
export function loadQuestMaps(): Promise<void> {
  if (questMapsRequest && lookups.questMapsStatus !== 'error') return questMapsRequest;
  lookups.questMapsStatus = 'loading';
  questMapsRequest = fetchQuestMaps()
    .then((maps) => {
      lookups.questMaps = ref(maps);
      lookups.questMapsStatus = 'ready';
    })
    .catch((error: unknown) => {
      lookups.questMapsStatus = 'error';
      console.warn('raidmap: the maps of the quests could not be loaded', error);
    });
  return questMapsRequest;
}

/** An item's name in `lang` (Russian name in ru, else the name); the uid when it is unknown. */
export function itemName(items: Readonly<Record<string, Item>>, uid: string, lang: Language): string {
  const item = items[uid];
  if (!item) return uid;
  return lang === 'ru' ? item.ruName || item.name : item.name;
}

/** A quest's name in `lang` from the quest list; the uid when it is unknown. */
export function questLabel(list: readonly Quest[], uid: string, lang: Language): string {
  const quest = list.find((q) => q.uid === uid);
  return quest ? questName(quest, lang) : uid;
}

/** Forgets both caches (tests). */
export function resetLookups(): void {
  itemsRequest = null;
  questMapsRequest = null;
  lookups.itemsStatus = 'idle';
  lookups.items = ref({} as Record<string, Item>);
  lookups.questMapsStatus = 'idle';
  lookups.questMaps = ref({} as Record<string, string[]>);
}
