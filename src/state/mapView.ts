/**
 * The map page's view state: which map, which level, whether it is ready and the selected
 * marker. The per-frame camera is not here: ask the engine for it; the marker size and label
 * mode are settings (state/settings.ts). The level and the camera are kept for a reload of the
 * tab by the map page (ui/map/useRememberedView.ts, state/viewMemory.ts): `openMap` picks the
 * default level, which a remembered one then replaces.
 */
import { proxy } from 'valtio';
import { type MapId, MAPS, stepLevel } from '../domain/maps';

export interface MapViewState {
  mapId: MapId | null;
  /** The selected level's number. */
  level: number;
  /** First tiles and markers drawn. */
  ready: boolean;
  /** uid of the selected marker (open popup), or null. */
  selectedUid: string | null;
}

export const mapView = proxy<MapViewState>({ mapId: null, level: 1, ready: false, selectedUid: null });

export function openMap(mapId: MapId): void {
  mapView.mapId = mapId;
  mapView.level = MAPS[mapId].defaultLevel;
  mapView.ready = false;
  mapView.selectedUid = null;
}

export function closeMap(): void {
  mapView.mapId = null;
  mapView.ready = false;
  mapView.selectedUid = null;
}

/** Selects a level of the open map; a number that is not one of its levels is ignored. */
export function setLevel(num: number): void {
  const map = mapView.mapId ? MAPS[mapView.mapId] : undefined;
  if (!map || !map.levels.some((l) => l.num === num)) return;
  mapView.level = num;
}

/** Steps the level up (+1) or down (−1), clamped at the top and bottom floors. */
export function stepLevelBy(direction: 1 | -1): void {
  if (!mapView.mapId) return;
  mapView.level = stepLevel(MAPS[mapView.mapId], mapView.level, direction);
}

export function setReady(ready: boolean): void {
  mapView.ready = ready;
}

export function selectMarker(uid: string | null): void {
  mapView.selectedUid = uid;
}
