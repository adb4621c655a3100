/**
 * Find a marker (top of the left panel): a combobox (ARIA 1.2, list autocomplete) over the
 * markers of the open map whose label, as drawn on the map in the page's language, contains the
 * typed text, or whose subcategory, category or quest the text names ("exit", "safe", "Keys",
 * a quest's name: searchTerms.ts). Names first, then types (src/domain/marker-search.ts). The
 * search runs in the markers worker (MarkerSource.find), a short pause after the last key; how
 * many matched is said in the page's live region. Each row says what tells it from others of
 * the same name: its subcategory, level, quest and a place hint (the nearest named extraction,
 * or the game's coordinates), in its accessible name too. Arrow keys move through the list,
 * Enter opens the marker as a click on it does (openFoundMarker.ts: hidden ones are shown, the
 * level switched) and the focus moves to its popup; Escape closes the list, then clears the
 * field. Text that finds nothing as typed is tried as typed with the other keyboard layout on
 * ("ыфау" → "safe", domain/keyboard-layout.ts), its results shown under "Showing results for
 * “safe”" (docs/DECISIONS.md, "Find a marker: the other keyboard layout"). Every marker is searched, whatever the filters: a hidden one says so in its row, and
 * what choosing it does (its quest followed, maybe in place of another), or that the user's own
 * progress keeps it hidden (docs/DECISIONS.md, "Find a marker", "Find a marker by type, quest
 * and place", "Opening a quest marker at the free limit").
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useSnapshot } from 'valtio';
import { findSubCategory } from '../../domain/categories';
import { isLanguage } from '../../i18n';
import { MAPS } from '../../domain/maps';
import { switchLayout } from '../../domain/keyboard-layout';
import { positionHint, type PositionHint } from '../../domain/marker-search';
import { questName } from '../../domain/quests';
import { mapToGame } from '../../domain/transform';
import { filters } from '../../state/filters';
import { mapView } from '../../state/mapView';
import { hiddenByProgress, questGivingPlace } from '../../domain/quest-marker-shown';
import { questLabel } from '../../state/items';
import { quests } from '../../state/quests';
import { followsQuestsWithoutLimit, session } from '../../state/session';
import { effectiveSettings, settings } from '../../state/settings';
import { SEARCH_LIMIT_MAX, type MarkerFindHit } from '../../../workers/markers';
import { SubCategoryIcon } from '../icons/SubCategoryIcon';
import { announce } from '../LiveAnnouncer';
import { isWorkerClosed, type MarkerSource } from '../map/markerSource';
import { subCategoryShown } from './categoryActions';
import { levelLabel, subCategoryLabel } from './labels';
import { focusPopupWhenShown, openFoundMarker } from './openFoundMarker';
import { namedByText } from './searchTerms';
import { SKIP_TARGETS } from '../skipTargets';
import './MarkerSearch.css';

/** Rows the list shows first (it scrolls past a few); how many matched in all is said. */
export const SEARCH_RESULTS = 20;
/** The list's last option, "Show 20 more", adds as many rows again, up to the worker's most (200). */
export const SEARCH_MORE = 20;
/** Quiet time after the last key before the worker is asked (ms). */
export const SEARCH_DEBOUNCE_MS = 120;

interface Answer {
  hits: MarkerFindHit[] | null;
  /** How many markers match in all (hits holds the best SEARCH_RESULTS). */
  total: number;
  forText: string;
  /** The text searched in its place: the typed text, switched to the other keyboard layout, when it found nothing as typed. */
  switched: string | null;
}

/** "12 markers", or "57 markers, the first 20 shown". */
export function countText(t: TFunction, total: number, shown: number): string {
  const markers = t('panels.markerCount', { count: total });
  return total > shown ? t('panels.search.more', { markers, shown }) : markers;
}

