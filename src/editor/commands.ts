/**
 * The editor's marker commands (docs/EDITOR.md "Editor state and commands"), independent of
 * React and valtio: each command changes the page's copy first (optimistic, through the
 * `MarkerSink`), records one undo step, then brings the server to the same state.
 *
 * The model: per marker, the page keeps the last copy the server confirmed (`server`) and,
 * while a change is not saved yet, the copy it wants (`wants`). Saving compares the two and
 * sends what closes the gap: nothing stored → add (with the client uid, so a retry is
 * idempotent), nothing wanted → delete, else → update based on the stored version. Calls for
 * one marker run one after the other; the version of each answer is what the next call is
 * based on, so quick successive edits of one marker never conflict with each other.
 *
 * - Success: the server's marker (its new version) replaces the page's copy, unless a newer
 *   local change of that marker is already queued (that one is sent next).
 * - Failure: the local change stays on the map and `pending[uid]` says why; `retrySave(uid)`
 *   sends it again, `discardFailed(uid)` drops it. A failed delete puts the marker back.
 * - 409 on an update or delete: `conflict` (theirs is shown on the map until it is resolved).
 *   409 on an add whose current marker has our uid: an earlier try got through; counts as saved.
 * - 404 on an update: someone else deleted the marker; it stays here as failed and a retry
 *   adds it again (same uid).
 * - Undo / redo send the inverse: an edit restores only the fields the step changed, on top of
 *   the marker as it is now (an image uploaded since is kept), based on the newest version.
 *   The step moves between the stacks when its local change is made; its saving is then
 *   tracked like any other change (pending / conflict), so a failed undo is retried, not
 *   undone again. Remote changes (`applyRemote`) are never recorded.
 *   Undo / redo never overrule another admin silently: an edit step of a marker someone else
 *   deleted meanwhile is shown here as failed ('deletedElsewhere', as a save's 404 is; Retry
 *   brings it back, same uid), nothing sent; a delete (undo of a place or copy, redo of a
 *   delete) or a whole copy (nothing to patch) is based on the version this page wrote last,
 *   so another admin's change since is refused by the server (409) and becomes a conflict.
 * - A reload of the whole list (`reload`, after the live feed was broken) replaces the page's
 *   copy: every unsaved or in-flight change, and every answer or live change heard while the
 *   list loaded, is put back on top of it. An edit form whose marker another admin changed
 *   meanwhile gets the conflict a live change of it would have raised. The list came from the
 *   server, so the wiring then retries every change that failed because it could not be reached
 *   (`unreachedChanges`): a marker placed while it was down is saved as a move made then is.
 * - A 401 (the session ended) or a 403 (the session is no admin's now) fails a change as
 *   'signedOut': kept, and retried like any other.
 * - A move, copy or delete of a marker whose full copy cannot be read (the page holds only its
 *   compact row and the server cannot be reached) is not lost: it is kept as an unread change,
 *   failed at once with the read's reason ('offline'), and made for real (read, recorded as its
 *   undo step, shown, sent) by its Retry, by a reload of the list, or by the marker's next change.
 * - Image uploads go through the API as they are and are not undo steps (a sent file cannot
 *   be unsent; removing the image is an edit, which is). A 409 on an upload (another admin
 *   changed the images meanwhile) makes its stored marker the page's copy, as a live change does.
 * - Markers this page placed or copied that the server has not confirmed (`unsavedAdds`) are
 *   kept across a reload by src/state/setAsideStore.ts; the next page brings them back with
 *   `restoreAdds`, which never re-adds a uid the loaded list already holds (the add got through,
 *   its answer was lost) and, where the server has the uid after all, takes the server's copy.
 */
import { sameMarker, stableJson } from '../domain/marker-compare';
import type { HistoryEntry } from '../api/admin';
import { ApiError } from '../api/client';
import type { MapId } from '../domain/maps';
import type { Marker } from '../domain/marker';
import { round4 } from '../domain/transform';
import { createHistory, type HistoryDirection } from './history';
import { applyRemoteChange, changeUid, changeVersion, type MarkerChange, type MarkerSink, type RemoteOutcome } from './live';

export type { MarkerChange, MarkerSink, RemoteOutcome };

/** One row of a marker's change history (`GET /api/be/admin/marker/:uid/history`). */
export type MarkerHistoryEntry = HistoryEntry;

export interface UploadImageArgs {
  uid: string;
  index: number;
  map: MapId;
  file: File;
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /** The image the upload replaces, as the form saw it at `index` (null: a new one); left out: none named. */
  replaces?: string | null;
}

/**
 * The admin marker API the commands use (src/api/admin.ts has these signatures). A 409 throws
 * an ApiError with status 409 and `current: Marker | null` (admin.ts's ConflictError).
 */
export interface EditorApi {
  addMarker(marker: Marker): Promise<Marker>;
  updateMarker(marker: Marker): Promise<Marker>;
  deleteMarker(uid: string, version?: number): Promise<{ version: number }>;
  uploadMarkerImage(args: UploadImageArgs): Promise<{ marker: Marker; fileUrl: string }>;
  fetchMarkerHistory(uid: string): Promise<MarkerHistoryEntry[]>;
}

export type EditorErrorCode = 'offline' | 'signedOut' | 'saveFailed' | 'deletedElsewhere' | 'deleteFailed' | 'fileType' | 'fileSize' | 'uploadFailed' | 'notOnMap';

/** Why something failed: a code the UI may translate, an English sentence, and the server's own message if any. */
export interface EditorFailure {
  code: EditorErrorCode;
  message: string;
  detail?: string;
}

/** Thrown by `uploadImage` (and only there; a 409 stays the API's ConflictError): a readable message, with its code. */
export class EditorError extends Error {
  readonly code: EditorErrorCode;
  readonly detail?: string;

  constructor(failure: EditorFailure) {
    super(failure.message);
    this.name = 'EditorError';
    this.code = failure.code;
    this.detail = failure.detail;
  }

  get failure(): EditorFailure {
    return { code: this.code, message: this.message, detail: this.detail };
  }
}

export interface PendingSave {
  status: 'saving' | 'failed';
  error: EditorFailure | null;
}

export interface EditorConflict {
  uid: string;
  /** What this page wanted (for a delete: the marker it wanted gone). */
  mine: Marker;
  /** The server's marker now; null when it was deleted. */
  theirs: Marker | null;
  action: 'update' | 'delete';
  /** `save`: a save of this page was refused; `live`: another admin changed the marker open in the edit form. */
  origin: 'save' | 'live';
  /**
   * A delete's (action 'delete' only): what asked for it. `delete`: the admin's Delete; `undo`:
   * an undo of the page's place or copy; `redo`: a redo of the page's delete. The conflict box
   * says so ("You deleted …", "Undo deletes … you placed") and its buttons say what they do.
   */
  cause?: ConflictCause;
}

/** What asked for a delete that another admin's change stopped (see `EditorConflict.cause`). */
export type ConflictCause = 'delete' | 'undo' | 'redo';

export interface EditorCommandsState {
  pending: Record<string, PendingSave>;
  /** The first unresolved conflict (more wait behind it, one per marker). */
  conflict: EditorConflict | null;
  /** Every unresolved conflict, oldest first, one per marker: a popup shows its marker's. */
  conflicts: EditorConflict[];
  canUndo: boolean;
  canRedo: boolean;
  undoLabel: EditorStepName | null;
  redoLabel: EditorStepName | null;
}

export type EditorStepName = 'placeMarker' | 'moveMarker' | 'editMarker' | 'copyMarker' | 'deleteMarker' | 'addShape' | 'changeShape' | 'deleteShape';

