/**
 * The spec's subcategory ids (English names with spaces and apostrophes) and their names in each
 * language, for what names a marker where the UI's translations are not at hand: the marker
 * worker labels an unnamed marker on the map with its subcategory's name in the page's language
 * ("Тайник", not "Cache"). The names are the UI's own (src/i18n/locales/{en,ru}/panels.json
 * `subcategoryNames`, read as data), so the map's label and the popup's title always agree.
 */
import { subcategoryNames as en } from '../i18n/locales/en/panels.json';
import { subcategoryNames as ru } from '../i18n/locales/ru/panels.json';
import type { Language } from './marker';

/** Each subcategory id's key under `subcategoryNames` in the translations. */
export const SUBCATEGORY_NAME_KEYS: Readonly<Record<string, keyof typeof en>> = {
  Marker: 'marker',
  'PMC Extraction': 'pmcExtraction',
  Transition: 'transition',
  'Scav Extraction': 'scavExtraction',
  'Co-Op Extraction': 'coOpExtraction',
  'Key Spawn': 'keySpawn',
  Unlock: 'unlock',
  Lever: 'lever',
  Quest: 'quest',
  Cache: 'cache',
  'Ammo Box': 'ammoBox',
  'Grenade Box': 'grenadeBox',
  'Weapon Box': 'weaponBox',
  'Cash Register': 'cashRegister',
  'PC Block': 'pcBlock',
  Safe: 'safe',
  Toolbox: 'toolbox',
  'Sports Bag': 'sportsBag',
  Suitcase: 'suitcase',
  Medbag: 'medbag',
  Medcase: 'medcase',
  'Medical Supply Crate': 'medicalSupplyCrate',
  'Wooden Crate': 'woodenCrate',
  "Shturman's Stash": 'shturmansStash',
  'Ration Supply Crate': 'rationSupplyCrate',
  'Technical Supply Crate': 'technicalSupplyCrate',
  'Dead Body': 'deadBody',
  Drawer: 'drawer',
  Jacket: 'jacket',
  'PMC Spawn': 'pmcSpawn',
  'Scav Spawn': 'scavSpawn',
  'Raider Spawn': 'raiderSpawn',
  'Rogue Spawn': 'rogueSpawn',
  'Boss Spawn': 'bossSpawn',
  'Cultist Spawn': 'cultistSpawn',
  'Sniper Scav': 'sniperScav',
};

const NAMES: Readonly<Record<Language, Readonly<Record<string, string>>>> = { en, ru };

/** The subcategory's name in `lang`; the id itself for one the translations do not know. */
export function subCategoryName(id: string, lang: Language): string {
  const key = SUBCATEGORY_NAME_KEYS[id];
  return (key && NAMES[lang][key]) || id;
}
