/**
 * The marker popup (spec §2 "Marker popup", §4), composed of:
 * - useOpenMarker: the selected marker (`mapView.selectedUid`) read from the worker, again when
 *   `popup.revision` moves (state/popup.ts `markerChanged`);
 * - useObjDeepLink: the `?obj=` marker opened on load (category shown, level, quest followed,
 *   centred), or a short notice where the link's marker no longer exists;
 * - useObjUrl: the address's `obj` follows the open popup; closing it clears `obj` and `quest` (spec §4);
 * - MarkerPopupFrame (dialog, Enlarge / Shrink remembered in `map_popup`, pointer tracking) around
 *   MarkerPopupView (view mode) or, for admins only (`can(user, 'editMarkers')`), MarkerEditForm
 *   (edit mode: `popup.mode`). Admins get an Edit button in view mode, and the editor's word on
 *   the marker (saving, failed with Retry, a conflict) in both modes. With the admin option
 *   `editor.editOnOpen` a marker opens straight in edit mode (once per opening: after Cancel it
 *   stays in view mode). Visitors and pro users get no admin control at all.
 * While a marker's full record is read from the server (issue 11: the map holds only the
 * compact list) for longer than LOADING_DELAY_MS, the popup frame shows a loading line.
 * It talks to state only; the wiring turns `popup.pointerOver` and `popup.focus` into engine calls.
 */
import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { Marker } from '../../domain/marker';
import type { MapDefinition } from '../../domain/maps';
import { can } from '../../domain/roles';
import { deleteMarker, drawnShapeSelected, editor } from '../../state/editor';
import { mapView, selectMarker } from '../../state/mapView';
import { cancelEdit, loadPopupSize, markerChanged, popup, startEdit } from '../../state/popup';
import { session } from '../../state/session';
import { questLabel } from '../../state/items';
import { followLinkedQuest, quests } from '../../state/quests';
import { isLanguage } from '../../i18n';
import { keyTarget, markerKeyAction } from '../map/editorKeys';
import type { MarkerSource } from '../map/markerSource';
import { markerActionErrorText, type MarkerActionError } from './failureText';
import { deleteConfirmation } from './MarkerEditForm';
import { MarkerEditForm } from './MarkerEditForm';
import { MarkerEditorStatus, settled } from './MarkerEditorStatus';
import { MarkerPopupFrame } from './MarkerPopupFrame';
import { MarkerPopupView } from './MarkerPopupView';
import { returnFocusAfterClose, wirePopupTabIn } from './popupFocus';
import { focusResumedForm, noteTypedField } from './resumeFocus';
import { Popup } from '../popups/Popup';
import { useObjDeepLink } from './useObjDeepLink';
import { useObjUrl } from './useObjUrl';
import { useOpenMarker } from './useOpenMarker';
import { announce, clearAnnouncement } from '../LiveAnnouncer';
import { technicalFailureReason } from '../requestFailure';

export interface MarkerPopupProps {
  map: MapDefinition;
  /** The page's marker worker, or null before it exists. */
  source: MarkerSource | null;
  /** The marker list is loaded into the worker. */
  loaded: boolean;
}

