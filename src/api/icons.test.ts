// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { ICON_ATLAS_META, ICON_ATLAS_PATH, iconAtlasPath } from '../domain/icon-atlas';
import { setApiBase } from './client';
import { iconAtlasUrl, iconUrl } from './icons';

function setMeta(content: string | null): void {
  document.head.querySelectorAll(`meta[name="${ICON_ATLAS_META}"]`).forEach((m) => m.remove());
  if (content === null) return;
  const meta = document.createElement('meta');
  meta.name = ICON_ATLAS_META;
  meta.content = content;
  document.head.append(meta);
}

describe('icon URLs', () => {
  afterEach(() => {
    setMeta(null);
    setApiBase('');
  });

  it('asks for the atlas version the page head names, under the API base', () => {
    setMeta('Ab3_-x9QzT0kLm2P');
    expect(iconAtlasUrl()).toBe('/icons/atlas.png?v=Ab3_-x9QzT0kLm2P');
    setApiBase('http://api.test/');
    expect(iconAtlasUrl()).toBe('http://api.test/icons/atlas.png?v=Ab3_-x9QzT0kLm2P');
  });

  it('falls back to the plain (revalidated) URL without a meta, or with one that is not a version', () => {
    expect(iconAtlasUrl()).toBe(ICON_ATLAS_PATH);
    for (const bad of ['', 'a b', '"><script>', 'x'.repeat(65), '../x']) {
      setMeta(bad);
      expect(iconAtlasUrl(), bad).toBe(ICON_ATLAS_PATH);
    }
    expect(iconAtlasPath(undefined)).toBe(ICON_ATLAS_PATH);
    expect(iconAtlasPath(null)).toBe(ICON_ATLAS_PATH);
  });

  it('names a subcategory SVG by its slug', () => {
    expect(iconUrl('ammo-box')).toBe('/icons/ammo-box.svg');
  });
});
