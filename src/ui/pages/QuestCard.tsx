/**
 * One quest of the Quests page (QuestsPage.tsx): its name, progress marks and actions, trader,
 * Kappa / Lightkeeper flags, wiki link and map links. The card is one Tab stop, ← and → (Home,
 * End) reaching its other buttons and links (ui/quests/cardStops.ts); it knows its controls in
 * order to give each its `tabIndex`: the quest actions while they show and do not wait on a save
 * (QuestActions.tsx `questActionsState`), the wiki link, then a link per map. Its first stop is
 * its main action, the first map link (else the wiki link): Tab from card to card lands where a
 * player goes, not on a ✓ that is Pro-only for a visitor.
 */
import { useMemo, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSnapshot } from 'valtio';
import type { Language } from '../../domain/marker';
import { questName, type Quest } from '../../domain/quests';
import { mapName } from '../../i18n';
import { questMarks } from '../../state/quests';
import { session } from '../../state/session';
import { traderLabel } from '../panels/labels';
import { questMapLink } from '../panels/questMapLink';
import { CardStopContext, useCardStops } from '../quests/cardStops';
import { QUEST_ACTION_SLOTS, QuestActions, questActionsState } from '../quests/QuestActions';

/** The element id of a quest's entry (uids may hold any character, so it is encoded). */
export function questAnchor(uid: string): string {
  return `quest-${encodeURIComponent(uid)}`;
}

/** Whether a click on a link leaves this page (not a new tab or window: this page stays as it is). */
const leaves = (event: MouseEvent) => event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

/** A map link's key among the card's controls. */
const mapStop = (mapId: string) => `map:${mapId}`;

export function QuestCard({
  quest,
  lang,
  maps,
  highlighted,
  onLeave,
}: {
  quest: Quest;
  lang: Language;
  maps: readonly string[];
  highlighted: boolean;
  /** A map link is followed (the page remembers the card and control, questsPageMemory.ts). */
  onLeave?: (uid: string, control: string) => void;
}) {
  const { t } = useTranslation();
  const { user, status, pendingQuest } = useSnapshot(session);
  const actions = questActionsState({ user, status, pendingQuest });
  const actionsUsable = actions.shown && !actions.waiting;
  const usable = useMemo(
    () => [...(actionsUsable ? QUEST_ACTION_SLOTS : []), ...(quest.wikiUrl ? ['wiki'] : []), ...maps.map(mapStop)],
    [actionsUsable, quest.wikiUrl, maps],
  );
  const main = maps.length > 0 ? mapStop(maps[0]) : quest.wikiUrl ? 'wiki' : null;
  const { stopProps, cardProps } = useCardStops(usable, main);

  const { done, hidden } = questMarks(user, quest.uid);
  const classes = ['quests-page__quest', highlighted && 'quests-page__quest--highlight', done && 'quests-page__quest--done', hidden && 'quests-page__quest--hidden'];
  return (
    <li id={questAnchor(quest.uid)} className={classes.filter(Boolean).join(' ')} aria-current={highlighted ? 'true' : undefined} data-uid={quest.uid} {...cardProps}>
      <div className="quests-page__head">
        <h2 className="quests-page__name">{questName(quest, lang)}</h2>
        {done && <span className="quests-page__state quests-page__state--done">{t('questProgress.done')}</span>}
        {hidden && <span className="quests-page__state quests-page__state--hidden">{t('questProgress.hidden')}</span>}
        <CardStopContext.Provider value={stopProps}>
          <QuestActions quest={quest} variant="page" className="quests-page__actions" />
        </CardStopContext.Provider>
      </div>
      <p className="quests-page__meta">
        <span>
          {t('questsPage.trader')}: <strong>{traderLabel(t, quest.trader)}</strong>
        </span>
        {quest.requiredForKappa && <span className="quests-page__flag">{t('questsPage.kappa')}</span>}
        {quest.requiredForLightkeeper && <span className="quests-page__flag quests-page__flag--lk">{t('questsPage.lightkeeper')}</span>}
        {quest.wikiUrl && (
          <a
            href={quest.wikiUrl}
            target="_blank"
            rel="noreferrer noopener"
            // 43 links named "Wiki" said nothing apart: the name says whose, and that a tab opens.
            aria-label={t('questsPage.wikiLabel', { name: questName(quest, lang) })}
            {...stopProps('wiki')}
          >
            {t('questsPage.wiki')}
          </a>
        )}
      </p>
      <p className="quests-page__maps">
        <span className="quests-page__maps-label">{t('questsPage.maps')}:</span>{' '}
        {maps.length === 0 ? (
          <span className="quests-page__none">{t('questsPage.noMaps')}</span>
        ) : (
          maps.map((id) => (
            <Link key={id} to={questMapLink(id, quest.uid)} className="quests-page__map" onClick={(event) => leaves(event) && onLeave?.(quest.uid, mapStop(id))} {...stopProps(mapStop(id))}>
              {mapName(id, id)}
            </Link>
          ))
        )}
      </p>
    </li>
  );
}