// Memoised, as the panels: the map page's re-renders while it loads are not the popup's business.
export const MarkerPopup = memo(function MarkerPopup({ map, source, loaded }: MarkerPopupProps) {
  useEffect(() => {
    loadPopupSize();
  }, []);
  // The way back into an open popup the focus left: Tab from what opened it (popupFocus.ts).
  useEffect(() => wirePopupTabIn(document), []);
  const { selectedUid } = useSnapshot(mapView);
  const [readError, setReadError] = useState<{ uid: string; message: string } | null>(null);
  const onReadError = useCallback((error: unknown) => {
    const uid = mapView.selectedUid;
    if (uid) setReadError({ uid, message: error instanceof Error ? error.message : String(error) });
  }, []);
  const marker = useOpenMarker(source, loaded, onReadError);
  const slow = useAfterDelay(!!selectedUid && !marker && loaded, LOADING_DELAY_MS);
  const failed = readError && readError.uid === selectedUid && !marker ? readError.message : null;
  // Read the marker again (the server could not be reached): the popup's loading line meanwhile.
  const retryRead = useCallback(() => {
    setReadError(null);
    markerChanged(mapView.selectedUid ?? undefined);
  }, []);
  const link = useObjDeepLink(source, loaded);
  useObjUrl(link.settled);
  const { user } = useSnapshot(session);
  const { mode, snapshot } = useSnapshot(popup);
  const { editOnOpen } = useSnapshot(editor);
  const canEdit = can(user, 'editMarkers');
  const close = useCallback(() => selectMarker(null), []);
  const focusEdit = useRef(false);
  /** Edit pressed by the user (button or Enter): the form's first field takes the focus. */
  const focusForm = useRef(false);

  // editOnOpen: each marker opened goes straight to edit mode, once per opening.
  const autoOpened = useRef<string | null>(null);
  const uid = marker?.uid ?? null;
  useEffect(() => {
    if (!uid) {
      autoOpened.current = null;
      return;
    }
    if (!canEdit || !editOnOpen || autoOpened.current === uid || !marker) return;
    autoOpened.current = uid;
    focusForm.current = false;
    startEdit(marker);
  }, [uid, canEdit, editOnOpen, marker]);

  // Signed out (or no longer an admin) while editing: the edit is dropped.
  useEffect(() => {
    if (!canEdit && popup.mode === 'edit') cancelEdit();
  }, [canEdit, mode]);

  const cancel = useCallback(() => {
    focusEdit.current = true;
    cancelEdit();
  }, []);
  const saved = useCallback(() => {
    focusEdit.current = true;
  }, []);
  const edit = useCallback((which: Marker) => {
    focusForm.current = true;
    startEdit(which);
  }, []);

  // The form in the page (by uid): the field typed in last is noted, and where the dock's "Back
  // to them" brought the form back, the focus goes into it (resumeFocus.ts). This effect runs
  // after the form's and the dialog's own (a popup opening with the form focuses its dialog).
  const formUid = marker && canEdit && mode === 'edit' && snapshot?.uid === marker.uid ? marker.uid : null;
  useEffect(() => {
    if (!formUid) return;
    const popupOf = [...document.querySelectorAll<HTMLElement>('.marker-popup')].find((element) => element.dataset.uid === formUid);
    const form = popupOf?.querySelector<HTMLFormElement>('form.marker-edit') ?? null;
    focusResumedForm(formUid, form);
    if (!form) return;
    const onInput = (event: Event) => noteTypedField(formUid, form, event.target);
    form.addEventListener('input', onInput);
    return () => form.removeEventListener('input', onInput);
  }, [formUid]);

  // The form closed under the keyboard without Save or Cancel (an undo took its marker away:
  // popup.ts `closeEditRemoved`; Take theirs): the focused control went with it, and the focus
  // would fall to the page's body. Edit takes it; where the popup then closes (its marker is
  // gone), the frame hands it on to the popup's opener or the map (popupFocus.ts).
  const formOpen = useRef<string | null>(null);
  useLayoutEffect(() => {
    // Only where the popup stays on that marker (in view mode): a popup closed or moved on
    // leaves the focus to its frame (popupFocus.ts) and to the next marker's.
    const closed = formOpen.current !== null && formUid === null && formOpen.current === mapView.selectedUid;
    formOpen.current = formUid;
    if (closed && (document.activeElement === document.body || document.activeElement === null)) focusEdit.current = true;
  }, [formUid]);

  if (link.gone) return <LinkGoneNotice onClose={link.dismissGone} />;
  if (!marker) return slow || failed ? <LoadingFrame onClose={close} onRetry={retryRead} error={failed} /> : null;
  const editing = canEdit && mode === 'edit' && snapshot?.uid === marker.uid;
  return (
    <MarkerPopupFrame marker={marker} onClose={close} className={editing ? 'marker-popup--edit' : undefined} mode={editing ? 'edit' : 'view'}>
      {editing ? (
        <MarkerEditForm key={marker.uid} map={map} onCancel={cancel} onSaved={saved} focusFirstField={focusForm} />
      ) : (
        <MarkerPopupView
          map={map}
          marker={marker}
          footer={canEdit ? <AdminBar marker={marker} focusEdit={focusEdit} onEdit={edit} /> : null}
        />
      )}
    </MarkerPopupFrame>
  );
});

