import { getJson } from './client';

import type { Quest } from '../domain/quests';

export type { Quest };

export async function fetchQuests(signal?: AbortSignal): Promise<Quest[]> {
  const body = await getJson<{ quests?: Quest[] }>('/api/be/quests', { signal });
  return Array.isArray(body?.quests) ? body.quests : [];
}
