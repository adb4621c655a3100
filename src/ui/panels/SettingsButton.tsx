/**
 * The Settings button (spec §6): pro users open the settings popup; a visitor sees it marked
 * Pro and gets the pro-upsell popup instead (nothing else changes); admins do not see it.
 * Clicked while the page still asks who is signed in, it waits for the answer (tryProFeature):
 * a pro user is not offered pro; where the server failed to say, it says the account could not be
 * checked, with Try again (AccountUncheckedNote), rather than offer pro.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { access } from '../../domain/roles';
import { openSettings } from '../../state/layout';
import { dismissUncheckedFeature, session, tryProFeature } from '../../state/session';
import { AccountUncheckedNote } from '../account/AccountUncheckedNote';

export function SettingsButton() {
  const { t } = useTranslation();
  const { user, status, uncheckedFeature } = useSnapshot(session);
  const noteId = useId();
  const rule = access(user, 'settings');
  if (rule === 'notShown' || rule === 'no') return null;
  if (rule === 'yes') {
    return (
      <button type="button" className="map-panel__button" aria-haspopup="dialog" onClick={openSettings}>
        {t('panels.settings')}
      </button>
    );
  }
  const use = () => void tryProFeature('settings', openSettings);
  return (
    <>
      <button type="button" className="map-panel__button" aria-haspopup="dialog" aria-describedby={noteId} onClick={use}>
        {t('panels.settings')}
        <span className="pro-badge" aria-hidden="true">
          {t('panels.pro')}
        </span>
      </button>
      <span id={noteId} hidden>
        {t('panels.proFeature')}
      </span>
      {status === 'error' && uncheckedFeature === 'settings' && <AccountUncheckedNote onRetry={use} onDismiss={dismissUncheckedFeature} />}
    </>
  );
}
