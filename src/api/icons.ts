import { ICON_ATLAS_META, iconAtlasPath } from '../domain/icon-atlas';
import { apiUrl } from './client';

/**
 * URL of the icon atlas: every subcategory's icon in one PNG (src/domain/icon-atlas.ts). On a
 * map page whose head names the atlas's version (`<meta name="raidmap-icon-atlas">`,
 * server/http/map-page-head.ts), the URL of that version, which the browser keeps for good;
 * otherwise the plain URL, which the browser revalidates on each use.
 */
export function iconAtlasUrl(): string {
  return apiUrl(iconAtlasPath(pageIconAtlasVersion()));
}

/** The atlas version the page's head names, or undefined (no document, no or a bad meta). */
function pageIconAtlasVersion(): string | undefined {
  if (typeof document === 'undefined') return undefined;
  return document.querySelector<HTMLMetaElement>(`meta[name="${ICON_ATLAS_META}"]`)?.content || undefined;
}

/** URL of a subcategory icon by its slug (`slug()` from src/domain/categories.ts). */
export function iconUrl(slug: string): string {
  return apiUrl(`/icons/${encodeURIComponent(slug)}.svg`);
}
