import { describe, expect, it } from 'vitest';
import { countByLevel, elsewhereByLevel, floorToShow, frameBounds, pointsBounds } from './quest-frame';

describe('pointsBounds', () => {
  it('holds every finite point', () => {
    expect(pointsBounds([{ x: 5, y: 9 }, { x: -2, y: 4 }, { x: 7, y: Number.NaN }, { x: 3, y: 12 }])).toEqual({ left: -2, top: 4, right: 5, bottom: 12 });
  });
  it('is one point for one, null for none', () => {
    expect(pointsBounds([{ x: 1, y: 2 }])).toEqual({ left: 1, top: 2, right: 1, bottom: 2 });
    expect(pointsBounds([])).toBeNull();
  });
});

describe('floorToShow', () => {
  const on = (...levels: number[]) => levels.map((level) => ({ level }));
  it('keeps the current floor while it holds any of the markers', () => {
    expect(floorToShow(on(3, 3, 1), 1)).toBe(1);
  });
  it('picks the floor that holds most of them otherwise (ties: the lower)', () => {
    expect(floorToShow(on(3, 4, 4), 1)).toBe(4);
    expect(floorToShow(on(4, 3), 1)).toBe(3);
  });
  it('is null without markers', () => {
    expect(floorToShow([], 1)).toBeNull();
  });
  it('counts the other floors, most first', () => {
    expect(countByLevel(on(2, 3, 3))).toEqual([{ level: 3, count: 2 }, { level: 2, count: 1 }]);
    expect(elsewhereByLevel(on(1, 3, 3, 4), 1)).toEqual([{ level: 3, count: 2 }, { level: 4, count: 1 }]);
  });
});

describe('frameBounds', () => {
  const canvas = { width: 1000, height: 800 };
  // A right panel covers x 700..1000: the visible part is 0..700 × 0..800 (middle 350, 400).
  const visible = { left: 0, top: 0, right: 700, bottom: 800 };
  const view = { x: 500, y: 500, zoom: 1 };

  it('leaves the camera alone when every point shows in the visible part', () => {
    expect(frameBounds({ left: 300, top: 300, right: 400, bottom: 500 }, visible, canvas, view, 0.1)).toBeNull();
  });

  it('centres one point off screen in the visible part, zoom kept', () => {
    const next = frameBounds({ left: 2000, top: 100, right: 2000, bottom: 100 }, visible, canvas, view, 0.1);
    expect(next).toEqual({ x: 2150, y: 100, zoom: 1 });
    // It lands in the middle of what the panel leaves free, not under the panel.
    expect((2000 - next!.x) * next!.zoom + canvas.width / 2).toBe(350);
  });

  it('counts a point under a panel as not shown', () => {
    expect(frameBounds({ left: 800, top: 400, right: 800, bottom: 400 }, visible, canvas, view, 0.1)).not.toBeNull();
  });

  it('zooms out only as far as the points need to fit, never in', () => {
    const next = frameBounds({ left: 0, top: 0, right: 2100, bottom: 400 }, visible, canvas, view, 0.1)!;
    // 70 % of 700 px for 2100 map px.
    expect(next.zoom).toBeCloseTo(490 / 2100);
    const near = frameBounds({ left: 2000, top: 0, right: 2010, bottom: 10 }, visible, canvas, { ...view, zoom: 0.5 }, 0.1)!;
    expect(near.zoom).toBe(0.5);
  });

  it('never zooms out past the map\'s least zoom', () => {
    expect(frameBounds({ left: 0, top: 0, right: 100000, bottom: 10 }, visible, canvas, view, 0.25)!.zoom).toBe(0.25);
  });
});