/** A drawn shape as the history stores it (src/domain/shapes.ts `DrawnShape`). */
export interface ShapeSnapshot {
  id: string;
}

/** Where shape steps are undone: the page's shape list (the editor slice). */
export interface ShapeStore {
  put(id: string, shape: ShapeSnapshot | null): void;
}

/** Undo steps are data: which marker or shape, and its state before and after. */
export type EditorStep =
  | { kind: 'marker'; label: EditorStepName; uid: string; before: Marker | null; after: Marker | null; at: number }
  | { kind: 'shape'; label: EditorStepName; id: string; before: ShapeSnapshot | null; after: ShapeSnapshot | null; at: number };

export interface PlaceMarkerInput {
  mapX: number;
  mapY: number;
  /** The level shown now (the marker's level). */
  level: number;
  category: string;
  subCategory: string;
}

export interface EditorCommandsOptions {
  api: EditorApi;
  sink: MarkerSink;
  mapId: MapId;
  /** New marker uids (default crypto.randomUUID: fits the server's `^[A-Za-z0-9_-]{1,64}$`). */
  newUid?: () => string;
  /** Clock for the steps' `at` (default Date.now). */
  now?: () => number;
  /** Undo depth (default 100). */
  depth?: number;
  /**
   * The marker open in the popup's edit mode, or null: remote changes to it become conflicts.
   * Its draft, or the draft with `base`, the marker the edit began from: a conflict's "mine"
   * is then only the form's own changes (draft against base) put onto theirs. Asked with the
   * uid a remote change is about (the slice may answer an edit of that marker that is not the
   * open form's: one set aside).
   */
  editing?: EditingSource;
  /** Where shape steps are undone (the slice sets it on bind). */
  shapes?: ShapeStore | null;
}

/** An edit form's draft and the marker its edit began from (the popup's snapshot). */
export interface EditingForm {
  draft: Marker;
  base: Marker | null;
}

/** What `editing` answers: the draft alone, or with its base. */
export type EditingSource = (uid?: string) => Marker | EditingForm | null;

/** What `restoreAdds` did, by uid. */
export interface RestoredAdds {
  /** Shown again and sent. */
  sent: string[];
  /** Already on the map (the server has it): nothing sent. */
  onServer: string[];
  /** Not checked: the page's copy could not be read. */
  kept: Marker[];
}

/**
 * What an undo or redo did to a marker. `removed`: the step took the marker off the page (an
 * undone place or copy, a redone delete): an edit form open on it has nothing left to edit
 * (state/editor.ts closes it, its typed work set aside: popup.ts `closeEditRemoved`).
 */
export interface AppliedMarkerStep {
  uid: string;
  removed: boolean;
}

/** A change of a stored marker kept while no admin is signed in (see `signedOutChanges`). */
export interface KeptChange {
  uid: string;
  /** The server's copy the change was made on. */
  base: Marker;
  /** What the page wants stored (null: deleted). */
  marker: Marker | null;
  /** The version it is sent on (the base's, or the one an edit form began from). */
  basedOn: number | undefined;
}

export type SyncResult = { status: 'saved'; marker: Marker | null } | { status: 'failed' } | { status: 'conflict' };

export interface EditorCommands {
  placeMarker(input: PlaceMarkerInput): Promise<Marker | null>;
  /**
   * Saves an edit form's draft (`draft.version`: the version the edit began on). `base`: the
   * marker the form began from; where this page changed the marker since (moved it, undid a
   * step, uploaded an image), the form's own changes are applied to the page's copy instead of
   * sending the draft whole, which would undo those changes or be refused as a conflict.
   */
  saveMarker(draft: Marker, base?: Marker): Promise<Marker | null>;
  moveMarker(uid: string, to: { x: number; y: number }): Promise<Marker | null>;
  /**
   * Places a copy (every field, a new uid) at a point. `fields`: what an open edit form shows,
   * copied over the page's copy of `uid` (whose fields the form does not edit are kept).
   * `level`: the floor shown where the copy is placed by a click (Ctrl+C or Copy, then a click;
   * Ctrl+V), which the copy takes as a placed marker does; left out, the copy keeps the source's
   * floor (an Alt-drag copy, dragged on the view the source is on, as a moved marker keeps it).
   */
  copyMarkerTo(uid: string, mapX: number, mapY: number, fields?: Marker, level?: number): Promise<Marker | null>;
  deleteMarker(uid: string): Promise<boolean>;
  /**
   * Uploads a file into image `index`, naming the image it `replaces` (see UploadImageArgs).
   * Fails with an EditorError, except a 409 (another image there now: nothing replaced), which
   * is the API's ConflictError as it came, with the stored marker (`conflictOf`).
   */
  uploadImage(uid: string, index: number, file: File, onProgress?: (fraction: number) => void, signal?: AbortSignal, replaces?: string | null): Promise<Marker>;
  retrySave(uid: string): Promise<void>;
  /**
   * The changes that failed because the server could not be reached ('offline': places, copies,
   * moves, edits, deletes), each to be retried as its Retry would once it can be (the wiring does
   * so after a reload of the list: ui/map/wireEditor.ts). Not those it refused, nor those waiting
   * for a sign-in, nor an unread change whose marker could not be read by that reload either.
   * An add is retried with its uid: one that got through before (its answer lost) is not doubled.
   */
  unreachedChanges(): string[];
  /** Drops a failed change: an unsaved marker leaves the map, an unsaved edit goes back to the server's copy. */
  discardFailed(uid: string): Promise<void>;
  /**
   * The markers this page placed or copied (or brought back with `restoreAdds`) that the server
   * has not confirmed yet: adding, failed, or waiting behind a failed add. What a reload would lose.
   */
  unsavedAdds(): Marker[];
  /**
   * Brings back markers an earlier page placed and the server never confirmed (kept across a
   * reload): each is shown as unsaved and its add sent (same uid), tracked like any change
   * (`pending`, Retry). A uid the page's list already holds is not added again: the server saved
   * it (`onServer`). Resolves once they are shown, not saved; `kept`: those not checked (the
   * page's copy could not be read), to offer again.
   */
  restoreAdds(markers: readonly Marker[]): Promise<RestoredAdds>;
  /**
   * The changes of stored markers (moves, edits, deletes) refused because the session ended
   * (failed 'signedOut'), as they would be sent: what a page leaving the editor for an account
   * without admin rights keeps for the next admin (ui/map/signInToSave.ts). Markers placed or
   * copied here are not among them (`unsavedAdds`), nor a change whose marker was never read.
   */
  signedOutChanges(): KeptChange[];
  /**
   * Brings back changes `signedOutChanges` kept (this map's): each is shown and sent again, based
   * on the version it was made on, so another admin's change since is refused (a conflict), not
   * overwritten. A marker this page has a change of its own for is left as it is. Answers the
   * uids sent; resolves once they are shown, not saved.
   */
  restoreChanges(changes: readonly KeptChange[]): Promise<string[]>;
  /** Undoes the last step; answers what it did to a marker (null: nothing to undo, or a shape step). */
  undo(): Promise<AppliedMarkerStep | null>;
  redo(): Promise<AppliedMarkerStep | null>;
  /**
   * The marker as this page shows it now (its unsaved or in-flight change included), after the
   * local changes started so far; null when it is gone or cannot be read. An edit form open on
   * it follows this page's own changes with it (state/editor.ts `undo`, popup.ts `followPageCopy`).
   */
  pageCopy(uid: string): Promise<Marker | null>;
  /**
   * Resolves the conflict of `uid` (without one: the first); answers the marker that stands now
   * (null: none, or it failed).
   */
  resolveConflict(choice: 'mine' | 'theirs', uid?: string): Promise<Marker | null>;
  loadHistory(uid: string): Promise<MarkerHistoryEntry[]>;
  /** A live change from the server (never recorded in undo). */
  applyRemote(change: MarkerChange): Promise<RemoteOutcome>;
  /**
   * Reloads the page's whole marker list: `load` replaces the page's copy (worker and engine;
   * it answers false when it gave up, e.g. the page closed). Then this page's own changes go
   * back on top of the fresh list, through the sink: every change not saved yet or still being
   * saved (an unsaved marker stays, still failed with its reason and Retry; an unsaved edit or
   * move shows the admin's version; an unsaved delete stays deleted), and every marker whose
   * server copy this page heard of while the list loaded (a save's answer, a live change),
   * which the list may predate. `pending` and the conflicts are unchanged (the wiring then sends
   * again what failed because the server could not be reached: `unreachedChanges`).
   */
  reload(load: () => Promise<boolean | void>): Promise<void>;
  /**
   * True when this page already holds `version` (or newer) of `uid` from its own writes or
   * an earlier event: the live event is an echo, dropped before it is even validated.
   */
  knowsVersion(uid: string, version: number): boolean;
  /** Records a shape change made by the slice as one undo step. */
  recordShapeStep(step: { label: EditorStepName; id: string; before: ShapeSnapshot | null; after: ShapeSnapshot | null }): void;
  setShapeStore(store: ShapeStore | null): void;
  /** Replaces the `editing` option (the editor slice sets the popup's draft on bind). */
  setEditing(source: EditingSource | null): void;
  /**
   * True when `version` of `uid` is one this page wrote itself (an answer to its add, update,
   * upload or delete); false for another admin's version (or none given): an edit form that
   * followed it says "Updated with another admin's change".
   */
  wroteVersion(uid: string, version: number | undefined): boolean;
  getState(): EditorCommandsState;
  subscribe(listener: (state: EditorCommandsState) => void): () => void;
  /** Resolves when every local change and request started so far has finished (tests, page unload). */
  settle(): Promise<void>;
  dispose(): void;
}

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export const ENGLISH_ERRORS: Record<EditorErrorCode, string> = {
  offline: 'Not saved: the server could not be reached. Try again.',
  signedOut: 'Not saved: your session has ended. Sign in as an admin and it is saved.',
  saveFailed: 'Not saved: {{detail}}',
  deletedElsewhere: 'Someone else deleted this marker. Save again to restore it.',
  deleteFailed: 'Not deleted: {{detail}}',
  fileType: 'Images must be PNG, JPEG or WebP files.',
  fileSize: 'Images must be 5 MB or smaller (this one is {{detail}} MB).',
  uploadFailed: 'Upload failed: {{detail}}',
  notOnMap: 'This marker is no longer on the map.',
};

