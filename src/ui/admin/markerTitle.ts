/**
 * How the dock's notices name a marker (SetAsideNotice, WaitingConflicts): its name in the UI
 * language (the first of `markers` that has one: the admin's draft, then the saved copy), else
 * its subcategory, "(unnamed)" — never its uid, which says nothing to an admin.
 */
import type { TFunction } from 'i18next';
import { localized, type Language, type Marker } from '../../domain/marker';
import { subCategoryLabel } from '../panels/labels';

export function markerTitle(t: TFunction, lang: Language, ...markers: readonly Marker[]): string {
  for (const marker of markers) {
    const name = localized(marker, 'name', lang).trim();
    if (name) return name;
  }
  return t('markerEdit.unnamed', { type: subCategoryLabel(t, markers[0].subCategory) });
}
