/**
 * The marker popup's own state (the open marker itself is `mapView.selectedUid`): the image
 * shown, the enlarged size (remembered in localStorage `map_popup` = `xlsize`, spec §9),
 * whether the pointer is over the popup (the wiring then stops wheel zoom), a pending
 * request to centre the map on a point (a `?obj=` link), which the wiring hands to the engine,
 * where the popup sits so as not to cover its marker (its `anchor`, measured height and the
 * wiring's `placement`),
 * and the edit mode (spec §4): entering it takes a snapshot of the marker and a draft the form
 * edits; Cancel drops the draft (nothing is sent, the snapshot is what shows); opening a
 * different marker goes back to view mode at image 0. An edit with typed changes that is left
 * that way (another marker opened, a marker placed, the popup closed, Escape in a field:
 * `leaveEdit`) is set aside, not lost: `setAside` holds it until the admin picks it up again
 * (`resumeSetAside`) or drops it, or a save of the marker takes in all of it (state/editor.ts).
 */
import { proxy, ref } from 'valtio';
import type { Marker } from '../domain/marker';
import { sameMarker } from '../domain/marker-compare';
import { prepareMarkerForSave } from '../domain/marker-edit';
import { patchMarker } from '../editor/commands';
import { readStored, writeStored } from './storage';

export const POPUP_STORAGE_KEY = 'map_popup';
export const POPUP_ENLARGED_VALUE = 'xlsize';

export type PopupMode = 'view' | 'edit';

/** Where the popup sits on screen: bottom centre (the usual), top centre, or at a side. */
export type PopupPlacement = 'bottom' | 'top' | 'left' | 'right';

export interface PopupState {
  /** The marker whose images `imageIndex` pages through. */
  uid: string | null;
  imageIndex: number;
  enlarged: boolean;
  /** The pointer is over the popup: the map must not zoom. */
  pointerOver: boolean;
  /** Map-pixel point the map should be centred on, until the wiring has done it. */
  focus: { x: number; y: number } | null;
  /** Moves each time a marker changed on the page (`markerChanged`): the popup reads its marker again. */
  revision: number;
  mode: PopupMode;
  /** The marker as it was when editing began; its `version` is the one a save is based on. Null in view mode. */
  snapshot: Marker | null;
  /** The edit form's working copy (untrimmed, as typed). Null in view mode. */
  draft: Marker | null;
  /** The last edit left with typed changes by opening another marker or closing the popup (one: the latest). */
  setAside: SetAsideEdit | null;
  /** Map-pixel point of the marker the popup shows (null: none): the wiring places the popup clear of it. */
  anchor: { x: number; y: number } | null;
  /** The marker the popup shows, as read (null: none yet): what the admin's status bar names. Not a copy to edit. */
  shown: Marker | null;
  /** The popup's height on screen (CSS px; 0 until measured). */
  boxHeight: number;
  /** Where the popup sits, so that it does not cover its marker (the wiring's choice: ui/popup/popupPlacement.ts). */
  placement: PopupPlacement;
}

/** An edit form's work, kept when its popup moved on without a save or a Cancel. */
export interface SetAsideEdit {
  uid: string;
  snapshot: Marker;
  draft: Marker;
  /**
   * Its marker was taken off the page by this page's undo (of its place or copy) or redo (of its
   * delete): going back to the work would add the marker again, so the dock says so (`closeEditRemoved`).
   */
  removed?: boolean;
}

export const popup = proxy<PopupState>({
  uid: null,
  imageIndex: 0,
  enlarged: readStored(POPUP_STORAGE_KEY) === POPUP_ENLARGED_VALUE,
  pointerOver: false,
  focus: null,
  revision: 0,
  mode: 'view',
  snapshot: null,
  draft: null,
  setAside: null,
  anchor: null,
  shown: null,
  boxHeight: 0,
  placement: 'bottom',
});

/** The set-aside edit to open again once its marker's popup shows (`resumeSetAside`). */
let resuming: SetAsideEdit | null = null;

/**
 * A deep copy of a marker (plain JSON data), so the snapshot and the draft never share objects.
 * JSON rather than structuredClone: a valtio proxy (popup.snapshot itself) cannot be cloned.
 */
function copyMarker(marker: Marker): Marker {
  return JSON.parse(JSON.stringify(marker)) as Marker;
}

function endEdit(): void {
  popup.mode = 'view';
  popup.snapshot = null;
  popup.draft = null;
}

