/**
 * The quest-limit notice (spec §5): free users follow at most 3 quests; a longer list was cut
 * or a fourth quest was refused. Max width 280 px. It offers the pro-upsell popup.
 */
import { useTranslation } from 'react-i18next';
import { FREE_QUEST_LIMIT } from '../../domain/quests';
import { Popup } from './Popup';
import './UpsellPopup.css';

export const LIMIT_NOTICE_MAX_WIDTH = 280;

export function LimitNotice({ onClose, onPro }: { onClose: () => void; onPro: () => void }) {
  const { t } = useTranslation();
  return (
    <Popup title={t('questLimit.title')} onClose={onClose} maxWidth={LIMIT_NOTICE_MAX_WIDTH} className="limit-notice">
      <p className="limit-notice__text">{t('questLimit.text', { limit: FREE_QUEST_LIMIT })}</p>
      <div className="limit-notice__actions">
        <button type="button" className="button button--ghost" onClick={onPro}>
          {t('questLimit.about')}
        </button>
        <button type="button" className="button" onClick={onClose}>
          {t('questLimit.ok')}
        </button>
      </div>
    </Popup>
  );
}
