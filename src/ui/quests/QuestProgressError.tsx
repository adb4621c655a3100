/**
 * A quest action's failure, shown where it was asked (`place`: the asking component's id, as
 * `runQuestActionAt` records it), with Dismiss. The quest row's and popup's actions
 * (QuestActions.tsx) and the popup's quest notes (ui/popup/QuestMarkerNotes.tsx) show it alike.
 * The session keeps the failure's message only: technical words (a status's reason phrase, the
 * browser's "Failed to fetch") are said in the page's language here (ui/requestFailure.ts); the
 * server's own explanation is shown as it is. Where the account could not be checked, the shared
 * note says so (ui/account/AccountUncheckedNote.tsx).
 */
import { useSnapshot } from 'valtio';
import { useLanguageT } from '../../i18n/useLanguageT';
import { quests, retryQuestAction } from '../../state/quests';
import { ACCOUNT_UNCHECKED, clearProgressError, session } from '../../state/session';
import { AccountUncheckedNote } from '../account/AccountUncheckedNote';
import { technicalFailureReason } from '../requestFailure';

export function QuestProgressError({ place }: { place: string }) {
  // One per quest row: the shared t (i18n/useLanguageT.ts).
  const { t } = useLanguageT();
  const { progressError } = useSnapshot(session);
  const { progressErrorAt } = useSnapshot(quests);
  if (!progressError || progressErrorAt !== place) return null;
  // The account could not be checked (ACCOUNT_UNCHECKED): said so, with Try again — no upsell to a
  // user who may be pro; the note Settings and the look arrow show alike.
  if (progressError === ACCOUNT_UNCHECKED) return <AccountUncheckedNote onRetry={() => void retryQuestAction()} onDismiss={clearProgressError} />;
  return (
    <div role="alert" className="failure-note quest-actions__error">
      <span>{t('questProgress.error', { message: technicalFailureReason(t, progressError) ?? progressError })}</span>
      {/* The button wraps under the text where the row is narrow (quest-actions.css). */}
      <span className="quest-actions__error-buttons">
        <button type="button" className="failure-note__button quest-actions__dismiss" onClick={clearProgressError}>
          {t('questProgress.dismiss')}
        </button>
      </span>
    </div>
  );
}
