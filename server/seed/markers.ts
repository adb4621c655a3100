/**
 * Deterministic sample markers for a map: every subcategory on every level first, then a
 * weighted mix clustered around "points of interest", all inside the map (map pixels).
 */
import { CATEGORIES, SUBCATEGORIES } from '../../src/domain/categories';
import type { MapDefinition } from '../../src/domain/maps';
import type { Marker, MarkerImage } from '../../src/domain/marker';
import { createRng, hashString, type Rng } from './prng';
import type { SampleItem } from './items';
import type { SampleQuest } from './quests';
import { PLACES, QUEST_OBJECTIVES, SUBCATEGORY_RU, levelNameRu } from './text';
import { sampleImageUrl, SAMPLE_IMAGE_VARIANTS } from './images';

export interface SampleMarkerOptions {
  map: MapDefinition;
  count: number;
  quests: readonly SampleQuest[];
  items: readonly SampleItem[];
}

/** Share of the markers beyond the coverage set, by category. */
const CATEGORY_WEIGHTS: Record<string, number> = {
  Markers: 4,
  Extractions: 5,
  Keys: 10,
  Miscellaneous: 2,
  Quests: 9,
  Loot: 60,
  Spawns: 10,
};

/** Share of markers that carry images (spec: "some with images"). */
export const IMAGE_SHARE = 0.1;
const EDGE = 16;
const round2 = (v: number) => Math.round(v * 100) / 100;

function weightedCategory(rng: Rng): string {
  const total = CATEGORIES.reduce((sum, c) => sum + (CATEGORY_WEIGHTS[c.id] ?? 1), 0);
  let r = rng.next() * total;
  for (const c of CATEGORIES) {
    r -= CATEGORY_WEIGHTS[c.id] ?? 1;
    if (r < 0) return c.id;
  }
  return CATEGORIES[CATEGORIES.length - 1].id;
}

function levelFor(rng: Rng, map: MapDefinition): number {
  // Most markers are on the main level; the rest share the other floors.
  if (map.levels.length === 1 || rng.chance(0.55)) return map.defaultLevel;
  const others = map.levels.filter((l) => l.num !== map.defaultLevel);
  return rng.pick(others).num;
}

export function sampleMarkers({ map, count, quests, items }: SampleMarkerOptions): Marker[] {
  const rng = createRng(`raidmap:markers:${map.id}`);
  const { width, height } = map.size;
  const centres = Array.from({ length: 24 }, () => ({ x: EDGE + rng.next() * (width - 2 * EDGE), y: EDGE + rng.next() * (height - 2 * EDGE) }));
  const spread = Math.min(width, height) * 0.035;
  const mapQuests = quests.filter((q) => q.maps.includes(map.id));
  const questPool = mapQuests.length > 0 ? mapQuests : quests;
  const keys = items.filter((i) => i.kind === 'key');
  const questItems = items.filter((i) => i.kind === 'quest');
  const loot = items.filter((i) => i.kind === 'loot');
  const mapCode = hashString(map.id).toString(16).padStart(8, '0').slice(0, 6);
  const levelNames = new Map(map.levels.map((l) => [l.num, l.name]));
  const coverage = SUBCATEGORIES.length * map.levels.length;

  const markers: Marker[] = [];
  for (let i = 0; i < count; i++) {
    let sub: (typeof SUBCATEGORIES)[number];
    let level: number;
    if (i < coverage) {
      // Every subcategory on every level before anything else.
      sub = SUBCATEGORIES[i % SUBCATEGORIES.length];
      level = map.levels[Math.floor(i / SUBCATEGORIES.length)].num;
    } else {
      const category = weightedCategory(rng);
      sub = rng.pick(SUBCATEGORIES.filter((s) => s.category === category));
      level = levelFor(rng, map);
    }

    const clustered = rng.chance(0.7);
    const centre = rng.pick(centres);
    const rawX = clustered ? centre.x + rng.gaussian() * spread : rng.next() * width;
    const rawY = clustered ? centre.y + rng.gaussian() * spread : rng.next() * height;
    const x = round2(Math.min(width - EDGE, Math.max(EDGE, rawX)));
    const y = round2(Math.min(height - EDGE, Math.max(EDGE, rawY)));

    const [placeEn, placeRu] = rng.pick(PLACES);
    const subRu = SUBCATEGORY_RU[sub.id] ?? sub.id;
    const levelEn = levelNames.get(level) ?? `Level ${level}`;
    let nameEn = `${sub.id} — ${placeEn}`;
    let nameRu = `${subRu} — ${placeRu}`;
    let questUid: string | null = null;
    let itemsUid: string[] = [];

    if (sub.id === 'Quest') {
      const quest = rng.pick(questPool);
      const [objEn, objRu] = rng.pick(QUEST_OBJECTIVES);
      questUid = quest.uid;
      nameEn = `${quest.name}: ${objEn}`;
      nameRu = `${quest.ruName}: ${objRu}`;
      if (rng.chance(0.5)) itemsUid = [rng.pick(questItems).uid];
    } else if (sub.id === 'Key Spawn' || sub.id === 'Unlock') {
      itemsUid = [rng.pick(keys).uid];
    } else if (sub.category === 'Loot' && rng.chance(0.15)) {
      itemsUid = [...new Set(Array.from({ length: rng.int(1, 3) }, () => rng.pick(loot).uid))];
    }

    const imgs: MarkerImage[] = [];
    if (rng.chance(IMAGE_SHARE)) {
      const n = rng.int(1, SAMPLE_IMAGE_VARIANTS);
      for (let k = 1; k <= n; k++) {
        imgs.push({ img: sampleImageUrl(sub.id, k), name: `${sub.id} ${k}/${n}`, desc: `${placeEn}, ${levelEn}` });
      }
    }

    const descEn = `Near the ${placeEn}, ${levelEn.toLowerCase()}.`;
    markers.push({
      uid: `${mapCode}${i.toString(16).padStart(8, '0')}${rng.hex(10)}`,
      map: map.id,
      category: sub.category,
      subCategory: sub.id,
      level,
      geometry: { x, y },
      name: nameEn,
      desc: descEn,
      imgs,
      name_l10n: { en: nameEn, ru: nameRu },
      desc_l10n: {
        en: descEn,
        ru: `Рядом: ${placeRu}, ${levelNameRu(level)}.`,
      },
      questUid,
      itemsUid,
    });
  }
  return markers;
}