/** Re-reads the remembered size (on map page mount, and in tests after swapping storage). */
export function loadPopupSize(): void {
  popup.enlarged = readStored(POPUP_STORAGE_KEY) === POPUP_ENLARGED_VALUE;
}

export function setEnlarged(enlarged: boolean): void {
  popup.enlarged = enlarged;
  writeStored(POPUP_STORAGE_KEY, enlarged ? POPUP_ENLARGED_VALUE : null);
}

export function toggleEnlarged(): void {
  setEnlarged(!popup.enlarged);
}

/** Shows `uid`'s popup: a different marker starts again at its first image (spec §4). */
export function showPopupFor(uid: string | null): void {
  if (popup.uid === uid) return;
  setAsideIfChanged();
  popup.uid = uid;
  popup.imageIndex = 0;
  endEdit();
  if (uid === null) popup.pointerOver = false;
  if (uid !== null && resuming?.uid === uid) resumeEdit(resuming);
}

/** The open edit, kept where it has typed changes (the popup is moving on without a save). */
function setAsideIfChanged(): void {
  const { mode, snapshot, draft } = popup;
  if (mode !== 'edit' || !snapshot || !draft || sameMarker(snapshot, draft)) return;
  popup.setAside = { uid: snapshot.uid, snapshot: copyMarker(snapshot), draft: copyMarker(draft) };
}

function resumeEdit(edit: SetAsideEdit): void {
  resuming = null;
  popup.mode = 'edit';
  popup.snapshot = copyMarker(edit.snapshot);
  popup.draft = copyMarker(edit.draft);
}

/**
 * Opens the set-aside edit again: its marker's popup (`select`: the map's selection, which the
 * popup follows) in edit mode with the draft as it was left. A save is based on the version it
 * began from, so a change made meanwhile by another admin shows as a conflict, as ever.
 */
export function resumeSetAside(select: (uid: string) => void): void {
  const edit = popup.setAside;
  if (!edit) return;
  popup.setAside = null;
  const kept = { uid: edit.uid, snapshot: copyMarker(edit.snapshot), draft: copyMarker(edit.draft) };
  if (popup.uid === kept.uid) {
    // Its popup is open (in view mode): whatever is being edited now is set aside in turn.
    setAsideIfChanged();
    resumeEdit(kept);
    return;
  }
  resuming = kept;
  select(kept.uid);
}

/**
 * The set-aside edit of `uid` that "Back to them" is opening (its popup not shown yet), or null.
 * A marker another admin deleted meanwhile is not found on the page: its popup then shows this
 * draft (useOpenMarker), and the form opens on it.
 */
export function resumingEdit(uid: string): SetAsideEdit | null {
  return resuming?.uid === uid ? { uid, snapshot: copyMarker(resuming.snapshot), draft: copyMarker(resuming.draft) } : null;
}

/** Drops the set-aside edit (the admin chose to). */
export function discardSetAside(): void {
  popup.setAside = null;
}

/**
 * A save of `saved.uid` went through (a Retry of a save that failed, say): the set-aside edit of
 * that marker is dropped where it holds nothing more than what was saved (its typed changes, as
 * a save would send them, are all in `saved`; versions aside), so "Back to them" never reopens
 * work that is saved already. Work beyond what was saved stays set aside.
 */
export function settleSetAside(saved: Marker): void {
  const aside = popup.setAside;
  if (!aside || aside.uid !== saved.uid) return;
  const prepared = prepareMarkerForSave(copyMarker(aside.draft));
  if (!prepared.ok) return;
  if (sameMarker(patchMarker(copyMarker(saved), copyMarker(aside.snapshot), prepared.marker), saved)) popup.setAside = null;
}

/** Pages through `count` images, clamped to the first and last. */
export function stepImage(direction: 1 | -1, count: number): void {
  if (count <= 0) {
    popup.imageIndex = 0;
    return;
  }
  popup.imageIndex = Math.min(count - 1, Math.max(0, popup.imageIndex + direction));
}

export function setPointerOverPopup(over: boolean): void {
  popup.pointerOver = over;
}

/** The open marker's map point (null: the popup closed). */
export function setPopupAnchor(point: { x: number; y: number } | null): void {
  if (point && popup.anchor?.x === point.x && popup.anchor.y === point.y) return;
  popup.anchor = point ? { x: point.x, y: point.y } : null;
}

export function setPopupBoxHeight(height: number): void {
  popup.boxHeight = height;
}

export function setPopupPlacement(placement: PopupPlacement): void {
  popup.placement = placement;
}

