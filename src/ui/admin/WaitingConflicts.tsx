/**
 * Conflicts left unresolved (state/editor.ts `conflicts`): a save of this page refused because
 * another admin changed the marker, or another admin's change to the marker being edited. Each
 * is shown, with Keep mine / Take theirs, in its marker's popup; once that popup is closed, the
 * dock says that one waits (the marker shows their version meanwhile), with "Show" to open it.
 * The open marker's own conflict is in its popup already, so it is not repeated here.
 */
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { localized } from '../../domain/marker';
import { isLanguage } from '../../i18n';
import { editor } from '../../state/editor';
import { selectMarker } from '../../state/mapView';
import { popup } from '../../state/popup';

export function WaitingConflicts() {
  const { t, i18n } = useTranslation();
  const { conflicts } = useSnapshot(editor);
  const { uid: openUid } = useSnapshot(popup);
  const waiting = Object.values(conflicts).filter((c) => c.uid !== openUid);
  if (waiting.length === 0) return null;
  const lang = isLanguage(i18n.language) ? i18n.language : 'en';
  const first = waiting[0];
  const name = localized(first.mine, 'name', lang).trim() || first.uid;
  return (
    <div role="status" className="admin-set-aside admin-waiting-conflicts">
      <span className="admin-set-aside__text">{waiting.length === 1 ? t('markerEdit.conflictWaiting', { name }) : t('markerEdit.conflictWaitingMany', { name, count: waiting.length })}</span>
      <span className="admin-set-aside__actions">
        <button type="button" className="admin-button" onClick={() => selectMarker(first.uid)}>
          {t('markerEdit.conflictShow')}
        </button>
      </span>
    </div>
  );
}
