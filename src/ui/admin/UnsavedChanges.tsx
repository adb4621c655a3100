/**
 * Changes of this page the server did not take (state/editor.ts `pending`, status `failed`: the
 * server could not be reached, or refused): each marker's popup says why and has Retry, but
 * after an outage the admin should not have to click every marker to find them. While any
 * marker other than the open one has a failed change, the dock says how many, why (the first
 * reason), and offers "Retry all" (each in turn, as its popup's Retry) and "Show" (the first
 * one's popup). The open marker's own failure is in its popup already. Its words follow the
 * state: a change that failed because the server could not be reached is said so while the live
 * feed is down, and as "the server was out of reach; it is back now" once the feed is live again
 * (the page then sends it again itself, after reading the list: editor/commands.ts `reload`).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { boundEditor, editor, retrySave } from '../../state/editor';
import { selectMarker } from '../../state/mapView';
import { popup } from '../../state/popup';

export function UnsavedChanges() {
  const { t } = useTranslation();
  const { pending, live } = useSnapshot(editor);
  const { uid: openUid } = useSnapshot(popup);
  const [retrying, setRetrying] = useState(false);
  const failed = Object.entries(pending).filter(([uid, p]) => p.status === 'failed' && uid !== openUid);
  if (failed.length === 0) return null;
  const [firstUid, first] = failed[0];
  // "Could not be reached" is not said while the live feed shows the server answering.
  const back = live === 'connected' && boundEditor()?.getState().pending[firstUid]?.error?.code === 'offline';
  const retryAll = async () => {
    setRetrying(true);
    try {
      // One after another, as the popups' Retry would: the first failure's cause (offline) most likely holds for all.
      for (const [uid] of failed) await retrySave(uid);
    } finally {
      setRetrying(false);
    }
  };
  return (
    <div role="status" className="admin-set-aside admin-unsaved admin-notice--needs-admin">
      <span className="admin-set-aside__text">{back ? t('admin.unsaved.textBack', { count: failed.length }) : t('admin.unsaved.text', { count: failed.length, reason: first.error ?? '' })}</span>
      <span className="admin-set-aside__actions">
        <button type="button" className="admin-button" disabled={retrying} onClick={() => void retryAll()}>
          {retrying ? t('admin.unsaved.retrying') : t('admin.unsaved.retryAll', { count: failed.length })}
        </button>
        <button type="button" className="admin-button" onClick={() => selectMarker(firstUid)}>
          {t('admin.unsaved.show')}
        </button>
      </span>
    </div>
  );
}
