/**
 * The edit form's search box (quest link, items): a labelled search field with a Search button
 * and a hint, the list's loading / failed line, and Enter that searches (it never submits the
 * form). The results are the caller's.
 */
import { useId, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';

export interface SearchBoxProps {
  label: string;
  hint: string;
  query: string;
  onQueryChange: (query: string) => void;
  onSearch: () => void;
  /** The list searched: 'loading' and 'error' are said under the field. */
  listStatus: string;
  loadingText: string;
  failedText: string;
}

export function SearchBox({ label, hint, query, onQueryChange, onSearch, listStatus, loadingText, failedText }: SearchBoxProps) {
  const { t } = useTranslation();
  const id = useId();
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    onSearch();
  };
  return (
    <>
      <label htmlFor={`${id}-search`}>{label}</label>
      <div className="marker-edit__row">
        <input
          id={`${id}-search`}
          type="search"
          value={query}
          aria-describedby={`${id}-hint`}
          onChange={(event) => onQueryChange(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="button" onClick={onSearch}>
          {t('markerEdit.search')}
        </button>
      </div>
      <p id={`${id}-hint`} className="marker-edit__hint">
        {hint}
      </p>
      {listStatus === 'loading' && <p className="marker-edit__hint">{loadingText}</p>}
      {listStatus === 'error' && <p className="marker-edit__error">{failedText}</p>}
    </>
  );
}
