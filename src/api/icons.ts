import { apiUrl } from './client';

/** URL of a subcategory icon by its slug (`slug()` from src/domain/categories.ts). */
export function iconUrl(slug: string): string {
  return apiUrl(`/icons/${encodeURIComponent(slug)}.svg`);
}
