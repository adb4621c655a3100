import { getJson } from './client';

/** A quest cache entry (spec §3 Quest). */
export interface Quest {
  uid: string;
  name: string;
  ruName: string;
  trader: string;
  requiredForKappa: boolean;
  requiredForLightkeeper: boolean;
  wikiUrl: string;
}

export async function fetchQuests(signal?: AbortSignal): Promise<Quest[]> {
  const body = await getJson<{ quests?: Quest[] }>('/api/be/quests', { signal });
  return Array.isArray(body?.quests) ? body.quests : [];
}
