import { useTranslation } from 'react-i18next';
import type { Language } from '../../domain/marker';
import { setLanguage, UI_LANGUAGES } from '../../i18n';
// Its button styles: the switch is on the home page too, where the top bar is not.
import './topbar.css';

const LABELS: Record<Language, string> = { en: 'EN', ru: 'RU' };

/**
 * Each language named in itself, as language pickers do (the settings popup's list too). A
 * button's accessible name starts with its visible "EN" / "RU" (WCAG 2.5.3, label in name: a voice
 * control user says "click RU") and goes on with the name, read in its own language (`lang` on
 * each button), where "EN" / "RU" alone would be spelt out letter by letter.
 */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', ru: 'Русский' };

/** The switch button's accessible name: its visible code, then the language's own name ("RU Русский"). */
export function languageButtonName(lang: Language): string {
  return `${LABELS[lang]} ${LANGUAGE_NAMES[lang]}`;
}

/** EN / RU: switches the UI (and the marker labels, through the wiring's relabel); the current one is pressed. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <div className="language-switch" role="group" aria-label={t('topbar.language')}>
      {UI_LANGUAGES.map((lang) => (
        <button
          key={lang}
          type="button"
          lang={lang}
          className="topbar-button language-switch__button"
          aria-label={languageButtonName(lang)}
          aria-pressed={i18n.language === lang}
          onClick={() => void setLanguage(lang)}
        >
          {LABELS[lang]}
        </button>
      ))}
    </div>
  );
}
