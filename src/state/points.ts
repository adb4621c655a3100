/**
 * The admin's point history (spec §2 "Admin only", §3 "Saved points", §5, §9): while recording
 * is on, every map click adds its map point (rounded to 4 decimals) to the open map's list,
 * kept in local storage under `${mapId}points` (src/domain/points.ts). Showing the points and
 * their coordinates on the map are two switches the map page passes to the engine. Recording
 * and the switches last for this page only; the list is kept until cleared.
 */
import { proxy } from 'valtio';
import type { MapDefinition } from '../domain/maps';
import { addPoint, parsePoints, pointsStorageKey, pointsToSvg, serializePoints, type SavedPoint } from '../domain/points';
import { readStored, writeStored } from './storage';

/** The confirmation asked before the points are cleared (spec §5), word for word. */
export const CLEAR_POINTS_CONFIRMATION = 'Clear points?';

export interface PointsState {
  /** The map whose points are loaded, or null off a map page. */
  mapId: string | null;
  /** The saved points of that map, oldest first. */
  list: SavedPoint[];
  /** Map clicks add points (Rec PointsHistory). */
  recording: boolean;
  /** The points are drawn on the map (Toggle points). */
  shown: boolean;
  /** Their coordinates are written beside them (Toggle coords). */
  coordsShown: boolean;
}

export const points = proxy<PointsState>({ mapId: null, list: [], recording: false, shown: false, coordsShown: false });

/** Loads the saved points of a map (nothing changes when that map is already loaded). */
export function openPoints(mapId: string): void {
  if (points.mapId === mapId) return;
  points.mapId = mapId;
  points.list = parsePoints(readStored(pointsStorageKey(mapId)));
  points.recording = false;
}

/** Leaving the map: nothing is recorded any more; the saved list stays in storage. */
export function closePoints(): void {
  points.mapId = null;
  points.list = [];
  points.recording = false;
}

export function toggleRecording(): void {
  points.recording = !points.recording;
}

export function togglePointsShown(): void {
  points.shown = !points.shown;
}

export function toggleCoordsShown(): void {
  points.coordsShown = !points.coordsShown;
}

function save(): void {
  if (!points.mapId) return;
  writeStored(pointsStorageKey(points.mapId), points.list.length ? serializePoints(points.list) : null);
}

/**
 * A map click while recording: adds the point (map pixels) to the open map's list and saves it.
 * Returns whether a point was added (not recording, or no map open: nothing happens).
 */
export function addRecordedPoint(mapX: number, mapY: number): boolean {
  if (!points.recording || !points.mapId || !Number.isFinite(mapX) || !Number.isFinite(mapY)) return false;
  points.list = addPoint(points.list, { x: mapX, y: mapY });
  save();
  return true;
}

/** Empties the open map's list and its storage (the UI asks `Clear points?` first). */
export function clearPoints(): void {
  points.list = [];
  save();
}

/**
 * The open map's points as an SVG document the size of the map (src/domain/points.ts), labelled
 * with their game coordinates when the coordinates are shown. `title`: the map's name in the
 * page's language (PointTools passes it); the definition's English name without it.
 */
export function pointsSvg(map: Pick<MapDefinition, 'name' | 'size' | 'transform'>, title: string = map.name): string {
  return pointsToSvg(points.list, {
    width: map.size.width,
    height: map.size.height,
    showCoords: points.coordsShown,
    transform: map.transform,
    title,
  });
}

/** Back to the start (tests). */
export function resetPoints(): void {
  points.mapId = null;
  points.list = [];
  points.recording = false;
  points.shown = false;
  points.coordsShown = false;
}