export function failure(code: EditorErrorCode, detail?: string): EditorFailure {
  const message = ENGLISH_ERRORS[code].replace('{{detail}}', detail ?? '');
  return detail === undefined ? { code, message } : { code, message, detail };
}

function failureOf(error: unknown, code: 'saveFailed' | 'deleteFailed' | 'uploadFailed'): EditorFailure {
  if (error instanceof ApiError && error.offline) return failure('offline');
  // 502 / 504: the proxy in front of the server could not reach it (docs/DEPLOY.md), e.g. while
  // it restarts: the server was not reached, so nothing was saved, as with no answer at all.
  if (error instanceof ApiError && (error.status === 502 || error.status === 504)) return failure('offline');
  // 401: the session ended (expired, signed out elsewhere). The change is kept, failed; the
  // wiring asks for a sign-in and sends it again once an admin is signed in (ui/map/signInToSave.ts).
  // 403: the page's session is an account without admin rights now (one signed in in another tab,
  // or here while this change was on its way): the same remedy, so kept and handled the same way.
  if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return failure('signedOut');
  const detail = error instanceof Error ? error.message : String(error);
  return failure(code, detail || 'unknown error');
}

/** A 409 from the admin API (src/api/admin.ts ConflictError): the marker the server has now. */
export function conflictOf(error: unknown): { current: Marker | null } | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const current = (error as ApiError & { current?: Marker | null }).current;
  return { current: current ?? null };
}

const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

/** Checks an image before it is sent: PNG, JPEG or WebP, at most 5 MB. Null when it is fine. */
export function checkImageFile(file: Pick<File, 'type' | 'size' | 'name'>): EditorFailure | null {
  const type = (file.type || '').toLowerCase();
  const byName = /\.(png|jpe?g|webp)$/i.test(file.name || '');
  if (type ? !(IMAGE_TYPES as readonly string[]).includes(type) : !byName) return failure('fileType');
  if (file.size > MAX_IMAGE_BYTES) return failure('fileSize', (file.size / (1024 * 1024)).toFixed(1));
  return null;
}

/** A plain deep copy (valtio proxies and worker copies alike). */
function plain<T>(value: T): T {
  return value === null || value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

export { sameMarker };

/** The text tables patched language by language (a change of the Russian name leaves the English one as it is now). */
const L10N_FIELDS = new Set(['name_l10n', 'desc_l10n']);

const isTable = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);

/** `now` with the entries that differ between `from` and `to` set as in `to` (one `to` lacks is removed). */
function patchFields(now: Record<string, unknown>, from: Record<string, unknown>, to: Record<string, unknown>, skip: ReadonlySet<string>, deep: ReadonlySet<string>): Record<string, unknown> {
  const next = plain(now);
  for (const key of new Set([...Object.keys(from), ...Object.keys(to)])) {
    if (skip.has(key) || stableJson(from[key]) === stableJson(to[key])) continue;
    if (deep.has(key) && isTable(next[key]) && isTable(from[key]) && isTable(to[key])) next[key] = patchFields(next[key], from[key], to[key], new Set(), new Set());
    else if (key in to) next[key] = plain(to[key]);
    else delete next[key];
  }
  return next;
}

/**
 * `now` with the fields that differ between `from` and `to` set as in `to` (a field `to`
 * lacks is removed): how an edit step is undone or redone without touching other fields, and
 * how an edit form's typed changes go onto the page's copy. The text tables (`name_l10n`,
 * `desc_l10n`) go language by language: only the languages that differ are set.
 */
export function patchMarker(now: Marker, from: Marker, to: Marker): Marker {
  return patchFields(now as unknown as Record<string, unknown>, from as unknown as Record<string, unknown>, to as unknown as Record<string, unknown>, new Set(['version', 'uid']), L10N_FIELDS) as unknown as Marker;
}

function withoutVersion(marker: Marker): Marker {
  const { version: _version, ...rest } = marker;
  return rest as Marker;
}

function defaultUid(): string {
  return globalThis.crypto.randomUUID();
}

interface Want {
  /** The marker this page wants stored (null: deleted). */
  marker: Marker | null;
  /** The version an edit from the popup was based on (sent instead of the stored one, once). */
  basedOn?: number;
  /**
   * An undo / redo that deletes the marker or sends a whole copy (no fields to patch): based on
   * the version this page wrote last, not the newest it knows, so another admin's change since
   * is refused by the server (409, a conflict) instead of being deleted or overwritten unseen.
   */
  guarded?: boolean;
  /** A delete made by an undo or a redo (see `EditorConflict.cause`). */
  cause?: 'undo' | 'redo';
  /**
   * That delete's marker as the page's own step left it (an undone place: the marker placed; a
   * redone delete: the marker before it): a conflict's "mine", so the box lists their change
   * even where this page wrote on top of it since (an undo of a move, on their version).
   */
  own?: Marker;
  /**
   * A marker an earlier page placed, brought back after a reload (`restoreAdds`): if the server
   * answers its add with the same uid (an earlier page's add got through after all), the
   * server's copy stands; it may have been changed since by another admin.
   */
  restored?: boolean;
}

