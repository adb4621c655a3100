/**
 * The marker tool's type: a button showing the current category › subcategory with its icon,
 * opening a small picker (category, then the category's subcategories with their icons, as the
 * category panel shows them). A new category takes its first subcategory at once, so the type
 * is always a known pair; a subcategory closes the picker. Escape anywhere in it (its button
 * included: Enter on the button leaves the focus there) closes it and puts the focus on the
 * button, and goes no further: the map's Escape (reset to pan, drop a copy, close the popup) is
 * not meant. A press outside closes it too (ui/useDismiss.ts), as does Escape with the focus
 * elsewhere (then the page's Escape goes on as well: the picker was not what the key was for).
 */
import { useCallback, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CATEGORIES, type CategoryDef } from '../../domain/categories';
import { setMarkerType } from '../../state/editor';
import { SubCategoryIcon } from '../icons/SubCategoryIcon';
import { categoryLabel, subCategoryLabel } from '../panels/labels';
import { useDismiss } from '../useDismiss';

/** The category to show: the chosen one when known, else the first. */
function categoryOf(id: string): CategoryDef {
  return CATEGORIES.find((c) => c.id === id) ?? CATEGORIES[0];
}

export function MarkerTypePicker({ category, subCategory }: { category: string; subCategory: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const pickerId = useId();
  const selectId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const current = categoryOf(category);
  const sub = current.subCategories.find((s) => s.id === subCategory) ?? current.subCategories[0];

  const root = useRef<HTMLDivElement>(null);
  // A press outside the picker and its button (or Escape from elsewhere) closes it, the focus left where it is.
  const dismiss = useCallback(() => setOpen(false), []);
  useDismiss(open, root, dismiss);

  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (!open || event.key !== 'Escape') return;
    // Only the picker closes: the map's Escape (reset to pan, close the popup) is not meant.
    // React's handler runs before the page's own listeners (document, window): they never hear it.
    event.stopPropagation();
    event.preventDefault();
    close();
  };

  return (
    <div ref={root} className="admin-marker-type" onKeyDown={onKeyDown}>
      <button
        ref={buttonRef}
        type="button"
        className="admin-button admin-marker-type__current"
        aria-expanded={open}
        aria-controls={pickerId}
        onClick={() => setOpen((o) => !o)}
      >
        <SubCategoryIcon className="admin-marker-type__icon" subCategory={sub.id} size={18} />
        <span className="admin-marker-type__label">
          <span className="visually-hidden">{`${t('admin.tools.markerType')}:`}</span>{' '}
          {categoryLabel(t, current.id)} › {subCategoryLabel(t, sub.id)}
        </span>
      </button>
      {open && (
        <div id={pickerId} className="admin-marker-type__picker" role="group" aria-label={t('admin.tools.markerType')}>
          <label htmlFor={selectId} className="admin-marker-type__field">
            {t('admin.tools.category')}
          </label>
          <select
            id={selectId}
            className="admin-marker-type__select"
            value={current.id}
            onChange={(e) => {
              const next = categoryOf(e.target.value);
              setMarkerType(next.id, next.subCategories[0].id);
            }}
          >
            {CATEGORIES.map((c) => (
              <option key={c.id} value={c.id}>
                {categoryLabel(t, c.id)}
              </option>
            ))}
          </select>
          {/* A group of toggle buttons, the chosen one pressed (not a list: a `ul` given the group
              role leaves its `li`s outside any list, axe's `listitem`). Not radios: a choice
              closes the picker, where arrow keys over radios would choose as they move. */}
          <div className="admin-marker-type__subs" role="group" aria-label={t('admin.tools.subCategory')}>
            {current.subCategories.map((s) => (
              <button
                key={s.id}
                type="button"
                className="admin-marker-type__sub"
                aria-pressed={s.id === sub.id}
                onClick={() => {
                  setMarkerType(current.id, s.id);
                  close();
                }}
              >
                <SubCategoryIcon className="admin-marker-type__icon" subCategory={s.id} size={20} />
                <span>{subCategoryLabel(t, s.id)}</span>
              </button>
            ))}
          </div>
        </div>
      )}
    </div>
  );
}