/** The worker's best `limit` hits for the typed text, a pause after typing; null while the text is blank or not answered yet. */
function useMarkerHits(source: MarkerSource | null, text: string, limit: number): Answer {
  const { t, i18n } = useTranslation();
  const { list: questList } = useSnapshot(quests);
  const [answer, setAnswer] = useState<Answer>({ hits: null, total: 0, forText: '', switched: null });
  useEffect(() => {
    if (!source || text.trim() === '') {
      setAnswer({ hits: null, total: 0, forText: text, switched: null });
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      const lang = isLanguage(i18n.language) ? i18n.language : 'en';
      const search = (words: string) => source.find({ text: words, limit, ...namedByText(t, lang, questList, words) });
      // Nothing as typed: maybe it was typed with the other keyboard layout on ("ыфау" for
      // "safe"); those results are shown, saying what was searched.
      const withLayoutFallback = async () => {
        const typed = await search(text);
        const other = typed.total === 0 ? switchLayout(text) : null;
        if (other === null) return { ...typed, switched: null };
        const found = await search(other);
        return found.total > 0 ? { ...found, switched: other } : { ...typed, switched: null };
      };
      withLayoutFallback().then(
        ({ hits, total, switched }) => {
          if (!current) return;
          setAnswer({ hits, total, forText: text, switched });
          // "No marker matches" is the field's own status line; a count is said in the page's live region.
          const count = countText(t, total, hits.length);
          if (hits.length > 0) announce(switched === null ? count : `${t('panels.search.switched', { text: switched })}. ${count}`);
        },
        (error: unknown) => {
          if (!isWorkerClosed(error)) console.error('raidmap: searching the markers failed', error);
        },
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
    // The language is a dependency: the labels and type names searched change with it; so is the
    // quest list, whose names the text may name.
  }, [source, text, limit, i18n.language, t, questList]);
  return answer;
}

/** A row's place hint in words. */
function hintText(t: TFunction, hint: PositionHint): string {
  if (hint.kind === 'by') return t('panels.search.byLandmark', { landmark: hint.landmark });
  if (hint.kind === 'from') return t('panels.search.fromLandmark', { landmark: hint.landmark, metres: hint.metres });
  return t('panels.search.coords', { x: hint.x, z: hint.z });
}

export function MarkerSearch({ source }: { source: MarkerSource | null }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const listId = `${id}-list`;
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [gone, setGone] = useState(false);
  const [limit, setLimit] = useState(SEARCH_RESULTS);
  const { hits, total, forText, switched } = useMarkerHits(source, text, limit);
  const { mapId } = useSnapshot(mapView);
  const hidden = useSnapshot(filters);
  const { list: questList, selected: followed } = useSnapshot(quests);
  const { user } = useSnapshot(session);
  const stored = useSnapshot(settings);
  const listRef = useRef<HTMLUListElement>(null);
  const stopFocusing = useRef<() => void>(() => undefined);
  useEffect(() => () => stopFocusing.current(), []);
  /** The row chosen when the next answer comes: "Show more" keeps the keyboard on the first new row. */
  const activeAfterAnswer = useRef(-1);
  // A new answer starts with no row chosen (or, after "Show more", on the first new one).
  useEffect(() => {
    setActive(hits && activeAfterAnswer.current < hits.length ? activeAfterAnswer.current : -1);
    activeAfterAnswer.current = -1;
  }, [hits]);

  const shownHits = open && hits !== null && forText === text ? hits : null;
  /** How many rows "Show more" adds (0: no such option: all are shown, or the worker's most). */
  const moreCount = shownHits ? Math.min(SEARCH_MORE, total - shownHits.length, SEARCH_LIMIT_MAX - shownHits.length) : 0;
  const showMore = () => {
    if (!shownHits || moreCount <= 0) return;
    activeAfterAnswer.current = shownHits.length;
    setLimit(shownHits.length + moreCount);
  };
  const map = mapId ? MAPS[mapId] : null;
  const levels = map?.levels ?? [];
  const lang = isLanguage(i18n.language) ? i18n.language : 'en';

  // The row the arrow keys are on stays in sight in the scrolling list (jsdom has no scrollIntoView).
  useEffect(() => {
    if (active < 0) return;
    const row = listRef.current?.children[active] as HTMLElement | undefined;
    row?.scrollIntoView?.({ block: 'nearest' });
  }, [active]);

  const choose = async (hit: MarkerFindHit) => {
    if (!source) return;
    setOpen(false);
    stopFocusing.current();
    const result = await openFoundMarker(source, hit.uid);
    setGone(result === 'gone');
    if (result === 'opened') stopFocusing.current = focusPopupWhenShown(hit.uid);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // The rows, and "Show more" after them when there is more.
    const count = (shownHits?.length ?? 0) + (moreCount > 0 ? 1 : 0);
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) {
        setOpen(true);
        return;
      }
      if (count === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i < 0 && step < 0 ? count - 1 : (i + step + count) % count));
    } else if (event.key === 'Enter' && shownHits && count > 0) {
      event.preventDefault();
      if (active === shownHits.length) showMore();
      else void choose(shownHits[active >= 0 ? active : 0]);
    } else if (event.key === 'Escape' && (open || text !== '')) {
      // Handled here: an open marker popup does not close as well.
      event.preventDefault();
      if (open && shownHits) setOpen(false);
      else setText('');
    }
  };

  const hitLevel = (num: number) => {
    const level = levels.find((l) => l.num === num);
    return level ? levelLabel(t, level) : String(num);
  };
  /** Labels that more than one shown row has: those rows need their place to be told apart. */
  const sameName = new Set<string>();
  const seenNames = new Set<string>();
  for (const hit of shownHits ?? []) (seenNames.has(hit.label) ? sameName : seenNames).add(hit.label);
  const isHidden = (hit: MarkerFindHit) => !subCategoryShown(hidden, hit.category || (findSubCategory(hit.subCategory)?.category ?? ''), hit.subCategory);
  /**
   * Why a row's marker is not on the map now, and what choosing it does about it (null: it is
   * drawn). A quest marker is drawn only while its quest is followed: choosing it follows the
   * quest, at a visitor's free limit in place of the one followed longest (named here, and in
   * the popup with Undo: popup/questSwap.ts). One whose quest the user completed or hid stays
   * off the map while their own progress is in force (the popup says so, with the way back).
   */
  const hiddenText = (hit: MarkerFindHit): string | null => {
    if (hit.questUid) {
      const off = hiddenByProgress(user, effectiveSettings(user, stored).ownProgress, hit.questUid);
      if (off) return t(off.done ? 'panels.search.hiddenDone' : 'panels.search.hiddenByYou');
      if (!followed.includes(hit.questUid)) {
        const dropped = questGivingPlace(followed, hit.questUid, followsQuestsWithoutLimit());
        return dropped ? t('panels.search.hiddenQuestSwap', { dropped: questLabel(questList, dropped, lang) }) : t('panels.search.hiddenQuest');
      }
    }
    return isHidden(hit) ? t('panels.search.hidden') : null;
  };
  /** What tells a row from others of the same name: type, level, quest; then its place. */
  const describe = (hit: MarkerFindHit): { facts: string[]; place: string | null } => {
    // The type and the quest, unless the name already says them ("Office safe", "Checking: the item").
    const said = (words: string) => hit.label.toLocaleLowerCase().includes(words.toLocaleLowerCase());
    const type = subCategoryLabel(t, hit.subCategory);
    const quest = hit.questUid ? questList.find((q) => q.uid === hit.questUid) : undefined;
    const questWords = quest ? questName(quest, lang) : '';
    const facts = [...(said(type) ? [] : [type]), hitLevel(hit.level), ...(questWords && !said(questWords) ? [questWords] : [])];
    const hiddenFact = hiddenText(hit);
    if (hiddenFact) facts.push(hiddenFact);
    // An extraction's name is its place (unless another row has the same name: then its
    // coordinates); elsewhere the nearest named one, or the game's coordinates.
    const place = !map || (hit.category === 'Extractions' && !hit.near && !sameName.has(hit.label)) ? null
      : hintText(t, positionHint(hit.near, map.transform.ratio, mapToGame(map.transform, { mapX: hit.x, mapY: hit.y })));
    return { facts, place };
  };

  return (
    // A search landmark; its field (or itself, while the field waits for the markers) is where "Skip to map search" lands.
    <div id={SKIP_TARGETS.search} className="marker-search" role="search" aria-label={t('panels.search.label')} tabIndex={-1}>
      <label className="map-panel__title marker-search__label" htmlFor={SKIP_TARGETS.searchInput}>
        {t('panels.search.label')}
      </label>
      <input
        id={SKIP_TARGETS.searchInput}
        className="marker-search__input"
        type="search"
        role="combobox"
        autoComplete="off"
        spellCheck={false}
        placeholder={t('panels.search.placeholder')}
        aria-autocomplete="list"
        aria-expanded={shownHits !== null && shownHits.length > 0}
        aria-controls={listId}
        aria-activedescendant={shownHits && active >= 0 ? `${id}-hit-${active}` : undefined}
        value={text}
        disabled={!source}
        onChange={(event) => {
          setText(event.target.value);
          setLimit(SEARCH_RESULTS);
          setOpen(true);
          setGone(false);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
      />
      {shownHits && shownHits.length > 0 && switched !== null && (
        // Not a live region: the page's live region said it with the count.
        <p className="map-panel__note marker-search__switched">{t('panels.search.switched', { text: switched })}</p>
      )}
      <ul ref={listRef} id={listId} role="listbox" className="marker-search__list" aria-label={t('panels.search.results')} hidden={!shownHits || shownHits.length === 0}>
        {shownHits?.map((hit, i) => {
          const { facts, place } = describe(hit);
          return (
            <li
              key={hit.uid}
              id={`${id}-hit-${i}`}
              role="option"
              aria-selected={i === active}
              // The row's words with pauses between them (its spans would run together).
              aria-label={[hit.label, ...facts, ...(place ? [place] : [])].join(', ')}
              className={`marker-search__hit${i === active ? ' marker-search__hit--active' : ''}`}
              // Keeps the focus in the field: the click chooses, the field stays the combobox.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => void choose(hit)}
            >
              <SubCategoryIcon className="marker-search__icon" subCategory={hit.subCategory} size={20} />
              <span className="marker-search__text">
                <span className="marker-search__name">{hit.label}</span>
                <span className="marker-search__meta">{facts.join(' · ')}</span>
                {place && <span className="marker-search__place">{place}</span>}
              </span>
            </li>
          );
        })}
        {shownHits && moreCount > 0 && (
          <li
            id={`${id}-hit-${shownHits.length}`}
            role="option"
            aria-selected={active === shownHits.length}
            className={`marker-search__hit marker-search__show-more${active === shownHits.length ? ' marker-search__hit--active' : ''}`}
            onMouseDown={(event) => event.preventDefault()}
            onClick={showMore}
          >
            {t('panels.search.showMore', { count: moreCount })}
          </li>
        )}
      </ul>
      {shownHits && total > shownHits.length && (
        // Not a live region: the page's live region said it when the answer came.
        <p className="map-panel__note marker-search__more">
          {countText(t, total, shownHits.length)}
        </p>
      )}
      <p className="map-panel__note marker-search__status" role="status">
        {gone ? t('panels.search.gone') : shownHits?.length === 0 ? t('panels.search.none') : ''}
      </p>
    </div>
  );
}
