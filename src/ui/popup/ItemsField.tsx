/**
 * The edit form's items (spec §5): the marker's items with a Remove button each, and a search by
 * the exact item uid or a part of the name in English or Russian, case-insensitive
 * (src/domain/marker-edit.ts `searchItems`). Matches are listed with an Add button (one already
 * on the marker is shown, not addable); no match says so. Enter in the search box searches.
 */
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { searchItems } from '../../domain/marker-edit';
import type { Language } from '../../domain/marker';
import type { Item } from '../../domain/quests';
import { itemName, loadItems, lookups } from '../../state/items';
import { SearchBox } from './SearchBox';

/** At most this many matches are listed; the rest are counted. */
export const ITEM_RESULTS_SHOWN = 20;

export interface ItemsFieldProps {
  itemsUid: readonly string[];
  lang: Language;
  onChange: (itemsUid: string[]) => void;
  disabled?: boolean;
}

export function ItemsField({ itemsUid, lang, onChange, disabled }: ItemsFieldProps) {
  const { t } = useTranslation();
  const { items, itemsStatus } = useSnapshot(lookups);
  const list = useMemo(() => Object.values(items), [items]);
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<{ query: string; matches: Item[] } | null>(null);

  useEffect(() => {
    void loadItems();
  }, []);

  const search = () => {
    const text = query.trim();
    setResults(text ? { query: text, matches: searchItems(list, text) } : null);
  };

  const shown = results?.matches.slice(0, ITEM_RESULTS_SHOWN) ?? [];
  const more = results ? results.matches.length - shown.length : 0;

  return (
    <fieldset className="marker-edit__group" disabled={disabled}>
      <legend>{t('markerEdit.items')}</legend>
      {itemsUid.length === 0 ? (
        <p className="marker-edit__none">{t('markerEdit.itemsNone')}</p>
      ) : (
        <ul className="marker-edit__list" aria-label={t('markerEdit.items')}>
          {itemsUid.map((uid) => {
            const name = itemName(items, uid, lang);
            return (
              <li key={uid} className="marker-edit__row">
                <span className="marker-edit__current">{name}</span>
                <button type="button" onClick={() => onChange(itemsUid.filter((other) => other !== uid))}>
                  {t('markerEdit.itemRemove', { name })}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <SearchBox
        label={t('markerEdit.itemSearch')}
        hint={t('markerEdit.itemSearchHint')}
        query={query}
        onQueryChange={setQuery}
        onSearch={search}
        listStatus={itemsStatus}
        loadingText={t('markerEdit.itemListLoading')}
        failedText={t('markerEdit.itemListFailed')}
      />
      <div role="status" className="marker-edit__results">
        {results && results.matches.length === 0 && <p className="marker-edit__error">{t('markerEdit.itemNoMatch', { query: results.query })}</p>}
        {shown.length > 0 && (
          <ul aria-label={t('markerEdit.itemMatches')}>
            {shown.map((item) => {
              const name = itemName(items, item.uid, lang);
              const added = itemsUid.includes(item.uid);
              return (
                <li key={item.uid}>
                  {added ? (
                    <span>{t('markerEdit.itemAlready', { name })}</span>
                  ) : (
                    <button type="button" onClick={() => onChange([...itemsUid, item.uid])}>
                      {t('markerEdit.itemAdd', { name })}
                    </button>
                  )}{' '}
                  <span className="marker-edit__uid">{item.uid}</span>
                </li>
              );
            })}
          </ul>
        )}
        {more > 0 && <p className="marker-edit__hint">{t('markerEdit.itemMore', { count: more })}</p>}
      </div>
    </fieldset>
  );
}