/** How long a marker's read may take before the popup shows that it is loading (ms). */
export const LOADING_DELAY_MS = 200;

/** True once `on` has held for `ms` (false again as soon as it drops). */
function useAfterDelay(on: boolean, ms: number): boolean {
  const [late, setLate] = useState(false);
  useEffect(() => {
    setLate(false);
    if (!on) return;
    const timer = setTimeout(() => setLate(true), ms);
    return () => clearTimeout(timer);
  }, [on, ms]);
  return on && late;
}

/** The popup frame while the marker is read: its title and a loading line, or why the read failed. */
function LoadingFrame({ onClose, onRetry, error }: { onClose: () => void; onRetry: () => void; error: string | null }) {
  const { t } = useTranslation();
  return (
    <div className="marker-popup marker-popup--loading">
      <Popup title={t('markerPopup.loadingTitle')} onClose={onClose} backdrop={false} maxWidth={420} className="marker-popup__dialog">
        {error ? (
          <div className="marker-popup__failed">
            <p role="alert" className="marker-popup__loading">
              {/* The server's own explanation as it came; technical words ("Failed to fetch", a
                  status's reason phrase) said by their kind in the page's language. */}
              {t('markerPopup.loadFailed', { message: technicalFailureReason(t, error) ?? error })}
            </p>
            <button type="button" className="marker-popup__retry" onClick={onRetry}>
              {t('markerPopup.retry')}
            </button>
          </div>
        ) : (
          <p role="status" className="marker-popup__loading">
            <span className="spinner" aria-hidden="true" /> {t('markerPopup.loading')}
          </p>
        )}
      </Popup>
    </div>
  );
}

/** The page's `?obj=` link names a marker that does not exist (any more): said once, in a small popup. */
function LinkGoneNotice({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Popup title={t('markerPopup.linkGoneTitle')} onClose={onClose} maxWidth={320} className="marker-popup__gone">
      <p>{t('markerPopup.linkGone')}</p>
      <div className="marker-popup__gone-actions">
        <button type="button" className="button" onClick={onClose}>
          {t('markerPopup.linkGoneOk')}
        </button>
      </div>
    </Popup>
  );
}

/**
 * An admin's part of the view mode: the editor's word on the marker, Edit and Delete. Their keys
 * (ui/map/editorKeys.ts): Enter opens the edit form, Delete or Backspace deletes after
 * 'Are you sure?', where the key would mean nothing else.
 */
