/**
 * The quest list: the server's quest cache sorted by the current language (Russian names in
 * ru), each with a checkbox to follow it on the map and its quest actions (QuestActions).
 * Free users follow at most 3. The user's own progress shows here too (spec §4): completed
 * quests are dimmed for everyone but admins, hidden ones marked; while own progress is in
 * force (pro, setting on) hidden quests are left out, with a toggle to bring them back.
 *
 * Hiding a quest from its row never moves the list (docs/DECISIONS.md "Hiding a quest from the
 * list"): the row stays where it was, marked Hidden, with Show (the undo) in the Hide button's
 * place and the focus on it, until the hidden quests are shown or put away or the map changes.
 * A hidden quest stays followed; the head counts it apart ("4 followed, 1 hidden"), and that
 * count is a button that brings the followed hidden quests into view.
 *
 * A followed quest with markers on this map has Show (questFraming.ts): its floor is selected
 * and its markers framed; a quiet note says how many are on other floors ("2 on Level 3").
 * Following a quest never moves the map by itself (docs/DECISIONS.md "Showing a quest's
 * markers"). A quest the Quests page's map link followed in place of another (a visitor at the
 * free limit) is named above the rows, with Undo (questLinkSwap.ts), and so are the category
 * filters Show turned back on to show its markers (questFiltersOn.ts).
 */
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { getMap } from '../../domain/maps';
import { elsewhereByLevel } from '../../domain/quest-frame';
import { swapStands } from '../../domain/quest-marker-shown';
import { FREE_QUEST_LIMIT, questName, sortQuests } from '../../domain/quests';
import { isLanguage } from '../../i18n';
import { lookups, questLabel } from '../../state/items';
import { mapView } from '../../state/mapView';
import { markers } from '../../state/markers';
import { questMarks, quests, toggleQuest } from '../../state/quests';
import { followsQuestsWithoutLimit, session } from '../../state/session';
import { effectiveSettings, settings } from '../../state/settings';
import { QuestActions } from '../quests/QuestActions';
import { filters } from '../../state/filters';
import { useAfterMapDrawn } from '../useAfterMapDrawn';
import { announce } from '../LiveAnnouncer';
import { levelLabel, traderLabel } from './labels';
import { filtersOnText, filtersNoteStands, forgetQuestFiltersOn, questFiltersOn, undoQuestFiltersOn } from './questFiltersOn';
import { loadQuestPlaces, questFraming, showQuestMarkers } from './questFraming';
import { forgetLinkSwap, questLinkSwap, undoLinkSwap } from './questLinkSwap';
import { QUESTS_THIS_MAP_KEY, useStoredChoice } from './useStoredChoice';
import { SKIP_TARGETS } from '../skipTargets';

const NONE: ReadonlySet<string> = new Set();

