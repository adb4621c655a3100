/**
 * The admin editor's state (docs/EDITOR.md "Editor state and commands"): the tool and its
 * state path, the drawn shapes of this map, the marker tool's type, and what the marker
 * commands report (pending saves, a conflict, undo / redo). UI components read it with
 * `useSnapshot(editor)` and call these functions; nothing in the UI calls the marker API.
 *
 * The marker actions delegate to the commands the map page binds (`bindEditor`, src/editor);
 * with nothing bound they do nothing and answer null / false. Mode and tool actions only change
 * this slice: the wiring passes them to the engine, whose state path comes back through
 * `setPath`. Shapes are drawing aids kept per map in local storage (`map:shapes:{mapId}`);
 * the marker type and the edit-on-open option are remembered in `map:editor`.
 */
import { proxy } from 'valtio';
import { isKnownCategory } from '../domain/categories';
import type { Marker } from '../domain/marker';
import { parseShapes, SHAPE_TYPES, shapesStorageKey, type DrawnShape, type ShapeType } from '../domain/shapes';
import {
  EditorError,
  failure as makeFailure,
  type AppliedMarkerStep,
  type EditorCommands,
  type EditorCommandsState,
  type EditingForm,
  type EditorFailure,
  type EditorStepName,
  type MarkerChange,
  type MarkerHistoryEntry,
  type RemoteOutcome,
  type ShapeSnapshot,
  type ShapeStore,
} from '../editor/commands';
import { i18n } from '../i18n';
import { mapView, selectMarker } from './mapView';
import { cancelEdit, closeEditRemoved, discardSetAside, setAsideMarkerBack, editOnTheirs, finishEdit, followPageCopy, keepEditOnTheirs, markerChanged, popup, resumeSetAside, setDraft, settleSetAside, startEdit } from './popup';
import { readStored, writeStored } from './storage';

export type EditorMode = 'pan' | 'draw' | 'edit' | 'move';
/** A draw tool ('marker' included); null outside draw. */
export type EditorTool = ShapeType | null;
export type LiveStatus = 'connected' | 'reconnecting' | 'off';

export interface EditorPending {
  status: 'saving' | 'failed';
  /** Why it failed, readable (in the UI language); null while saving. */
  error: string | null;
  /**
   * `signedOut`: it failed because the session ended (the page asked for a sign-in, and sends it
   * again once an admin is signed in: ui/map/signInToSave.ts); absent otherwise.
   */
  reason?: 'signedOut';
}

export interface EditorConflictState {
  uid: string;
  mine: Marker;
  theirs: Marker | null;
  action: 'update' | 'delete';
  /** `save`: a save of this page was refused; `live`: another admin changed the marker open in the edit form (nothing was sent). */
  origin: 'save' | 'live';
}

export interface EditorCursor {
  mapX: number;
  mapY: number;
  screenX: number;
  screenY: number;
}

export interface EditorState {
  /** An admin is on a map page (set by the wiring). */
  enabled: boolean;
  /** Root of the engine's state path. */
  mode: EditorMode;
  /** Draw tool, null outside draw. */
  tool: EditorTool;
  /** Engine state path, e.g. 'draw.rect.drawing'. */
  path: string;
  /** Drawing aids of this map (local storage `map:shapes:{mapId}`). */
  shapes: DrawnShape[];
  /** Shape id, or `marker:{uid}` for a marker selected in edit / move. */
  selectedShape: string | null;
  /**
   * The selected shape whose label field should take the keyboard (a text shape just placed), or
   * null. The tools panel's field focuses itself and clears it (`labelFocused`).
   */
  labelFocus: string | null;
  /** Type of the shape being drawn now. */
  drawingShape: ShapeType | null;
  /** The marker tool's category / subcategory (last chosen, remembered). */
  markerCategory: string;
  markerSubCategory: string;
  /** Admin option: a marker popup opens in edit mode (remembered). */
  editOnOpen: boolean;
  /** Uid of the marker whose copy the next map click places. */
  copying: string | null;
  /** Uid of the marker copied last with Ctrl+C, whose copies Ctrl+V places under the pointer. */
  copied: string | null;
  /** By marker uid. */
  pending: Record<string, EditorPending>;
  /** The first unresolved conflict. */
  conflict: EditorConflictState | null;
  /** Every unresolved conflict, by marker uid (a popup shows its marker's). */
  conflicts: Record<string, EditorConflictState>;
  canUndo: boolean;
  canRedo: boolean;
  cursor: EditorCursor | null;
  live: LiveStatus;
  /**
   * A marker this admin was dragging that another admin deleted meanwhile (its move was not
   * made): the dock says so until dismissed (GoneWhileMovingNotice). Null when there is none.
   */
  goneWhileMoving: GoneWhileMoving | null;
}

/** See `EditorState.goneWhileMoving`: the marker's type (the page holds no name for a row it drew only). */
export interface GoneWhileMoving {
  uid: string;
  /** Its subcategory, or null when the page no longer knew it. */
  subCategory: string | null;
}

/**
 * The badge of each marker with an unsaved change, for the map (docs/EDITOR.md "Unsaved
 * changes"): `saving` while its change is on the way, `failed` when the server did not take it
 * or another admin's change conflicts with it.
 */
