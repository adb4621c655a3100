import { getJson } from './client';

import type { Item } from '../domain/quests';

export type { Item };

export async function fetchItems(signal?: AbortSignal): Promise<Item[]> {
  const body = await getJson<{ items?: Item[] }>('/api/be/items', { signal });
  return Array.isArray(body?.items) ? body.items : [];
}
