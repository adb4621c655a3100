/**
 * The changes of stored markers kept for the next admin (`KeptChange`: a move, edit or delete
 * an ended session refused, kept when the editor closed for an account without admin rights,
 * ui/map/signInToSave.ts) as the tab stores them across a reload (sessionStorage
 * `map:keptForAdmin`): per map, its changes, each with the server's copy it was made on and
 * the version it is sent on. Only markers: never a password or a token.
 *
 * The stored text may be old, cut short or written by another version of the page: whatever is
 * not one well-formed change of the map it is filed under is left out, never sent.
 */
import { markerSchema, type Marker } from '../domain/marker';
import type { KeptChange } from './commands';

export const KEPT_FOR_ADMIN_STORAGE_KEY = 'map:keptForAdmin';

/** What is stored: per map id, its kept changes. */
export type StoredKeptChanges = Record<string, KeptChange[]>;

const isVersion = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** One stored change of `mapId`, or null when it is not one (a bad marker, another uid or map, a bad version). */
export function parseKeptChange(value: unknown, mapId: string): KeptChange | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const { uid, base, marker, basedOn } = value as Record<string, unknown>;
  if (typeof uid !== 'string' || uid === '') return null;
  if (!markerSchema.safeParse(base).success) return null;
  const stored = base as Marker;
  if (stored.uid !== uid || stored.map !== mapId) return null;
  // Null: a delete. Otherwise the marker wanted, of the same uid and map.
  if (marker !== null) {
    if (!markerSchema.safeParse(marker).success) return null;
    const wanted = marker as Marker;
    if (wanted.uid !== uid || wanted.map !== mapId) return null;
  }
  // Left out (undefined): sent without a version, as the live change would have been.
  if (basedOn !== undefined && !isVersion(basedOn)) return null;
  return { uid, base: copy(stored), marker: marker === null ? null : copy(marker as Marker), basedOn };
}

/** Every map's well-formed kept changes (one per uid: the first); unreadable text reads as none. */
export function parseKeptChanges(text: string | null): KeptChange[] {
  if (!text) return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  const kept: KeptChange[] = [];
  const seen = new Set<string>();
  for (const [mapId, list] of Object.entries(value as Record<string, unknown>)) {
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const change = parseKeptChange(item, mapId);
      if (!change || seen.has(change.uid)) continue;
      seen.add(change.uid);
      kept.push(change);
    }
  }
  return kept;
}

/** The text to store for `changes`, filed by map (null: nothing to keep, the entry is removed). */
export function storedKeptChanges(changes: readonly KeptChange[]): string | null {
  if (changes.length === 0) return null;
  const byMap: StoredKeptChanges = {};
  for (const change of changes) (byMap[change.base.map] ??= []).push(copy(change));
  return JSON.stringify(byMap);
}
