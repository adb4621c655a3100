import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAPS } from '../domain/maps';
import { parsePoints, pointsStorageKey } from '../domain/points';
import {
  addRecordedPoint,
  CLEAR_POINTS_CONFIRMATION,
  clearPoints,
  closePoints,
  openPoints,
  points,
  pointsSvg,
  resetPoints,
  toggleCoordsShown,
  togglePointsShown,
  toggleRecording,
} from './points';
import { memoryStorage, setStorageBackend } from './storage';

let storage: ReturnType<typeof memoryStorage>;

beforeEach(() => {
  storage = memoryStorage();
  setStorageBackend(storage);
  resetPoints();
});
afterEach(() => {
  resetPoints();
  setStorageBackend(null);
});

describe('point history', () => {
  it('asks the spec\'s confirmation word for word', () => {
    expect(CLEAR_POINTS_CONFIRMATION).toBe('Clear points?');
  });

  it('loads a map\'s saved points from `${mapId}points`, dropping bad entries', () => {
    storage.setItem('factorypoints', JSON.stringify([{ x: 1.234567, y: 2 }, { x: 'no', y: 1 }, { x: 3, y: 4 }]));
    openPoints('factory');
    expect(points.mapId).toBe('factory');
    expect(points.list).toEqual([{ x: 1.2346, y: 2 }, { x: 3, y: 4 }]);
  });

  it('records map clicks only while recording, rounded to 4 decimals and saved at once', () => {
    openPoints('customs');
    expect(addRecordedPoint(10, 20)).toBe(false);
    expect(points.list).toEqual([]);
    expect(storage.data.has(pointsStorageKey('customs'))).toBe(false);

    toggleRecording();
    expect(points.recording).toBe(true);
    expect(addRecordedPoint(10.123456, -20.000049)).toBe(true);
    expect(addRecordedPoint(30, 40)).toBe(true);
    expect(addRecordedPoint(Number.NaN, 1)).toBe(false);
    expect(points.list).toEqual([{ x: 10.1235, y: -20 }, { x: 30, y: 40 }]);
    expect(parsePoints(storage.getItem('customspoints'))).toEqual(points.list);

    toggleRecording();
    expect(addRecordedPoint(50, 60)).toBe(false);
    expect(points.list).toHaveLength(2);
  });

  it('records nothing off a map page', () => {
    toggleRecording();
    expect(addRecordedPoint(1, 2)).toBe(false);
    expect(storage.data.size).toBe(0);
  });

  it('keeps each map\'s points apart; reopening a map reads them back', () => {
    openPoints('woods');
    toggleRecording();
    addRecordedPoint(1, 1);
    closePoints();
    expect(points.recording).toBe(false);
    openPoints('lab');
    expect(points.list).toEqual([]);
    toggleRecording();
    addRecordedPoint(2, 2);
    closePoints();
    openPoints('woods');
    expect(points.list).toEqual([{ x: 1, y: 1 }]);
    expect(points.recording).toBe(false);
    expect(parsePoints(storage.getItem('labpoints'))).toEqual([{ x: 2, y: 2 }]);
  });

  it('clears the list and its storage', () => {
    storage.setItem('factorypoints', JSON.stringify([{ x: 1, y: 2 }]));
    openPoints('factory');
    clearPoints();
    expect(points.list).toEqual([]);
    expect(storage.getItem('factorypoints')).toBeNull();
  });

  it('toggles showing the points and their coordinates', () => {
    togglePointsShown();
    toggleCoordsShown();
    expect(points).toMatchObject({ shown: true, coordsShown: true });
    togglePointsShown();
    expect(points.shown).toBe(false);
  });

  it('exports the points as an SVG of the map\'s size, with game coordinates while coords are shown', () => {
    const map = MAPS.factory;
    openPoints(map.id);
    toggleRecording();
    addRecordedPoint(100, 200);
    addRecordedPoint(300, 400);
    let svg = pointsSvg(map);
    expect(svg).toContain(`viewBox="0 0 ${map.size.width} ${map.size.height}"`);
    expect(svg).toContain('<polyline points="100,200 300,400"');
    expect(svg).not.toContain('<text');
    toggleCoordsShown();
    svg = pointsSvg(map);
    expect(svg.match(/<text /g)).toHaveLength(2);
  });
});
