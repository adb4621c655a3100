/**
 * The pro-upsell popup (spec §1, §6): what the paid subscription is and what it adds.
 * Opening it changes nothing; it only explains.
 */
import { useTranslation } from 'react-i18next';
import { FREE_QUEST_LIMIT } from '../../domain/quests';
import { Popup } from './Popup';
import './UpsellPopup.css';

export function UpsellPopup({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Popup title={t('proUpsell.title')} onClose={onClose} maxWidth={420} className="upsell-popup">
      <p className="upsell-popup__intro">{t('proUpsell.intro')}</p>
      <ul className="upsell-popup__features">
        <li>{t('proUpsell.lookArrow')}</li>
        <li>{t('proUpsell.progress')}</li>
        <li>{t('proUpsell.quests', { limit: FREE_QUEST_LIMIT })}</li>
        <li>{t('proUpsell.settings')}</li>
      </ul>
      <p className="upsell-popup__note">{t('proUpsell.soon')}</p>
      <div className="upsell-popup__actions">
        <button type="button" className="button" onClick={onClose}>
          {t('proUpsell.ok')}
        </button>
      </div>
    </Popup>
  );
}
