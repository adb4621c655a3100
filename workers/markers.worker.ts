/** The markers worker: the pure marker store behind one comlink `expose`, with typed arrays transferred. */
import '../src/domain/no-eval';
import * as Comlink from 'comlink';
import type { Language } from '../src/domain/marker';
import { type MarkerFilterQuery, createMarkerStore } from './markers';

const store = createMarkerStore();

const api = {
  load(buffer: ArrayBuffer, mapId: string, lang: Language) {
    const result = store.load(buffer, mapId, lang);
    const { x, y, level, icon, alwaysLabel } = result.columns;
    return Comlink.transfer(result, [x.buffer, y.buffer, level.buffer, icon.buffer, alwaysLabel.buffer] as ArrayBuffer[]);
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
  relabel: (lang: Language, compact?: ArrayBuffer) => store.relabel(lang, compact),
  /** One marker in (validated): its slot, its row for the engine, the counts after. */
  upsert: (raw: unknown, lang: Language) => store.upsert(raw, lang),
  /** Empties a marker's slot; null for an unknown uid. */
  remove: (uid: string) => store.remove(uid),
};

export type MarkersWorkerApi = typeof api;

Comlink.expose(api);
