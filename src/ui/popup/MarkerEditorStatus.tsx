/**
 * What the editor says about the open marker (admins, view and edit mode alike): a change being
 * saved, a change that failed (the error and Retry: `retrySave`), and a conflict with another
 * admin's version (`editor.conflicts[uid]`: each marker's own, whatever other conflicts wait):
 * the fields the admin changed that differ from theirs, side by side (a conflict's "mine" is the
 * admin's own changes on their version: their other changes are not listed and stay), with
 * "Keep mine" / "Take theirs" (`resolveConflict`, which also moves the edit form on: Take theirs
 * closes it; Keep mine of a refused save closes it once sent; Keep mine of a change that came
 * while editing keeps the form, based on their version). A delete by another admin says so,
 * and what each choice does (Keep mine brings the marker back, same uid; Take theirs leaves it
 * deleted). The form is told when a retry went through (`onSaved`), so its edit ends like a save;
 * also a retry the page made itself (after a sign-in, the session having ended).
 *
 * A delete of this page refused because another admin changed the marker (`action: 'delete'`:
 * the admin's Delete, an undo of a place, a redo of a delete; `conflictCause`) says so, never as
 * an edit: "You deleted “X”; another admin changed it meanwhile", their change (before / theirs),
 * and buttons that say what they do: "Delete anyway" (Keep mine) and "Keep their marker" (Take
 * theirs). An edit form with nothing typed follows another admin's change instead of asking
 * (`useFormFollows`), with a short note.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { ConflictCause } from '../../editor/commands';
import type { Marker } from '../../domain/marker';
import { isLanguage } from '../../i18n';
import { editor, resolveConflict, retrySave, type EditorConflictState } from '../../state/editor';
import { markerTitle } from '../admin/markerTitle';
import { conflictCause } from './conflictCause';
import { DiffTable } from './DiffList';
import { failureText } from './failureText';
import { markerDiff, type MarkerLike } from './markerDiff';
import { useFormFollows } from './useFormFollows';

export interface MarkerEditorStatusProps {
  uid: string;
  /** A retry saved the change (nothing pending or in conflict for the marker any more). */
  onSaved?: () => void;
}

/** Nothing is pending or in conflict for `uid` (read from the live state, not a render's snapshot). */
export function settled(uid: string): boolean {
  return !editor.pending[uid] && !editor.conflicts[uid];
}

export function MarkerEditorStatus({ uid, onSaved }: MarkerEditorStatusProps) {
  const { t } = useTranslation();
  const { pending, conflicts } = useSnapshot(editor);
  const [working, setWorking] = useState(false);
  const entry = pending[uid];
  const ours = conflicts[uid] ?? null;
  const followed = useFormFollows(uid);

  // A failed change sent again by something else than this Retry (the page, once the admin
  // signed in again after their session ended: ui/map/signInToSave.ts) that went through ends
  // the edit as this Retry does. Failed, then saving, then settled: a Discard (failed, then
  // gone) is not a save.
  const resent = useRef<'failed' | 'saving' | null>(null);
  const ownRetry = useRef(false);
  const status = entry?.status;
  const saidSaved = useRef(onSaved);
  saidSaved.current = onSaved;
  useEffect(() => {
    if (status === 'failed') {
      resent.current = 'failed';
      ownRetry.current = false;
    } else if (status === 'saving') {
      if (resent.current === 'failed') resent.current = 'saving';
    } else {
      const saved = resent.current === 'saving' && !ownRetry.current && settled(uid);
      resent.current = null;
      ownRetry.current = false;
      if (saved) saidSaved.current?.();
    }
  }, [status, uid]);

  const retry = async () => {
    ownRetry.current = true;
    setWorking(true);
    try {
      await retrySave(uid);
    } finally {
      setWorking(false);
    }
    if (settled(uid)) onSaved?.();
  };

  const resolve = async (choice: 'mine' | 'theirs') => {
    if (!editor.conflicts[uid]) return;
    setWorking(true);
    try {
      await resolveConflict(choice, uid);
    } finally {
      setWorking(false);
    }
  };

  if (!entry && !ours && !followed) return null;
  // A delete of theirs (a delete refused: the marker is still there, changed) is its own box.
  const cause = ours && ours.theirs ? conflictCause(ours as EditorConflictState & { cause?: ConflictCause }) : null;
  return (
    <div className="marker-edit__status">
      {followed && !ours && (
        <p role="status" className="marker-edit__hint">
          {t('markerConflict.followed')}
        </p>
      )}
      {entry?.status === 'saving' && (
        <p role="status" className="marker-edit__hint">
          {t('markerEdit.pendingSaving')}
        </p>
      )}
      {entry?.status === 'failed' && (
        <div role="alert" className="marker-edit__failed">
          <p className="marker-edit__error">
            {/* The session ended: the page asks for the sign-in, and saves the change after it. */}
            {t('markerEdit.pendingFailed', { message: entry.reason === 'signedOut' ? t('markerEdit.errors.signedOut') : failureText(t, entry.error) })}
          </p>
          <button type="button" onClick={() => void retry()} disabled={working}>
            {t('markerEdit.retry')}
          </button>
        </div>
      )}
      {ours && cause && ours.theirs && <DeleteConflict cause={cause} mine={ours.mine as Marker} theirs={ours.theirs as Marker} working={working} onResolve={resolve} />}
      {ours && !cause && (
        <section role="alert" className="marker-edit__conflict" aria-label={t(ours.theirs === null ? 'markerEdit.conflictDeletedTitle' : 'markerEdit.conflict')}>
          <h3 className="marker-edit__heading">{t(ours.theirs === null ? 'markerEdit.conflictDeletedTitle' : 'markerEdit.conflict')}</h3>
          {ours.theirs === null ? (
            <>
              <p>{t('markerEdit.conflictDeleted')}</p>
              <p>{t(ours.origin === 'live' ? 'markerEdit.conflictDeletedKeepLive' : 'markerEdit.conflictDeletedKeepSave')}</p>
            </>
          ) : (
            <ConflictFields mine={ours.mine} theirs={ours.theirs} />
          )}
          <div className="marker-edit__row">
            <button type="button" onClick={() => void resolve('mine')} disabled={working}>
              {t('markerEdit.keepMine')}
            </button>
            <button type="button" onClick={() => void resolve('theirs')} disabled={working}>
              {t('markerEdit.takeTheirs')}
            </button>
          </div>
        </section>
      )}
    </div>
  );
}

