/**
 * The edit form's objections (src/domain/marker-problem.ts: field path, kind, limit) as text in
 * the page's language: the field named by the label the form shows it under (never its path,
 * `desc_l10n.ru`), then the rule ("Description (Russian): at most 4000 characters."). A field
 * the form does not show (a pass-through field, the uid) is named as such.
 */
import type { TFunction } from 'i18next';
import type { MarkerFieldProblem } from '../../domain/marker-problem';

/** The label the form shows `field` under (a path of prepareMarkerForSave's errors). */
export function fieldLabel(t: TFunction, field: string): string {
  const image = /^imgs\.(\d+)(?:\.(img|name|desc))?$/.exec(field);
  if (image) {
    const index = Number(image[1]) + 1;
    if (image[2] === 'img') return t('markerEdit.imageUrl', { index });
    if (image[2] === 'name') return t('markerEdit.imageName', { index });
    if (image[2] === 'desc') return t('markerEdit.imageDesc', { index });
    return t('markerEdit.image', { index });
  }
  switch (field) {
    case 'name':
      return t('markerEdit.name');
    case 'name_l10n.en':
      return t('markerEdit.nameEn');
    case 'name_l10n.ru':
      return t('markerEdit.nameRu');
    case 'desc':
      return t('markerEdit.desc');
    case 'desc_l10n.en':
      return t('markerEdit.descEn');
    case 'desc_l10n.ru':
      return t('markerEdit.descRu');
    case 'category':
      return t('markerEdit.category');
    case 'subCategory':
      return t('markerEdit.subCategory');
    case 'level':
      return t('markerEdit.level');
    case 'questUid':
      return t('markerEdit.quest');
    case 'imgs':
      return t('markerEdit.images');
  }
  if (field === 'itemsUid' || field.startsWith('itemsUid.')) return t('markerEdit.items');
  if (field.startsWith('geometry')) return t('markerEdit.fields.position');
  return t('markerEdit.fieldHidden');
}

/** One objection as a line: the field's label and the rule, in the page's language. */
export function problemText(t: TFunction, problem: MarkerFieldProblem): string {
  const field = fieldLabel(t, problem.field);
  const index = Number(/^imgs\.(\d+)\./.exec(problem.field)?.[1] ?? 0) + 1;
  switch (problem.kind) {
    case 'tooLong':
      return t('markerEdit.problems.tooLong', { field, count: problem.limit });
    case 'tooMany':
      return t('markerEdit.problems.tooMany', { field, count: problem.limit });
    case 'unknownCategory':
      return t('markerEdit.problems.unknownCategory', { field });
    case 'badCharacters':
      return t('markerEdit.problems.badCharacters', { field });
    case 'noFile':
      return t('markerEdit.imageNoFile', { index });
    case 'badUrl':
      return t('markerEdit.imageBadUrl', { index });
    case 'level':
      return t('markerEdit.levelInvalid');
    default:
      return t('markerEdit.problems.invalid', { field });
  }
}

/** Where `field` is in the form, top to bottom (the page's language first, as the form shows them). */
function place(field: string, lang: 'en' | 'ru'): number {
  const other = lang === 'en' ? 'ru' : 'en';
  const fixed = [`name_l10n.${lang}`, `name_l10n.${other}`, 'name', `desc_l10n.${lang}`, `desc_l10n.${other}`, 'desc', 'category', 'subCategory', 'level', 'questUid'];
  const at = fixed.indexOf(field);
  if (at >= 0) return at;
  if (field === 'itemsUid' || field.startsWith('itemsUid.')) return fixed.length;
  if (field === 'imgs') return fixed.length + 1;
  const image = /^imgs\.(\d+)\.(img|name|desc)$/.exec(field);
  if (image) return fixed.length + 2 + Number(image[1]) * 3 + ['img', 'name', 'desc'].indexOf(image[2]);
  return Number.MAX_SAFE_INTEGER;
}

/** The objections in the order of their fields on the form. */
export function inFormOrder<T extends { field: string }>(problems: readonly T[], lang: 'en' | 'ru'): T[] {
  return problems.map((problem, i) => ({ problem, i, at: place(problem.field, lang) })).sort((a, b) => a.at - b.at || a.i - b.i).map(({ problem }) => problem);
}
