/**
 * The Settings button (spec §6): a visitor sees it marked Pro and gets the pro-upsell popup;
 * pro users get the settings popup (issue 4); admins do not see it.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { access } from '../../domain/roles';
import { session } from '../../state/session';

export interface SettingsButtonProps {
  onUpsell: () => void;
  /** Opens the settings popup; while there is none the button is disabled for pro users. */
  onSettings?: () => void;
}

export function SettingsButton({ onUpsell, onSettings }: SettingsButtonProps) {
  const { t } = useTranslation();
  const { user } = useSnapshot(session);
  const noteId = useId();
  const rule = access(user, 'settings');
  if (rule === 'notShown' || rule === 'no') return null;
  if (rule === 'yes') {
    return (
      <button type="button" className="map-panel__button" onClick={onSettings} disabled={!onSettings}>
        {t('panels.settings')}
      </button>
    );
  }
  return (
    <>
      <button type="button" className="map-panel__button" aria-describedby={noteId} onClick={onUpsell}>
        {t('panels.settings')}
        <span className="pro-badge" aria-hidden="true">
          {t('panels.pro')}
        </span>
      </button>
      <span id={noteId} hidden>
        {t('panels.proFeature')}
      </span>
    </>
  );
}
