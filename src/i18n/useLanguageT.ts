/**
 * The translation function of the current language, for components a page renders many times
 * (a list's rows). react-i18next's useTranslation gives every component its own copy of the
 * i18next instance when it mounts (react-i18next 17 copies the instance's property descriptors):
 * the 36 category rows spent about 20 ms of a map page's first second on it (docs/PERFORMANCE.md,
 * "Sixth session"). This hook shares one fixed `t` per language and re-renders its component
 * when the language changes, as useTranslation does.
 */
import { useSyncExternalStore } from 'react';
import type { TFunction } from 'i18next';
import type { Language } from '../domain/marker';
import { currentLanguage, i18n } from './index';

const fixedT = new Map<Language, TFunction>();

function subscribe(onChange: () => void): () => void {
  i18n.on('languageChanged', onChange);
  return () => i18n.off('languageChanged', onChange);
}

export function useLanguageT(): { t: TFunction; lang: Language } {
  const lang = useSyncExternalStore(subscribe, currentLanguage, currentLanguage);
  let t = fixedT.get(lang);
  if (!t) {
    t = i18n.getFixedT(lang);
    fixedT.set(lang, t);
  }
  return { t, lang };
}