export function markerFlagsOf(state: Pick<EditorState, 'pending' | 'conflicts'>): Record<string, EditorPending['status']> {
  const flags: Record<string, EditorPending['status']> = {};
  for (const [uid, pending] of Object.entries(state.pending)) flags[uid] = pending.status;
  for (const uid of Object.keys(state.conflicts)) flags[uid] = 'failed';
  return flags;
}

/** Whether any change of this page is still saving or was not saved (leaving the page would lose it). */
export function hasUnsavedChanges(state: Pick<EditorState, 'pending'>): boolean {
  return Object.keys(state.pending).length > 0;
}

/** What leaving the map now would do with this page's changes the server has not taken. */
export interface LeavingChanges {
  /** Markers whose change would be lost: still saving, failed, or held by a conflict waiting for Keep mine / Take theirs. */
  lost: number;
  /** Markers placed or copied and not saved yet: kept across leaving, and offered back by the map (state/setAsideStore.ts). */
  kept: number;
}

/**
 * This page's changes the server has not taken, one per marker, as leaving would treat them:
 * those in `keptAdds` (the commands' `unsavedAdds`) are kept, unless a conflict holds them; the
 * others are lost.
 */
export function changesOnLeaving(state: { pending: Readonly<Record<string, unknown>>; conflicts: Readonly<Record<string, unknown>> }, keptAdds: ReadonlySet<string> = new Set()): LeavingChanges {
  const result: LeavingChanges = { lost: 0, kept: 0 };
  for (const uid of new Set([...Object.keys(state.pending), ...Object.keys(state.conflicts)])) {
    if (keptAdds.has(uid) && !state.conflicts[uid]) result.kept += 1;
    else result.lost += 1;
  }
  return result;
}

/** The uids of the markers this page placed or copied that the server has not confirmed (kept on leaving). */
export function unsavedAddUids(): Set<string> {
  return new Set(bound?.unsavedAdds().map((m) => m.uid) ?? []);
}

/** `changesOnLeaving` of this page now (none without an editor bound). */
export function changesOnLeavingNow(): LeavingChanges {
  return bound ? changesOnLeaving(editor, unsavedAddUids()) : { lost: 0, kept: 0 };
}

export const EDITOR_STORAGE_KEY = 'map:editor';
export const DEFAULT_MARKER_TYPE = { category: 'Markers', subCategory: 'Marker' } as const;
export const EDITOR_MODES: readonly EditorMode[] = ['pan', 'draw', 'edit', 'move'];

export interface EditorPrefs {
  markerCategory: string;
  markerSubCategory: string;
  editOnOpen: boolean;
}

/** The remembered editor options; anything malformed or unknown falls back to the defaults. */
export function parseEditorPrefs(text: string | null): EditorPrefs {
  const prefs: EditorPrefs = { markerCategory: DEFAULT_MARKER_TYPE.category, markerSubCategory: DEFAULT_MARKER_TYPE.subCategory, editOnOpen: false };
  if (!text) return prefs;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return prefs;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return prefs;
  const v = value as Record<string, unknown>;
  if (typeof v.markerCategory === 'string' && typeof v.markerSubCategory === 'string' && isKnownCategory(v.markerCategory, v.markerSubCategory)) {
    prefs.markerCategory = v.markerCategory;
    prefs.markerSubCategory = v.markerSubCategory;
  }
  if (typeof v.editOnOpen === 'boolean') prefs.editOnOpen = v.editOnOpen;
  return prefs;
}

/** A page without an editor, with the remembered options. */
function initialState(): EditorState {
  const prefs = parseEditorPrefs(readStored(EDITOR_STORAGE_KEY));
  return {
    enabled: false,
    mode: 'pan',
    tool: null,
    path: 'pan.idle',
    shapes: [],
    selectedShape: null,
    labelFocus: null,
    drawingShape: null,
    markerCategory: prefs.markerCategory,
    markerSubCategory: prefs.markerSubCategory,
    editOnOpen: prefs.editOnOpen,
    copying: null,
    copied: null,
    pending: {},
    conflict: null,
    conflicts: {},
    canUndo: false,
    canRedo: false,
    cursor: null,
    live: 'off',
    goneWhileMoving: null,
  };
}

export const editor = proxy<EditorState>(initialState());

// ---------------------------------------------------------------------------------------------
// Binding the commands

let bound: EditorCommands | null = null;
let unsubscribe: (() => void) | null = null;

/**
 * A failure as a short phrase in the UI language (the popup's `markerEdit.errors.{code}`, shown
 * after "Your change is not saved: "): the server's own words for a refusal; the English
 * sentence when no translation is there.
 */
export function describeFailure(failure: EditorFailure): string {
  return i18n.t(`markerEdit.errors.${failure.code}`, { defaultValue: failure.message, detail: failure.detail ?? '' });
}

function mirror(state: EditorCommandsState): void {
  const pending: Record<string, EditorPending> = {};
  for (const [uid, entry] of Object.entries(state.pending)) {
    pending[uid] = { status: entry.status, error: entry.error ? describeFailure(entry.error) : null, ...(entry.error?.code === 'signedOut' ? { reason: 'signedOut' as const } : {}) };
  }
  editor.pending = pending;
  const copy = (c: EditorConflictState): EditorConflictState => ({ uid: c.uid, mine: c.mine, theirs: c.theirs, action: c.action, origin: c.origin });
  editor.conflict = state.conflict ? copy(state.conflict) : null;
  editor.conflicts = Object.fromEntries(state.conflicts.map((c) => [c.uid, copy(c)]));
  editor.canUndo = state.canUndo;
  editor.canRedo = state.canRedo;
}

