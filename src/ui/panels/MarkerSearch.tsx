/**
 * Find a marker (top of the left panel): a combobox (ARIA 1.2, list autocomplete) over the
 * markers of the open map whose label, as drawn on the map in the page's language, contains the
 * typed text. The search runs in the markers worker (MarkerSource.search), a short pause after
 * the last key. Arrow keys move through the list, Enter opens the marker as a click on it does
 * (openFoundMarker.ts: hidden ones are shown, the level switched) and the focus moves to its
 * popup; Escape closes the list, then clears the field. Every marker is searched, whatever the
 * filters: a hidden one says so in its row (docs/DECISIONS.md, "Find a marker").
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { findSubCategory } from '../../domain/categories';
import { MAPS } from '../../domain/maps';
import { filters } from '../../state/filters';
import { mapView } from '../../state/mapView';
import type { MarkerSearchHit } from '../../../workers/markers';
import { SubCategoryIcon } from '../icons/SubCategoryIcon';
import { isWorkerClosed, type MarkerSource } from '../map/markerSource';
import { subCategoryShown } from './categoryActions';
import { levelLabel } from './labels';
import { focusPopupWhenShown, openFoundMarker } from './openFoundMarker';
import { SKIP_TARGETS } from '../skipTargets';

/** Rows the list shows at most. */
export const SEARCH_RESULTS = 8;
/** Quiet time after the last key before the worker is asked (ms). */
export const SEARCH_DEBOUNCE_MS = 120;

/** The worker's hits for the typed text, a pause after typing; null while the text is blank or not answered yet. */
function useMarkerHits(source: MarkerSource | null, text: string): { hits: MarkerSearchHit[] | null; forText: string } {
  const { i18n } = useTranslation();
  const [answer, setAnswer] = useState<{ hits: MarkerSearchHit[] | null; forText: string }>({ hits: null, forText: '' });
  useEffect(() => {
    if (!source || text.trim() === '') {
      setAnswer({ hits: null, forText: text });
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      source.search(text, SEARCH_RESULTS).then(
        (hits) => {
          if (current) setAnswer({ hits, forText: text });
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
    // The language is a dependency: the labels searched are relabelled when it changes.
  }, [source, text, i18n.language]);
  return answer;
}

export function MarkerSearch({ source }: { source: MarkerSource | null }) {
  const { t } = useTranslation();
  const id = useId();
  const listId = `${id}-list`;
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [gone, setGone] = useState(false);
  const { hits, forText } = useMarkerHits(source, text);
  const { mapId } = useSnapshot(mapView);
  const hidden = useSnapshot(filters);
  const stopFocusing = useRef<() => void>(() => undefined);
  useEffect(() => () => stopFocusing.current(), []);
  // A new answer starts with no row chosen.
  useEffect(() => setActive(-1), [hits]);

  const shownHits = open && hits !== null && forText === text ? hits : null;
  const levels = mapId ? MAPS[mapId].levels : [];

  const choose = async (hit: MarkerSearchHit) => {
    if (!source) return;
    setOpen(false);
    stopFocusing.current();
    const result = await openFoundMarker(source, hit.uid);
    setGone(result === 'gone');
    if (result === 'opened') stopFocusing.current = focusPopupWhenShown(hit.uid);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const count = shownHits?.length ?? 0;
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
      void choose(shownHits[active >= 0 ? active : 0]);
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
  const isHidden = (hit: MarkerSearchHit) => {
    const category = findSubCategory(hit.subCategory)?.category ?? '';
    return !subCategoryShown(hidden, category, hit.subCategory);
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
          setOpen(true);
          setGone(false);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
      />
      <ul id={listId} role="listbox" className="marker-search__list" aria-label={t('panels.search.results')} hidden={!shownHits || shownHits.length === 0}>
        {shownHits?.map((hit, i) => (
          <li
            key={hit.uid}
            id={`${id}-hit-${i}`}
            role="option"
            aria-selected={i === active}
            className={`marker-search__hit${i === active ? ' marker-search__hit--active' : ''}`}
            // Keeps the focus in the field: the click chooses, the field stays the combobox.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => void choose(hit)}
          >
            <SubCategoryIcon className="marker-search__icon" subCategory={hit.subCategory} size={20} />
            <span className="marker-search__text">
              <span className="marker-search__name">{hit.label}</span>
              <span className="marker-search__meta">
                {hitLevel(hit.level)}
                {isHidden(hit) ? ` · ${t('panels.search.hidden')}` : ''}
              </span>
            </span>
          </li>
        ))}
      </ul>
      <p className="map-panel__note marker-search__status" role="status">
        {gone ? t('panels.search.gone') : shownHits?.length === 0 ? t('panels.search.none') : ''}
      </p>
    </div>
  );
}
