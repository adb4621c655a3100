/**
 * A quest action's failure, shown where it was asked (`place`: the asking component's id, as
 * `runQuestActionAt` records it), with Dismiss. The quest row's and popup's actions
 * (QuestActions.tsx) and the popup's quest notes (ui/popup/QuestMarkerNotes.tsx) show it alike.
 */
import { useSnapshot } from 'valtio';
import { useLanguageT } from '../../i18n/useLanguageT';
import { quests } from '../../state/quests';
import { clearProgressError, session } from '../../state/session';

export function QuestProgressError({ place }: { place: string }) {
  // One per quest row: the shared t (i18n/useLanguageT.ts).
  const { t } = useLanguageT();
  const { progressError } = useSnapshot(session);
  const { progressErrorAt } = useSnapshot(quests);
  if (!progressError || progressErrorAt !== place) return null;
  return (
    <div role="alert" className="quest-actions__error">
      <span>{t('questProgress.error', { message: progressError })}</span>
      <button type="button" className="quest-actions__dismiss" onClick={clearProgressError}>
        {t('questProgress.dismiss')}
      </button>
    </div>
  );
}