// A failure's words are kept in the page's language (describeFailure): said again after an
// EN↔RU switch, else the dock's "not saved" notice keeps the old language's reason.
i18n.on('languageChanged', () => {
  if (bound) mirror(bound.getState());
});

/** The marker open in the popup's edit form (its draft), or null: remote changes to it become conflicts. */
export function editingMarker(): Marker | null {
  if (popup.mode !== 'edit' || !popup.draft) return null;
  return JSON.parse(JSON.stringify(popup.draft)) as Marker;
}

/**
 * The edit form's draft with the marker its edit began from (the popup's snapshot), for the
 * commands: a remote change to it is a conflict whose "mine" is only the form's own changes.
 * The work set aside for a marker (popup.ts `setAside`: its form was left with typed changes)
 * is an edit too: asked about that marker (`uid`, a live change's) while no form is open on
 * it, or with no form open at all, it answers the set-aside work. So another admin's change or
 * delete of it becomes a conflict at once (the dock's notice says so; a deleted marker's work
 * is not lost with it).
 */
export function editingForm(uid?: string): EditingForm | null {
  const draft = editingMarker();
  const aside = popup.setAside;
  if (aside && (!draft || (uid !== undefined && aside.uid === uid && draft.uid !== uid))) {
    return JSON.parse(JSON.stringify({ draft: aside.draft, base: aside.snapshot })) as EditingForm;
  }
  if (!draft) return null;
  const base = popup.snapshot?.uid === draft.uid ? (JSON.parse(JSON.stringify(popup.snapshot)) as Marker) : null;
  return { draft, base };
}

const shapeStore: ShapeStore = {
  put(id, shape) {
    if (placingText === id) placingText = null;
    const index = editor.shapes.findIndex((s) => s.id === id);
    if (!shape) {
      if (index >= 0) editor.shapes.splice(index, 1);
      if (editor.selectedShape === id) selectShape(null);
    } else if (index >= 0) editor.shapes[index] = shape as DrawnShape;
    else editor.shapes.push(shape as DrawnShape);
    gestures.delete(id);
    persistShapes();
  },
};

/**
 * The map page's commands (src/editor `createEditorCommands`), or null when it leaves. The
 * slice mirrors their state, hands them the shape list (for shape undo) and the popup's draft.
 */
export function bindEditor(commands: EditorCommands | null): void {
  unsubscribe?.();
  unsubscribe = null;
  bound?.setShapeStore(null);
  bound?.setEditing(null);
  bound = commands;
  if (!commands) {
    editor.pending = {};
    editor.conflict = null;
    editor.conflicts = {};
    editor.canUndo = false;
    editor.canRedo = false;
    cancelCopy();
    editor.copied = null;
    return;
  }
  commands.setShapeStore(shapeStore);
  commands.setEditing(editingForm);
  unsubscribe = commands.subscribe(mirror);
  mirror(commands.getState());
}

/** The commands bound now (the wiring's ToolHost may call them directly). */
export function boundEditor(): EditorCommands | null {
  return bound;
}

export function setEditorEnabled(enabled: boolean): void {
  editor.enabled = enabled;
}

// ---------------------------------------------------------------------------------------------
// Mode, tool and path

function setModeState(mode: EditorMode, tool: EditorTool): void {
  editor.mode = mode;
  editor.tool = mode === 'draw' ? tool : null;
  editor.drawingShape = null;
  editor.path = mode === 'draw' ? `draw.${tool}.idle` : `${mode}.idle`;
}

/** A tool → draw with it; null → pan. */
export function selectTool(tool: EditorTool): void {
  if (tool !== null && !(SHAPE_TYPES as readonly string[]).includes(tool)) return;
  setModeState(tool === null ? 'pan' : 'draw', tool);
}

/** pan ⇄ edit (from draw or move: edit); clears the tool. */
export function toggleEditMode(): void {
  setModeState(editor.mode === 'edit' ? 'pan' : 'edit', null);
}

/** → move; again → pan. */
export function toggleMoveMode(): void {
  setModeState(editor.mode === 'move' ? 'pan' : 'move', null);
}

/**
 * The engine's state path changed (keys m, l, Escape, a finished gesture): mode, tool and the
 * shape being drawn follow it. 'draw.rect.drawing' → draw, rect, drawing rect; 'move.dragging'
 * → move. A path whose root is not a mode is ignored.
 */
export function setPath(path: string): void {
  const parts = path.split('.');
  const mode = parts[0] as EditorMode;
  if (!EDITOR_MODES.includes(mode)) return;
  const tool = mode === 'draw' && (SHAPE_TYPES as readonly string[]).includes(parts[1]) ? (parts[1] as ShapeType) : null;
  editor.path = path;
  editor.mode = mode;
  editor.tool = tool;
  editor.drawingShape = tool && parts.slice(2).includes('drawing') ? tool : null;
}

