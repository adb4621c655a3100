/**
 * Changed fields of a marker as text: in the change history a list of "Field: before → after",
 * in a conflict a table of the field, yours and theirs. Values are plain text (React escapes them).
 */
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { DiffField, FieldChange } from './markerDiff';

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

export function DiffList({ changes }: { changes: readonly FieldChange[] }) {
  const { t } = useTranslation();
  const show = (value: string) => value || t('markerEdit.empty');
  return (
    <ul className="marker-edit__diff">
      {changes.map((change) => (
        <li key={change.field}>
          <span className="marker-edit__diff-field">{fieldLabel(t, change.field)}:</span> {show(change.before)} → {show(change.after)}
        </li>
      ))}
    </ul>
  );
}

export function DiffTable({ changes, mine, theirs }: { changes: readonly FieldChange[]; mine: string; theirs: string }) {
  const { t } = useTranslation();
  const show = (value: string) => value || t('markerEdit.empty');
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
            <td>{show(change.before)}</td>
            <td>{show(change.after)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
