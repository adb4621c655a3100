/**
 * i18next set-up: every UI string lives in `locales/{lang}/*.json` — one file per feature
 * (core, panels, popups…), each holding its own top-level sections, merged here into one
 * bundle per language. Initialised synchronously with bundled resources, so the first render
 * already has its text.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
// Types only: the marker module pulls in zod, which the page itself does not need.
import type { Language } from '../domain/marker';
import { browserLanguages, mergeSettings, parseSettings, SETTINGS_KEY, startLanguage } from '../domain/settings';
import { readStored, writeStored } from '../state/storage';

export type TranslationTree = { [key: string]: string | TranslationTree };

const localeFiles = import.meta.glob<TranslationTree>('./locales/*/*.json', { eager: true, import: 'default' });

/** All translation files of one language merged; two files may not define the same top-level section. */
export function bundle(lang: Language): TranslationTree {
  const merged: TranslationTree = {};
  for (const [path, tree] of Object.entries(localeFiles)) {
    if (!path.startsWith(`./locales/${lang}/`)) continue;
    for (const [section, value] of Object.entries(tree)) {
      if (section in merged) throw new Error(`i18n: section "${section}" is defined twice for ${lang} (${path})`);
      merged[section] = value;
    }
  }
  return merged;
}

export const resources = { en: { translation: bundle('en') }, ru: { translation: bundle('ru') } } as const satisfies Record<Language, unknown>;

/** The UI languages: the marker languages (en, ru), each with its translation file. */
export const UI_LANGUAGES = Object.keys(resources) as Language[];

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (UI_LANGUAGES as readonly string[]).includes(value);
}

/**
 * The language a visitor who chose none gets: the browser's, where it asks for one of ours
 * (`navigator.languages`: a Russian-speaking player's browser gets Russian at once), else English.
 */
export function defaultLanguage(): Language {
  return startLanguage(null, browserLanguages());
}

/** The language the visitor chose before (the `language` of `map:settings`), else the browser's (`defaultLanguage`). */
export function initialLanguage(): Language {
  return startLanguage(readStored(SETTINGS_KEY), browserLanguages());
}

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources,
  lng: initialLanguage(),
  fallbackLng: 'en',
  supportedLngs: [...UI_LANGUAGES],
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
});

export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : 'en';
}

/** Switches the UI language and remembers it in `map:settings` (the other settings kept). */
export async function setLanguage(lang: Language): Promise<void> {
  const stored = parseSettings(readStored(SETTINGS_KEY));
  writeStored(SETTINGS_KEY, JSON.stringify(mergeSettings(stored, { language: lang })));
  await i18n.changeLanguage(lang);
}

/** A map's display name in the current language (falls back to the English name). */
export function mapName(mapId: string, fallback: string): string {
  return i18n.t(`maps.${mapId}`, { defaultValue: fallback });
}

function syncDocumentLanguage(lang: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
}
syncDocumentLanguage(currentLanguage());
i18n.on('languageChanged', syncDocumentLanguage);
