/**
 * Markers an earlier page of this map placed (or copied) that the server never confirmed, kept
 * across the reload or the closed tab (state/setAsideStore.ts `keptAdds`). The dock says how
 * many, with "Put back" (they go back on the map as unsaved, and their adds are sent: a marker
 * the server did save after all is not added twice; a failed one shows its red badge and Retry)
 * and "Discard". Nothing comes back without the admin's choice: another admin may have placed
 * the same thing since.
 */
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { discardKeptAdds, keptAdds, restoreKeptAdds } from '../../state/setAsideStore';

export function UnsavedMarkersNotice() {
  const { t } = useTranslation();
  const { markers, restoring } = useSnapshot(keptAdds);
  if (markers.length === 0) return null;
  const putBack = () => {
    restoreKeptAdds().catch((error: unknown) => console.error('raidmap: putting back unsaved markers failed', error));
  };
  return (
    <div role="status" className="admin-set-aside admin-kept-adds admin-notice--needs-admin">
      <span className="admin-set-aside__text">{t('admin.keptAdds.text', { count: markers.length })}</span>
      <span className="admin-set-aside__actions">
        <button type="button" className="admin-button" disabled={restoring} onClick={putBack}>
          {restoring ? t('admin.keptAdds.restoring') : t('admin.keptAdds.restore')}
        </button>
        <button type="button" className="admin-button" disabled={restoring} onClick={discardKeptAdds}>
          {t('admin.keptAdds.discard')}
        </button>
      </span>
    </div>
  );
}