export function requestFocus(x: number, y: number): void {
  if (!Number.isFinite(x) || !Number.isFinite(y)) return;
  popup.focus = { x, y };
}

/** Takes the pending focus request, if any (the wiring calls this once it has centred). */
export function takeFocus(): { x: number; y: number } | null {
  const focus = popup.focus;
  popup.focus = null;
  return focus ? { x: focus.x, y: focus.y } : null;
}

/**
 * A marker changed on the page (a save, an upload, an undo, a live change from another admin):
 * the open popup reads its marker from the worker again. Without a uid, or with the open one's,
 * the popup re-reads; a change to another marker is ignored.
 */
export function markerChanged(uid?: string): void {
  if (uid !== undefined && popup.uid !== null && uid !== popup.uid) return;
  popup.revision += 1;
}

/**
 * Edit mode for the open marker: a snapshot of it and a draft to edit. The role check is the
 * caller's (only admins get the Edit button). Again for the marker being edited: nothing changes.
 */
export function startEdit(marker: Marker): void {
  if (popup.mode === 'edit' && popup.snapshot?.uid === marker.uid) return;
  popup.uid = marker.uid;
  popup.snapshot = copyMarker(marker);
  popup.draft = copyMarker(marker);
  popup.mode = 'edit';
}

/** Cancel: the draft is dropped and the snapshot is what shows again; nothing is sent. */
export function cancelEdit(): void {
  endEdit();
}

/**
 * Escape in a field of the edit form: back to view mode as with Cancel, but typed changes are
 * set aside (as a close does), not dropped; the dock's "Back to them" brings the form back.
 */
export function leaveEdit(): void {
  setAsideIfChanged();
  endEdit();
}

/**
 * An undo or redo of this page took the marker under the open edit form off the page (an undone
 * place or copy, a redone delete: src/editor/commands.ts `AppliedMarkerStep.removed`). The form
 * has nothing left to edit, and its Save would add the marker back with the same uid, silently
 * cancelling the undo. So it closes as Escape in a field does (`leaveEdit`): typed changes are
 * set aside, and the dock's "Back to them" brings the form back as it was (after a redo has put
 * the marker back, onto it; before, onto the typed work, whose Save then adds the marker again,
 * the admin's choice). The popup of the gone marker then closes (`markerChanged`: its re-read
 * finds nothing, ui/popup/useOpenMarker.ts). Another marker's form is left alone.
 */
export function closeEditRemoved(uid: string): void {
  if (popup.mode !== 'edit' || popup.snapshot?.uid !== uid) return;
  leaveEdit();
  if (popup.setAside?.uid === uid) popup.setAside.removed = true;
  markerChanged(uid);
}

/** An undo or redo put `uid` back on the page: its set-aside work is an edit of it again, no longer an add. */
export function setAsideMarkerBack(uid: string): void {
  if (popup.setAside?.uid === uid && popup.setAside.removed) delete popup.setAside.removed;
}

/** A save went through: back to view mode (the popup then reads the saved marker). */
export function finishEdit(): void {
  endEdit();
}

/** Replaces the draft (the form's edits; ignored outside edit mode). */
export function setDraft(next: Marker): void {
  if (popup.mode !== 'edit' || !popup.draft || next.uid !== popup.draft.uid) return;
  popup.draft = next;
}

/** Changes some fields of the draft (ignored outside edit mode). */
export function patchDraft(patch: Partial<Marker>): void {
  if (popup.mode !== 'edit' || !popup.draft) return;
  Object.assign(popup.draft, patch);
}

/**
 * The stored marker moved on under the edit without losing it (an image upload: a
 * read-modify-write on the server, version + 1): later saves are based on `current`, and
 * Cancel shows `current`. `adopt` carries what the server changed into the draft.
 */
export function rebaseEdit(current: Marker, adopt?: (draft: Marker) => void): void {
  if (popup.mode !== 'edit' || !popup.draft || popup.snapshot?.uid !== current.uid) return;
  // The form may have followed a newer version already (another admin's change that came while
  // the upload was on its way, `followUntouched`): it does not go back to the upload's answer.
  if (!olderThan(current, popup.snapshot)) {
    popup.snapshot = copyMarker(current);
    if (current.version !== undefined) popup.draft.version = current.version;
  }
  adopt?.(popup.draft);
}

/** `a` is an older version than `b` (both have one). */
function olderThan(a: Marker, b: Marker): boolean {
  return a.version !== undefined && b.version !== undefined && a.version < b.version;
}

