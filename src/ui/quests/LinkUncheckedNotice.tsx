/**
 * The quest-limit notice's place where a `?quest=` link named more than the free limit while the
 * server failed to say who is signed in (questLinkUnchecked.ts): the user may well be pro, so no
 * "About Pro". It says what the link asks, that the account could not be checked, that the first
 * quests are followed meanwhile and the others come once it is — with Try again, which asks the
 * server again. Its note is worded for the link, not the shared "so nothing was changed"
 * (ui/account/AccountUncheckedNote.tsx: here some quests were followed), in the same style.
 * It shows while the quests wait and nobody answered; Close hides it, the quests still wait.
 * Not over the account dialog (an ended session asks for a sign-in), nor over a fourth quest's
 * own note (LimitUncheckedNotice.tsx), the newer of the two.
 */
import { useSnapshot } from 'valtio';
import { FREE_QUEST_LIMIT } from '../../domain/quests';
import { useLanguageT } from '../../i18n/useLanguageT';
import { layout } from '../../state/layout';
import { quests } from '../../state/quests';
import { session } from '../../state/session';
import { LIMIT_NOTICE_MAX_WIDTH } from '../popups/LimitNotice';
import { Popup } from '../popups/Popup';
import { closeLinkUncheckedNotice, questLinkUnchecked, retryLinkUnchecked } from './questLinkUnchecked';
import '../account/account.css';
import '../popups/UpsellPopup.css';

export function LinkUncheckedNotice() {
  const { t } = useLanguageT();
  const { waiting, total, noticeOpen } = useSnapshot(questLinkUnchecked);
  const { status } = useSnapshot(session);
  const { accountDialog } = useSnapshot(layout);
  const { uncheckedQuest } = useSnapshot(quests);
  // 'loading' too: Try again keeps the notice (and its focus) while the server is asked.
  if (!noticeOpen || waiting.length === 0 || status === 'ready' || accountDialog !== null || uncheckedQuest !== null) return null;
  const limit = FREE_QUEST_LIMIT;
  return (
    <Popup title={t('questLimit.title')} onClose={closeLinkUncheckedNotice} maxWidth={LIMIT_NOTICE_MAX_WIDTH} className="limit-notice">
      <p className="limit-notice__text">{t('questLimitWhy.linkUnchecked', { count: total, limit })}</p>
      <div role="alert" className="failure-note account-unchecked">
        <span className="account-unchecked__text">{t('questLimitWhy.linkWaiting', { count: waiting.length, limit })}</span>
        <span className="account-unchecked__buttons">
          <button type="button" className="failure-note__button account-unchecked__button" onClick={() => void retryLinkUnchecked()}>
            {t('questProgress.retry')}
          </button>
        </span>
      </div>
    </Popup>
  );
}
