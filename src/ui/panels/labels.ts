/**
 * Translation keys of the spec's category and subcategory ids and of the maps' level names.
 * The ids are English names with spaces and apostrophes, so each gets an explicit key here.
 */
import type { TFunction } from 'i18next';
import type { LevelDef } from '../../domain/maps';

export const CATEGORY_KEYS: Readonly<Record<string, string>> = {
  Markers: 'categoryNames.markers',
  Extractions: 'categoryNames.extractions',
  Keys: 'categoryNames.keys',
  Miscellaneous: 'categoryNames.miscellaneous',
  Quests: 'categoryNames.quests',
  Loot: 'categoryNames.loot',
  Spawns: 'categoryNames.spawns',
};

export const SUBCATEGORY_KEYS: Readonly<Record<string, string>> = {
  Marker: 'subcategoryNames.marker',
  'PMC Extraction': 'subcategoryNames.pmcExtraction',
  Transition: 'subcategoryNames.transition',
  'Scav Extraction': 'subcategoryNames.scavExtraction',
  'Co-Op Extraction': 'subcategoryNames.coOpExtraction',
  'Key Spawn': 'subcategoryNames.keySpawn',
  Unlock: 'subcategoryNames.unlock',
  Lever: 'subcategoryNames.lever',
  Quest: 'subcategoryNames.quest',
  Cache: 'subcategoryNames.cache',
  'Ammo Box': 'subcategoryNames.ammoBox',
  'Grenade Box': 'subcategoryNames.grenadeBox',
  'Weapon Box': 'subcategoryNames.weaponBox',
  'Cash Register': 'subcategoryNames.cashRegister',
  'PC Block': 'subcategoryNames.pcBlock',
  Safe: 'subcategoryNames.safe',
  Toolbox: 'subcategoryNames.toolbox',
  'Sports Bag': 'subcategoryNames.sportsBag',
  Suitcase: 'subcategoryNames.suitcase',
  Medbag: 'subcategoryNames.medbag',
  Medcase: 'subcategoryNames.medcase',
  'Medical Supply Crate': 'subcategoryNames.medicalSupplyCrate',
  'Wooden Crate': 'subcategoryNames.woodenCrate',
  "Shturman's Stash": 'subcategoryNames.shturmansStash',
  'Ration Supply Crate': 'subcategoryNames.rationSupplyCrate',
  'Technical Supply Crate': 'subcategoryNames.technicalSupplyCrate',
  'Dead Body': 'subcategoryNames.deadBody',
  Drawer: 'subcategoryNames.drawer',
  Jacket: 'subcategoryNames.jacket',
  'PMC Spawn': 'subcategoryNames.pmcSpawn',
  'Scav Spawn': 'subcategoryNames.scavSpawn',
  'Raider Spawn': 'subcategoryNames.raiderSpawn',
  'Rogue Spawn': 'subcategoryNames.rogueSpawn',
  'Boss Spawn': 'subcategoryNames.bossSpawn',
  'Cultist Spawn': 'subcategoryNames.cultistSpawn',
  'Sniper Scav': 'subcategoryNames.sniperScav',
};

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