export function setMarkerType(category: string, subCategory: string): void {
  if (!isKnownCategory(category, subCategory)) return;
  editor.markerCategory = category;
  editor.markerSubCategory = subCategory;
  persistPrefs();
}

export function setEditOnOpen(on: boolean): void {
  editor.editOnOpen = on;
  persistPrefs();
}

function persistPrefs(): void {
  const prefs: EditorPrefs = { markerCategory: editor.markerCategory, markerSubCategory: editor.markerSubCategory, editOnOpen: editor.editOnOpen };
  writeStored(EDITOR_STORAGE_KEY, JSON.stringify(prefs));
}

/** Re-reads the remembered options (map page mount; tests after swapping storage). */
export function loadEditorPrefs(): void {
  const prefs = parseEditorPrefs(readStored(EDITOR_STORAGE_KEY));
  editor.markerCategory = prefs.markerCategory;
  editor.markerSubCategory = prefs.markerSubCategory;
  editor.editOnOpen = prefs.editOnOpen;
}

/** Pointer position for the status bar (null: off the map). Unchanged positions write nothing. */
export function setCursor(cursor: EditorCursor | null): void {
  const c = editor.cursor;
  if (!cursor) {
    if (c) editor.cursor = null;
    return;
  }
  if (c && c.mapX === cursor.mapX && c.mapY === cursor.mapY && c.screenX === cursor.screenX && c.screenY === cursor.screenY) return;
  editor.cursor = { mapX: cursor.mapX, mapY: cursor.mapY, screenX: cursor.screenX, screenY: cursor.screenY };
}

export function setLive(state: LiveStatus): void {
  editor.live = state;
}

/** The marker being dragged was deleted by another admin (the wiring saw it go): the dock says so. */
export function noteGoneWhileMoving(uid: string, subCategory: string | null): void {
  editor.goneWhileMoving = { uid, subCategory };
}

/** The admin has read it (OK), or the page moves on. */
export function dismissGoneWhileMoving(): void {
  editor.goneWhileMoving = null;
}

// ---------------------------------------------------------------------------------------------
// Outcomes

/**
 * What a marker command or an undo / redo did, once it is done, for the page to say: a marker
 * appearing on the canvas says nothing to a screen reader (ui/map/wireEditor.ts announces each
 * in the page's language: ui/admin/editorAnnouncements.ts). Told only when it happened: a
 * change the server did not take is said by the dock's notice instead (UnsavedChanges, a
 * conflict), and one that changed nothing (a drag let go where it began) says nothing.
 * `copied`: by Ctrl+V (`paste`), by a click after Copy (`click`) or by an Alt-drag (`drag`).
 */
export type EditorOutcome =
  | { kind: 'placed' }
  | { kind: 'moved' }
  | { kind: 'copied'; how: 'paste' | 'click' | 'drag' }
  | { kind: 'undone' | 'redone'; step: EditorStepName };

const outcomeListeners = new Set<(outcome: EditorOutcome) => void>();

/** Hears every outcome (see `EditorOutcome`); returns the unsubscribe. */
export function onEditorOutcome(listener: (outcome: EditorOutcome) => void): () => void {
  outcomeListeners.add(listener);
  return () => void outcomeListeners.delete(listener);
}

function told(outcome: EditorOutcome): void {
  for (const listener of [...outcomeListeners]) listener(outcome);
}

// ---------------------------------------------------------------------------------------------
// Marker commands

/** The marker tool clicked: a marker of the chosen type on the level shown. */
export async function placeMarker(mapX: number, mapY: number): Promise<Marker | null> {
  finishPlacing();
  if (!bound) return null;
  const placed = await bound.placeMarker({ mapX, mapY, level: mapView.level, category: editor.markerCategory, subCategory: editor.markerSubCategory });
  if (placed) told({ kind: 'placed' });
  return placed;
}

/** By uid: the last draft `saveMarker` sent, until a save of it goes through (a Retry, say). */
const unsavedDrafts = new Map<string, Marker>();

/** A save of `uid` went through: work set aside for it that holds nothing more is dropped (popup.ts `settleSetAside`). */
function savedDraft(uid: string): void {
  const draft = unsavedDrafts.get(uid);
  unsavedDrafts.delete(uid);
  if (draft) settleSetAside(draft);
}

/** Saves the popup's edit (draft.version = the version edited). Null when it failed (see `pending` / `conflict`). */
export async function saveMarker(draft: Marker): Promise<Marker | null> {
  if (!bound) return null;
  // What the form began from: changes this page made since (a move) are kept, not undone.
  const base = popup.snapshot?.uid === draft.uid ? (JSON.parse(JSON.stringify(popup.snapshot)) as Marker) : undefined;
  unsavedDrafts.set(draft.uid, JSON.parse(JSON.stringify(draft)) as Marker);
  const saved = await bound.saveMarker(JSON.parse(JSON.stringify(draft)) as Marker, base);
  if (saved) savedDraft(draft.uid);
  return saved;
}

export async function moveMarker(uid: string, to: { x: number; y: number }): Promise<void> {
  finishPlacing();
  const moved = await bound?.moveMarker(uid, { x: to.x, y: to.y });
  if (moved) told({ kind: 'moved' });
}

/** What an edit form showed when its Copy was pressed: the copy the next map click places carries it. */
let copyFields: { uid: string; fields: Marker } | null = null;

