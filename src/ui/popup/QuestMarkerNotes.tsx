/**
 * What the marker popup says where opening a quest marker touched, or could not change, what
 * the map draws (docs/DECISIONS.md "Opening a quest marker at the free limit", "A marker of a
 * quest the user completed"):
 * - its quest was followed in place of another (a visitor at the free limit, questSwap.ts): the
 *   quest swapped out is named, with Undo;
 * - the user's own progress keeps it off the map (pro, "Use my quest progress" on, the quest
 *   completed or hidden): said plainly, with Mark not done / Show quest, after which it is drawn.
 */
import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { hiddenByProgress, swapStands } from '../../domain/quest-marker-shown';
import { isLanguage } from '../../i18n';
import { questLabel } from '../../state/items';
import { quests, runQuestActionAt } from '../../state/quests';
import { session } from '../../state/session';
import { QuestProgressError } from '../quests/QuestProgressError';
import { effectiveSettings, settings } from '../../state/settings';
import { announce } from '../LiveAnnouncer';
import { questSwap, undoQuestSwap } from './questSwap';

export function QuestMarkerNotes({ markerUid, questUid }: { markerUid: string; questUid: string }) {
  const { t, i18n } = useTranslation();
  const lang = isLanguage(i18n.language) ? i18n.language : 'en';
  const { last } = useSnapshot(questSwap);
  const { list, selected } = useSnapshot(quests);
  const { user, pendingQuest } = useSnapshot(session);
  const stored = useSnapshot(settings);
  const place = useId();

  const swap = last && last.markerUid === markerUid && last.followed === questUid && swapStands(selected, last) ? last : null;
  const swapText = swap ? t('markerPopup.questSwapped', { followed: questLabel(list, swap.followed, lang), dropped: questLabel(list, swap.dropped, lang) }) : '';
  // Said once in the page's live region: the popup that opens is read by its title.
  useEffect(() => {
    if (swapText) announce(swapText);
  }, [swapText]);

  const off = hiddenByProgress(user, effectiveSettings(user, stored).ownProgress, questUid);
  const offText = off ? t(off.done && off.hidden ? 'markerPopup.questDoneHidden' : off.done ? 'markerPopup.questDone' : 'markerPopup.questHidden') : '';

  return (
    <>
      {swap && (
        <div className="marker-popup__quest-note marker-popup__quest-swap">
          <p>{swapText}</p>
          <button type="button" onClick={undoQuestSwap}>
            {t('markerPopup.questSwapUndo')}
          </button>
        </div>
      )}
      {off && (
        <div className="marker-popup__quest-note marker-popup__quest-off">
          <p>{offText}</p>
          {off.done && (
            <button type="button" disabled={pendingQuest !== null} onClick={() => void runQuestActionAt(place, 'reopen', questUid)}>
              {t('markerPopup.questReopen')}
            </button>
          )}
          {off.hidden && (
            <button type="button" disabled={pendingQuest !== null} onClick={() => void runQuestActionAt(place, 'show', questUid)}>
              {t('markerPopup.questShow')}
            </button>
          )}
        </div>
      )}
      <QuestProgressError place={place} />
    </>
  );
}
