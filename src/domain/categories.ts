/**
 * Marker categories and subcategories (spec §3). The English names are also the ids
 * stored on markers (`category`, `subCategory`); translations live in the UI's i18n files.
 */
export type Faction = 'pmc' | 'scav' | 'boss';

export interface SubCategoryDef {
  id: string;
  /** Faction colour for extraction and spawn icons (spec §3: PMC green, scav grey, boss red). */
  faction?: Faction;
}

export interface CategoryDef {
  id: string;
  subCategories: SubCategoryDef[];
}

export const FACTION_COLOURS: Record<Faction, string> = {
  pmc: '#3fbf4a',
  scav: '#9a9a9a',
  boss: '#e0312b',
};

export const CATEGORIES: readonly CategoryDef[] = [
  // The spec lists "Markers" with no subcategories: it holds generic, named points.
  { id: 'Markers', subCategories: [{ id: 'Marker' }] },
  {
    id: 'Extractions',
    subCategories: [
      { id: 'PMC Extraction', faction: 'pmc' },
      { id: 'Transition', faction: 'pmc' },
      { id: 'Scav Extraction', faction: 'scav' },
      { id: 'Co-Op Extraction', faction: 'scav' },
    ],
  },
  { id: 'Keys', subCategories: [{ id: 'Key Spawn' }, { id: 'Unlock' }] },
  { id: 'Miscellaneous', subCategories: [{ id: 'Lever' }] },
  { id: 'Quests', subCategories: [{ id: 'Quest' }] },
  {
    id: 'Loot',
    subCategories: [
      'Cache', 'Ammo Box', 'Grenade Box', 'Weapon Box', 'Cash Register', 'PC Block', 'Safe',
      'Toolbox', 'Sports Bag', 'Suitcase', 'Medbag', 'Medcase', 'Medical Supply Crate',
      'Wooden Crate', "Shturman's Stash", 'Ration Supply Crate', 'Technical Supply Crate',
      'Dead Body', 'Drawer', 'Jacket',
    ].map((id) => ({ id })),
  },
  {
    id: 'Spawns',
    subCategories: [
      { id: 'PMC Spawn', faction: 'pmc' },
      { id: 'Scav Spawn', faction: 'scav' },
      { id: 'Raider Spawn', faction: 'boss' },
      { id: 'Rogue Spawn', faction: 'boss' },
      { id: 'Boss Spawn', faction: 'boss' },
      { id: 'Cultist Spawn', faction: 'boss' },
      { id: 'Sniper Scav', faction: 'scav' },
    ],
  },
];

export const SUBCATEGORIES: readonly (SubCategoryDef & { category: string })[] = CATEGORIES.flatMap(
  (c) => c.subCategories.map((s) => ({ ...s, category: c.id })),
);

const byId = new Map(SUBCATEGORIES.map((s) => [s.id, s]));

export function findSubCategory(id: string): (SubCategoryDef & { category: string }) | undefined {
  return byId.get(id);
}

export function isKnownCategory(category: string, subCategory: string): boolean {
  return byId.get(subCategory)?.category === category;
}

/** File-name-safe slug of a subcategory: "Shturman's Stash" → "shturmans-stash". Icons use it. */
export function slug(id: string): string {
  return id.toLowerCase().replace(/'/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}
