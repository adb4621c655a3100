/**
 * Left panel: Find a marker (MarkerSearch.tsx) on top, then the spec's categories and subcategories, each subcategory with its icon and the
 * count of its markers on this map. Checkboxes change the filter slice; the wiring re-filters
 * in the worker at once. Show all / Hide all act on the whole panel; a category's own checkbox
 * is its group's show all / hide all (checked: hides them all; mixed or clear: shows them all).
 * The Quests category says, while no quest is followed, that its markers show for followed quests
 * only (its count is all of them: a visitor saw "20" and no quest marker on the map).
 */
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { CATEGORIES, type CategoryDef } from '../../domain/categories';
import { filters, showAllCategories } from '../../state/filters';
import { markers } from '../../state/markers';
import { quests } from '../../state/quests';
import { SubCategoryIcon } from '../icons/SubCategoryIcon';
import { categoryCheck, hideAllCategories, subCategoryShown, toggleCategoryRow, toggleSubCategoryRow } from './categoryActions';
import { categoryLabel, subCategoryLabel } from './labels';
import { useLanguageT } from '../../i18n/useLanguageT';
import type { MarkerSource } from '../map/markerSource';
import { MarkerSearch } from './MarkerSearch';

/** `source`: the open map's markers, searched by Find a marker (null while they load). */
export function CategoryPanel({ source = null }: { source?: MarkerSource | null }) {
  const { t } = useTranslation();
  const hidden = useSnapshot(filters);
  const { counts } = useSnapshot(markers);
  const followed = useSnapshot(quests).selected.length;

  return (
    <aside className="map-panel map-panel--left" aria-label={t('panels.categories')}>
      <MarkerSearch source={source} />
      <div className="map-panel__head">
        <h2 className="map-panel__title">{t('panels.categories')}</h2>
        <div className="map-panel__links">
          <button type="button" className="map-panel__link" onClick={showAllCategories}>
            {t('panels.showAll')}
          </button>
          <button type="button" className="map-panel__link" onClick={hideAllCategories}>
            {t('panels.hideAll')}
          </button>
        </div>
      </div>
      <ul className="category-list">
        {CATEGORIES.map((category) => {
          const check = categoryCheck(hidden, category);
          const total = category.subCategories.reduce((sum, s) => sum + (counts[s.id] ?? 0), 0);
          return (
            <li key={category.id} className="category-list__group">
              <div className="category-row category-row--category">
                <label className="category-row__label">
                  <input
                    type="checkbox"
                    checked={check === 'all'}
                    ref={(el) => {
                      if (el) el.indeterminate = check === 'some';
                    }}
                    onChange={() => toggleCategoryRow(category)}
                  />
                  <span>{categoryLabel(t, category.id)}</span>
                </label>
                <span className="category-row__count" title={t('panels.markerCount', { count: total })}>
                  {total}
                </span>
              </div>
              {/* Its count is every quest marker of the map, but a quest's markers are drawn only while it is followed. */}
              {category.id === 'Quests' && total > 0 && followed === 0 && check !== 'none' && <p className="category-list__note">{t('panels.questMarkersNote')}</p>}
              <ul className="category-list__subs">
                {category.subCategories.map((sub) => (
                  <SubCategoryRow
                    key={sub.id}
                    category={category}
                    subId={sub.id}
                    count={counts[sub.id] ?? 0}
                    shown={subCategoryShown(hidden, category.id, sub.id)}
                  />
                ))}
              </ul>
            </li>
          );
        })}
      </ul>
    </aside>
  );
}

interface SubCategoryRowProps {
  category: CategoryDef;
  subId: string;
  count: number;
  shown: boolean;
}

/**
 * One subcategory: re-renders only when its own count or check changes (an admin's edit
 * changes one count; the other rows and their translations are not redone). Its `t` is the
 * shared one of useLanguageT: 36 rows of useTranslation were about 20 ms of the first second.
 */
const SubCategoryRow = memo(function SubCategoryRow({ category, subId, count, shown }: SubCategoryRowProps) {
  const { t } = useLanguageT();
  return (
    <li className={`category-row${count === 0 ? ' category-row--empty' : ''}`}>
      <label className="category-row__label">
        <input type="checkbox" checked={shown} onChange={() => toggleSubCategoryRow(category, subId)} />
        <SubCategoryIcon className="category-row__icon" subCategory={subId} size={20} />
        <span>{subCategoryLabel(t, subId)}</span>
      </label>
      <span className="category-row__count" title={t('panels.markerCount', { count })}>
        {count}
      </span>
    </li>
  );
});
