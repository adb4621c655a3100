/**
 * The quest-limit notice (spec §5): free users follow at most 3 quests; a longer list was cut
 * or a fourth quest was refused. Max width 280 px. It offers the pro-upsell popup.
 * It says what happened (quests.limitWhy): a refused fourth quest; quests set aside, by name,
 * when the user signed out or lost pro (they come back with a pro sign-in); or a link that named
 * more quests than are followed — not "unfollow one to pick another" to a user who picked nothing.
 */
import type { TFunction } from 'i18next';
import { useSnapshot } from 'valtio';
import { FREE_QUEST_LIMIT } from '../../domain/quests';
import { useLanguageT } from '../../i18n/useLanguageT';
import { questLabel } from '../../state/items';
import { quests, type LimitWhy } from '../../state/quests';
import { session } from '../../state/session';
import { Popup } from './Popup';
import './UpsellPopup.css';

export const LIMIT_NOTICE_MAX_WIDTH = 280;

export function LimitNotice({ onClose, onPro }: { onClose: () => void; onPro: () => void }) {
  const { t, lang } = useLanguageT();
  const { limitWhy, list } = useSnapshot(quests);
  const { user } = useSnapshot(session);
  const names = (uids: readonly string[]) => uids.map((uid) => questLabel(list, uid, lang)).join(', ');
  const title = limitWhy.reason === 'lostPro' ? t('questLimitWhy.setAsideTitle') : t('questLimit.title');
  return (
    <Popup title={title} onClose={onClose} maxWidth={LIMIT_NOTICE_MAX_WIDTH} className="limit-notice">
      <p className="limit-notice__text">{limitText(t, limitWhy as LimitWhy, user !== null, names)}</p>
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

/** The notice's words for why it shows. */
function limitText(t: TFunction, why: LimitWhy, signedIn: boolean, names: (uids: readonly string[]) => string): string {
  const limit = FREE_QUEST_LIMIT;
  if (why.reason === 'link') return t('questLimitWhy.link', { count: why.total, limit });
  if (why.reason === 'refused') return t('questLimit.text', { limit });
  const count = why.setAside.length;
  return [
    signedIn ? t('questLimitWhy.noPro', { limit }) : t('questLimitWhy.signedOut', { limit }),
    t('questLimitWhy.setAside', { count, names: names(why.setAside) }),
    t('questLimitWhy.comeBack', { count }),
  ].join(' ');
}
