/**
 * Where the marker-list caches get their bodies: the full `{ markers }` list of a map and its
 * compact list per language (server/app.ts). Two kinds:
 *
 * - inline: built on the calling thread from the repository (tests, `:memory:` databases);
 * - worker: built on a worker thread with its own database connection
 *   (worker-list-source.ts), so a rebuild after a write never holds the event loop. At 10,000
 *   markers one rebuild is about 90 ms of JSON and hashing; at 100,000, about a second.
 */
import type { Language } from '../../src/domain/marker';
import type { MarkerRepository } from '../db/markers';
import { prepareBody, type PreparedBody } from './prepared-body';

export interface MarkerListSource {
  /** `{"markers":[…]}` of a map (spec §7 list call). */
  full(map: string): Promise<PreparedBody>;
  /** The compact list of a map in a language (src/domain/compact-markers.ts). */
  compact(map: string, lang: Language): Promise<PreparedBody>;
  close(): Promise<void>;
}

export type ListKind = 'full' | 'compact';

/** One list, built from a repository: what both kinds of source run. */
export async function buildList(markers: Pick<MarkerRepository, 'listJsonByMap' | 'compactJsonByMap'>, kind: ListKind, map: string, lang: Language): Promise<string> {
  return kind === 'full' ? markers.listJsonByMap(map) : markers.compactJsonByMap(map, lang);
}

export function inlineListSource(markers: Pick<MarkerRepository, 'listJsonByMap' | 'compactJsonByMap'>): MarkerListSource {
  return {
    full: async (map) => prepareBody(await buildList(markers, 'full', map, 'en')),
    compact: async (map, lang) => prepareBody(await buildList(markers, 'compact', map, lang)),
    close: async () => {},
  };
}
