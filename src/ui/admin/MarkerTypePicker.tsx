/**
 * The marker tool's type: a button showing the current category › subcategory with its icon,
 * opening a small picker (category, then the category's subcategories with their icons, as the
 * category panel shows them). A new category takes its first subcategory at once, so the type
 * is always a known pair; a subcategory closes the picker. Escape closes it too.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CATEGORIES, type CategoryDef } from '../../domain/categories';
import { setMarkerType } from '../../state/editor';
import { SubCategoryIcon } from '../icons/SubCategoryIcon';
import { categoryLabel, subCategoryLabel } from '../panels/labels';

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

  useEffect(() => {
    if (!open) return;
    // A press outside the picker (and its button) closes it.
    const onDown = (event: PointerEvent) => {
      const target = event.target as Node | null;
      const picker = document.getElementById(pickerId);
      if (target && (picker?.contains(target) || buttonRef.current?.contains(target))) return;
      setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open, pickerId]);

  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    // Only the picker closes: the map's Escape (reset to pan, close the popup) is not meant.
    event.stopPropagation();
    event.preventDefault();
    close();
  };

  return (
    <div className="admin-marker-type">
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
          <span className="admin-visually-hidden">{`${t('admin.tools.markerType')}:`}</span>{' '}
          {categoryLabel(t, current.id)} › {subCategoryLabel(t, sub.id)}
        </span>
      </button>
      {open && (
        <div id={pickerId} className="admin-marker-type__picker" role="group" aria-label={t('admin.tools.markerType')} onKeyDown={onKeyDown}>
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
          <ul className="admin-marker-type__subs" role="group" aria-label={t('admin.tools.subCategory')}>
            {current.subCategories.map((s) => (
              <li key={s.id}>
                <button
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
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
