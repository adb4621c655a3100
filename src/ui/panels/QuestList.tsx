/**
 * The quest list: the server's quest cache sorted by the current language (Russian names in
 * ru), each with a checkbox to follow it on the map. Free users follow at most 3.
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { FREE_QUEST_LIMIT, questName, sortQuests } from '../../domain/quests';
import { isLanguage } from '../../i18n';
import { lookups } from '../../state/items';
import { quests, toggleQuest } from '../../state/quests';
import { isPro, session } from '../../state/session';
import { traderLabel } from './labels';

export function QuestList({ mapId }: { mapId: string }) {
  const { t, i18n } = useTranslation();
  const lang = isLanguage(i18n.language) ? i18n.language : 'en';
  const { list, selected, status } = useSnapshot(quests);
  const { questMaps, questMapsStatus } = useSnapshot(lookups);
  useSnapshot(session);
  const pro = isPro();
  const [thisMapOnly, setThisMapOnly] = useState(false);
  const sorted = useMemo(() => sortQuests(list, lang), [list, lang]);
  // Which quests have markers on this map, once the server has said (else every quest counts).
  const onThisMap = (uid: string) => questMapsStatus !== 'ready' || (questMaps[uid] ?? []).includes(mapId);
  const shown = thisMapOnly ? sorted.filter((q) => onThisMap(q.uid) || selected.includes(q.uid)) : sorted;

  return (
    <section className="map-panel__section quest-list" aria-labelledby="quest-list-title">
      <div className="map-panel__head">
        <h2 id="quest-list-title" className="map-panel__title">
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
      {status === 'ready' && shown.length === 0 && <p className="map-panel__note">{t('panels.questsEmpty')}</p>}
      {shown.length > 0 && (
        <ul className="quest-list__items">
          {shown.map((quest) => {
            const on = selected.includes(quest.uid);
            const here = onThisMap(quest.uid);
            return (
              <li
                key={quest.uid}
                className={['quest-list__item', on && 'quest-list__item--on', !here && 'quest-list__item--elsewhere'].filter(Boolean).join(' ')}
                title={here ? undefined : t('panels.questElsewhere')}
              >
                <label className="quest-list__label">
                  <input type="checkbox" checked={on} onChange={() => toggleQuest(quest.uid)} />
                  <span>{questName(quest, lang)}</span>
                </label>
                <span className="quest-list__trader">{traderLabel(t, quest.trader)}</span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