export function QuestList({ mapId }: { mapId: string }) {
  const { t, i18n } = useTranslation();
  const lang = isLanguage(i18n.language) ? i18n.language : 'en';
  const { list, selected, status } = useSnapshot(quests);
  const { questMaps, questMapsStatus } = useSnapshot(lookups);
  const { user } = useSnapshot(session);
  const stored = useSnapshot(settings);
  const unlimited = followsQuestsWithoutLimit();
  const ownProgress = effectiveSettings(user, stored).ownProgress;
  // The rows (hundreds with a full quest cache) wait for the map's first view: useAfterMapDrawn.
  const rowsShown = useAfterMapDrawn();
  // Kept across reloads and map switches: a player who narrows the list wants it narrowed on the next raid too.
  const [thisMapOnly, setThisMapOnly] = useStoredChoice(QUESTS_THIS_MAP_KEY);
  const [hiddenShown, setHiddenShown] = useState(false);
  // The rows hidden from this list (by their Hide button) on this map: they stay in place.
  const [keptFor, setKeptFor] = useState<{ mapId: string; uids: ReadonlySet<string> }>({ mapId, uids: new Set() });
  const kept = keptFor.mapId === mapId ? keptFor.uids : NONE;
  const keep = (uid: string) => setKeptFor({ mapId, uids: new Set([...kept, uid]) });
  const toggleHidden = () => {
    setKeptFor({ mapId, uids: NONE });
    setHiddenShown(!hiddenShown);
  };
  // A followed hidden quest to bring into view and focus (the head's "N hidden").
  const [focusUid, setFocusUid] = useState<string | null>(null);
  // Sorting makes the language's collator (ICU's data: 40 ms of a first second): only once the
  // rows show. The counts and filters above them do not depend on the order.
  const sorted = useMemo(() => (rowsShown ? sortQuests(list, lang) : list), [list, lang, rowsShown]);
  // Which quests have markers on this map, once the server has said (else every quest counts).
  const onThisMap = (uid: string) => questMapsStatus !== 'ready' || (questMaps[uid] ?? []).includes(mapId);
  const byMap = thisMapOnly ? sorted.filter((q) => onThisMap(q.uid) || selected.includes(q.uid)) : sorted;
  // The hidden quests out of the list now (a row hidden from itself stays in place): what "Show hidden quests (N)" brings back.
  const hiddenCount = ownProgress && !hiddenShown ? byMap.filter((q) => !kept.has(q.uid) && questMarks(user, q.uid).hidden).length : 0;
  const shown = ownProgress && !hiddenShown ? byMap.filter((q) => kept.has(q.uid) || !questMarks(user, q.uid).hidden) : byMap;
  // Followed quests hidden while own progress is in force: their markers are off the map, and
  // (unless kept in place or the hidden quests are shown) their rows are out of the list.
  const followedHidden = ownProgress ? sorted.filter((q) => selected.includes(q.uid) && questMarks(user, q.uid).hidden).map((q) => q.uid) : [];
  const followedCount = selected.length - followedHidden.length;

  // Where the followed quests' markers are on this map (read from the markers worker once it can be).
  const { mapId: framingMap, places } = useSnapshot(questFraming);
  const { level } = useSnapshot(mapView);
  const { status: markersStatus, count: markerCount } = useSnapshot(markers);
  const canShow = framingMap === mapId;
  const followedHere = selected.filter((uid) => onThisMap(uid)).join(',');
  useEffect(() => {
    if (canShow && markersStatus === 'ready' && followedHere) void loadQuestPlaces(followedHere.split(','));
  }, [canShow, markersStatus, markerCount, followedHere]);
  const levels = getMap(mapId)?.levels ?? [];
  /** "2 on Level 3" for each other floor holding some of the quest's markers; '' with none. */
  const elsewhereNote = (uid: string): string => {
    const points = places[uid];
    if (!points) return '';
    return elsewhereByLevel(points, level)
      .map(({ level: num, count }) => {
        const def = levels.find((l) => l.num === num);
        return t('panels.questOnLevel', { count, level: def ? levelLabel(t, def) : String(num) });
      })
      .join(', ');
  };

  // The quest the Quests page's link followed in place of another: named until the user changes what is followed.
  const { last: linkSwap } = useSnapshot(questLinkSwap);
  const swap = linkSwap && swapStands(selected, linkSwap) ? linkSwap : null;
  const swapText = swap ? t('panels.questLinkSwapped', { followed: questLabel(list, swap.followed, lang), dropped: questLabel(list, swap.dropped, lang) }) : '';
  useEffect(() => {
    if (swapText) announce(swapText);
  }, [swapText]);

  // The filters Show turned back on for a quest's markers: named until one is hidden again (said by questFiltersOn.ts).
  const { last: filtersOn } = useSnapshot(questFiltersOn);
  const filterState = useSnapshot(filters);
  const filtersNote = filtersNoteStands(filtersOn, filterState) ? filtersOnText(filtersOn.on, t) : '';

  useEffect(() => {
    if (!focusUid) return;
    const box = document.querySelector<HTMLInputElement>(`li.quest-list__item[data-quest-uid="${CSS.escape(focusUid)}"] input[type="checkbox"]`);
    if (!box) return;
    box.focus({ preventScroll: true });
    box.scrollIntoView?.({ block: 'nearest' });
    setFocusUid(null);
  }, [focusUid, shown]);

  /** The head's "N hidden": the hidden quests listed, the next followed hidden one focused. */
  const findFollowedHidden = () => {
    if (!hiddenShown && followedHidden.some((uid) => !kept.has(uid))) setHiddenShown(true);
    const current = document.activeElement?.closest<HTMLElement>('li.quest-list__item')?.dataset.questUid;
    const at = current ? followedHidden.indexOf(current) : -1;
    setFocusUid(followedHidden[(at + 1) % followedHidden.length] ?? null);
  };

  return (
    <section className="map-panel__section quest-list" aria-labelledby={SKIP_TARGETS.quests}>
      <div className="map-panel__head">
        {/* Where "Skip to quests" lands (src/ui/map/SkipLinks.tsx). */}
        <h2 id={SKIP_TARGETS.quests} className="map-panel__title" tabIndex={-1}>
          {t('panels.quests')}
        </h2>
        <span className="quest-list__followed" aria-live="polite">
          {unlimited ? t('panels.questsFollowedPro', { count: followedCount }) : t('panels.questsFollowed', { count: followedCount, limit: FREE_QUEST_LIMIT })}
          {followedHidden.length > 0 && (
            <>
              {', '}
              <button
                type="button"
                className="map-panel__link quest-list__followed-hidden"
                aria-label={t('questProgress.followedHiddenLabel', { count: followedHidden.length })}
                title={t('questProgress.followedHiddenTip')}
                onClick={findFollowedHidden}
              >
                {t('questProgress.followedHidden', { count: followedHidden.length })}
              </button>
            </>
          )}
        </span>
      </div>
      {swap && (
        <div className="quest-list__swap" role="status">
          <p>{swapText}</p>
          <button type="button" className="map-panel__link" onClick={undoLinkSwap}>
            {t('panels.questLinkSwapUndo')}
          </button>
          <button type="button" className="map-panel__link" onClick={forgetLinkSwap}>
            {t('panels.questLinkSwapOk')}
          </button>
        </div>
      )}
      {filtersNote && (
        <div className="quest-list__swap quest-list__filters-on" role="status">
          <p>{filtersNote}</p>
          <button type="button" className="map-panel__link" onClick={undoQuestFiltersOn}>
            {t('panels.questFiltersOnUndo')}
          </button>
          <button type="button" className="map-panel__link" onClick={forgetQuestFiltersOn}>
            {t('panels.questFiltersOnOk')}
          </button>
        </div>
      )}
      {(status === 'idle' || status === 'loading') && <p className="map-panel__note">{t('panels.questsLoading')}</p>}
      {status === 'error' && <p className="map-panel__note map-panel__note--error">{t('panels.questsError')}</p>}
      {sorted.length > 0 && (
        <label className="quest-list__only">
          <input type="checkbox" checked={thisMapOnly} onChange={(event) => setThisMapOnly(event.target.checked)} />
          <span>{t('panels.questsThisMap')}</span>
        </label>
      )}
      {/* Only while it has something to do: rows are out of the list, or shown to be put away.
          It comes when rows leave the list anyway (a row hidden from itself stays in place, so
          no row moves under the pointer then); "Show hidden quests (0)" said nothing
          (docs/DECISIONS.md "The hidden-quests toggle"). */}
      {ownProgress && sorted.length > 0 && (hiddenShown || hiddenCount > 0) && (
        <button type="button" className="map-panel__link quest-list__hidden-toggle" aria-pressed={hiddenShown} onClick={toggleHidden}>
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
            // Show: a followed quest with markers here (none read yet counts as some, until read).
            const showable = on && here && canShow && (places[quest.uid]?.length ?? 1) > 0;
            // A followed quest says where its markers are: on other floors, or on no floor of this
            // map (it still takes one of a visitor's followed quests; a tooltip alone hid that).
            const elsewhere = !on ? '' : here ? elsewhereNote(quest.uid) : t('panels.questElsewhere');
            const name = questName(quest, lang);
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
                  <span>{name}</span>
                </label>
                {done && <span className="quest-list__state visually-hidden">{t('questProgress.done')}</span>}
                {hidden && <span className="quest-list__state visually-hidden">{t('questProgress.hidden')}</span>}
                {/* Trader and buttons wrap together: under a long title, at the right. */}
                <span className="quest-list__meta">
                  {showable && (
                    <button
                      type="button"
                      className="quest-list__show"
                      aria-label={t('panels.questShowLabel', { name })}
                      title={t('panels.questShowTip')}
                      onClick={() => void showQuestMarkers([quest.uid])}
                    >
                      <svg className="quest-list__show-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                        <circle cx="12" cy="12" r="6" />
                        <path d="M12 2v4M12 18v4M2 12h4M18 12h4" />
                      </svg>
                      <span>{t('panels.questShow')}</span>
                    </button>
                  )}
                  <span className="quest-list__trader">{traderLabel(t, quest.trader)}</span>
                  <QuestActions quest={quest} variant="row" onAction={(action) => action === 'hide' && keep(quest.uid)} />
                </span>
                {elsewhere && <span className="quest-list__elsewhere">{elsewhere}</span>}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
