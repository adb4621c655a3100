/**
 * A map's first requests, started before the rest of the app's modules evaluate (issue 11):
 * `main.tsx` imports this module before React, the router, i18next and the UI, so the compact
 * marker list, the markers worker, the first view's tile worker (or the render worker) and the
 * engine chunk are asked for as soon as the entry's first modules have run, instead of after
 * the whole module graph has been evaluated (one to two hundred ms of a slow machine's first
 * second). The language is the one i18next starts with (`initialLanguage` in src/i18n), read
 * here without loading i18next.
 */
import { browserLanguages, SETTINGS_KEY, startLanguage } from './domain/settings';
import { readStored } from './state/storage';
import { startEarlyMapLoad } from './ui/map/earlyLoad';

startEarlyMapLoad(window.location.pathname, startLanguage(readStored(SETTINGS_KEY), browserLanguages()), window.location.search);
