/**
 * Remote marker changes (another admin, another tab) applied to this page's copy
 * (docs/STYLE.md 15, excalidraw's `reconcile`): per marker, by version.
 *
 * - An echo of this page's own change (a version this page already has) is ignored.
 * - The marker being edited in the popup is kept: a newer remote version of it becomes a
 *   conflict instead of overwriting the form.
 * - Anything else goes to the sink (upsert / remove). Never recorded in undo.
 */
import type { MarkerChange } from '../api/live';
import type { Marker } from '../domain/marker';

/** One live event (`GET /api/be/live/markers?map=`, parsed by src/api/live.ts). */
export type { MarkerChange };

/** The page's copy of the markers (worker + engine); the wiring implements it. */
export interface MarkerSink {
  get(uid: string): Promise<Marker | null>;
  upsert(marker: Marker): Promise<void>;
  remove(uid: string): Promise<void>;
  /**
   * The marker this page's admin just placed, copied or moved (or brought back or moved by an
   * undo / redo of such a step), told before it is shown: the map draws it whatever its
   * thinning, so it does not vanish under a neighbour (docs/DECISIONS.md "Markers drawn whatever
   * the thinning"). Never for a remote change. Optional: a sink without a map need not have it.
   */
  keep?(uid: string): void;
}

export type Awaitable<T> = T | Promise<T>;

export interface RemoteChangeDeps {
  sink: MarkerSink;
  /** The newest version of `uid` this page has (a stored copy, or the version of its own delete); null when it has none. */
  knownVersion(uid: string): Awaitable<number | null | undefined>;
  /** Uid of the marker open in edit mode, or null. */
  editingUid: string | null | (() => string | null);
  /** A remote change to the marker being edited: `theirs` is the remote marker (null: deleted). */
  onConflict(uid: string, theirs: Marker | null): Awaitable<void>;
}

export type RemoteOutcome = 'ignored' | 'applied' | 'conflict';

export function changeUid(change: MarkerChange): string {
  return change.kind === 'upsert' ? change.marker.uid : change.uid;
}

/** The version a change carries (for a remove: the deleted version + 1); undefined if the server sent none. */
export function changeVersion(change: MarkerChange): number | undefined {
  return change.kind === 'upsert' ? change.marker.version : change.version;
}

/** True when the page already has this version or a newer one (its own change coming back, or an old event). */
export function isEcho(change: MarkerChange, known: number | null | undefined): boolean {
  const version = changeVersion(change);
  return version !== undefined && known !== null && known !== undefined && version <= known;
}

export async function applyRemoteChange(change: MarkerChange, deps: RemoteChangeDeps): Promise<RemoteOutcome> {
  const uid = changeUid(change);
  if (isEcho(change, await deps.knownVersion(uid))) return 'ignored';
  const editing = typeof deps.editingUid === 'function' ? deps.editingUid() : deps.editingUid;
  if (editing === uid) {
    await deps.onConflict(uid, change.kind === 'upsert' ? change.marker : null);
    return 'conflict';
  }
  if (change.kind === 'upsert') await deps.sink.upsert(change.marker);
  else await deps.sink.remove(uid);
  return 'applied';
}
