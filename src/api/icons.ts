import { ICON_ATLAS_PATH } from '../domain/icon-atlas';
import { apiUrl } from './client';

/** URL of the icon atlas: every subcategory's icon in one PNG (src/domain/icon-atlas.ts). */
export function iconAtlasUrl(): string {
  return apiUrl(ICON_ATLAS_PATH);
}

/** URL of a subcategory icon by its slug (`slug()` from src/domain/categories.ts). */
export function iconUrl(slug: string): string {
  return apiUrl(`/icons/${encodeURIComponent(slug)}.svg`);
}