/**
 * The next map click places a copy of `uid` (`copyMarkerTo`). `fields`: what the marker's edit
 * form shows (typed but unsaved changes included), which the copy takes over the saved fields.
 */
export function startCopy(uid: string, fields?: Marker): void {
  editor.copying = uid;
  copyFields = fields ? { uid, fields: JSON.parse(JSON.stringify(fields)) as Marker } : null;
}

/** Ctrl+C on an open marker: remembered for Ctrl+V, and the next map click places a copy. */
export function copyMarker(uid: string): void {
  editor.copied = uid;
  startCopy(uid);
}

/** Ctrl+V: a copy of the marker copied last at a map point (null: nothing copied, or it is gone). */
export async function pasteMarkerAt(mapX: number, mapY: number): Promise<Marker | null> {
  finishPlacing();
  const uid = editor.copied;
  if (!uid) return null;
  if (editor.copying === uid) cancelCopy();
  // On the floor shown, as a marker placed there (commands.ts copyMarkerTo).
  const copy = bound ? await bound.copyMarkerTo(uid, mapX, mapY, undefined, mapView.level) : null;
  if (copy) told({ kind: 'copied', how: 'paste' });
  return copy;
}

export function cancelCopy(): void {
  editor.copying = null;
  copyFields = null;
}

/**
 * A copy of `uid` at a map point. `level`: the floor shown, for a copy placed by a click (Ctrl+C
 * or Copy, then a click); an Alt-drag copy leaves it out and stays on its source's floor, as a
 * moved marker does.
 */
export async function copyMarkerTo(uid: string, mapX: number, mapY: number, level?: number): Promise<Marker | null> {
  finishPlacing();
  const fields = editor.copying === uid && copyFields?.uid === uid ? copyFields.fields : undefined;
  if (editor.copying === uid) cancelCopy();
  const copy = bound ? await bound.copyMarkerTo(uid, mapX, mapY, fields, level) : null;
  if (copy) told({ kind: 'copied', how: level === undefined ? 'drag' : 'click' });
  return copy;
}

/** Deletes after the UI asked 'Are you sure?'. True once the server deleted it. */
export async function deleteMarker(uid: string): Promise<boolean> {
  finishPlacing();
  return bound ? bound.deleteMarker(uid) : false;
}

/**
 * Uploads one image (PNG, JPEG or WebP, at most 5 MB) into image `index`, naming the image it
 * `replaces` (its URL as the form saw it; null: a new one). Throws an Error with a readable
 * message; a 409 (another image there now, nothing replaced) is the API's ConflictError.
 */
export async function uploadImage(uid: string, index: number, file: File, onProgress?: (fraction: number) => void, signal?: AbortSignal, replaces?: string | null): Promise<Marker> {
  if (!bound) throw new Error(describeFailure(makeFailure('uploadFailed', 'the editor is not ready')));
  try {
    return await bound.uploadImage(uid, index, file, onProgress, signal, replaces);
  } catch (error) {
    if (error instanceof EditorError) throw new EditorError({ ...error.failure, message: describeFailure(error.failure) });
    throw error;
  }
}

/** Retries a failed change; once a form's save goes through so, the work set aside for it that it holds is dropped. */
export async function retrySave(uid: string): Promise<void> {
  const commands = bound;
  if (!commands) return;
  await commands.retrySave(uid);
  const state = commands.getState();
  if (bound === commands && !state.pending[uid] && !state.conflicts.some((c) => c.uid === uid)) savedDraft(uid);
}

/** Drops a failed change (an unsaved marker leaves the map; an unsaved edit goes back to the server's copy). */
export async function discardFailed(uid: string): Promise<void> {
  await bound?.discardFailed(uid);
}

/**
 * Undo / redo of this page's last step. An edit form open meanwhile follows the marker's new
 * page copy (popup.ts `followPageCopy`): its untouched fields show the undone (redone) values,
 * its typed ones stay, and its Save sends only those. Not while another admin's change to the
 * marker waits for Keep mine / Take theirs (that choice moves the form).
 */
export async function undo(): Promise<void> {
  const commands = bound;
  if (!commands) return;
  finishPlacing();
  const had = commands.getState().canUndo;
  const done = await commands.undo();
  // The step undone is now the one to redo (read after it: a second Ctrl+Z may have queued).
  const step = commands.getState().redoLabel;
  if (had && step) told({ kind: 'undone', step });
  await formFollowsPage(commands, done);
}

export async function redo(): Promise<void> {
  const commands = bound;
  if (!commands) return;
  finishPlacing();
  const had = commands.getState().canRedo;
  const done = await commands.redo();
  const step = commands.getState().undoLabel;
  if (had && step) told({ kind: 'redone', step });
  await formFollowsPage(commands, done);
}

async function formFollowsPage(commands: EditorCommands, done: AppliedMarkerStep | null): Promise<void> {
  if (done && !done.removed) setAsideMarkerBack(done.uid);
  const uid = popup.mode === 'edit' ? (popup.snapshot?.uid ?? null) : null;
  if (!uid || editor.conflicts[uid]) return;
  // The step took the form's marker off the page (an undone place or copy, a redone delete): the
  // form has nothing left to edit, and its Save would add the marker back, cancelling the undo.
  // Its typed work is set aside (the dock offers it back), as a form closed with typing is.
  if (done?.removed && done.uid === uid) {
    closeEditRemoved(uid);
    return;
  }
  const current = await commands.pageCopy(uid);
  if (!current || bound !== commands || editor.conflicts[uid]) return;
  followPageCopy(current);
}

