/**
 * Marker repository: maps rows ⇄ the domain Marker (src/domain/marker.ts) so routes never see
 * SQL. Writers tell subscribers which map changed (the list cache listens).
 *
 * Versions (docs/EDITOR.md "Server"): every marker carries a server-managed `version`. The
 * single-marker writes (insert, update, modify, remove) each run in one transaction: read the
 * row, check the expected version, write with a conditional `where uid = ? and version = ?`,
 * and add a `marker_history` row. Subscribers hear of a write only after its commit.
 */
import { sql, type Insertable, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import { encodeCompactBinary } from '../../src/domain/compact-binary';
import { type CompactMarkerList, type CompactSource, encodeCompactList } from '../../src/domain/compact-markers';
import type { Language, Marker, MarkerImage } from '../../src/domain/marker';
import { isMarkerField, passThroughIssue } from '../../src/domain/marker-bounds';
import type { Db } from './database';
import { HISTORY_LIMIT, lastHistoryVersion, readHistory, writeHistory, type HistoryEntry } from './marker-history';
import type { Database, MarkersTable } from './schema';

type MarkerRow = Selectable<MarkersTable>;

/**
 * A marker the repository will not store: its pass-through fields are beyond the bounds
 * (src/domain/marker-bounds.ts). Carries status 400, so a route that lets it through answers a
 * client error naming the field, never a 500.
 */
export class MarkerBoundsError extends Error {
  readonly statusCode = 400;
  constructor(readonly field: string, message: string) {
    super(`${field}: ${message}`);
    this.name = 'MarkerBoundsError';
  }
}

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/**
 * The row of a marker. Fields of the spec's Marker have their own columns; anything else goes to
 * `extra`, checked against the pass-through bounds first (an iterative walk: a deeply nested
 * value is refused with MarkerBoundsError before JSON.stringify could overflow the stack).
 */
export function markerToRow(marker: Marker, now: string): Insertable<MarkersTable> {
  const extra: Record<string, unknown> = {};
  let hasExtra = false;
  for (const [key, value] of Object.entries(marker)) {
    if (!isMarkerField(key) && value !== undefined) {
      extra[key] = value;
      hasExtra = true;
    }
  }
  if (hasExtra) {
    const issue = passThroughIssue(extra);
    if (issue) throw new MarkerBoundsError(issue.field, issue.message);
  }
  return {
    uid: marker.uid,
    map: marker.map,
    category: marker.category,
    sub_category: marker.subCategory,
    level: marker.level,
    x: marker.geometry.x,
    y: marker.geometry.y,
    name: marker.name,
    desc: marker.desc,
    imgs: JSON.stringify(marker.imgs),
    name_l10n: JSON.stringify(marker.name_l10n),
    desc_l10n: JSON.stringify(marker.desc_l10n),
    quest_uid: marker.questUid ?? null,
    items_uid: JSON.stringify(marker.itemsUid),
    extra: JSON.stringify(extra),
    created_at: now,
    updated_at: now,
  };
}

export function rowToMarker(row: MarkerRow): Marker {
  const extra = parseJson<Record<string, unknown>>(row.extra, {});
  return {
    // Pass-through fields first, so a stray key can never shadow a real column.
    ...(extra && typeof extra === 'object' && !Array.isArray(extra) ? extra : {}),
    uid: row.uid,
    map: row.map as Marker['map'],
    category: row.category,
    subCategory: row.sub_category,
    level: Number(row.level),
    geometry: { x: Number(row.x), y: Number(row.y) },
    name: row.name,
    desc: row.desc,
    imgs: parseJson<MarkerImage[]>(row.imgs, []),
    name_l10n: parseJson<Marker['name_l10n']>(row.name_l10n, {}),
    desc_l10n: parseJson<Marker['desc_l10n']>(row.desc_l10n, {}),
    questUid: row.quest_uid,
    itemsUid: parseJson<string[]>(row.items_uid, []),
    version: Number(row.version),
  };
}

/** The stored pass-through fields of a marker (everything outside the spec's list and version). */
function passThroughOf(marker: Marker): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(marker)) if (!isMarkerField(key)) extra[key] = value;
  return extra;
}

const COLUMNS = [
  'uid', 'map', 'category', 'sub_category', 'level', 'x', 'y', 'name', 'desc', 'imgs', 'name_l10n',
  'desc_l10n', 'quest_uid', 'items_uid', 'extra', 'created_at', 'updated_at',
] as const satisfies readonly (keyof MarkersTable)[];

