/**
 * "Your account could not be checked" with Try again and Dismiss, where a pro control or a quest
 * action was used while the server failed to say who is signed in (twice: at page load and on the
 * use). The user may well be pro, so they are not offered pro (state/session.ts `tryProFeature`,
 * `ACCOUNT_UNCHECKED`). The one note for all of them: Settings, the look arrow, a quest action
 * (ui/quests/QuestProgressError.tsx) and a fourth quest picked (ui/quests/LimitUncheckedNotice.tsx).
 */
import { useTranslation } from 'react-i18next';
import './account.css';

/** `onDismiss` left out: no Dismiss of its own (a popup around it has its Close). */
export function AccountUncheckedNote({ onRetry, onDismiss }: { onRetry: () => void; onDismiss?: () => void }) {
  const { t } = useTranslation();
  return (
    <div role="alert" className="failure-note account-unchecked">
      <span className="account-unchecked__text">{t('questProgress.accountUnchecked')}</span>
      <span className="account-unchecked__buttons">
        <button type="button" className="failure-note__button account-unchecked__button" onClick={onRetry}>
          {t('questProgress.retry')}
        </button>
        {onDismiss && (
          <button type="button" className="failure-note__button account-unchecked__button" onClick={onDismiss}>
            {t('questProgress.dismiss')}
          </button>
        )}
      </span>
    </div>
  );
}
