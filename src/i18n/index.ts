/**
 * i18next set-up: every UI string lives in en.json and ru.json. Initialised synchronously
 * with bundled resources, so the first render already has its text.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
// Types only: the marker module pulls in zod, which the page itself does not need.
import type { Language } from '../domain/marker';
import { readStored, writeStored } from '../state/storage';
import en from './en.json';
import ru from './ru.json';

export const LANGUAGE_KEY = 'map:lang';

export const resources = { en: { translation: en }, ru: { translation: ru } } as const satisfies Record<Language, unknown>;

/** The UI languages: the marker languages (en, ru), each with its translation file. */
export const UI_LANGUAGES = Object.keys(resources) as Language[];

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (UI_LANGUAGES as readonly string[]).includes(value);
}

/** The language the visitor chose before, else English (the site's default, whatever the browser says). */
export function initialLanguage(): Language {
  const stored = readStored(LANGUAGE_KEY);
  return isLanguage(stored) ? stored : 'en';
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

/** Switches the UI language and remembers it. */
export async function setLanguage(lang: Language): Promise<void> {
  writeStored(LANGUAGE_KEY, lang);
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