/**
 * SQLite bulk insert through one prepared statement: several times faster than building
 * multi-row statements. Runs inside the caller's transaction when one is open.
 */
function insertWithPreparedStatement(sqlite: NonNullable<Db['sqlite']>, markers: readonly Marker[], now: string): void {
  const statement = sqlite.prepare(
    `insert into markers (${COLUMNS.map((c) => `"${c}"`).join(', ')}) values (${COLUMNS.map(() => '?').join(', ')})`,
  );
  const run = () => {
    for (const marker of markers) {
      const row = markerToRow(marker, now);
      statement.run(COLUMNS.map((c) => row[c] ?? null));
    }
  };
  if (sqlite.inTransaction) run();
  else sqlite.transaction(run)();
}

/**
 * SQL that renders one marker row as its JSON text inside the database (C code, no per-row
 * JavaScript): the same object as rowToMarker for rows without pass-through fields.
 */
function markerJsonSql(dialect: Db['dialect']): RawBuilder<string> {
  if (dialect === 'postgres') {
    return sql<string>`json_build_object(
      'uid', uid, 'map', map, 'category', category, 'subCategory', sub_category, 'level', level,
      'geometry', json_build_object('x', x, 'y', y), 'name', name, 'desc', "desc", 'imgs', imgs::json,
      'name_l10n', name_l10n::json, 'desc_l10n', desc_l10n::json, 'questUid', quest_uid, 'itemsUid', items_uid::json,
      'version', version)::text`;
  }
  const json = (column: string, empty: string) => sql.raw(`case when json_valid(${column}) then json(${column}) else json('${empty}') end`);
  return sql<string>`json_object(
    'uid', uid, 'map', map, 'category', category, 'subCategory', sub_category, 'level', level,
    'geometry', json_object('x', x, 'y', y), 'name', name, 'desc', "desc", 'imgs', ${json('imgs', '[]')},
    'name_l10n', ${json('name_l10n', '{}')}, 'desc_l10n', ${json('desc_l10n', '{}')}, 'questUid', quest_uid,
    'itemsUid', ${json('items_uid', '[]')}, 'version', version)`;
}

export type MarkersChangedListener = (map: string) => void;

/**
 * What one committed single-marker write did to one map (the live stream's message, see
 * docs/EDITOR.md; src/api/live.ts has the client's copy of this type). An update that moves a
 * marker to another map is a remove on the old map and an upsert on the new one.
 */
export type MarkerChange =
  | { kind: 'upsert'; map: string; marker: Marker; by: string | null }
  | { kind: 'remove'; map: string; uid: string; version: number; by: string | null };

export type MarkerChangeListener = (change: MarkerChange) => void;

export interface MarkerWriteOptions {
  /** The version the write was based on: another stored version answers `conflict`. Omitted: unconditional. */
  expectedVersion?: number;
  /** The acting account's name, for the history row and the change event (`by`). */
  user?: string | null;
}

export interface MarkerUpdateOptions extends MarkerWriteOptions {
  /**
   * Runs inside the write's transaction with the stored marker before anything is written; it
   * may throw (an HttpError, say) to refuse the update. Runs again when the write is retried.
   */
  check?: (current: Marker) => void;
}

type Conflict = { ok: false; conflict: true; current: Marker; notFound?: never };
type NotFound = { ok: false; notFound: true; conflict?: never };

export type MarkerInsertResult = { ok: true; marker: Marker; conflict?: never; notFound?: never } | Conflict;
export type MarkerUpdateResult = { ok: true; marker: Marker; conflict?: never; notFound?: never } | Conflict | NotFound;
/** `version` of a removal: the deleted version + 1 (the version its history row carries). */
export type MarkerRemoveResult = { ok: true; uid: string; map: string; version: number; conflict?: never; notFound?: never } | Conflict | NotFound;

/** Thrown when a write lost the race to other writers this many times in a row (practically never). */
const MAX_ATTEMPTS = 50;
const RETRY = Symbol('retry');

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

export class MarkerRepository {
  private readonly listeners = new Set<MarkersChangedListener>();
  private readonly changeListeners = new Set<MarkerChangeListener>();
  private readonly batchSize: number;

  constructor(private readonly db: Db) {
    // 17 columns a row; keep every statement under the dialect's parameter limit.
    this.batchSize = Math.max(1, Math.min(2000, Math.floor(db.maxParams / 17)));
  }

