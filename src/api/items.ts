import { getJson } from './client';

/** An item cache entry (spec §3 Item). */
export interface Item {
  uid: string;
  name: string;
  ruName: string;
}

export async function fetchItems(signal?: AbortSignal): Promise<Item[]> {
  const body = await getJson<{ items?: Item[] }>('/api/be/items', { signal });
  return Array.isArray(body?.items) ? body.items : [];
}
