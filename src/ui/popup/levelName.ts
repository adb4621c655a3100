/** A level's name as the marker popup and its edit form write it: the level list's own name (ui/panels/labels.ts). */
import type { TFunction } from 'i18next';
import type { MapDefinition } from '../../domain/maps';
import { levelLabel } from '../panels/labels';

/** The name of level `num` on `map`, as the level list names it; the number itself when the map has no such level. */
export function levelName(t: TFunction, map: MapDefinition, num: number): string {
  const level = map.levels.find((l) => l.num === num);
  return level ? levelLabel(t, level) : String(num);
}