  /** Calls `listener(map)` after markers of `map` were written. Returns the unsubscribe function. */
  onChange(listener: MarkersChangedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells subscribers that markers of these maps changed (call after committing your own transaction). */
  notifyChanged(maps: Iterable<string>): void {
    for (const map of new Set(maps)) for (const listener of this.listeners) listener(map);
  }

  /**
   * Calls `listener(change)` after each committed single-marker write (insert, update, modify,
   * remove; not the bulk insertMany). Returns the unsubscribe function.
   */
  onMarkerChange(listener: MarkerChangeListener): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  private emit(changes: MarkerChange[]): void {
    this.notifyChanged(changes.map((c) => c.map));
    for (const change of changes) {
      for (const listener of this.changeListeners) {
        try {
          listener(change);
        } catch (error) {
          // The write is committed; a failing subscriber must not turn it into an error.
          console.error('marker change listener failed', error);
        }
      }
    }
  }

  /**
   * Runs `attempt` in its own transaction until it answers something other than RETRY (a
   * conditional write that found the row changed under it); the next attempt reads afresh.
   */
  private async retrying<T>(attempt: (trx: Kysely<Database>, touch: (map: string) => void) => Promise<T | typeof RETRY>): Promise<T> {
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      const touched: string[] = [];
      let outcome: T | typeof RETRY;
      try {
        outcome = await this.db.kysely.transaction().execute((trx) => attempt(trx, (map) => touched.push(map)));
      } catch (error) {
        // Rolled back after a write: a list read meanwhile (SQLite's raw handle sees the open
        // transaction) must not stay cached.
        this.notifyChanged(touched);
        throw error;
      }
      if (outcome !== RETRY) return outcome;
    }
    throw new Error(`marker write gave up after ${MAX_ATTEMPTS} attempts: the marker kept changing`);
  }

  async listByMap(map: string): Promise<Marker[]> {
    const rows = await this.db.kysely.selectFrom('markers').selectAll().where('map', '=', map).orderBy('uid').execute();
    return rows.map(rowToMarker);
  }

  /** `{"markers":[…]}` for a map, as JSON text (the list endpoint's body). */
  async listJsonByMap(map: string): Promise<string> {
    // The database writes each plain row's JSON; rows with pass-through fields are merged here.
    const query = this.db.kysely
      .selectFrom('markers')
      .select(['uid', sql<string | null>`case when extra = '{}' then ${markerJsonSql(this.db.dialect)} end`.as('json')])
      .where('map', '=', map)
      .orderBy('uid');
    let rows: { uid: string; json: string | null }[];
    if (this.db.sqlite) {
      // Same SQL, run as row arrays on the handle: several times faster for 100,000 rows.
      const compiled = query.compile();
      const arrays = this.db.sqlite.prepare(compiled.sql).raw().all(...compiled.parameters) as [string, string | null][];
      rows = arrays.map(([uid, json]) => ({ uid, json }));
    } else {
      rows = await query.execute();
    }
    let withExtra = new Map<string, string>();
    if (rows.some((r) => r.json === null)) {
      const full = await this.db.kysely.selectFrom('markers').selectAll().where('map', '=', map).where('extra', '<>', '{}').execute();
      withExtra = new Map(full.map((r) => [r.uid, JSON.stringify(rowToMarker(r))]));
    }
    const parts = rows.map((r) => r.json ?? withExtra.get(r.uid)).filter((p): p is string => p !== undefined);
    return `{"markers":[${parts.join(',')}]}`;
  }

  /**
   * The compact list of a map in a language (issue 11, src/domain/compact-markers.ts), as JSON
   * text: only the columns the map draws and filters are read.
   */
  async compactJsonByMap(map: string, lang: Language): Promise<string> {
    return JSON.stringify(await this.compactListByMap(map, lang));
  }

  /** The same list in binary (src/domain/compact-binary.ts), what the map page reads. */
  async compactBinaryByMap(map: string, lang: Language): Promise<Uint8Array> {
    return encodeCompactBinary(await this.compactListByMap(map, lang));
  }

