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
  /** The compact list of a map in a language, JSON (src/domain/compact-markers.ts) or binary (compact-binary.ts). */
  compact(map: string, lang: Language, format: CompactFormat): Promise<PreparedBody>;
  close(): Promise<void>;
}

export type CompactFormat = 'json' | 'binary';
export const COMPACT_FORMATS: readonly CompactFormat[] = ['json', 'binary'];
export type ListKind = 'full' | 'compact' | 'compact-binary';
export type ListRepository = Pick<MarkerRepository, 'listJsonByMap' | 'compactJsonByMap' | 'compactBinaryByMap'>;

/** The list kind of a compact format. */
export function compactKind(format: CompactFormat): ListKind {
  return format === 'binary' ? 'compact-binary' : 'compact';
}

/** One list, built from a repository: what both kinds of source run. JSON lists are text, the binary one bytes. */
export async function buildList(markers: ListRepository, kind: ListKind, map: string, lang: Language): Promise<string | Uint8Array> {
  if (kind === 'full') return markers.listJsonByMap(map);
  return kind === 'compact' ? markers.compactJsonByMap(map, lang) : markers.compactBinaryByMap(map, lang);
}

export function inlineListSource(markers: ListRepository): MarkerListSource {
  return {
    full: async (map) => prepareBody(await buildList(markers, 'full', map, 'en')),
    compact: async (map, lang, format) => prepareBody(await buildList(markers, compactKind(format), map, lang)),
    close: async () => {},
  };
}