const noop = () => undefined;

/**
 * A change made while the marker's full copy could not be read: `apply` makes it from the full
 * copy of `source` once that can be read (null: the marker deleted).
 */
interface Unread {
  label: 'moveMarker' | 'copyMarker' | 'deleteMarker';
  source: string;
  apply: (full: Marker) => Marker | null;
  /** Recorded as an undo step when it is made (not: a retried delete, whose step exists). */
  record: boolean;
}

/** A failed read of the page's full copy that the editor keeps the change for (an API error: the server's fetch). */
const isReadFailure = (error: unknown) => error instanceof ApiError;

export function createEditorCommands(options: EditorCommandsOptions): EditorCommands {
  const { api, sink, mapId } = options;
  const newUid = options.newUid ?? defaultUid;
  const now = options.now ?? Date.now;
  let editing = options.editing ?? (() => null);
  let shapeStore = options.shapes ?? null;

  /** The last copy the server confirmed, per marker touched here (null: not stored). */
  const server = new Map<string, Marker | null>();
  /** The newest version known per marker, deletes included (for echoes of live events). */
  const versions = new Map<string, number>();
  /** The version of this page's own last write per marker (its answer; a delete's too). */
  const written = new Map<string, number>();
  /** Every version of a marker this page wrote itself (`written` keeps only the last). */
  const ownVersions = new Map<string, Set<number>>();
  /**
   * Markers another admin changed since this page's own writes: a version this page did not
   * write came in (a live change, even one dropped as older than an answer that included it;
   * the current marker of a 409). The value is this page's last own version before theirs: an
   * undo / redo delete (`Want.guarded`) is based on it, so the server refuses it (409) and it
   * becomes a delete conflict, even where this page wrote again on top of their change since
   * (an undo of a move restores its fields on their version: its answer includes their change).
   * Cleared by this page's own add or delete of the marker and when its conflict is resolved
   * (the admin has seen their change).
   */
  const changedElsewhere = new Map<string, number>();
  /** While the whole list reloads (`reload`): the markers whose server copy was heard of meanwhile. */
  const heardDuringReload = new Set<Set<string>>();
  /** Local changes not saved yet. */
  const wants = new Map<string, Want>();
  /** Per marker: the saving queue (one request at a time). */
  const chains = new Map<string, Promise<void>>();
  const pending: Record<string, PendingSave> = {};
  /** Failed changes retried by something else than a plain save (a failed delete, an unread change). */
  const retries = new Map<string, () => Promise<unknown>>();
  /** Changes whose marker could not be read (see `Unread`), by the uid they are failed under. */
  const unread = new Map<string, Unread>();
  /** Markers this page placed, copied or brought back (`unsavedAdds` lists those not stored yet). */
  const addedHere = new Set<string>();
  const conflicts: EditorConflict[] = [];
  const listeners = new Set<(state: EditorCommandsState) => void>();
  let localQueue: Promise<unknown> = Promise.resolve();
  let disposed = false;

  const history = createHistory<EditorStep>({ depth: options.depth, apply: applyStep });
  history.subscribe(() => notify());

  function getState(): EditorCommandsState {
    const copy: Record<string, PendingSave> = {};
    for (const [uid, entry] of Object.entries(pending)) copy[uid] = { status: entry.status, error: entry.error ? { ...entry.error } : null };
    const first = conflicts[0];
    return {
      pending: copy,
      conflict: first ? { ...first } : null,
      conflicts: conflicts.map((c) => ({ ...c })),
      canUndo: history.canUndo(),
      canRedo: history.canRedo(),
      undoLabel: (history.undoLabel() as EditorStepName | null) ?? null,
      redoLabel: (history.redoLabel() as EditorStepName | null) ?? null,
    };
  }

  function notify(): void {
    if (disposed) return;
    const state = getState();
    for (const listener of [...listeners]) listener(state);
  }

  const knowVersion = (uid: string, version: number | undefined) => {
    if (version !== undefined) versions.set(uid, Math.max(version, versions.get(uid) ?? 0));
  };

  /** News of the server's copy (an answer, a live change): a list loading now may predate it. */
  const heard = (uid: string) => {
    for (const set of heardDuringReload) set.add(uid);
  };

  const noteVersion = (uid: string, version: number | undefined) => {
    knowVersion(uid, version);
    heard(uid);
  };

  /** The server's copy as an answer or a live change told it (not as read back from the page). */
  const setServer = (uid: string, marker: Marker | null) => {
    server.set(uid, marker ? plain(marker) : null);
    if (marker) noteVersion(uid, marker.version);
    else heard(uid);
  };

  /** This page's own write was answered: `version` is what its next undo / redo delete is based on. */
  const noteWritten = (uid: string, version: number | undefined) => {
    if (version === undefined) return;
    written.set(uid, version);
    let own = ownVersions.get(uid);
    if (!own) ownVersions.set(uid, (own = new Set()));
    own.add(version);
  };

  /**
   * A version of `uid` came in (live, or a 409's): not one this page wrote, it is another
   * admin's change, and an undo / redo delete is from now on based on the last version this
   * page wrote before it (see `changedElsewhere`). Nothing to guard where this page wrote none before it.
   */
  const noteOthers = (uid: string, version: number | undefined) => {
    if (version === undefined) return;
    const own = ownVersions.get(uid);
    if (!own || own.has(version)) return;
    const before = [...own].filter((v) => v < version);
    if (before.length === 0) return;
    const guard = Math.max(...before);
    changedElsewhere.set(uid, Math.min(guard, changedElsewhere.get(uid) ?? guard));
  };

  /** Local changes run one at a time (read the copy, change it, show it), so two never read the same copy. */
  function local<T>(fn: () => Promise<T>): Promise<T> {
    const run = localQueue.then(fn);
    localQueue = run.catch(noop);
    return run;
  }

  /**
   * The marker as this page shows it now. While nothing is pending for it the sink's copy is
   * also the server's (every answer and live change went into it), and becomes the base.
   */
  async function localCopy(uid: string): Promise<Marker | null> {
    // An earlier move of it that could not read the marker is made first (or this read fails
    // too). An unread delete is not: like a failed delete, a later change of the marker drops it.
    const earlier = unread.get(uid);
    if (earlier && earlier.label !== 'deleteMarker') await realize(uid);
    const want = wants.get(uid);
    if (want) return plain(want.marker);
    if (chains.has(uid) && server.has(uid)) return plain(server.get(uid) ?? null);
    return readCopy(uid);
  }

  /** The sink's copy, which is also the server's (nothing pending for it): the base from now on. */
  async function readCopy(uid: string): Promise<Marker | null> {
    const copy = plain(await sink.get(uid));
    server.set(uid, plain(copy));
    if (copy) knowVersion(uid, copy.version);
    return copy;
  }

  /**
   * Inside the local queue: makes the unread change of `key` (reads its source, records its
   * step, shows it and queues its saving, whose promise it answers). Throws when the read fails
   * again (the change stays unread).
   */
  async function realize(key: string): Promise<{ saving: Promise<SyncResult> } | null> {
    const entry = unread.get(key);
    if (!entry) return null;
    const source = entry.source === key ? await readCopy(key) : await localCopy(entry.source);
    if (unread.get(key) !== entry) return null;
    unread.delete(key);
    retries.delete(key);
    delete pending[key];
    if (!source) {
      // The marker is gone (another admin deleted it): nothing left to move, copy or delete.
      notify();
      return null;
    }
    const next = entry.apply(source);
    if (entry.source !== key) {
      server.set(key, null);
      addedHere.add(key);
    }
    if (entry.record) history.record({ kind: 'marker', uid: key, at: now(), label: entry.label, before: entry.source === key ? source : null, after: plain(next) });
    await change(key, next);
    return { saving: schedule(key) };
  }

  /** Keeps a change whose marker could not be read: failed under `key`; Retry (or a reload) makes it. */
  function keepUnread(key: string, entry: Unread, error: unknown): SyncResult {
    unread.set(key, entry);
    retries.set(key, async () => {
      const made: { saving?: Promise<SyncResult> } = {};
      try {
        await command(
          async () => {
            made.saving = (await realize(key))?.saving;
            return null;
          },
          (readError) => keepUnread(key, entry, readError),
        );
      } catch (error) {
        // Not a read of the server's (the worker, say): still not lost, failed with its reason.
        if (unread.get(key) === entry) keepUnread(key, entry, error);
        return null;
      }
      return made.saving ? await made.saving : null;
    });
    return fail(key, failureOf(error, entry.label === 'deleteMarker' ? 'deleteFailed' : 'saveFailed'));
  }

  /** Shows `marker` (null: removes it) and marks it as to be saved. */
  async function change(uid: string, marker: Marker | null, basedOn?: number, guarded = false, undone?: Pick<Want, 'cause' | 'own'>): Promise<void> {
    const want: Want = { marker: plain(marker) };
    if (basedOn !== undefined) want.basedOn = basedOn;
    if (guarded) want.guarded = true;
    if (undone?.cause) want.cause = undone.cause;
    if (undone?.own) want.own = plain(undone.own);
    wants.set(uid, want);
    retries.delete(uid);
    unread.delete(uid);
    pending[uid] = { status: 'saving', error: null };
    notify();
    if (marker) await sink.upsert(plain(marker));
    else await sink.remove(uid);
  }

  /** Runs `task` after the marker's earlier requests (saves and uploads alike). */
  function enqueue<T>(uid: string, task: () => Promise<T>): Promise<T> {
    const previous = chains.get(uid) ?? Promise.resolve();
    const next = previous.catch(noop).then(task);
    const settled = next.then(noop, noop);
    chains.set(uid, settled);
    void settled.then(() => {
      if (chains.get(uid) === settled) chains.delete(uid);
    });
    return next;
  }

  const schedule = (uid: string): Promise<SyncResult> => enqueue(uid, () => sync(uid));

  function fail(uid: string, error: EditorFailure): SyncResult {
    pending[uid] = { status: 'failed', error };
    notify();
    return { status: 'failed' };
  }

  function raiseConflict(conflict: EditorConflict): void {
    const index = conflicts.findIndex((c) => c.uid === conflict.uid);
    if (index >= 0) conflicts.splice(index, 1, conflict);
    else conflicts.push(conflict);
  }

  /** The version a delete or update of `base` is based on (see `Want`). */
  function basedOnFor(uid: string, want: Want, base: Marker): number | undefined {
    if (want.basedOn !== undefined) return want.basedOn;
    return want.guarded ? (changedElsewhere.get(uid) ?? written.get(uid) ?? base.version) : base.version;
  }

  /** Brings the server to what this page wants for `uid`. Never throws. */
  async function sync(uid: string): Promise<SyncResult> {
    const want = wants.get(uid);
    if (!want) return { status: 'saved', marker: plain(server.get(uid) ?? null) };
    pending[uid] = { status: 'saving', error: null };
    notify();
    let saved: Marker | null = null;
    let done = false;
    for (let attempt = 0; attempt < 3 && !done; attempt += 1) {
      const base = server.get(uid) ?? null;
      const target = want.marker;
      try {
        if (base && target && sameMarker(base, target)) {
          saved = base;
          noteWritten(uid, base.version);
        } else if (!base && target) {
          saved = await api.addMarker(withoutVersion(target));
          setServer(uid, saved);
          noteWritten(uid, saved.version);
          changedElsewhere.delete(uid);
        } else if (base && !target) {
          const { version } = await api.deleteMarker(uid, basedOnFor(uid, want, base));
          setServer(uid, null);
          noteVersion(uid, version);
          noteWritten(uid, version);
          changedElsewhere.delete(uid);
        } else if (base && target) {
          const version = basedOnFor(uid, want, base);
          saved = await api.updateMarker(version === undefined ? withoutVersion(target) : { ...target, version });
          setServer(uid, saved);
          noteWritten(uid, saved.version);
        }
        want.basedOn = undefined;
        done = true;
      } catch (error) {
        const conflict = conflictOf(error);
        if (conflict && !base) {
          // The uid is stored already: an earlier try of this add got through. Compare again.
          if (conflict.current?.uid !== uid) return fail(uid, failureOf(error, 'saveFailed'));
          setServer(uid, conflict.current);
          noteWritten(uid, conflict.current.version);
          want.basedOn = undefined;
          // Brought back after a reload: the server's copy may have another admin's change since.
          // An undo of a delete (or a redo of a place: a whole copy, `guarded`) that finds the
          // marker stored again: another admin brought it back meanwhile. What the step wanted,
          // the marker on the map, is done; their copy stands (sending ours on top would be a
          // conflict whose "mine" puts back fields they never saw).
          if (want.restored || want.guarded) want.marker = plain(conflict.current);
          continue;
        }
        if (conflict) return conflicted(uid, want, base, conflict.current);
        if (isNotFound(error) && base) {
          setServer(uid, null);
          want.basedOn = undefined;
          if (!target) continue; // a delete of a marker that is gone already: done
          return fail(uid, failure('deletedElsewhere'));
        }
        if (!target && base) return deleteFailed(uid, want, base, failureOf(error, 'deleteFailed'));
        return fail(uid, failureOf(error, 'saveFailed'));
      }
    }
    if (!done) return fail(uid, failure('saveFailed', 'the server kept answering with changes'));
    if (wants.get(uid) === want) {
      wants.delete(uid);
      delete pending[uid];
      notify();
      if (saved) await sink.upsert(plain(saved));
    }
    return { status: 'saved', marker: plain(saved) };
  }

  /** 409 on an update or delete: theirs is shown until the conflict is resolved; the unsaved change is dropped. */
  async function conflicted(uid: string, want: Want, base: Marker | null, theirs: Marker | null): Promise<SyncResult> {
    const latest = wants.get(uid) ?? want;
    // Only this page's changes (against the copy the request was based on) go onto theirs.
    const mine = latest.marker && theirs && base && latest.basedOn === undefined ? patchMarker(theirs, base, latest.marker) : (latest.marker ?? latest.own ?? base);
    noteOthers(uid, theirs?.version);
    setServer(uid, theirs);
    wants.delete(uid);
    delete pending[uid];
    // A delete says what asked for it (the admin's Delete, an undo of a place, a redo of a delete).
    if (mine) raiseConflict({ uid, mine: plain(mine), theirs: plain(theirs), origin: 'save', ...(latest.marker ? { action: 'update' } : { action: 'delete', cause: latest.cause ?? 'delete' }) });
    notify();
    if (theirs) await sink.upsert(plain(theirs));
    else await sink.remove(uid);
    return { status: 'conflict' };
  }

  /**
   * An upload refused with 409: `theirs` is the stored marker now (another admin's change). It
   * becomes the page's server copy and is shown, as a live change of it would be, so the edit
   * form, which goes on from theirs (ui/popup/uploadConflict.ts), saves on their version instead
   * of meeting a second conflict (and their live event, when it comes, is known already). Not
   * while this page has a change of the marker of its own waiting: that change was made on the
   * copy before theirs, and its save is refused and becomes the conflict it is.
   */
  async function heardUploadConflict(uid: string, theirs: Marker | null): Promise<void> {
    if (!theirs || theirs.uid !== uid || wants.has(uid) || unread.has(uid)) return;
    // A newer version heard already (a live change, a save's answer) stays.
    const known = versions.get(uid);
    if (known !== undefined && theirs.version !== undefined && theirs.version < known) return;
    noteOthers(uid, theirs.version);
    setServer(uid, theirs);
    await sink.upsert(plain(theirs));
  }

  /** A delete that failed: the marker comes back on the map, marked failed; a retry deletes it again. */
  async function deleteFailed(uid: string, want: Want, base: Marker, error: EditorFailure): Promise<SyncResult> {
    if (wants.get(uid) === want) {
      wants.delete(uid);
      retries.set(uid, () => removeMarker(uid, false));
      await sink.upsert(plain(base));
    }
    return fail(uid, error);
  }

  type MarkerStepData = Pick<Extract<EditorStep, { kind: 'marker' }>, 'label' | 'before' | 'after'>;

  /**
   * One command: inside the local queue, `decide` reads the copy and says what to show (or null:
   * nothing to do); the step is recorded, the change shown, and saving queued. Resolves when
   * saving ends (the local queue is free as soon as the change is shown).
   */
  async function command(
    decide: () => Promise<{
      uid: string;
      step: MarkerStepData | null;
      next: Marker | null;
      basedOn?: number;
      /** See `Want.guarded`. */
      guarded?: boolean;
      /** See `Want.cause` and `Want.own`. */
      undone?: Pick<Want, 'cause' | 'own'>;
      /** Shown but not sent: the change is failed at once, for this reason (Retry sends it). */
      held?: EditorFailure;
      /** The admin put the marker somewhere (placed, copied, moved): the map keeps it drawn (`MarkerSink.keep`). */
      keep?: boolean;
    } | null>,
    /** `decide` could not read the marker (see `isReadFailure`): what to keep instead. */
    unreadable?: (error: unknown) => SyncResult,
  ): Promise<SyncResult | null> {
    const started = await local(async () => {
      let plan: Awaited<ReturnType<typeof decide>>;
      try {
        plan = await decide();
      } catch (error) {
        if (!unreadable || !isReadFailure(error)) throw error;
        return { saving: Promise.resolve(unreadable(error)) };
      }
      if (!plan) return null;
      if (plan.step) history.record({ kind: 'marker', uid: plan.uid, at: now(), ...plan.step });
      if (plan.keep && plan.next) sink.keep?.(plan.uid);
      await change(plan.uid, plan.next, plan.basedOn, plan.guarded, plan.undone);
      if (plan.held) return { saving: Promise.resolve(fail(plan.uid, plan.held)) };
      return { saving: schedule(plan.uid) };
    });
    return started ? started.saving : null;
  }

  const savedMarker = (result: SyncResult | null) => (result?.status === 'saved' ? result.marker : null);

  async function removeMarker(uid: string, record: boolean): Promise<boolean> {
    const result = await command(
      async () => {
        const before = await localCopy(uid);
        if (!before) return null;
        return { uid, step: record ? { label: 'deleteMarker', before, after: null } : null, next: null };
      },
      // Not read: the marker stays on the map, failed as a failed delete is; Retry deletes it.
      (error) => keepUnread(uid, { label: 'deleteMarker', source: uid, apply: () => null, record }, error),
    );
    return result?.status === 'saved';
  }

  function appliedStep(step: EditorStep | null, direction: HistoryDirection): AppliedMarkerStep | null {
    if (step?.kind !== 'marker') return null;
    return { uid: step.uid, removed: (direction === 'undo' ? step.before : step.after) === null };
  }

  async function applyStep(step: EditorStep, direction: HistoryDirection): Promise<void> {
    if (step.kind === 'shape') {
      shapeStore?.put(step.id, plain(direction === 'undo' ? step.before : step.after));
      return;
    }
    const goal = direction === 'undo' ? step.before : step.after;
    const from = direction === 'undo' ? step.after : step.before;
    await command(async () => {
      const current = await localCopy(step.uid);
      const gone = !current && !wants.has(step.uid);
      if (!goal && gone) return null;
      // An edit step of a marker that was stored and is gone now: another admin deleted it.
      // Not brought back silently: shown here as failed, as a save's 404 is; Retry adds it back.
      if (goal && from && gone && versions.has(step.uid)) return { uid: step.uid, step: null, next: goal, held: failure('deletedElsewhere') };
      // An edit restores the step's fields on the newest version; a delete or a whole copy
      // (nothing to patch) is based on what this page wrote last (a 409 if someone changed it since).
      const patch = !!goal && !!from && !!current;
      const next = !goal ? null : patch ? patchMarker(current, from, goal) : goal;
      // A marker an undo or redo moves or brings back is kept drawn, as its placing or move was.
      const keep = step.label === 'placeMarker' || step.label === 'copyMarker' || step.label === 'moveMarker';
      return { uid: step.uid, step: null, next, guarded: !patch, keep, ...(goal ? {} : { undone: { cause: direction, own: from ?? undefined } }) };
    });
  }

  /**
   * Inside the local queue, after a reload of the list: an edit form open with typed changes (or,
   * with none open, the work set aside) whose marker the fresh list holds in another admin's
   * newer version, or no longer holds, was changed or deleted while the live feed was down, and
   * no live event told of it. It becomes the conflict such an event raises (`applyRemote`), at
   * once, instead of waiting for the form's Save to be refused.
   */
  async function formChangedMeanwhile(): Promise<void> {
    const open = editing();
    const form = open && !('uid' in open) ? (open as EditingForm) : null;
    const base = form?.base;
    if (!form || !base || base.uid !== form.draft.uid || sameMarker(base, form.draft)) return;
    const uid = base.uid;
    // This page's own change of it waits, or its conflict is being asked already.
    if (wants.has(uid) || unread.has(uid) || conflicts.some((c) => c.uid === uid)) return;
    let theirs: Marker | null;
    try {
      theirs = plain(await sink.get(uid));
    } catch (error) {
      if (isReadFailure(error)) return;
      throw error;
    }
    if (theirs) {
      const version = theirs.version;
      if (version === undefined || base.version === undefined || version <= base.version || ownVersions.get(uid)?.has(version)) return;
    } else if (server.get(uid) === null && written.has(uid)) {
      return; // deleted by this page
    }
    const mine = theirs ? patchMarker(theirs, base, form.draft) : plain(form.draft);
    noteOthers(uid, theirs?.version);
    setServer(uid, theirs);
    raiseConflict({ uid, mine, theirs, action: 'update', origin: 'live' });
    notify();
  }

  /**
   * Inside the local queue: one marker an earlier page placed is shown as unsaved and its add
   * queued, unless this page knows the uid already (its list, or a change of its own): then the
   * server saved it, and adding it again would overwrite whatever happened to it since.
   */
  async function showRestored(marker: Marker): Promise<'sent' | 'onServer' | 'kept'> {
    const uid = marker.uid;
    if (wants.has(uid) || server.has(uid) || unread.has(uid)) return 'onServer';
    let listed: Marker | null;
    try {
      listed = await readCopy(uid);
    } catch (error) {
      // A read of the server's copy failed: the list holds the uid, so the server has it.
      if (isReadFailure(error)) return 'onServer';
      server.delete(uid);
      return 'kept';
    }
    if (listed) return 'onServer';
    server.set(uid, null);
    addedHere.add(uid);
    await change(uid, withoutVersion(marker));
    const want = wants.get(uid);
    if (want) want.restored = true;
    void schedule(uid);
    return 'sent';
  }

  async function settle(): Promise<void> {
    for (let i = 0; i < 10; i += 1) {
      await localQueue;
      const running = [...chains.values()];
      if (running.length === 0) return;
      await Promise.allSettled(running);
    }
  }

  return {
    async placeMarker(input) {
      const uid = newUid();
      const marker: Marker = {
        uid,
        map: mapId,
        category: input.category,
        subCategory: input.subCategory,
        level: input.level,
        geometry: { x: round4(input.mapX), y: round4(input.mapY) },
        name: '',
        desc: '',
        imgs: [],
        name_l10n: {},
        desc_l10n: {},
        itemsUid: [],
      };
      return savedMarker(
        await command(async () => {
          server.set(uid, null);
          addedHere.add(uid);
          return { uid, step: { label: 'placeMarker', before: null, after: marker }, next: marker, keep: true };
        }),
      );
    },

    async saveMarker(draft, base) {
      return savedMarker(
        await command(async () => {
          const before = await localCopy(draft.uid);
          // With the form's starting marker, the form's changes go onto this page's copy and are
          // based on the version this page knows when the request is sent: whatever changed since
          // the form opened was this page's (a move, even one still being saved; an undo; an
          // upload), since another admin's change to the marker in the form is a conflict as it
          // comes, and one not seen yet is refused by the server. While a conflict of the marker
          // waits, the save stays based on the version the form began from (refused again).
          // Only where the page's copy is the form's base or this page's own later write: a copy
          // that changed before this page saw it happen (form work restored after a reload, a
          // change made while the page was away) is not this page's, and its edit is sent on the
          // version it began from, so the server refuses it as a conflict instead of it silently
          // overwriting the other admin's change.
          const ownCopy = !!before && !!base && (before.version === base.version || (before.version !== undefined && written.get(draft.uid) === before.version));
          const onPageCopy = ownCopy && base!.uid === draft.uid && !conflicts.some((c) => c.uid === draft.uid);
          const after = onPageCopy ? patchMarker(before, base, draft) : plain(draft);
          return { uid: draft.uid, step: { label: 'editMarker', before, after }, next: after, basedOn: before && !onPageCopy ? draft.version : undefined };
        }),
      );
    },

    async moveMarker(uid, to) {
      const geometry = { x: round4(to.x), y: round4(to.y) };
      return savedMarker(
        await command(
          async () => {
            const before = await localCopy(uid);
            if (!before) return null;
            if (before.geometry.x === geometry.x && before.geometry.y === geometry.y) return null;
            return { uid, step: { label: 'moveMarker', before, after: { ...before, geometry } }, next: { ...before, geometry }, keep: true };
          },
          // Not read: the map shows the drag where it ended; failed, and Retry (or a reload) sends it.
          (error) => keepUnread(uid, { label: 'moveMarker', source: uid, apply: (full) => ({ ...full, geometry: { ...geometry } }), record: true }, error),
        ),
      );
    },

    async copyMarkerTo(uid, mapX, mapY, fields, level) {
      const geometry = { x: round4(mapX), y: round4(mapY) };
      const copyOf = (source: Marker, copyUid: string) =>
        withoutVersion({ ...source, uid: copyUid, geometry: { ...geometry }, ...(level === undefined ? {} : { level }) });
      return savedMarker(
        await command(
          async () => {
            let local: Marker | null;
            try {
              local = await localCopy(uid);
            } catch (error) {
              // The form's fields are a whole marker: they copy without the page's copy.
              if (!fields || !isReadFailure(error)) throw error;
              local = null;
            }
            // The form's fields copy even where the marker has since gone (another admin deleted it).
            const source = fields ? { ...local, ...plain(fields) } : local;
            if (!source) return null;
            const copyUid = newUid();
            const copy = copyOf(source, copyUid);
            server.set(copyUid, null);
            addedHere.add(copyUid);
            return { uid: copyUid, step: { label: 'copyMarker', before: null, after: copy }, next: copy, keep: true };
          },
          // Not read: nothing to show yet; the copy's uid is failed (the dock lists it), Retry places it.
          (error) => {
            const key = newUid();
            return keepUnread(key, { label: 'copyMarker', source: uid, apply: (full) => copyOf(full, key), record: true }, error);
          },
        ),
      );
    },

    deleteMarker: (uid) => removeMarker(uid, true),

    async uploadImage(uid, index, file, onProgress, signal, replaces) {
      const problem = checkImageFile(file);
      if (problem) throw new EditorError(problem);
      // In the marker's queue: after its saves (the upload's read-modify-write sees them), and
      // a live echo of the upload waits for the answer.
      const marker = await enqueue(uid, async () => {
        let answer: { marker: Marker; fileUrl: string };
        try {
          answer = await api.uploadMarkerImage({ uid, index, map: mapId, file, onProgress, signal, ...(replaces !== undefined ? { replaces } : {}) });
        } catch (error) {
          if ((error as Error)?.name === 'AbortError') throw error;
          // The image it meant was changed meanwhile: passed on typed, for the form to say so.
          const conflict = conflictOf(error);
          if (conflict) {
            await heardUploadConflict(uid, conflict.current);
            throw error;
          }
          if (isNotFound(error)) throw new EditorError(failure('notOnMap'));
          // The server looked inside and found no PNG, JPEG or WebP (a renamed file).
          if (error instanceof ApiError && error.code === 'not_image') throw new EditorError(failure('fileType'));
          throw new EditorError(failureOf(error, 'uploadFailed'));
        }
        const stored = plain(answer.marker);
        setServer(uid, stored);
        noteWritten(uid, stored.version);
        const want = wants.get(uid);
        if (want?.marker) {
          // A failed local change of this marker is kept: it now carries the new images and version.
          want.marker = { ...want.marker, imgs: plain(stored.imgs) };
          want.basedOn = undefined;
        } else if (!want) {
          await sink.upsert(plain(stored));
        }
        return stored;
      });
      return plain(marker);
    },

    async retrySave(uid) {
      if (pending[uid]?.status !== 'failed') return;
      const retry = retries.get(uid);
      if (retry) {
        retries.delete(uid);
        delete pending[uid];
        notify();
        await retry();
        return;
      }
      if (wants.has(uid)) await schedule(uid);
    },

    unreachedChanges() {
      // An unread change still failed after a reload: its marker could not be read even then.
      return Object.entries(pending)
        .filter(([uid, entry]) => entry.status === 'failed' && entry.error?.code === 'offline' && !unread.has(uid))
        .map(([uid]) => uid);
    },

    async discardFailed(uid) {
      if (pending[uid]?.status !== 'failed') return;
      await local(async () => {
        retries.delete(uid);
        unread.delete(uid);
        delete pending[uid];
        const stored = server.get(uid) ?? null;
        if (wants.delete(uid)) {
          if (stored) await sink.upsert(plain(stored));
          else await sink.remove(uid);
        }
        notify();
      });
    },

    unsavedAdds() {
      const unsaved: Marker[] = [];
      for (const uid of addedHere) {
        const marker = wants.get(uid)?.marker;
        if (marker && server.get(uid) === null) unsaved.push(plain(marker));
      }
      return unsaved;
    },

    async restoreAdds(markers) {
      const outcome: RestoredAdds = { sent: [], onServer: [], kept: [] };
      for (const marker of markers) {
        if (marker.map !== mapId) continue;
        const shown = await local(() => showRestored(marker));
        if (shown === 'sent') outcome.sent.push(marker.uid);
        else if (shown === 'onServer') outcome.onServer.push(marker.uid);
        else outcome.kept.push(plain(marker));
      }
      return outcome;
    },

    signedOutChanges() {
      const kept: KeptChange[] = [];
      for (const [uid, entry] of Object.entries(pending)) {
        const base = server.get(uid);
        if (entry.status !== 'failed' || entry.error?.code !== 'signedOut' || !base || unread.has(uid)) continue;
        const want = wants.get(uid);
        // A failed delete has no want: the marker is back on the map and its Retry deletes it again.
        if (want) kept.push({ uid, base: plain(base), marker: plain(want.marker), basedOn: basedOnFor(uid, want, base) });
        else if (retries.has(uid)) kept.push({ uid, base: plain(base), marker: null, basedOn: base.version });
      }
      return kept;
    },

    async restoreChanges(changes) {
      const sent: string[] = [];
      for (const kept of changes) {
        if (kept.base.map !== mapId || kept.base.uid !== kept.uid) continue;
        const shown = await local(async () => {
          const uid = kept.uid;
          if (wants.has(uid) || unread.has(uid) || pending[uid]) return false;
          setServer(uid, kept.base);
          await change(uid, kept.marker, kept.basedOn);
          void schedule(uid);
          return true;
        });
        if (shown) sent.push(kept.uid);
      }
      return sent;
    },

    async undo() {
      return appliedStep(await history.undo(), 'undo');
    },

    async pageCopy(uid) {
      try {
        return await local(() => localCopy(uid));
      } catch (error) {
        if (isReadFailure(error)) return null;
        throw error;
      }
    },

    async redo() {
      return appliedStep(await history.redo(), 'redo');
    },

    async resolveConflict(choice, uid) {
      const index = uid === undefined ? 0 : conflicts.findIndex((c) => c.uid === uid);
      if (index < 0 || index >= conflicts.length) return null;
      const [conflict] = conflicts.splice(index, 1);
      // The admin has seen their change: a later undo / redo delete is based on this page's last write again.
      changedElsewhere.delete(conflict.uid);
      notify();
      if (choice === 'theirs' || conflict.origin === 'live') return plain(conflict.theirs);
      // The server's copy is theirs now (set when the conflict came): mine is sent on their version.
      return savedMarker(await command(async () => ({ uid: conflict.uid, step: null, next: conflict.action === 'delete' ? null : conflict.mine })));
    },

    loadHistory: (uid) => api.fetchMarkerHistory(uid),

    async applyRemote(event) {
      if (event.map !== mapId) return 'ignored';
      const uid = changeUid(event);
      // Our own requests first: the echo of a save may come before its answer.
      for (let i = 0; i < 5 && (chains.has(uid) || i === 0); i += 1) {
        await localQueue;
        await chains.get(uid);
      }
      // Another admin's version (not one this page wrote, whether or not it is newer than the
      // page's copy): an undo / redo delete of the marker asks first from now on.
      if (event.kind === 'upsert') noteOthers(uid, event.marker.version);
      const open = editing(uid);
      // A form (draft and base) has no uid of its own; a marker always has one.
      const form = open && !('uid' in open) ? (open as EditingForm) : null;
      const draft = form ? form.draft : (open as Marker | null);
      const formBase = form?.base ?? null;
      // A form with nothing typed (its draft is still the marker it began from; an upload, saved
      // as it is sent, does not count) has nothing to lose: their change is applied as any other,
      // and the form follows it (popup.ts `followUntouched`), no choice asked.
      const untouched = !!draft && draft.uid === uid && formBase?.uid === uid && sameMarker(formBase, draft);
      const formOpen = draft?.uid === uid && !untouched;
      const editingUid = formOpen || wants.get(uid)?.marker ? uid : null;
      const outcome = await applyRemoteChange(event, {
        sink,
        knownVersion: async (id) => {
          const stored = versions.get(id);
          // Our own change coming back: no need to ask the worker for its copy.
          const version = changeVersion(event);
          if (stored !== undefined && version !== undefined && version <= stored) return stored;
          // A delete: the server has no copy left to read (a compact row's read is a 404), and the
          // page's copy is older than the delete anyway; what this page wrote or heard decides.
          if (event.kind === 'remove') return stored ?? null;
          const mine = (await sink.get(id))?.version;
          return stored === undefined ? (mine ?? null) : Math.max(stored, mine ?? 0);
        },
        editingUid,
        onConflict: async (id, theirs) => {
          // "Mine" is only this page's own changes, put onto theirs: the form's (draft against the
          // marker it began from) or an unsaved change's (against the copy it was based on).
          // Their other changes stay; a whole stale copy would undo them (a lost update).
          const want = wants.get(id);
          const live = formOpen;
          const wanted = live ? plain(draft) : (want?.marker ?? null);
          const from = live ? (formBase?.uid === id ? formBase : null) : want?.basedOn === undefined ? (server.get(id) ?? null) : null;
          const mine = wanted && theirs && from ? patchMarker(theirs, from, wanted) : wanted;
          wants.delete(id);
          retries.delete(id);
          delete pending[id];
          setServer(id, theirs);
          if (event.kind === 'remove') noteVersion(id, event.version);
          if (mine) raiseConflict({ uid: id, mine, theirs: plain(theirs), action: 'update', origin: live ? 'live' : 'save' });
          notify();
          if (theirs) await sink.upsert(plain(theirs));
          else await sink.remove(id);
        },
      });
      if (outcome === 'applied') {
        if (event.kind === 'upsert') setServer(uid, event.marker);
        else {
          server.set(uid, null);
          noteVersion(uid, event.version);
        }
      }
      return outcome;
    },

    async reload(load) {
      const heardNow = new Set<string>();
      heardDuringReload.add(heardNow);
      try {
        if ((await load()) === false || disposed) return;
        // In the local queue: no command changes a marker while its change is put back.
        await local(async () => {
          // Changes that could not read their marker are made now (a read failing again leaves them failed).
          for (const [key, entry] of [...unread]) {
            try {
              await realize(key);
            } catch (error) {
              if (unread.get(key) === entry) keepUnread(key, entry, error);
            }
          }
          for (const uid of new Set([...wants.keys(), ...heardNow])) {
            const want = wants.get(uid);
            if (want) {
              if (want.marker) await sink.upsert(plain(want.marker));
              else await sink.remove(uid);
              // Still unsaved: shown. Saved meanwhile (or refused): its answer is shown below,
              // issued after the sink call that put the unsaved change back.
              if (wants.get(uid) === want) continue;
            }
            if (!server.has(uid)) continue;
            const stored = server.get(uid) ?? null;
            if (stored) await sink.upsert(plain(stored));
            else await sink.remove(uid);
          }
          await formChangedMeanwhile();
        });
      } finally {
        heardDuringReload.delete(heardNow);
      }
    },

    knowsVersion(uid, version) {
      const known = versions.get(uid);
      return known !== undefined && version <= known;
    },

    recordShapeStep(step) {
      history.record({ kind: 'shape', at: now(), ...step, before: plain(step.before), after: plain(step.after) });
    },

    setShapeStore(store) {
      shapeStore = store;
    },

    setEditing(source) {
      editing = source ?? (() => null);
    },

    wroteVersion(uid, version) {
      return version !== undefined && !!ownVersions.get(uid)?.has(version);
    },

    getState,

    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },

    settle,

    dispose() {
      disposed = true;
      listeners.clear();
      history.clear();
    },
  };
}
