/**
 * The edit form's items (spec §5): the marker's items with a Remove button each, and a search by
 * the exact item uid or a part of the name in English or Russian, case-insensitive
 * (src/domain/marker-edit.ts `searchItems`). Matches are listed with an Add button (one already
 * on the marker is shown, not addable); no match says so. Enter in the search box searches.
 */
import { useEffect, useId, useMemo, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { searchItems } from '../../domain/marker-edit';
import type { Language } from '../../domain/marker';
import type { Item } from '../../domain/quests';
import { itemName, loadItems, lookups } from '../../state/items';

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
  const id = useId();

  useEffect(() => {
    void loadItems();
  }, []);

  const search = () => {
    const text = query.trim();
    setResults(text ? { query: text, matches: searchItems(list, text) } : null);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    search();
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
      <label htmlFor={`${id}-search`}>{t('markerEdit.itemSearch')}</label>
      <div className="marker-edit__row">
        <input
          id={`${id}-search`}
          type="search"
          value={query}
          aria-describedby={`${id}-hint`}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="button" onClick={search}>
          {t('markerEdit.search')}
        </button>
      </div>
      <p id={`${id}-hint`} className="marker-edit__hint">
        {t('markerEdit.itemSearchHint')}
      </p>
      {itemsStatus === 'loading' && <p className="marker-edit__hint">{t('markerEdit.itemListLoading')}</p>}
      {itemsStatus === 'error' && <p className="marker-edit__error">{t('markerEdit.itemListFailed')}</p>}
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