function ConflictFields({ mine, theirs }: { mine: MarkerLike; theirs: MarkerLike }) {
  const { t } = useTranslation();
  const changes = markerDiff(mine, theirs);
  if (changes.length === 0) return <p>{t('markerEdit.conflictSame')}</p>;
  return (
    <>
      <p>{t('markerEdit.conflictIntro')}</p>
      <DiffTable changes={changes} mine={t('markerEdit.conflictMine')} theirs={t('markerEdit.conflictTheirs')} />
    </>
  );
}

const DELETE_TITLES: Record<ConflictCause, string> = { delete: 'markerConflict.deleteTitle', undo: 'markerConflict.undoTitle', redo: 'markerConflict.redoTitle' };

interface DeleteConflictProps {
  cause: ConflictCause;
  /** The marker as this page knew it when it asked for the delete. */
  mine: Marker;
  /** The marker as it is now (another admin's change). */
  theirs: Marker;
  working: boolean;
  onResolve: (choice: 'mine' | 'theirs') => void;
}

/**
 * A delete of this page that another admin's change stopped: what the admin asked for, their
 * change (the marker before it, and theirs), "Delete anyway" (Keep mine: deleted on their
 * version) and "Keep their marker" (Take theirs: nothing is sent).
 */
function DeleteConflict({ cause, mine, theirs, working, onResolve }: DeleteConflictProps) {
  const { t, i18n } = useTranslation();
  const lang = isLanguage(i18n.language) ? i18n.language : 'en';
  const name = markerTitle(t, lang, theirs, mine);
  const title = t(DELETE_TITLES[cause]);
  const intro =
    cause === 'undo' ? t('markerConflict.undoIntro', { name }) : cause === 'redo' ? t('markerConflict.redoIntro', { name }) : t('markerConflict.deleteIntro', { name });
  const changes = markerDiff(mine, theirs);
  return (
    <section role="alert" className="marker-edit__conflict marker-edit__conflict--delete" aria-label={title}>
      <h3 className="marker-edit__heading">{title}</h3>
      <p>{intro}</p>
      {changes.length === 0 ? (
        <p>{t('markerConflict.noFields')}</p>
      ) : (
        <DiffTable changes={changes} mine={t('markerConflict.before')} theirs={t('markerEdit.conflictTheirs')} />
      )}
      <div className="marker-edit__row">
        <button type="button" onClick={() => onResolve('mine')} disabled={working}>
          {t('markerConflict.deleteAnyway')}
        </button>
        <button type="button" onClick={() => onResolve('theirs')} disabled={working}>
          {t('markerConflict.keepTheirs')}
        </button>
      </div>
    </section>
  );
}