/**
 * The marker of an edit form with nothing typed changed on the page (another admin's change
 * came live: src/editor/commands.ts applies it, no conflict, since the form has nothing to lose):
 * the form follows it, its fields show `current` and a save is based on its version. A form
 * with typed changes is left alone (another admin's change is a conflict there, chosen first),
 * and so is a form on a newer version already. Answers whether the form's fields changed.
 */
export function followUntouched(current: Marker): boolean {
  const { mode, snapshot, draft } = popup;
  if (mode !== 'edit' || !snapshot || !draft || snapshot.uid !== current.uid || draft.uid !== current.uid) return false;
  if (!sameMarker(snapshot, draft) || olderThan(current, snapshot)) return false;
  const fields = !sameMarker(snapshot, current);
  if (!fields && snapshot.version === current.version) return false;
  popup.snapshot = copyMarker(current);
  popup.draft = copyMarker(current);
  return fields;
}

/**
 * This page changed the marker under its open edit form (an undo or redo of the map, say): the
 * form is its typed changes over the marker as the page shows it, not a stale copy. The fields
 * the admin has not touched show `current` (an undo of the save before shows the undone
 * values), the typed ones keep what was typed (`patchMarker`: the text tables language by
 * language), and `current` becomes the snapshot, so Save sends only the typed changes and never
 * puts back a value the undo removed. Nothing changes where `current` holds the snapshot's
 * fields already. The caller leaves another admin's change alone (a conflict, chosen first).
 */
export function followPageCopy(current: Marker): void {
  const { mode, snapshot, draft } = popup;
  if (mode !== 'edit' || !snapshot || !draft || snapshot.uid !== current.uid || draft.uid !== current.uid) return;
  if (sameMarker(snapshot, current)) return;
  // patchMarker keeps current's version: a later save is based on the version the page knows.
  popup.draft = patchMarker(copyMarker(current), copyMarker(snapshot), copyMarker(draft));
  popup.snapshot = copyMarker(current);
}

/**
 * An edit's work moved onto another admin's version (`theirs`; null: they deleted the marker):
 * the changes the draft made to the marker the edit began from (its snapshot) go onto theirs,
 * which becomes the snapshot, so a later save is based on their version and keeps their other
 * changes; the fields the admin never touched are theirs. Deleted: nothing to base on, so the
 * draft stays whole and both lose their version (a save adds the marker again, same uid).
 */
export function editOnTheirs(edit: { snapshot: Marker; draft: Marker }, theirs: Marker | null): { snapshot: Marker; draft: Marker } {
  if (theirs) return { snapshot: copyMarker(theirs), draft: patchMarker(copyMarker(theirs), copyMarker(edit.snapshot), copyMarker(edit.draft)) };
  const { version: _s, ...snapshot } = copyMarker(edit.snapshot);
  const { version: _d, ...draft } = copyMarker(edit.draft);
  return { snapshot: snapshot as Marker, draft: draft as Marker };
}

/**
 * "Keep mine" of another admin's change to a marker being edited (nothing is sent): the open
 * edit of `uid`, else its set-aside edit, goes on from their version (`editOnTheirs`). Answers
 * which one moved ('open', 'setAside'), or null when there is no edit of `uid`.
 */
export function keepEditOnTheirs(uid: string, theirs: Marker | null): 'open' | 'setAside' | null {
  if (popup.mode === 'edit' && popup.snapshot?.uid === uid && popup.draft) {
    const next = editOnTheirs({ snapshot: popup.snapshot, draft: popup.draft }, theirs);
    popup.snapshot = next.snapshot;
    popup.draft = next.draft;
    return 'open';
  }
  const aside = popup.setAside;
  if (aside?.uid === uid) {
    popup.setAside = { uid, ...editOnTheirs(aside, theirs) };
    return 'setAside';
  }
  return null;
}

export function resetPopup(): void {
  popup.setAside = null;
  resuming = null;
  popup.uid = null;
  popup.imageIndex = 0;
  popup.pointerOver = false;
  popup.focus = null;
  popup.anchor = null;
  popup.shown = null;
  popup.boxHeight = 0;
  popup.placement = 'bottom';
  endEdit();
}

/** The marker the popup shows now (useOpenMarker.ts), or null: kept as read (a ref, not a proxy). */
export function setShownMarker(marker: Marker | null): void {
  popup.shown = marker ? ref(marker) : null;
}
