import { describe, expect, it } from 'vitest';
import { mapToScreen } from './camera';
import { containsPoint, containsRect, cullRect, layoutOffset, padRect, placementCovers } from './cull';

const viewport = { width: 800, height: 600 };

describe('cullRect', () => {
  it('is the visible map rectangle grown by half an icon, in map pixels', () => {
    // 800×600 CSS px at zoom 2 show 400×300 map px around (1000, 500); 14 CSS px = 7 map px.
    expect(cullRect({ x: 1000, y: 500, zoom: 2 }, viewport, 14)).toEqual({ minX: 793, minY: 343, maxX: 1207, maxY: 657 });
  });
});

describe('padRect', () => {
  it('grows a rectangle by a screen margin converted to map pixels', () => {
    expect(padRect({ minX: 0, minY: 0, maxX: 100, maxY: 50 }, 4, 40)).toEqual({ minX: -10, minY: -10, maxX: 110, maxY: 60 });
  });
});

describe('containsRect / containsPoint', () => {
  const outer = { minX: 0, minY: 0, maxX: 100, maxY: 100 };
  it('counts touching edges as inside', () => {
    expect(containsRect(outer, { minX: 0, minY: 0, maxX: 100, maxY: 100 })).toBe(true);
    expect(containsPoint(outer, 100, 0)).toBe(true);
  });
  it('rejects anything poking out on any side', () => {
    expect(containsRect(outer, { minX: -1, minY: 10, maxX: 50, maxY: 50 })).toBe(false);
    expect(containsRect(outer, { minX: 10, minY: 10, maxX: 50, maxY: 100.5 })).toBe(false);
    expect(containsPoint(outer, 50, -0.1)).toBe(false);
  });
});

describe('placementCovers', () => {
  const placed = { zoom: 2, rect: padRect(cullRect({ x: 1000, y: 500, zoom: 2 }, viewport, 14), 2, 100) };

  it('reuses a placement for a pan that stays within the margin', () => {
    const moved = cullRect({ x: 1000 + 49, y: 500 - 49, zoom: 2 }, viewport, 14);
    expect(placementCovers(placed, 2, moved)).toBe(true);
  });

  it('re-places once the view leaves the placed area', () => {
    const moved = cullRect({ x: 1000 + 51, y: 500, zoom: 2 }, viewport, 14);
    expect(placementCovers(placed, 2, moved)).toBe(false);
  });

  it('re-places on any zoom change, even one that shrinks the view', () => {
    const zoomed = cullRect({ x: 1000, y: 500, zoom: 2.5 }, viewport, 14);
    expect(placementCovers(placed, 2.5, zoomed)).toBe(false);
  });

  it('has nothing to reuse before the first placement', () => {
    expect(placementCovers(null, 2, cullRect({ x: 1000, y: 500, zoom: 2 }, viewport, 14))).toBe(false);
  });
});

describe('layoutOffset', () => {
  it('splits mapToScreen into a per-marker part (map × zoom) and one offset', () => {
    const view = { x: 1234.5, y: 678.25, zoom: 1.7 };
    const offset = layoutOffset(view, viewport);
    for (const [mx, my] of [[0, 0], [1234.5, 678.25], [4000, 3000]]) {
      const s = mapToScreen(view, viewport, mx, my);
      expect(mx * view.zoom + offset.x).toBeCloseTo(s.x, 9);
      expect(my * view.zoom + offset.y).toBeCloseTo(s.y, 9);
    }
  });
});