/**
 * Resolves the conflict of `uid` (the marker whose popup shows it; without one: the first).
 * A conflict's "mine" is only the admin's own changes put onto their version (their other
 * changes stay, src/editor/commands.ts), whatever the origin.
 * - 'theirs' keeps the server's marker (deleted: it stays deleted): an edit form open on it is
 *   closed (it shows theirs) and the work set aside for it is dropped.
 * - 'mine' of a refused save (`origin: 'save'`) sends mine on their version (a deleted marker is
 *   added again, same uid); the form closes once saved and the set-aside work (it was mine) goes.
 * - 'mine' of another admin's change that came while the form was open (`origin: 'live'`) sends
 *   nothing: the form (or, its popup closed, the set-aside edit, opened again) goes on with the
 *   admin's changes on their version (popup.ts `editOnTheirs`), and its Save sends them
 *   (for a deleted marker: adds it again, same uid).
 */
export async function resolveConflict(choice: 'mine' | 'theirs', uid?: string): Promise<void> {
  const shown = uid === undefined ? editor.conflict : editor.conflicts[uid];
  const conflict = shown ? (JSON.parse(JSON.stringify({ uid: shown.uid, mine: shown.mine, theirs: shown.theirs, origin: shown.origin })) as Pick<EditorConflictState, 'uid' | 'mine' | 'theirs' | 'origin'>) : null;
  if (!bound || !conflict) return;
  const result = await bound.resolveConflict(choice, conflict.uid);
  const editingIt = popup.mode === 'edit' && popup.snapshot?.uid === conflict.uid;
  if (choice === 'theirs') {
    if (editingIt) cancelEdit();
    if (popup.setAside?.uid === conflict.uid) discardSetAside();
  } else if (conflict.origin === 'live') {
    const kept = keepEditOnTheirs(conflict.uid, conflict.theirs);
    if (kept === 'setAside') resumeSetAside(selectMarker);
    else if (!kept && popup.uid === conflict.uid) {
      // No form nor set-aside work left (only the conflict holds mine): a form on it, with mine.
      const edit = editOnTheirs({ snapshot: conflict.theirs ?? conflict.mine, draft: conflict.mine }, conflict.theirs);
      startEdit(edit.snapshot);
      setDraft(edit.draft);
    }
  } else {
    // The work set aside for this marker was the conflict's "mine": sent, it is settled too.
    if (popup.setAside?.uid === conflict.uid) discardSetAside();
    if (editingIt && result) finishEdit();
  }
  markerChanged(conflict.uid);
}

/** A marker's change history, newest first (nothing bound: empty). */
export async function loadHistory(uid: string): Promise<MarkerHistoryEntry[]> {
  return bound ? bound.loadHistory(uid) : [];
}

/** A live change from the server (src/api/live.ts): applied unless it is an echo or the marker is being edited. */
export async function receiveRemoteChange(change: MarkerChange): Promise<RemoteOutcome> {
  return bound ? bound.applyRemote(change) : 'ignored';
}

/**
 * Reloads the page's whole marker list through `load` (answers false when it gave up); with
 * commands bound, their unsaved and in-flight changes are then put back on top (`reload`).
 */
export async function reloadMarkers(load: () => Promise<boolean | void>): Promise<void> {
  if (bound) await bound.reload(load);
  else await load();
}

// ---------------------------------------------------------------------------------------------
// Shapes (drawing aids, per map in local storage)

let shapesMapId: string | null = null;
/** Per shape: its state when an uncommitted gesture (a drag) began. */
const gestures = new Map<string, DrawnShape>();
/**
 * The stored list as this page last read or wrote it (id → JSON): the base its own changes are
 * told from. Another tab of the same map writes the same key; each write puts only this page's
 * changes since its base (added, changed, deleted) onto what is stored now, so neither tab's
 * shapes are lost and a shape deleted in one tab never comes back from the other.
 */
let shapesBase = new Map<string, string>();
/**
 * A text shape just placed whose label is being typed: its placement is recorded (one undo step;
 * the label another) when the label is finished, and not at all when the label is left empty (an
 * empty text is never drawn, so it is removed like a too-small rect, leaving no step).
 */
let placingText: string | null = null;
let listeningToStorage = false;

function plainShape(shape: DrawnShape): DrawnShape {
  return JSON.parse(JSON.stringify(shape)) as DrawnShape;
}

/** What this page would store: shapes in a gesture as they were when it began. */
function committedShapes(): DrawnShape[] {
  return editor.shapes.map((s) => plainShape(gestures.get(s.id) ?? s));
}

/**
 * This page's own changes since its base put onto `stored` (another tab's latest list): a shape
 * this page added or changed is this page's; one it deleted is dropped; the others are stored's
 * (another tab's changes, additions and deletions kept). Stored order, this page's additions after.
 */
