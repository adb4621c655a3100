/** A level's name as the marker popup writes it: Main, Level N for upper floors, named underground floors. */
import type { TFunction } from 'i18next';
import type { MapDefinition } from '../../domain/maps';

/** Translation keys of the named underground floors (src/domain/maps.ts). */
const FLOOR_KEYS: Record<string, string> = {
  Basement: 'markerPopup.levelBasement',
  Garage: 'markerPopup.levelGarage',
  Underground: 'markerPopup.levelUnderground',
  Parking: 'markerPopup.levelParking',
  Bunker: 'markerPopup.levelBunker',
  Bunkers: 'markerPopup.levelBunkers',
  Tunnels: 'markerPopup.levelTunnels',
  Technical: 'markerPopup.levelTechnical',
  'Lower Maze': 'markerPopup.levelLowerMaze',
};

/** The name of level `num` on `map`; the number itself when the map has no such level. */
export function levelName(t: TFunction, map: MapDefinition, num: number): string {
  const level = map.levels.find((l) => l.num === num);
  if (!level) return String(num);
  if (level.num === 1) return t('markerPopup.levelMain');
  if (level.num > 1) return t('markerPopup.levelUpper', { num: level.num });
  return FLOOR_KEYS[level.name] ? t(FLOOR_KEYS[level.name]) : level.name;
}
