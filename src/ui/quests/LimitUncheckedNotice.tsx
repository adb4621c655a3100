/**
 * The quest-limit notice's place where a fourth quest was picked while the server failed to say
 * who is signed in (state/quests.ts `followOnceChecked`): the user may well be pro, so no "About
 * Pro" — it says why the account matters here (more than 3 quests need Pro) and that it could not
 * be checked, with Try again (the shared note, ui/account/AccountUncheckedNote.tsx), which follows
 * the quest once the server says the user is pro. Closed with the popup's Close.
 */
import { FREE_QUEST_LIMIT } from '../../domain/quests';
import { useLanguageT } from '../../i18n/useLanguageT';
import { closeUncheckedQuest, retryUncheckedQuest } from '../../state/quests';
import { AccountUncheckedNote } from '../account/AccountUncheckedNote';
import { LIMIT_NOTICE_MAX_WIDTH } from '../popups/LimitNotice';
import { Popup } from '../popups/Popup';
import '../popups/UpsellPopup.css';

export function LimitUncheckedNotice() {
  const { t } = useLanguageT();
  return (
    <Popup title={t('questLimit.title')} onClose={closeUncheckedQuest} maxWidth={LIMIT_NOTICE_MAX_WIDTH} className="limit-notice">
      <p className="limit-notice__text">{t('questLimitWhy.unchecked', { limit: FREE_QUEST_LIMIT })}</p>
      <AccountUncheckedNote onRetry={() => void retryUncheckedQuest()} />
    </Popup>
  );
}