export function mergeShapes(stored: readonly DrawnShape[], mine: readonly DrawnShape[], base: ReadonlyMap<string, string>): DrawnShape[] {
  const mineById = new Map(mine.map((s) => [s.id, s]));
  const storedIds = new Set(stored.map((s) => s.id));
  const result: DrawnShape[] = [];
  for (const theirs of stored) {
    const own = mineById.get(theirs.id);
    const was = base.get(theirs.id);
    if (!own) {
      if (was === undefined) result.push(theirs); // added by another tab
      continue; // else deleted here
    }
    result.push(was !== undefined && JSON.stringify(own) === was ? theirs : own);
  }
  for (const own of mine) {
    if (storedIds.has(own.id)) continue;
    const was = base.get(own.id);
    // Added here, or changed here while another tab deleted it (the change wins); unchanged: their delete stands.
    if (was === undefined || JSON.stringify(own) !== was) result.push(own);
  }
  return result;
}

function storedShapes(mapId: string): DrawnShape[] {
  return parseShapes(readStored(shapesStorageKey(mapId))).shapes;
}

function baseOf(list: readonly DrawnShape[]): Map<string, string> {
  return new Map(list.map((s) => [s.id, JSON.stringify(s)]));
}

/** Shows `list` (a gesture in progress keeps its shape as dragged); a selection gone with it is dropped. */
function showShapes(list: DrawnShape[]): void {
  const inGesture = new Map(editor.shapes.filter((s) => gestures.has(s.id)).map((s) => [s.id, plainShape(s)]));
  for (const id of [...gestures.keys()]) if (!list.some((s) => s.id === id)) gestures.delete(id);
  const next = list.map((s) => inGesture.get(s.id) ?? s);
  if (JSON.stringify(next) !== JSON.stringify(editor.shapes)) editor.shapes = next;
  if (placingText && !next.some((s) => s.id === placingText)) placingText = null;
  const selected = editor.selectedShape;
  if (selected && !selected.startsWith('marker:') && !next.some((s) => s.id === selected)) selectShape(null);
}

function persistShapes(): void {
  if (!shapesMapId) return;
  const merged = mergeShapes(storedShapes(shapesMapId), committedShapes(), shapesBase);
  writeStored(shapesStorageKey(shapesMapId), merged.length ? JSON.stringify(merged) : null);
  shapesBase = baseOf(merged);
  showShapes(merged);
}

/**
 * Another tab changed this map's shapes (the `storage` event): its list is taken, with this
 * page's changes not written yet (a gesture in progress) on top. Nothing is written.
 */
export function syncShapes(): void {
  if (!shapesMapId) return;
  const stored = storedShapes(shapesMapId);
  const merged = mergeShapes(stored, committedShapes(), shapesBase);
  shapesBase = baseOf(stored);
  showShapes(merged);
}

function onStorage(event: StorageEvent): void {
  if (shapesMapId && (event.key === null || event.key === shapesStorageKey(shapesMapId))) syncShapes();
}

function listenToStorage(on: boolean): void {
  if (typeof window === 'undefined' || on === listeningToStorage) return;
  listeningToStorage = on;
  if (on) window.addEventListener('storage', onStorage);
  else window.removeEventListener('storage', onStorage);
}

function record(label: 'addShape' | 'changeShape' | 'deleteShape', id: string, before: DrawnShape | null, after: DrawnShape | null): void {
  if (placingText !== id) finishPlacing();
  bound?.recordShapeStep({ label, id, before: before as ShapeSnapshot | null, after: after as ShapeSnapshot | null });
}

const emptyText = (shape: DrawnShape): boolean => shape.type === 'text' && shape.name.trim() === '';

/**
 * The text just placed is done (its label field was left unchanged, or something else happened):
 * its placement becomes one undo step as it is now; left empty, it is removed and leaves no step.
 */
export function finishPlacing(): void {
  const id = placingText;
  if (id === null) return;
  placingText = null;
  const index = editor.shapes.findIndex((s) => s.id === id);
  if (index < 0) return;
  const shape = plainShape(gestures.get(id) ?? editor.shapes[index]);
  if (emptyText(shape)) {
    dropShape(index);
    return;
  }
  record('addShape', id, null, shape);
}

/** Removes the shape at `index`, saved, with no undo step. */
function dropShape(index: number): void {
  const id = editor.shapes[index].id;
  gestures.delete(id);
  editor.shapes.splice(index, 1);
  if (editor.selectedShape === id) selectShape(null);
  persistShapes();
}

/** Reads a map's shapes (bad entries are dropped) and makes it the map shapes are saved for. */
export function loadShapes(mapId: string): void {
  shapesMapId = mapId;
  gestures.clear();
  placingText = null;
  editor.shapes = storedShapes(mapId);
  shapesBase = baseOf(editor.shapes);
  listenToStorage(true);
  selectShape(null);
}

/** Replaces every shape (an import, "clear all"); validated; not an undo step. */
export function setShapes(shapes: readonly DrawnShape[]): void {
  gestures.clear();
  placingText = null;
  editor.shapes = parseShapes(JSON.parse(JSON.stringify(shapes))).shapes;
  if (editor.selectedShape && !editor.selectedShape.startsWith('marker:') && !editor.shapes.some((s) => s.id === editor.selectedShape)) selectShape(null);
  persistShapes();
}

