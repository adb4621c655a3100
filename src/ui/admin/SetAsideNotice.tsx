/**
 * The edit set aside (state/popup.ts `setAside`): a marker's edit form with typed changes was left
 * without Save or Cancel (another marker opened, a marker placed with "Open new markers in edit
 * mode", the popup closed). The dock says so, with "Back to them" (the marker's form again, as it
 * was left) and "Discard". Nothing is saved without the admin's Save. While the same marker has a
 * conflict waiting (its save was refused, or another admin changed or deleted it meanwhile:
 * state/editor.ts `editingForm`), that conflict's notice speaks for the work instead. A marker
 * without a name is named by its type ("Safe (unnamed)"). "Back to them" goes as the form comes
 * back: the focus goes into the form (the field typed in last, else the first: popup/resumeFocus.ts),
 * not to the page's body. Where this page's undo took the marker itself away (its form closed then:
 * popup.ts `closeEditRemoved`), the notice says so and the button says what it does, "Add it
 * again" (its Save adds the marker back), until a redo puts the marker back.
 */
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { Marker } from '../../domain/marker';
import { isLanguage } from '../../i18n';
import { editor } from '../../state/editor';
import { selectMarker } from '../../state/mapView';
import { discardSetAside, popup, resumeSetAside } from '../../state/popup';
import { requestResumeFocus } from '../popup/resumeFocus';
import { markerTitle } from './markerTitle';

export function SetAsideNotice() {
  const { t, i18n } = useTranslation();
  const { setAside } = useSnapshot(popup);
  const { conflicts } = useSnapshot(editor);
  // A conflict of the same marker holds the same work ("Keep mine" sends it): that notice speaks for both.
  if (!setAside || conflicts[setAside.uid]) return null;
  const lang = isLanguage(i18n.language) ? i18n.language : 'en';
  const name = markerTitle(t, lang, setAside.draft as Marker, setAside.snapshot as Marker);
  const resume = () => {
    requestResumeFocus(setAside.uid);
    resumeSetAside(selectMarker);
  };
  return (
    <div role="status" className="admin-set-aside">
      <span className="admin-set-aside__text">{t(setAside.removed ? 'markerEdit.setAsideRemoved' : 'markerEdit.setAside', { name })}</span>
      <span className="admin-set-aside__actions">
        <button type="button" className="admin-button" onClick={resume}>
          {t(setAside.removed ? 'markerEdit.setAsideReAdd' : 'markerEdit.setAsideResume')}
        </button>
        <button type="button" className="admin-button" onClick={discardSetAside}>
          {t('markerEdit.setAsideDiscard')}
        </button>
      </span>
    </div>
  );
}
