import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAP_IDS } from '../domain/maps';
import { SUBCATEGORY_NAME_KEYS } from '../domain/subcategory-names';
import { bundle, i18n, mapName, setLanguage, type TranslationTree as Tree } from './index';

const en = bundle('en');
const ru = bundle('ru');
const mapsOf = (tree: Tree) => tree.maps as Tree;

function flatten(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) => (typeof value === 'string' ? [`${prefix}${key}`] : flatten(value, `${prefix}${key}.`)));
}

/** Plural forms collapse to their base key (ru has _few and _many, en has not). */
const base = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('translations', () => {
  it('have the same keys in English and Russian', () => {
    expect([...new Set(flatten(ru).map(base))].sort()).toEqual([...new Set(flatten(en).map(base))].sort());
  });

  it('have no empty strings', () => {
    for (const tree of [en, ru]) {
      const walk = (t: Tree) => Object.values(t).forEach((v) => (typeof v === 'string' ? expect(v.trim()).not.toBe('') : walk(v)));
      walk(tree);
    }
  });

  it('cover every key the UI asks for', () => {
    const keys = new Set(flatten(en).map(base));
    const dir = join(__dirname, '..', 'ui');
    const used = sourceFiles(dir).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\bt\('([a-zA-Z]+\.[a-zA-Z.]+)'/g)].map((m) => m[1]));
    expect(used.length).toBeGreaterThan(10);
    expect(used.filter((key) => !keys.has(key))).toEqual([]);
  });

  it('hold no string the UI never asks for', () => {
    const dir = join(__dirname, '..', 'ui');
    const source = sourceFiles(dir).map((file) => readFileSync(file, 'utf8')).join('\n');
    const keys = [...new Set(flatten(en).map(base))].filter((key) => !key.startsWith('maps.'));
    // The subcategory names are asked for through their table (the marker worker reads them too).
    const throughTable = new Set(Object.values(SUBCATEGORY_NAME_KEYS).map((key) => `subcategoryNames.${key}`));
    expect(keys.filter((key) => !source.includes(`'${key}'`) && !throughTable.has(key))).toEqual([]);
  });

  it('name every map in both languages', () => {
    for (const id of MAP_IDS) {
      expect(mapsOf(en)[id]).toBeTruthy();
      expect(mapsOf(ru)[id]).toBeTruthy();
    }
  });

  it('switch language, with plurals per language', async () => {
    expect(i18n.t('home.levels', { count: 5 })).toBe('5 levels');
    await setLanguage('ru');
    expect(i18n.t('home.levels', { count: 5 })).toBe('5 уровней');
    expect(i18n.t('home.levels', { count: 2 })).toBe('2 уровня');
    expect(mapName('customs', 'Customs')).toBe('Таможня');
    await setLanguage('en');
    expect(i18n.t('title.map', { name: 'Customs' })).toBe('Map - Customs - raidmap');
  });
});

describe('UI languages', () => {
  it('are exactly the marker languages', async () => {
    const { LANGUAGES } = await import('../domain/marker');
    const { UI_LANGUAGES } = await import('./index');
    expect([...UI_LANGUAGES].sort()).toEqual([...LANGUAGES].sort());
  });
});