  private async compactListByMap(map: string, lang: Language): Promise<CompactMarkerList> {
    const query = this.db.kysely
      .selectFrom('markers')
      .select(['uid', 'category', 'sub_category', 'level', 'x', 'y', 'quest_uid', 'name', 'name_l10n'])
      .where('map', '=', map)
      .orderBy('uid');
    type Row = [string, string, string, number | string, number | string, number | string, string | null, string, string];
    let rows: Row[];
    if (this.db.sqlite) {
      const compiled = query.compile();
      rows = this.db.sqlite.prepare(compiled.sql).raw().all(...compiled.parameters) as Row[];
    } else {
      rows = (await query.execute()).map((r) => [r.uid, r.category, r.sub_category, r.level, r.x, r.y, r.quest_uid, r.name, r.name_l10n] as Row);
    }
    const sources: CompactSource[] = rows.map(([uid, category, subCategory, level, x, y, questUid, name, nameL10n]) => ({
      uid,
      category,
      subCategory,
      level: Number(level),
      geometry: { x: Number(x), y: Number(y) },
      name,
      // Most markers have no translations: skip the parse of '{}'.
      name_l10n: nameL10n === '{}' || !nameL10n ? {} : parseJson<Marker['name_l10n']>(nameL10n, {}),
      questUid,
    }));
    return encodeCompactList(sources, map, lang);
  }

  async get(uid: string): Promise<Marker | undefined> {
    const row = await this.db.kysely.selectFrom('markers').selectAll().where('uid', '=', uid).executeTakeFirst();
    return row ? rowToMarker(row) : undefined;
  }