function AdminBar({ marker, focusEdit, onEdit }: { marker: Marker; focusEdit: { current: boolean }; onEdit: (marker: Marker) => void }) {
  const { t } = useTranslation();
  const button = useRef<HTMLButtonElement>(null);
  const [deleting, setDeleting] = useState(false);
  // What failed, said at render: the message follows a language switch made while it shows.
  const [error, setError] = useState<MarkerActionError | null>(null);
  useEffect(() => {
    // Back from a cancelled or saved edit: keyboard users land on Edit again, the view shown
    // from its top (MarkerPopupFrame), not scrolled down to Edit under a long description.
    if (!focusEdit.current) return;
    focusEdit.current = false;
    button.current?.focus({ preventScroll: true });
  }, [focusEdit]);

  const deletingNow = useRef(false);
  const remove = useCallback(async () => {
    if (deletingNow.current || !window.confirm(deleteConfirmation(t))) return;
    deletingNow.current = true;
    setDeleting(true);
    setError(null);
    // Said in the page's live region, which outlives this popup (LiveAnnouncer.tsx).
    announce(t('markerEdit.deleting'));
    try {
      const uid = marker.uid;
      if (await deleteMarker(uid)) {
        announce(t('markerEdit.deleted'));
        selectMarker(null);
        // Not left on the page's body: back to what opened the popup, else the map (popupFocus.ts).
        void returnFocusAfterClose();
        return;
      }
      clearAnnouncement();
      // A failed delete brings the marker back on the map; its popup (closed as the marker left)
      // opens again with the editor's word and Retry (MarkerEditorStatus), or with the conflict
      // box where another admin changed it meanwhile (Delete anyway / Keep their marker), unless
      // another opened since.
      if (editor.pending[uid]?.status === 'failed' || editor.conflicts[uid]) {
        if (mapView.selectedUid === null || mapView.selectedUid === uid) selectMarker(uid);
      } else if (settled(uid)) setError({ kind: 'deleteFailedUnknown' });
    } catch (failure) {
      clearAnnouncement();
      setError({ kind: 'deleteFailed', failure });
    } finally {
      deletingNow.current = false;
      setDeleting(false);
    }
  }, [marker.uid, t]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const action = markerKeyAction(event, keyTarget(event.target), {
        openMarker: marker.uid,
        viewing: popup.mode !== 'edit',
        // A drawn shape's selection takes Delete; the open marker's own (`marker:{uid}`) does not.
        shapeSelected: drawnShapeSelected(editor),
        textSelected: false,
        copied: false,
      });
      if (action === 'edit') {
        event.preventDefault();
        onEdit(marker);
      } else if (action === 'delete') {
        event.preventDefault();
        void remove();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [marker, remove, onEdit]);

  return (
    <div className="marker-popup__admin">
      <MarkerEditorStatus uid={marker.uid} />
      {error && (
        <p role="alert" className="marker-popup__admin-error">
          {markerActionErrorText(t, error)}
        </p>
      )}
      {marker.questUid && <QuestNotFollowed questUid={marker.questUid} onFollowed={() => button.current?.focus()} />}
      <div className="marker-popup__admin-actions">
        <button ref={button} type="button" className="marker-popup__edit" aria-keyshortcuts="Enter" title={t('markerEdit.editKey')} onClick={() => onEdit(marker)}>
          {t('markerEdit.edit')}
        </button>
        <button
          type="button"
          className="marker-popup__delete"
          aria-keyshortcuts="Delete"
          title={t('markerEdit.deleteKey')}
          disabled={deleting}
          onClick={() => void remove()}
        >
          {deleting ? t('markerEdit.deleting') : t('markerEdit.delete')}
        </button>
      </div>
    </div>
  );
}

/**
 * A quest marker is drawn only while its quest is followed (docs/DECISIONS.md "Quest markers"):
 * an admin who links a marker to a quest not followed on this page loses sight of it at Save.
 * Its popup (which stays open) says so, with "Follow quest", which does what Find a marker does
 * for such a marker (state/quests.ts `followLinkedQuest`: at the free limit the quest followed
 * longest gives its place, no limit notice). Said once the quest list knows the quest (a
 * marker of a quest missing from the list is never drawn, followed or not).
 */
function QuestNotFollowed({ questUid, onFollowed }: { questUid: string; onFollowed: () => void }) {
  const { t, i18n } = useTranslation();
  const { list, selected, status } = useSnapshot(quests);
  if (status !== 'ready' || selected.includes(questUid) || !list.some((q) => q.uid === questUid)) return null;
  const lang = isLanguage(i18n.language) ? i18n.language : 'en';
  return (
    <div className="marker-popup__quest-note">
      <p>{t('markerEdit.questNotFollowed', { name: questLabel(list, questUid, lang) })}</p>
      <button
        type="button"
        onClick={() => {
          followLinkedQuest(questUid);
          // The note goes with its button: the keyboard stays in the popup, on Edit.
          onFollowed();
        }}
      >
        {t('markerEdit.questFollow')}
      </button>
    </div>
  );
}
