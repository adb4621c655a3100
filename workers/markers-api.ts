/**
 * What the markers worker answers, over its store: the calls comlink exposes
 * (markers.worker.ts), with typed arrays transferred and uids and labels packed
 * (src/domain/marker-columns.ts: two strings, not one per marker). The page's side is
 * src/ui/map/markerSource.ts. Without side effects, so tests serve it over a MessageChannel.
 */
import * as Comlink from 'comlink';
import type { HeldChange } from '../src/domain/list-replay';
import type { Language } from '../src/domain/marker';
import { packColumns, packedColumnBuffers, packStrings } from '../src/domain/marker-columns';
import type { MarkerFilterQuery, MarkerFindQuery, MarkerStore } from './markers';

export function markersWorkerApi(store: MarkerStore) {
  return {
    /** `replay`: changes put back on top of the list (src/domain/list-replay.ts). */
    load(buffer: ArrayBuffer, mapId: string, lang: Language, replay?: readonly HeldChange[]) {
      const result = store.load(buffer, mapId, lang, replay);
      const columns = packColumns(result.columns);
      return Comlink.transfer({ ...result, columns }, packedColumnBuffers(columns));
    },
    filter(query: MarkerFilterQuery) {
      const indices = store.filter(query);
      return Comlink.transfer(indices, [indices.buffer as ArrayBuffer]);
    },
    get: (uid: string) => store.get(uid),
    /** The full marker, 'fetch' (only its compact record is here), or null (no such marker). */
    lookup: (uid: string) => store.lookup(uid),
    /** Keeps a full marker read from the server; answers the copy to use (or null). */
    remember: (raw: unknown) => store.remember(raw),
    relabel(lang: Language, compact?: ArrayBuffer) {
      const labels = packStrings(store.relabel(lang, compact));
      return Comlink.transfer(labels, [labels.lengths.buffer as ArrayBuffer]);
    },
    /** One marker in (validated): its slot, its row for the engine, the counts after. */
    upsert: (raw: unknown, lang: Language) => store.upsert(raw, lang),
    /** Empties a marker's slot; null for an unknown uid. */
    remove: (uid: string) => store.remove(uid),
    /** Markers whose label contains the text, best first (the left panel's Find a marker). */
    search: (text: string, limit: number) => store.search(text, limit),
    /** Markers by label, type or quest, best first, each with its place; and how many match (Find a marker). */
    find: (query: MarkerFindQuery) => store.find(query),
  };
}

export type MarkersWorkerApi = ReturnType<typeof markersWorkerApi>;
