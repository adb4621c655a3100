/**
 * Changed fields of a marker as text: in the change history a list of "Field: before → after",
 * in a conflict a table of the field, yours and theirs. Values are plain text (React escapes them).
 */
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { categoryLabel, subCategoryLabel } from '../panels/labels';
import type { DiffField, FieldChange, HistoryChange, ImageChange } from './markerDiff';

/** The label of a changed field (literal keys, so the translation check can see them). */
export function fieldLabel(t: TFunction, field: DiffField): string {
  switch (field) {
    case 'name':
      return t('markerEdit.fields.name');
    case 'nameEn':
      return t('markerEdit.fields.nameEn');
    case 'nameRu':
      return t('markerEdit.fields.nameRu');
    case 'desc':
      return t('markerEdit.fields.desc');
    case 'descEn':
      return t('markerEdit.fields.descEn');
    case 'descRu':
      return t('markerEdit.fields.descRu');
    case 'category':
      return t('markerEdit.fields.category');
    case 'subCategory':
      return t('markerEdit.fields.subCategory');
    case 'level':
      return t('markerEdit.fields.level');
    case 'position':
      return t('markerEdit.fields.position');
    case 'quest':
      return t('markerEdit.fields.quest');
    case 'items':
      return t('markerEdit.fields.items');
    case 'images':
      return t('markerEdit.fields.images');
  }
}

/**
 * A changed value as the page shows it: categories and subcategories by their name in the page's
 * language (as the filters panel names them), not their English ids.
 */
export function valueText(t: TFunction, field: DiffField, value: string): string {
  if (!value) return t('markerEdit.empty');
  if (field === 'category') return categoryLabel(t, value);
  if (field === 'subCategory') return subCategoryLabel(t, value);
  return value;
}

function isImageChange(change: HistoryChange): change is ImageChange {
  return 'kind' in change;
}

/** One image change as a line: "Image added: Door", "Images reordered: Door, Inside → Inside, Door". */
export function imageChangeText(t: TFunction, change: ImageChange): string {
  const empty = t('markerEdit.empty');
  switch (change.kind) {
    case 'added':
      return t('markerEdit.diff.imageAdded', { name: change.name || t('markerEdit.image', { index: change.index }) });
    case 'removed':
      return t('markerEdit.diff.imageRemoved', { name: change.name || t('markerEdit.image', { index: change.index }) });
    case 'reordered':
      return t('markerEdit.diff.imagesReordered', { before: change.before, after: change.after });
    case 'file':
      return t('markerEdit.diff.imageFile', { index: change.index, before: change.before || empty, after: change.after || empty });
    case 'name':
      return t('markerEdit.diff.imageName', { index: change.index, before: change.before || empty, after: change.after || empty });
    case 'desc':
      return t('markerEdit.diff.imageDesc', { index: change.index, before: change.before || empty, after: change.after || empty });
  }
}

/** The change history's lines: "Field: before → after", and each image change on a line of its own. */
export function DiffList({ changes }: { changes: readonly HistoryChange[] }) {
  const { t } = useTranslation();
  return (
    <ul className="marker-edit__diff">
      {changes.map((change, i) =>
        isImageChange(change) ? (
          <li key={`images-${i}`}>{imageChangeText(t, change)}</li>
        ) : (
          <li key={change.field}>
            <span className="marker-edit__diff-field">{fieldLabel(t, change.field)}:</span> {valueText(t, change.field, change.before)} →{' '}
            {valueText(t, change.field, change.after)}
          </li>
        ),
      )}
    </ul>
  );
}

export function DiffTable({ changes, mine, theirs }: { changes: readonly FieldChange[]; mine: string; theirs: string }) {
  const { t } = useTranslation();
  return (
    <table className="marker-edit__diff-table">
      <thead>
        <tr>
          <th scope="col">{t('markerEdit.conflictField')}</th>
          <th scope="col">{mine}</th>
          <th scope="col">{theirs}</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((change) => (
          <tr key={change.field}>
            <th scope="row">{fieldLabel(t, change.field)}</th>
            <td>{valueText(t, change.field, change.before)}</td>
            <td>{valueText(t, change.field, change.after)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