  async count(map?: string): Promise<number> {
    let query = this.db.kysely.selectFrom('markers').select((eb) => eb.fn.countAll<number | string>().as('n'));
    if (map !== undefined) query = query.where('map', '=', map);
    const row = await query.executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Number of markers per map, for maps that have any. */
  async countByMap(): Promise<Record<string, number>> {
    const rows = await this.db.kysely
      .selectFrom('markers')
      .select((eb) => ['map', eb.fn.countAll<number | string>().as('n')])
      .groupBy('map')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.map, Number(r.n)]));
  }

  /**
   * Inserts markers in batches inside one transaction (all or nothing). Given an `executor`
   * (the caller's transaction), it writes there and leaves `notifyChanged` to the caller.
   */
  async insertMany(markers: readonly Marker[], executor?: Kysely<Database>): Promise<void> {
    if (markers.length === 0) return;
    const now = new Date().toISOString();
    const { sqlite } = this.db;
    // SQLite: the caller's transaction (executor) or none open → the prepared-statement path.
    // Another async transaction in flight → Kysely below, which waits for it.
    if (sqlite && (executor !== undefined || !sqlite.inTransaction)) {
      insertWithPreparedStatement(sqlite, markers, now);
      if (!executor) this.notifyChanged(markers.map((m) => m.map));
      return;
    }
    const write = async (trx: Kysely<Database>) => {
      for (let i = 0; i < markers.length; i += this.batchSize) {
        const rows = markers.slice(i, i + this.batchSize).map((m) => markerToRow(m, now));
        await trx.insertInto('markers').values(rows).execute();
      }
    };
    if (executor) {
      await write(executor);
      return;
    }
    await this.db.kysely.transaction().execute(write);
    this.notifyChanged(markers.map((m) => m.map));
  }

  /**
   * Adds one marker with its uid, in one transaction with its history row. Its version is 1,
   * or one more than the last history version of the uid when that uid existed before (undo
   * of a delete). A uid that exists answers `conflict` with the stored marker.
   */
  async insert(marker: Marker, options: Pick<MarkerWriteOptions, 'user'> = {}): Promise<MarkerInsertResult> {
    const user = options.user ?? null;
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      let outcome: MarkerInsertResult;
      try {
        outcome = await this.db.kysely.transaction().execute(async (trx) => {
          const existing = await trx.selectFrom('markers').selectAll().where('uid', '=', marker.uid).executeTakeFirst();
          if (existing) return { ok: false, conflict: true, current: rowToMarker(existing) } as const;
          const now = new Date().toISOString();
          const version = (await lastHistoryVersion(trx, marker.uid)) + 1;
          const row = await trx.insertInto('markers').values({ ...markerToRow(marker, now), version }).returningAll().executeTakeFirstOrThrow();
          const after = rowToMarker(row);
          await writeHistory(trx, { uid: after.uid, map: after.map, action: 'add', user, at: now, version, before: null, after });
          return { ok: true, marker: after } as const;
        });
      } catch (error) {
        // Another transaction added the same uid between our read and our insert: read again.
        if (isUniqueViolation(error)) continue;
        this.notifyChanged([marker.map]);
        throw error;
      }
      if (outcome.ok) this.emit([{ kind: 'upsert', map: outcome.marker.map, marker: outcome.marker, by: user }]);
      return outcome;
    }
    throw new Error(`marker insert gave up after ${MAX_ATTEMPTS} attempts`);
  }

  /**
   * Read-modify-write of one marker in one transaction: `mutate` gets the stored marker and
   * answers the new one (its uid and version are ignored; it may throw to cancel the write).
   * The row is written only if its version is still the one read (`where uid = ? and version = ?`);
   * when another writer got there first, the whole step runs again on the fresh row, so
   * concurrent unconditional writes are applied one after the other and none is lost. With
   * `expectedVersion`, a stored version other than it answers `conflict` instead.
   */
  async modify(uid: string, mutate: (current: Marker) => Marker, options: MarkerWriteOptions = {}): Promise<MarkerUpdateResult> {
    const user = options.user ?? null;
    let before: Marker | undefined;
    const outcome = await this.retrying<MarkerUpdateResult>(async (trx, touch) => {
      const row = await trx.selectFrom('markers').selectAll().where('uid', '=', uid).executeTakeFirst();
      if (!row) return { ok: false, notFound: true } as const;
      const current = rowToMarker(row);
      if (options.expectedVersion !== undefined && row.version !== options.expectedVersion) return { ok: false, conflict: true, current };
      const next = mutate(current);
      const now = new Date().toISOString();
      const { created_at: _created, uid: _uid, ...values } = markerToRow({ ...next, uid }, now);
      const version = Number(row.version) + 1;
      touch(current.map);
      touch(next.map);
      const written = await trx
        .updateTable('markers')
        .set({ ...values, version })
        .where('uid', '=', uid)
        .where('version', '=', row.version)
        .returningAll()
        .executeTakeFirst();
      if (!written) return RETRY;
      const after = rowToMarker(written);
      await writeHistory(trx, { uid, map: after.map, action: 'update', user, at: now, version, before: current, after });
      before = current;
      return { ok: true, marker: after } as const;
    });
    if (outcome.ok) {
      const changes: MarkerChange[] = [];
      if (before && before.map !== outcome.marker.map) changes.push({ kind: 'remove', map: before.map, uid, version: outcome.marker.version!, by: user });
      changes.push({ kind: 'upsert', map: outcome.marker.map, marker: outcome.marker, by: user });
      this.emit(changes);
    }
    return outcome;
  }

  /**
   * Replaces a marker's fields (keeps created_at and the stored pass-through fields the new
   * marker leaves out); version + 1. See `modify` for `expectedVersion`; `check` sees the stored
   * marker first. The kept and the new pass-through fields together must be within bounds
   * (MarkerBoundsError otherwise).
   */
  async update(marker: Marker, options: MarkerUpdateOptions = {}): Promise<MarkerUpdateResult> {
    const { check, ...writeOptions } = options;
    return this.modify(
      marker.uid,
      (current) => {
        check?.(current);
        return { ...passThroughOf(current), ...marker };
      },
      writeOptions,
    );
  }

  /** Deletes a marker, in one transaction with its history row. See `modify` for `expectedVersion`. */
  async remove(uid: string, options: MarkerWriteOptions = {}): Promise<MarkerRemoveResult> {
    const user = options.user ?? null;
    const outcome = await this.retrying<MarkerRemoveResult>(async (trx, touch) => {
      const row = await trx.selectFrom('markers').selectAll().where('uid', '=', uid).executeTakeFirst();
      if (!row) return { ok: false, notFound: true } as const;
      const current = rowToMarker(row);
      if (options.expectedVersion !== undefined && row.version !== options.expectedVersion) return { ok: false, conflict: true, current };
      touch(current.map);
      const deleted = await trx.deleteFrom('markers').where('uid', '=', uid).where('version', '=', row.version).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) return RETRY;
      const version = Number(row.version) + 1;
      await writeHistory(trx, { uid, map: current.map, action: 'delete', user, at: new Date().toISOString(), version, before: current, after: null });
      return { ok: true, uid, map: current.map, version } as const;
    });
    if (outcome.ok) this.emit([{ kind: 'remove', map: outcome.map, uid, version: outcome.version, by: user }]);
    return outcome;
  }

  /** The marker's changes, newest first, at most `limit` (≤ 100); also for a deleted marker. */
  async history(uid: string, limit = HISTORY_LIMIT): Promise<HistoryEntry[]> {
    return readHistory(this.db.kysely, uid, limit);
  }
}