/**
 * A finished shape (one undo step). A marker-type shape places a marker instead. A text shape's
 * step waits for its label to be finished (`finishPlacing`, or its label's `updateShape`).
 */
export function addShape(shape: DrawnShape): void {
  if (shape.type === 'marker') {
    void placeMarker(shape.geometry.x, shape.geometry.y);
    return;
  }
  if (editor.shapes.some((s) => s.id === shape.id)) {
    updateShape(shape, true);
    return;
  }
  finishPlacing();
  const added = plainShape(shape);
  editor.shapes.push(added);
  persistShapes();
  if (added.type === 'text') placingText = added.id;
  else record('addShape', added.id, null, added);
}

/**
 * A shape changed by an edit or a move. `commit` false: a gesture in progress (shown, not saved,
 * no step); `commit` true ends it: saved, and one undo step from where the gesture began. A text
 * whose label is left empty is removed (one step; for a text just placed, none).
 */
export function updateShape(shape: DrawnShape, commit = true): void {
  const index = editor.shapes.findIndex((s) => s.id === shape.id);
  if (index < 0) return;
  const previous = plainShape(editor.shapes[index]);
  const next = plainShape(shape);
  editor.shapes[index] = next;
  if (!commit) {
    if (!gestures.has(shape.id)) gestures.set(shape.id, previous);
    return;
  }
  const before = gestures.get(shape.id) ?? previous;
  gestures.delete(shape.id);
  if (placingText === shape.id) {
    // The label of a text just placed: its placement becomes a step now, the label a second one;
    // left empty, the text goes and leaves no step at all.
    placingText = null;
    if (emptyText(next)) {
      dropShape(index);
      return;
    }
    persistShapes();
    record('addShape', shape.id, null, before);
    if (JSON.stringify(before) !== JSON.stringify(next)) record('changeShape', shape.id, before, next);
    return;
  }
  if (emptyText(next)) {
    dropShape(index);
    record('deleteShape', shape.id, before, null);
    return;
  }
  persistShapes();
  if (JSON.stringify(before) !== JSON.stringify(next)) record('changeShape', shape.id, before, next);
}

export function removeShape(id: string): void {
  const index = editor.shapes.findIndex((s) => s.id === id);
  if (index < 0) return;
  if (placingText === id) {
    // A text removed while its label was typed: it never was a step, nor is its removal.
    placingText = null;
    dropShape(index);
    return;
  }
  const before = gestures.get(id) ?? plainShape(editor.shapes[index]);
  dropShape(index);
  record('deleteShape', id, before, null);
}

/**
 * Selects a shape id, `marker:{uid}`, or nothing. `editLabel` (a text shape just placed): its
 * label field in the tools panel takes the keyboard; any other selection drops that request.
 */
export function selectShape(id: string | null, options?: { editLabel?: boolean }): void {
  if (placingText !== null && id !== placingText) finishPlacing();
  editor.selectedShape = id;
  editor.labelFocus = id !== null && options?.editLabel ? id : null;
}

/** The selection id of a marker (docs/EDITOR.md): `marker:{uid}`. */
export function markerSelection(uid: string): string {
  return `marker:${uid}`;
}

/** The uid of a selected marker (`marker:{uid}`), or null for a drawn shape's id or nothing. */
export function selectedMarkerUid(id: string | null): string | null {
  return id !== null && id.startsWith('marker:') ? id.slice('marker:'.length) : null;
}

/** A drawn shape (not a marker) is selected: Delete is the shape's, not the open marker's. */
export function drawnShapeSelected(state: Pick<EditorState, 'selectedShape'>): boolean {
  return state.selectedShape !== null && selectedMarkerUid(state.selectedShape) === null;
}

/** What `followOpenMarker` saw last: the open marker. */
let openMarker: string | null = null;

/**
 * The marker whose popup is open (`uid`; null: none), as the wiring sees it and the editor
 * change: in edit or move the marker opened is the selection (`marker:{uid}`), as a clicked
 * shape is, and it is again whenever nothing else is selected while its popup stays open (a
 * second click on it, edit or move entered with it open). A shape clicked, or a marker dragged
 * (the wiring's `selectShape`), takes the selection as usual. A marker's selection goes when its
 * popup closes or the mode leaves edit and move.
 */
export function followOpenMarker(uid: string | null): void {
  const markerMode = editor.mode === 'edit' || editor.mode === 'move';
  const was = openMarker;
  openMarker = uid;
  const selected = selectedMarkerUid(editor.selectedShape);
  if (markerMode && uid !== null) {
    if ((was !== uid || editor.selectedShape === null) && selected !== uid) selectShape(markerSelection(uid));
  } else if (selected !== null && (!markerMode || selected === was)) {
    selectShape(null);
  }
}

/** The label field took the keyboard (or its shape is gone): the request is done. */
export function labelFocused(): void {
  editor.labelFocus = null;
}

/** A fresh shape id. */
export function newShapeId(): string {
  return `shape-${globalThis.crypto.randomUUID()}`;
}

/** Back to a page without an editor (tests, leaving the map). */
export function resetEditor(): void {
  bindEditor(null);
  unsavedDrafts.clear();
  shapesMapId = null;
  gestures.clear();
  shapesBase = new Map();
  placingText = null;
  openMarker = null;
  listenToStorage(false);
  Object.assign(editor, initialState());
}
