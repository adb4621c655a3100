/**
 * The main thread's handle on the markers worker. The marker list lives in the worker;
 * this side sends it the raw bytes (transferred) and gets typed arrays and index lists back.
 */
import * as Comlink from 'comlink';
import type { Language, Marker } from '../../domain/marker';
import type { MarkerFilterQuery, MarkerLoadResult } from '../../../workers/markers';
import type { MarkersWorkerApi } from '../../../workers/markers.worker';

export interface MarkerSource {
  load(buffer: ArrayBuffer, mapId: string, lang: Language): Promise<MarkerLoadResult>;
  filter(query: MarkerFilterQuery): Promise<Uint32Array>;
  get(uid: string): Promise<Marker | null>;
  relabel(lang: Language): Promise<string[]>;
  dispose(): void;
}

export function createMarkerSource(): MarkerSource {
  const worker = new Worker(new URL('../../../workers/markers.worker.ts', import.meta.url), { type: 'module', name: 'markers' });
  const remote = Comlink.wrap<MarkersWorkerApi>(worker);
  return {
    load: (buffer, mapId, lang) => remote.load(Comlink.transfer(buffer, [buffer]), mapId, lang),
    filter: (query) => remote.filter(query),
    get: (uid) => remote.get(uid) as Promise<Marker | null>,
    relabel: (lang) => remote.relabel(lang),
    dispose: () => {
      remote[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}
