/**
 * Conflicts left unresolved (state/editor.ts `conflicts`): a save of this page refused because
 * another admin changed the marker, or another admin's change to the marker being edited. Each
 * is shown, with Keep mine / Take theirs, in its marker's popup; once that popup is closed, the
 * dock says that one waits (the marker shows their version meanwhile; a deleted one stays off
 * the map), with "Show" to open it: the work set aside for that marker comes back in its edit
 * form, with the conflict; without any, its popup shows the conflict (for a deleted marker, with
 * the admin's version of it: useOpenMarker). The open marker's own conflict is in its popup
 * already, so it is not repeated here. A delete of this page that another admin's change stopped
 * says so ("You deleted “X”…", "Undo would delete “X”…": `conflictCause`), never "edited".
 */
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { Marker } from '../../domain/marker';
import { isLanguage } from '../../i18n';
import { editor } from '../../state/editor';
import { selectMarker } from '../../state/mapView';
import { popup, resumeSetAside } from '../../state/popup';
import { conflictCause } from '../popup/conflictCause';
import { requestResumeFocus } from '../popup/resumeFocus';
import { markerTitle } from './markerTitle';

export function WaitingConflicts() {
  const { t, i18n } = useTranslation();
  const { conflicts } = useSnapshot(editor);
  const { uid: openUid } = useSnapshot(popup);
  const waiting = Object.values(conflicts).filter((c) => c.uid !== openUid);
  if (waiting.length === 0) return null;
  const lang = isLanguage(i18n.language) ? i18n.language : 'en';
  const first = waiting[0];
  const name = markerTitle(t, lang, first.mine as Marker);
  const deleted = waiting.some((c) => c.theirs === null);
  const cause = first.theirs ? conflictCause(first) : null;
  const text =
    waiting.length === 1
      ? cause === 'undo'
        ? t('markerConflict.waitingUndo', { name })
        : cause === 'redo'
          ? t('markerConflict.waitingRedo', { name })
          : cause === 'delete'
            ? t('markerConflict.waitingDelete', { name })
            : t(deleted ? 'markerEdit.conflictWaitingDeleted' : 'markerEdit.conflictWaiting', { name })
      : waiting.some((c) => c.action === 'delete')
        ? t('markerConflict.waitingMany', { name, count: waiting.length })
        : t(deleted ? 'markerEdit.conflictWaitingManyDeleted' : 'markerEdit.conflictWaitingMany', { name, count: waiting.length });
  const show = () => {
    // The work set aside for it comes back in its form (with the conflict), else its popup opens.
    // The keyboard goes into the form it brings back (resumeFocus.ts), as "Back to them" does.
    if (popup.setAside?.uid === first.uid) {
      requestResumeFocus(first.uid);
      resumeSetAside(selectMarker);
    } else selectMarker(first.uid);
  };
  return (
    <div role="status" className="admin-set-aside admin-waiting-conflicts admin-notice--needs-admin">
      <span className="admin-set-aside__text">{text}</span>
      <span className="admin-set-aside__actions">
        <button type="button" className="admin-button" onClick={show}>
          {t('markerEdit.conflictShow')}
        </button>
      </span>
    </div>
  );
}
