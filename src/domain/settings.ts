/**
 * The map settings a pro user keeps (spec §1, §9): stored in localStorage `map:settings`,
 * cleared by "Reset" after `Confirm reset?`. Reading never throws: a missing, malformed or
 * out-of-range value falls back to its default, one field at a time.
 */
import type { Language } from './marker';

export const SETTINGS_KEY = 'map:settings';

/** The confirmation "Reset" asks for (spec §5). */
export const RESET_CONFIRMATION = 'Confirm reset?';

/**
 * Which marker labels show: `auto` is the spec's rule (on hover, always for extractions),
 * `all` labels every drawn marker (decluttered), `hover` only the hovered or selected one. On a
 * touch screen nothing hovers: there the selected (tapped) marker is the one, and the settings
 * popup names the modes so.
 */
export type LabelMode = 'auto' | 'all' | 'hover';
export const LABEL_MODES: readonly LabelMode[] = ['auto', 'all', 'hover'];

export const MARKER_SIZE_RANGE = { min: 0.5, max: 2, step: 0.25 } as const;

export interface MapSettings {
  /** Marker icon scale, 1 = default. */
  markerSize: number;
  labels: LabelMode;
  /** Use the user's own quest progress: markers of quests not active are hidden, hidden quests are hidden. */
  ownProgress: boolean;
  /** Show the look-direction arrow on the where-am-I marker. */
  lookArrow: boolean;
  language: Language;
}

export const DEFAULT_SETTINGS: Readonly<MapSettings> = Object.freeze({
  markerSize: 1,
  labels: 'auto',
  ownProgress: true,
  lookArrow: true,
  language: 'en',
});

function clampSize(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return DEFAULT_SETTINGS.markerSize;
  const { min, max, step } = MARKER_SIZE_RANGE;
  return Math.min(max, Math.max(min, Math.round(value / step) * step));
}

/**
 * The UI language a browser asks for: the first of its preferred languages (`navigator.languages`,
 * most wanted first) whose primary subtag is one of ours ("ru-RU" → ru; "uk, ru, en" → ru),
 * null when none is.
 */
export function preferredLanguage(languages: readonly string[] | undefined): Language | null {
  for (const tag of languages ?? []) {
    const primary = typeof tag === 'string' ? tag.split(/[-_]/)[0].toLowerCase() : '';
    if (primary === 'ru' || primary === 'en') return primary;
  }
  return null;
}

/** The language the user chose (stored in `map:settings`), null when none was. */
export function storedLanguage(raw: string | null): Language | null {
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    const language = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>).language : undefined;
    return language === 'ru' || language === 'en' ? language : null;
  } catch {
    return null;
  }
}

/** The language the UI starts in: the user's choice (stored `map:settings`), else the browser's (`preferredLanguage`), else English. */
export function startLanguage(stored: string | null, browserLanguages: readonly string[] | undefined): Language {
  return storedLanguage(stored) ?? preferredLanguage(browserLanguages) ?? DEFAULT_SETTINGS.language;
}

/** The browser's preferred languages, most wanted first; none outside a browser. */
export function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
}

/** Reads the stored JSON; each field that is missing or wrong takes its default. */
export function parseSettings(raw: string | null): MapSettings {
  let value: Record<string, unknown> = {};
  if (raw) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) value = parsed as Record<string, unknown>;
    } catch {
      // Not JSON: every field takes its default.
    }
  }
  const bool = (v: unknown, fallback: boolean) => (typeof v === 'boolean' ? v : fallback);
  return {
    markerSize: clampSize(value.markerSize),
    labels: LABEL_MODES.includes(value.labels as LabelMode) ? (value.labels as LabelMode) : DEFAULT_SETTINGS.labels,
    ownProgress: bool(value.ownProgress, DEFAULT_SETTINGS.ownProgress),
    lookArrow: bool(value.lookArrow, DEFAULT_SETTINGS.lookArrow),
    language: value.language === 'ru' || value.language === 'en' ? value.language : DEFAULT_SETTINGS.language,
  };
}

/** Applies a change, keeping every value in range (the same rules as reading). */
export function mergeSettings(current: MapSettings, patch: Partial<MapSettings>): MapSettings {
  return parseSettings(JSON.stringify({ ...current, ...patch }));
}
