/**
 * A MarkerSource that runs the worker's pure store in-process, for tests (no Worker in node or
 * jsdom). Like the real source, a compact list's full markers are read with fetchMarker and its
 * labels in another language with fetchCompactMarkers (msw answers both in component tests).
 */
import { fetchCompactMarkers, fetchMarker } from '../../../api/markers';
import { createMarkerStore } from '../../../../workers/markers';
import type { MarkerSource } from '../markerSource';

export function createLocalMarkerSource(): MarkerSource & { disposed: boolean } {
  const store = createMarkerStore();
  let loaded: { mapId: string; format: 'full' | 'compact' } | null = null;
  const source = {
    disposed: false,
    load: async (buffer: ArrayBuffer, mapId: string, lang: 'en' | 'ru') => {
      const result = store.load(buffer, mapId, lang);
      loaded = { mapId, format: result.format };
      return result;
    },
    filter: async (query: Parameters<MarkerSource['filter']>[0]) => store.filter(query),
    // In-process: nothing to save by asking early.
    prefilter: () => undefined,
    get: async (uid: string) => {
      const found = store.lookup(uid);
      if (found !== 'fetch') return found;
      const raw = await fetchMarker(uid);
      return raw === null ? null : store.remember(raw);
    },
    relabel: async (lang: 'en' | 'ru') => {
      const compact = loaded?.format === 'compact' ? await fetchCompactMarkers(loaded.mapId, lang).catch(() => undefined) : undefined;
      return store.relabel(lang, compact);
    },
    upsert: async (raw: unknown, lang: 'en' | 'ru') => store.upsert(raw, lang),
    remove: async (uid: string) => store.remove(uid),
    search: async (text: string, limit: number) => store.search(text, limit),
    find: async (query: Parameters<MarkerSource['find']>[0]) => store.find(query),
    dispose: () => {
      source.disposed = true;
    },
  };
  return source;
}
