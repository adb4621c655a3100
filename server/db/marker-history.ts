/**
 * Marker history (docs/EDITOR.md "Server"): one `marker_history` row per add, update and
 * delete, written by MarkerRepository inside the same transaction as the change itself.
 */
import type { Kysely, Selectable } from 'kysely';
import type { Marker } from '../../src/domain/marker';
import type { Database, MarkerHistoryTable } from './schema';

export type MarkerHistoryAction = 'add' | 'update' | 'delete';

/** One change of one marker, as `GET /api/be/admin/marker/:uid/history` answers it. */
export interface HistoryEntry {
  id: number;
  uid: string;
  map: string;
  action: MarkerHistoryAction;
  /** The acting account's name; null for writes made without one (scripts, tests). */
  user: string | null;
  /** ISO 8601 UTC. */
  at: string;
  /** The marker's version after the change; for a delete, the deleted version + 1. */
  version: number;
  /** The marker before the change (null for an add) and after it (null for a delete). */
  before: Marker | null;
  after: Marker | null;
}

/** Most rows one history request answers. */
export const HISTORY_LIMIT = 100;

function parseMarker(text: string | null): Marker | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Marker) : null;
  } catch {
    return null;
  }
}

export function historyRowToEntry(row: Selectable<MarkerHistoryTable>): HistoryEntry {
  return {
    id: Number(row.id),
    uid: row.marker_uid,
    map: row.map,
    action: row.action as MarkerHistoryAction,
    user: row.user_name,
    at: row.at,
    version: Number(row.version),
    before: parseMarker(row.before),
    after: parseMarker(row.after),
  };
}

/** A history row to write: an entry before the database gives it its id. */
export type HistoryWrite = Omit<HistoryEntry, 'id'>;

/** Writes one history row through `executor` (the caller's transaction). */
export async function writeHistory(executor: Kysely<Database>, entry: HistoryWrite): Promise<void> {
  await executor
    .insertInto('marker_history')
    .values({
      marker_uid: entry.uid,
      map: entry.map,
      action: entry.action,
      user_name: entry.user,
      at: entry.at,
      version: entry.version,
      before: entry.before ? JSON.stringify(entry.before) : null,
      after: entry.after ? JSON.stringify(entry.after) : null,
    })
    .execute();
}

/** The highest version any history row of `uid` carries (0 when it has none). */
export async function lastHistoryVersion(executor: Kysely<Database>, uid: string): Promise<number> {
  const row = await executor
    .selectFrom('marker_history')
    .select((eb) => eb.fn.max('version').as('v'))
    .where('marker_uid', '=', uid)
    .executeTakeFirst();
  return Number(row?.v ?? 0) || 0;
}

/** A marker's history, newest first, at most `limit` rows (capped at HISTORY_LIMIT). */
export async function readHistory(executor: Kysely<Database>, uid: string, limit = HISTORY_LIMIT): Promise<HistoryEntry[]> {
  const rows = await executor
    .selectFrom('marker_history')
    .selectAll()
    .where('marker_uid', '=', uid)
    .orderBy('id', 'desc')
    .limit(Math.max(1, Math.min(HISTORY_LIMIT, Math.floor(limit) || HISTORY_LIMIT)))
    .execute();
  return rows.map(historyRowToEntry);
}
