/**
 * The map settings (localStorage `map:settings`, src/domain/settings.ts) and what applies of
 * them: the stored values are the user's, but marker size, labels, own progress and the look
 * arrow apply only while the role table lets the user have them (pro); everyone else gets
 * the defaults. The language applies to everyone (the top bar's EN / RU writes it too).
 *
 * Other tabs of the site share them: a change writes only what it changed, on top of what is
 * stored now (another tab may have changed something else meanwhile), and a change made in
 * another tab shows here at once (the `storage` event: src/state/otherTabs.ts), the language too.
 */
import { proxy } from 'valtio';
import { can, type RoleFlags } from '../domain/roles';
import { DEFAULT_SETTINGS, mergeSettings, parseSettings, SETTINGS_KEY, storedLanguage, type MapSettings } from '../domain/settings';
import { defaultLanguage, i18n, initialLanguage, isLanguage, setLanguage } from '../i18n';
import { onStoredElsewhere } from './otherTabs';
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

/**
 * The settings a change applies to: the stored ones, as another tab may have left them (this
 * tab's copy can be older). Nothing stored (never changed, reset, or a blocked storage that
 * kept this page's changes in memory only): this tab's own.
 */
function latestSettings(): MapSettings {
  const raw = readStored(SETTINGS_KEY);
  if (raw === null) return { ...settings };
  return { ...parseSettings(raw), language: storedLanguage(raw) ?? settings.language };
}

/** Changes settings and stores them; a language change switches the UI too. Only `patch` is written over what is stored. */
export function updateSettings(patch: Partial<MapSettings>): void {
  const next = mergeSettings(latestSettings(), patch);
  writeStored(SETTINGS_KEY, JSON.stringify(next));
  assign(next);
  if (next.language !== i18n.language) void setLanguage(next.language);
}

/**
 * Another tab changed or reset the settings (or chose EN / RU): this tab takes them and switches
 * its language with them. Nothing is written back.
 */
export function syncSettings(): void {
  loadSettings();
  if (i18n.language !== settings.language) void i18n.changeLanguage(settings.language);
}

onStoredElsewhere((key) => key === SETTINGS_KEY, syncSettings);

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
