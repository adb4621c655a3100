/**
 * The quest list: the server's quest cache sorted by the current language (Russian names in
 * ru), each with a checkbox to follow it on the map and its quest actions (QuestActions).
 * Free users follow at most 3. The user's own progress shows here too (spec §4): completed
 * quests are dimmed for everyone but admins, hidden ones marked; while own progress is in
 * force (pro, setting on) hidden quests are left out, with a toggle to bring them back.
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { FREE_QUEST_LIMIT, questName, sortQuests } from '../../domain/quests';
import { isLanguage } from '../../i18n';
import { lookups } from '../../state/items';
import { questMarks, quests, toggleQuest } from '../../state/quests';
import { isPro, session } from '../../state/session';
import { effectiveSettings, settings } from '../../state/settings';
import { QuestActions } from '../quests/QuestActions';
import { useAfterMapDrawn } from '../useAfterMapDrawn';
import { traderLabel } from './labels';
import { QUESTS_THIS_MAP_KEY, useStoredChoice } from './useStoredChoice';
import { SKIP_TARGETS } from '../skipTargets';

export function QuestList({ mapId }: { mapId: string }) {
  const { t, i18n } = useTranslation();
  const lang = isLanguage(i18n.language) ? i18n.language : 'en';
  const { list, selected, status } = useSnapshot(quests);
  const { questMaps, questMapsStatus } = useSnapshot(lookups);
  const { user } = useSnapshot(session);
  const stored = useSnapshot(settings);
  const pro = isPro();
  const ownProgress = effectiveSettings(user, stored).ownProgress;
  // The rows (hundreds with a full quest cache) wait for the map's first view: useAfterMapDrawn.
  const rowsShown = useAfterMapDrawn();
  // Kept across reloads and map switches: a player who narrows the list wants it narrowed on the next raid too.
  const [thisMapOnly, setThisMapOnly] = useStoredChoice(QUESTS_THIS_MAP_KEY);
  const [hiddenShown, setHiddenShown] = useState(false);
  // Sorting makes the language's collator (ICU's data: 40 ms of a first second): only once the
  // rows show. The counts and filters above them do not depend on the order.
  const sorted = useMemo(() => (rowsShown ? sortQuests(list, lang) : list), [list, lang, rowsShown]);
  // Which quests have markers on this map, once the server has said (else every quest counts).
  const onThisMap = (uid: string) => questMapsStatus !== 'ready' || (questMaps[uid] ?? []).includes(mapId);
  const byMap = thisMapOnly ? sorted.filter((q) => onThisMap(q.uid) || selected.includes(q.uid)) : sorted;
  const hiddenCount = ownProgress ? byMap.filter((q) => questMarks(user, q.uid).hidden).length : 0;
  const shown = ownProgress && !hiddenShown ? byMap.filter((q) => !questMarks(user, q.uid).hidden) : byMap;

  return (
    <section className="map-panel__section quest-list" aria-labelledby={SKIP_TARGETS.quests}>
      <div className="map-panel__head">
        {/* Where "Skip to quests" lands (src/ui/map/SkipLinks.tsx). */}
        <h2 id={SKIP_TARGETS.quests} className="map-panel__title" tabIndex={-1}>
          {t('panels.quests')}
        </h2>
        <span className="quest-list__followed" aria-live="polite">
          {pro ? t('panels.questsFollowedPro', { count: selected.length }) : t('panels.questsFollowed', { count: selected.length, limit: FREE_QUEST_LIMIT })}
        </span>
      </div>
      {(status === 'idle' || status === 'loading') && <p className="map-panel__note">{t('panels.questsLoading')}</p>}
      {status === 'error' && <p className="map-panel__note map-panel__note--error">{t('panels.questsError')}</p>}
      {sorted.length > 0 && (
        <label className="quest-list__only">
          <input type="checkbox" checked={thisMapOnly} onChange={(event) => setThisMapOnly(event.target.checked)} />
          <span>{t('panels.questsThisMap')}</span>
        </label>
      )}
      {hiddenCount > 0 && (
        <button type="button" className="map-panel__link quest-list__hidden-toggle" aria-pressed={hiddenShown} onClick={() => setHiddenShown(!hiddenShown)}>
          {hiddenShown ? t('questProgress.hideHidden') : t('questProgress.showHidden', { count: hiddenCount })}
        </button>
      )}
      {status === 'ready' && shown.length === 0 && <p className="map-panel__note">{t('panels.questsEmpty')}</p>}
      {rowsShown && shown.length > 0 && (
        <ul className="quest-list__items">
          {shown.map((quest) => {
            const on = selected.includes(quest.uid);
            const here = onThisMap(quest.uid);
            const { done, hidden } = questMarks(user, quest.uid);
            const classes = [
              'quest-list__item',
              on && 'quest-list__item--on',
              !here && 'quest-list__item--elsewhere',
              done && 'quest-list__item--done',
              hidden && 'quest-list__item--hidden',
            ];
            return (
              <li key={quest.uid} className={classes.filter(Boolean).join(' ')} data-quest-uid={quest.uid} title={here ? undefined : t('panels.questElsewhere')}>
                <label className="quest-list__label">
                  <input type="checkbox" checked={on} onChange={() => toggleQuest(quest.uid)} />
                  <span>{questName(quest, lang)}</span>
                </label>
                {done && <span className="quest-list__state">{t('questProgress.done')}</span>}
                {hidden && <span className="quest-list__state">{t('questProgress.hidden')}</span>}
                {/* Trader and buttons wrap together: under a long title, at the right. */}
                <span className="quest-list__meta">
                  <span className="quest-list__trader">{traderLabel(t, quest.trader)}</span>
                  <QuestActions quest={quest} variant="row" />
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
