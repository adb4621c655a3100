/**
 * Translation keys of the spec's category and subcategory ids and of the maps' level names.
 * The ids are English names with spaces and apostrophes, so each gets an explicit key here.
 */
import type { TFunction } from 'i18next';
import type { LevelDef } from '../../domain/maps';
import { SUBCATEGORY_NAME_KEYS } from '../../domain/subcategory-names';

export const CATEGORY_KEYS: Readonly<Record<string, string>> = {
  Markers: 'categoryNames.markers',
  Extractions: 'categoryNames.extractions',
  Keys: 'categoryNames.keys',
  Miscellaneous: 'categoryNames.miscellaneous',
  Quests: 'categoryNames.quests',
  Loot: 'categoryNames.loot',
  Spawns: 'categoryNames.spawns',
};

export const SUBCATEGORY_KEYS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(SUBCATEGORY_NAME_KEYS).map(([id, key]) => [id, `subcategoryNames.${key}`]),
);

export const LEVEL_KEYS: Readonly<Record<string, string>> = {
  Main: 'levelNames.main',
  Basement: 'levelNames.basement',
  Underground: 'levelNames.underground',
  Garage: 'levelNames.garage',
  Parking: 'levelNames.parking',
  Bunker: 'levelNames.bunker',
  Bunkers: 'levelNames.bunkers',
  Tunnels: 'levelNames.tunnels',
  Technical: 'levelNames.technical',
  'Lower Maze': 'levelNames.lowerMaze',
};

/** Traders (quest givers) by their English name. */
export const TRADER_KEYS: Readonly<Record<string, string>> = {
  Prapor: 'traderNames.prapor',
  Therapist: 'traderNames.therapist',
  Fence: 'traderNames.fence',
  Skier: 'traderNames.skier',
  Peacekeeper: 'traderNames.peacekeeper',
  Mechanic: 'traderNames.mechanic',
  Ragman: 'traderNames.ragman',
  Jaeger: 'traderNames.jaeger',
  Ref: 'traderNames.ref',
  Lightkeeper: 'traderNames.lightkeeper',
};

/** A category's name in the current language (its id when it has no key). */
export function categoryLabel(t: TFunction, id: string): string {
  const key = CATEGORY_KEYS[id];
  return key ? t(key) : id;
}

export function subCategoryLabel(t: TFunction, id: string): string {
  const key = SUBCATEGORY_KEYS[id];
  return key ? t(key) : id;
}

/** A level's name: "Level 2" for upper floors by number, named floors by their name. */
export function levelLabel(t: TFunction, level: Pick<LevelDef, 'num' | 'name'>): string {
  if (/^Level \d+$/.test(level.name)) return t('levelNames.upper', { num: level.num });
  const key = LEVEL_KEYS[level.name];
  return key ? t(key) : level.name;
}

/** A trader's name in the current language (the name as given when unknown). */
export function traderLabel(t: TFunction, trader: string): string {
  const key = TRADER_KEYS[trader];
  return key ? t(key) : trader;
}
