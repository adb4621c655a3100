/**
 * A marker popup's title: the marker's name in the UI language, else its type's label in that
 * language (an unnamed marker is "Метка" in Russian, never the English subcategory id).
 */
import type { TFunction } from 'i18next';
import { localized, type Language, type Marker } from '../../domain/marker';
import { subCategoryLabel } from '../panels/labels';

export function popupTitle(t: TFunction, lang: Language, marker: Pick<Marker, 'name' | 'desc' | 'name_l10n' | 'desc_l10n' | 'subCategory'>): string {
  return localized(marker, 'name', lang) || subCategoryLabel(t, marker.subCategory);
}
