/**
 * "Look direction arrow" where the player marker is set (the where-am-I bar). A pro user
 * switches the setting itself (kept in `map:settings`, the same one as in the settings
 * popup); a visitor sees it unchecked and marked Pro, and trying it opens the upsell with
 * nothing changed; an admin does not see it (role table: lookArrow). Used while the page still
 * asks who is signed in, it waits for the answer (tryProFeature): a pro user gets what they
 * clicked for, not the upsell; where the server failed to say, it says the account could not be
 * checked, with Try again (AccountUncheckedNote), rather than offer pro.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { access } from '../../domain/roles';
import { dismissUncheckedFeature, session, tryProFeature } from '../../state/session';
import { settings, updateSettings } from '../../state/settings';
import { AccountUncheckedNote } from '../account/AccountUncheckedNote';

export function LookArrowToggle() {
  const { t } = useTranslation();
  const { user, status, uncheckedFeature } = useSnapshot(session);
  const { lookArrow } = useSnapshot(settings);
  const noteId = useId();
  const rule = access(user, 'lookArrow');
  if (rule !== 'yes' && rule !== 'upsell') return null;
  const upsell = rule === 'upsell';
  const unchecked = upsell && status === 'error' && uncheckedFeature === 'lookArrow';

  return (
    <>
      <span className={upsell ? 'look-arrow-toggle look-arrow-toggle--pro' : 'look-arrow-toggle'}>
        <label className="look-arrow-toggle__label">
          {/* Controlled: for a visitor it stays unticked, since a change only opens the upsell.
              (No preventDefault on the click: React restores a controlled box itself.) */}
          <input
            type="checkbox"
            checked={upsell ? false : lookArrow}
            aria-describedby={upsell ? noteId : undefined}
            onChange={(event) => {
              const lookArrow = event.target.checked;
              if (upsell) void tryProFeature('lookArrow', () => updateSettings({ lookArrow }));
              else updateSettings({ lookArrow });
            }}
          />
          <span>{t('settings.lookArrow')}</span>
          {upsell && (
            <span className="pro-badge" aria-hidden="true">
              {t('panels.pro')}
            </span>
          )}
        </label>
        {upsell && (
          <span id={noteId} hidden>
            {t('panels.proFeature')}
          </span>
        )}
      </span>
      {/* Try again switches the arrow on: what the user ticked the box for. */}
      {unchecked && <AccountUncheckedNote onRetry={() => void tryProFeature('lookArrow', () => updateSettings({ lookArrow: true }))} onDismiss={dismissUncheckedFeature} />}
    </>
  );
}
