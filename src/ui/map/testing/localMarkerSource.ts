/** A MarkerSource that runs the worker's pure store in-process, for tests (no Worker in node or jsdom). */
import { createMarkerStore } from '../../../../workers/markers';
import type { MarkerSource } from '../markerSource';

export function createLocalMarkerSource(): MarkerSource & { disposed: boolean } {
  const store = createMarkerStore();
  const source = {
    disposed: false,
    load: async (buffer: ArrayBuffer, mapId: string, lang: 'en' | 'ru') => store.load(buffer, mapId, lang),
    filter: async (query: Parameters<MarkerSource['filter']>[0]) => store.filter(query),
    get: async (uid: string) => store.get(uid),
    relabel: async (lang: 'en' | 'ru') => store.relabel(lang),
    upsert: async (raw: unknown, lang: 'en' | 'ru') => store.upsert(raw, lang),
    remove: async (uid: string) => store.remove(uid),
    dispose: () => {
      source.disposed = true;
    },
  };
  return source;
}
