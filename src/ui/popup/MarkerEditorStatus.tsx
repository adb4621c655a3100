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
 * deleted). The form is told when a retry went through (`onSaved`), so its edit ends like a save.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { editor, resolveConflict, retrySave } from '../../state/editor';
import { DiffTable } from './DiffList';
import { failureText } from './failureText';
import { markerDiff, type MarkerLike } from './markerDiff';

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

  const retry = async () => {
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

  if (!entry && !ours) return null;
  return (
    <div className="marker-edit__status">
      {entry?.status === 'saving' && (
        <p role="status" className="marker-edit__hint">
          {t('markerEdit.pendingSaving')}
        </p>
      )}
      {entry?.status === 'failed' && (
        <div role="alert" className="marker-edit__failed">
          <p className="marker-edit__error">{t('markerEdit.pendingFailed', { message: failureText(t, entry.error) })}</p>
          <button type="button" onClick={() => void retry()} disabled={working}>
            {t('markerEdit.retry')}
          </button>
        </div>
      )}
      {ours && (
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
