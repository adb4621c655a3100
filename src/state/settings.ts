/**
 * The map settings (localStorage `map:settings`, src/domain/settings.ts) and what applies of
 * them: the stored values are the user's, but marker size, labels, own progress and the look
 * arrow apply only while the role table lets the user have them (pro); everyone else gets
 * the defaults. The language applies to everyone (the top bar's EN / RU writes it too).
 */
import { proxy } from 'valtio';
import { can, type RoleFlags } from '../domain/roles';
import { DEFAULT_SETTINGS, mergeSettings, parseSettings, SETTINGS_KEY, type MapSettings } from '../domain/settings';
import { defaultLanguage, i18n, initialLanguage, isLanguage, setLanguage } from '../i18n';
import { session } from './session';
import { readStored, writeStored } from './storage';

/** The stored settings; the language the one the UI starts in (the user's choice, else the browser's). */
function readSettings(): MapSettings {
  return { ...parseSettings(readStored(SETTINGS_KEY)), language: initialLanguage() };
}

export const settings = proxy<MapSettings>(readSettings());

// The top bar's language switch writes `map:settings` through i18n: mirror it here.
i18n.on('languageChanged', (lang: string) => {
  if (isLanguage(lang) && settings.language !== lang) settings.language = lang;
});

function assign(next: MapSettings): void {
  Object.assign(settings, next);
}

/** Re-reads `map:settings` (another tab, tests). */
export function loadSettings(): void {
  assign(readSettings());
}

/** Changes settings and stores them; a language change switches the UI too. */
export function updateSettings(patch: Partial<MapSettings>): void {
  const next = mergeSettings({ ...settings }, patch);
  writeStored(SETTINGS_KEY, JSON.stringify(next));
  assign(next);
  if (next.language !== i18n.language) void setLanguage(next.language);
}

/** "Reset" (after `Confirm reset?`): clears `map:settings` and goes back to the defaults (the language: the browser's). */
export function resetSettings(): void {
  writeStored(SETTINGS_KEY, null);
  const language = defaultLanguage();
  assign({ ...DEFAULT_SETTINGS, language });
  if (i18n.language !== language) {
    void i18n.changeLanguage(language);
  }
}

/** The settings in force for this user: pro-only values fall back to their defaults for others. */
export function effectiveSettings(user: RoleFlags | null = session.user, stored: MapSettings = settings): MapSettings {
  return {
    markerSize: can(user, 'settings') ? stored.markerSize : DEFAULT_SETTINGS.markerSize,
    labels: can(user, 'settings') ? stored.labels : DEFAULT_SETTINGS.labels,
    ownProgress: can(user, 'ownProgress') && stored.ownProgress,
    lookArrow: can(user, 'lookArrow') && stored.lookArrow,
    language: stored.language,
  };
}
