/**
 * Table types for Kysely. Columns are snake_case; JSON values are stored as text so that
 * SQLite and PostgreSQL share one schema. Booleans are 0/1 integers for the same reason.
 */
import type { Generated } from 'kysely';

export interface MarkersTable {
  uid: string;
  map: string;
  category: string;
  sub_category: string;
  level: number;
  x: number;
  y: number;
  name: string;
  desc: string;
  /** JSON: MarkerImage[] */
  imgs: string;
  /** JSON: { en?, ru? } */
  name_l10n: string;
  desc_l10n: string;
  quest_uid: string | null;
  /** JSON: string[] */
  items_uid: string;
  /** JSON object: fields of the marker outside the spec's list, passed through as given. */
  extra: string;
  /** ISO 8601 UTC. */
  created_at: string;
  updated_at: string;
  /** Server-managed, ≥ 1; + 1 on every write (migration 0003). */
  version: Generated<number>;
}

/** One add, update or delete of a marker (migration 0003). */
export interface MarkerHistoryTable {
  id: Generated<number>;
  marker_uid: string;
  map: string;
  /** 'add' | 'update' | 'delete' */
  action: string;
  /** The acting account's name; null for writes without one (scripts, tests). */
  user_name: string | null;
  /** ISO 8601 UTC. */
  at: string;
  /** The marker's version after this change (for a delete: the deleted version + 1). */
  version: number;
  /** JSON: the Marker before (null for an add) and after (null for a delete). */
  before: string | null;
  after: string | null;
}

export interface QuestsTable {
  uid: string;
  name: string;
  ru_name: string;
  trader: string;
  required_for_kappa: number;
  required_for_lightkeeper: number;
  wiki_url: string;
  /** Order in the source list (stable output order). */
  position: Generated<number>;
}

export interface ItemsTable {
  uid: string;
  name: string;
  ru_name: string;
  position: Generated<number>;
}

export interface Database {
  markers: MarkersTable;
  quests: QuestsTable;
  items: ItemsTable;
  marker_history: MarkerHistoryTable;
}
