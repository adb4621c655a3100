/**
 * The pro-upsell popup (spec §1, §6): what the paid subscription is and what it adds.
 * Opening it changes nothing; it only explains. Pro is switched on for an account by the
 * site's operator, so a signed-out visitor is offered "Sign in" (they may already have it),
 * and a signed-in one is told which account lacks it. It closes itself where the user turns
 * out to be pro (or an admin): opened while the page still asked who is signed in, it would
 * otherwise offer a pro user what they have.
 */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { FREE_QUEST_LIMIT } from '../../domain/quests';
import { roleOf } from '../../domain/roles';
import { openAccountDialog } from '../../state/layout';
import { session } from '../../state/session';
import { Popup } from './Popup';
import './UpsellPopup.css';

export function UpsellPopup({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { user } = useSnapshot(session);
  const signedInWithoutPro = user !== null && roleOf(user) === 'visitor';
  const nothingToSell = user !== null && roleOf(user) !== 'visitor';
  useEffect(() => {
    if (nothingToSell) onClose();
  }, [nothingToSell, onClose]);
  if (nothingToSell) return null;
  return (
    <Popup title={t('proUpsell.title')} onClose={onClose} maxWidth={420} className="upsell-popup">
      <p className="upsell-popup__intro">{t('proUpsell.intro')}</p>
      <ul className="upsell-popup__features">
        <li>{t('proUpsell.lookArrow')}</li>
        <li>{t('proUpsell.progress')}</li>
        <li>{t('proUpsell.quests', { limit: FREE_QUEST_LIMIT })}</li>
        <li>{t('proUpsell.settings')}</li>
      </ul>
      {!user && <p className="upsell-popup__note">{t('proUpsell.signedOut')}</p>}
      {signedInWithoutPro && <p className="upsell-popup__note">{t('proUpsell.signedInWithoutPro', { name: user.name ?? '' })}</p>}
      <div className="upsell-popup__actions">
        {!user && (
          <button
            type="button"
            className="button button--ghost"
            onClick={() => {
              onClose();
              openAccountDialog('signIn');
            }}
          >
            {t('proUpsell.signIn')}
          </button>
        )}
        <button type="button" className="button" onClick={onClose}>
          {t('proUpsell.ok')}
        </button>
      </div>
    </Popup>
  );
}
