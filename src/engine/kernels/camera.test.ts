import { describe, expect, it } from 'vitest';
import { MAPS } from '../../domain/maps';
import { followInsets, reachInsets } from '../../domain/keep-in-view';
import { playerToMap } from '../../domain/position';
import {
  clampView, clampZoom, combineInsets, mapToScreen, panBy, reachPoint, screenToMap, visibleMapRect, wheelDeltaPx, wheelZoomFactor, zoomAround,
  type CameraLimits, type ViewportInsets,
} from './camera';

const customs = MAPS.customs;
const limits: CameraLimits = { minZoom: customs.minZoom, maxZoom: customs.maxZoom, mapWidth: 4400, mapHeight: 3200 };
const viewport = { width: 1280, height: 800 };

describe('camera clamping', () => {
  it('clamps zoom to [min, max] and recovers from non-finite input', () => {
    expect(clampZoom(0.01, limits)).toBe(0.12);
    expect(clampZoom(50, limits)).toBe(10);
    expect(clampZoom(1.5, limits)).toBe(1.5);
    expect(clampZoom(Number.NaN, limits)).toBe(0.12);
  });

  it('without a viewport, keeps the centre on the map', () => {
    expect(clampView({ x: -500, y: 9000, zoom: 1 }, limits)).toEqual({ x: 0, y: 3200, zoom: 1 });
    expect(clampView({ x: Number.POSITIVE_INFINITY, y: Number.NaN, zoom: 1 }, limits)).toEqual({ x: 2200, y: 1600, zoom: 1 });
  });

  it('keeps a map larger than the view covering it (no empty margin)', () => {
    // zoom 1: the view spans 1280 × 800 map px; half of it is 640 × 400.
    expect(clampView({ x: -500, y: 9000, zoom: 1 }, limits, viewport)).toEqual({ x: 640, y: 2800, zoom: 1 });
    expect(clampView({ x: 5000, y: 100, zoom: 1 }, limits, viewport)).toEqual({ x: 3760, y: 400, zoom: 1 });
    expect(clampView({ x: 1000, y: 1000, zoom: 1 }, limits, viewport)).toEqual({ x: 1000, y: 1000, zoom: 1 });
  });

  it('centres a map smaller than the view, per axis', () => {
    // zoom 0.2: the view spans 6400 × 4000 map px, wider and taller than the map.
    expect(clampView({ x: 0, y: 0, zoom: 0.2 }, limits, viewport)).toEqual({ x: 2200, y: 1600, zoom: 0.2 });
    // zoom 0.3: 4267 px wide (< 4400, clamped) and 2667 px tall (< 3200, clamped).
    const v = clampView({ x: 0, y: 0, zoom: 0.3 }, limits, viewport);
    expect(v.x).toBeCloseTo(640 / 0.3, 9);
    expect(v.y).toBeCloseTo(400 / 0.3, 9);
  });
});

describe('camera clamping with the page over the viewport (insets)', () => {
  // A desktop: a 150 px top bar, a 250 px panel on the left, a 280 px one on the right, nothing at the bottom.
  const desktop: ViewportInsets = { top: 150, left: 250, right: 280, bottom: 0 };
  // A phone (390 × 844): the compact top bar, the levels and quests sheet at the bottom.
  const phone = { width: 390, height: 844 };
  const phoneInsets: ViewportInsets = { top: 64, left: 0, right: 0, bottom: 300 };

  it('lets the map\'s edges come in as far as the insets, so its edge shows below the top bar and beside the panels', () => {
    const view = clampView({ x: -1e6, y: -1e6, zoom: 1 }, limits, viewport, desktop);
    expect(view).toEqual({ x: 640 - 250, y: 400 - 150, zoom: 1 });
    // The map's top left corner sits at the visible part's top left corner.
    expect(mapToScreen(view, viewport, 0, 0)).toEqual({ x: 250, y: 150 });
    const far = clampView({ x: 1e6, y: 1e6, zoom: 1 }, limits, viewport, desktop);
    expect(mapToScreen(far, viewport, 4400, 3200)).toEqual({ x: 1280 - 280, y: 800 });
  });

  it('brings a marker at the map\'s top edge out from under the phone\'s top bar, and one at its bottom edge above the sheet', () => {
    const zoom = 1;
    const top = panBy({ x: 2200, y: 1000, zoom }, 0, 1e6, limits, phone, phoneInsets);
    expect(mapToScreen(top, phone, 2200, 0).y).toBe(64);
    // Without the insets the map's top edge stops at the canvas's top, under the bar.
    expect(mapToScreen(panBy({ x: 2200, y: 1000, zoom }, 0, 1e6, limits, phone), phone, 2200, 0).y).toBe(0);
    const bottom = panBy({ x: 2200, y: 1000, zoom }, 0, -1e6, limits, phone, phoneInsets);
    expect(mapToScreen(bottom, phone, 2200, 3200).y).toBe(844 - 300);
  });

  it('keeps a map larger than the visible part covering it: not one pixel further in than the insets', () => {
    const inside = { x: 1000, y: 1000, zoom: 1 };
    expect(clampView(inside, limits, viewport, desktop)).toEqual(inside);
    expect(clampView({ x: 390 - 1, y: 250 - 1, zoom: 1 }, limits, viewport, desktop)).toEqual({ x: 390, y: 250, zoom: 1 });
  });

  it('zooms around a point with the same clamp', () => {
    // The map's corner at the visible part's corner; zooming out around the centre keeps it there.
    const view = zoomAround({ x: 390, y: 250, zoom: 1 }, viewport, 0.5, 640, 400, limits, desktop);
    expect(view.zoom).toBe(0.5);
    const corner = mapToScreen(view, viewport, 0, 0);
    expect(corner.x).toBeCloseTo(250, 9);
    expect(corner.y).toBeCloseTo(150, 9);
  });

  it('still centres a map smaller than the view, moved only as far as clears the insets', () => {
    // zoom 0.2: the map is 880 × 640 CSS px, smaller than the 1280 × 650 visible part.
    const small = clampView({ x: 0, y: 0, zoom: 0.2 }, limits, viewport, { top: 150, left: 0, right: 0, bottom: 0 });
    // Centred it would span 80–720 down: its top under the 150 px bar. It moves down by 70 px, no more.
    expect(mapToScreen(small, viewport, 0, 0).y).toBeCloseTo(150, 9);
    expect(small.x).toBe(2200);
    // Clear of the insets already: it stays centred.
    expect(clampView({ x: 0, y: 0, zoom: 0.2 }, limits, viewport, { top: 50, left: 0, right: 0, bottom: 50 })).toEqual({ x: 2200, y: 1600, zoom: 0.2 });
  });

  it('ignores insets that are not lengths, or that leave nothing of an axis visible, and changes nothing at zoom-out', () => {
    const bad = { top: Number.NaN, left: -40, right: Number.POSITIVE_INFINITY, bottom: 0 };
    expect(clampView({ x: -1e6, y: -1e6, zoom: 1 }, limits, viewport, bad)).toEqual({ x: 640, y: 400, zoom: 1 });
    const all = { top: 500, left: 0, right: 0, bottom: 300 };
    expect(clampView({ x: -1e6, y: -1e6, zoom: 1 }, limits, viewport, all).y).toBe(400);
    expect(clampView({ x: 0, y: 0, zoom: 0.01 }, limits, viewport, desktop).zoom).toBe(0.12);
  });
});

describe('combineInsets (the page\'s covers and the marker popup\'s room)', () => {
  const phone = { width: 390, height: 844 };

  it('takes the larger inset on each side', () => {
    const page = { top: 64, right: 0, bottom: 100, left: 0 };
    const popup = { top: 246.5, right: 194.5, bottom: 596.5, left: 194.5 };
    expect(combineInsets(page, popup, phone)).toEqual(popup);
    expect(combineInsets(page, { top: 10, right: 5, bottom: 0, left: 0 }, phone)).toEqual({ top: 64, right: 5, bottom: 100, left: 0 });
    expect(combineInsets(page, { top: Number.NaN, right: -4, bottom: 0, left: 0 }, phone)).toEqual(page);
  });

  it('keeps the page\'s insets on an axis the two together would cover', () => {
    // A panel over 300 px of the phone's left, the popup's room reaching to the middle from the right.
    const page = { top: 64, right: 0, bottom: 0, left: 300 };
    const popup = { top: 246.5, right: 194.5, bottom: 596.5, left: 194.5 };
    expect(combineInsets(page, popup, phone)).toEqual({ top: 246.5, right: 0, bottom: 596.5, left: 300 });
  });

  it('lets a marker at the map\'s corner reach the popup\'s focus point on a phone, where the page\'s insets alone stop it at the edge', () => {
    const page = { top: 64, right: 0, bottom: 0, left: 0 };
    const target = { x: 195, y: 247 };
    const both = combineInsets(page, reachInsets(phone, target), phone);
    const at = (insets: ViewportInsets) => {
      const view = clampView({ x: 4400 - (target.x - 195), y: 3200 - (target.y - 422), zoom: 1 }, limits, phone, insets);
      return mapToScreen(view, phone, 4400, 3200);
    };
    // Within the half pixel the insets keep back.
    expect(Math.abs(at(both).x - 195)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(at(both).y - 247)).toBeLessThanOrEqual(0.5);
    expect(at(page)).toEqual({ x: 390, y: 844 });
  });
});

describe('screen ⇄ map transforms', () => {
  it('round-trips and puts the view centre at the viewport centre', () => {
    const view = { x: 1234.5, y: 987.25, zoom: 0.75 };
    expect(mapToScreen(view, viewport, view.x, view.y)).toEqual({ x: 640, y: 400 });
    for (const [sx, sy] of [[0, 0], [1280, 800], [17.5, 612.25]]) {
      const m = screenToMap(view, viewport, sx, sy);
      const s = mapToScreen(view, viewport, m.x, m.y);
      expect(s.x).toBeCloseTo(sx, 9);
      expect(s.y).toBeCloseTo(sy, 9);
    }
  });

  it('visible rect spans viewport / zoom map pixels', () => {
    const r = visibleMapRect({ x: 1000, y: 1000, zoom: 2 }, viewport);
    expect(r).toEqual({ minX: 680, minY: 800, maxX: 1320, maxY: 1200 });
  });
});

describe('zoomAround', () => {
  it('keeps the map point under the cursor fixed', () => {
    const view = { x: 2000, y: 1500, zoom: 1 };
    const anchor = screenToMap(view, viewport, 300, 200);
    const next = zoomAround(view, viewport, 2, 300, 200, limits);
    expect(next.zoom).toBe(2);
    const after = mapToScreen(next, viewport, anchor.x, anchor.y);
    expect(after.x).toBeCloseTo(300, 9);
    expect(after.y).toBeCloseTo(200, 9);
  });

  it('stops at the max zoom and the anchor stays put there', () => {
    const view = { x: 2000, y: 1500, zoom: 8 };
    const anchor = screenToMap(view, viewport, 900, 700);
    const next = zoomAround(view, viewport, 4, 900, 700, limits);
    expect(next.zoom).toBe(10);
    const after = mapToScreen(next, viewport, anchor.x, anchor.y);
    expect(after.x).toBeCloseTo(900, 9);
    expect(after.y).toBeCloseTo(700, 9);
    expect(zoomAround(next, viewport, 2, 900, 700, limits)).toEqual(next);
  });

  it('stops at the min zoom and ignores bad factors', () => {
    const view = { x: 2000, y: 1500, zoom: 0.2 };
    expect(zoomAround(view, viewport, 0.1, 640, 400, limits).zoom).toBe(0.12);
    expect(zoomAround(view, viewport, Number.NaN, 640, 400, limits)).toEqual({ x: 2200, y: 1600, zoom: 0.2 });
    expect(zoomAround(view, viewport, -2, 640, 400, limits)).toEqual({ x: 2200, y: 1600, zoom: 0.2 });
  });
});

describe('panBy', () => {
  it('moves the map with the pointer and clamps last', () => {
    const view = { x: 2000, y: 1500, zoom: 2 };
    expect(panBy(view, 100, -50, limits, viewport)).toEqual({ x: 1950, y: 1525, zoom: 2 });
    expect(panBy(view, 1e7, 0, limits, viewport).x).toBe(320);
    expect(panBy(view, -1e7, 0, limits, viewport).x).toBe(4400 - 320);
  });
});

describe('wheel steps', () => {
  it('one notch doubles or halves, trackpad deltas make small steps, the step is capped', () => {
    expect(wheelZoomFactor(-100)).toBe(2);
    expect(wheelZoomFactor(100)).toBe(0.5);
    expect(wheelZoomFactor(-4)).toBeCloseTo(2 ** 0.04, 12);
    expect(wheelZoomFactor(-1000)).toBe(2);
    expect(wheelZoomFactor(0)).toBe(1);
    expect(wheelZoomFactor(Number.NaN)).toBe(1);
  });

  it('normalises delta modes to pixels', () => {
    expect(wheelDeltaPx(3, 1, 800)).toBe(48);
    expect(wheelDeltaPx(1, 2, 800)).toBe(800);
    expect(wheelDeltaPx(53, 0, 800)).toBe(53);
  });
});

describe('clampView with the insets of a view that follows a point (followInsets)', () => {
  const viewport = { width: 640, height: 360 };
  const insets = followInsets(viewport);

  it('centres every corner of the map, where the covering clamp stops short of it', () => {
    for (const corner of [{ x: 0, y: 0 }, { x: 4400, y: 0 }, { x: 0, y: 3200 }, { x: 4400, y: 3200 }]) {
      const view = { ...corner, zoom: 2 };
      const followed = clampView(view, limits, viewport, insets);
      expect(Math.abs(followed.x - corner.x)).toBeLessThanOrEqual(0.5 / view.zoom);
      expect(Math.abs(followed.y - corner.y)).toBeLessThanOrEqual(0.5 / view.zoom);
      // Without them the map keeps covering the view: the corner is far from the middle.
      const covering = clampView(view, limits, viewport);
      expect(Math.abs(covering.x - corner.x)).toBeCloseTo(viewport.width / 2 / view.zoom, 6);
    }
  });

  it('still keeps the centre on the map', () => {
    const followed = clampView({ x: -500, y: 9000, zoom: 2 }, limits, viewport, insets);
    expect(followed.x).toBeGreaterThanOrEqual(0);
    expect(followed.x).toBeLessThan(1);
    expect(followed.y).toBeLessThanOrEqual(3200);
    expect(followed.y).toBeGreaterThan(3199);
  });
});

describe('clampView with a reach point (the where-am-I marker past the map\'s edge)', () => {
  // Factory: x 23.45, y −90.12 (game Z) is 14 m of ground past the drawing's east edge, a
  // position the feed accepts (within MAP_BOUNDS_MARGIN); its height picks level 2.
  const factory = MAPS.factory;
  const factoryLimits: CameraLimits = { minZoom: factory.minZoom, maxZoom: factory.maxZoom, mapWidth: 3600, mapHeight: 3600 };
  const player = playerToMap({ x: 23.45, y: -90.12, z: 4, look: null }, factory);
  const overlay = { width: 1280, height: 720 };

  it('lets the followed view centre on a player past the edge, where it stopped at the edge with the marker off-screen', () => {
    expect(player.mapX).toBeGreaterThan(3600);
    const view = { x: player.mapX, y: player.mapY, zoom: 4 };
    const reach = reachPoint({ x: player.mapX, y: player.mapY }, factoryLimits);
    const followed = clampView(view, factoryLimits, overlay, followInsets(overlay), reach);
    expect(followed.x).toBeCloseTo(player.mapX, 6);
    expect(followed.y).toBeCloseTo(player.mapY, 6);
    const stopped = clampView(view, factoryLimits, overlay, followInsets(overlay));
    expect(mapToScreen(stopped, overlay, player.mapX, player.mapY).x).toBeGreaterThan(overlay.width);
  });

  it('lets a zoomed-in page centre on it too, and keeps every other centre as before', () => {
    const reach = reachPoint({ x: player.mapX, y: player.mapY }, factoryLimits);
    expect(clampView({ x: player.mapX, y: player.mapY, zoom: 4 }, factoryLimits, viewport, NO_INSETS_FOR_TEST, reach).x).toBeCloseTo(player.mapX, 6);
    // Past the player, or on the other side, the map's own clamp holds.
    expect(clampView({ x: 9000, y: 1800, zoom: 4 }, factoryLimits, viewport, NO_INSETS_FOR_TEST, reach).x).toBeCloseTo(player.mapX, 6);
    expect(clampView({ x: -900, y: 1800, zoom: 4 }, factoryLimits, viewport, NO_INSETS_FOR_TEST, reach).x).toBe(viewport.width / 2 / 4);
    // A reach inside the map changes nothing.
    const inside = reachPoint({ x: 1800, y: 1800 }, factoryLimits);
    expect(clampView({ x: 9000, y: 9000, zoom: 4 }, factoryLimits, viewport, NO_INSETS_FOR_TEST, inside)).toEqual(
      clampView({ x: 9000, y: 9000, zoom: 4 }, factoryLimits, viewport),
    );
  });

  it('widens a small map\'s fixed centre as far as the point, and the unsized clamp too', () => {
    const reach = { x: 4000, y: -300 };
    expect(clampView({ x: 9000, y: -9000, zoom: 0.12 }, factoryLimits, viewport, NO_INSETS_FOR_TEST, reach)).toEqual({ x: 4000, y: -300, zoom: 0.12 });
    expect(clampView({ x: 3800, y: 1000, zoom: 0.12 }, factoryLimits, viewport, NO_INSETS_FOR_TEST, reach).x).toBe(3800);
    expect(clampView({ x: 9000, y: -9000, zoom: 1 }, factoryLimits, undefined, NO_INSETS_FOR_TEST, reach)).toEqual({ x: 4000, y: -300, zoom: 1 });
  });

  it('takes the point no further than MAP_BOUNDS_MARGIN past the edge, and none that is not finite', () => {
    expect(reachPoint({ x: 99999, y: -99999 }, factoryLimits)).toEqual({ x: 3600 * 1.25, y: -3600 * 0.25 });
    expect(reachPoint({ x: Number.NaN, y: 0 }, factoryLimits)).toBeNull();
  });

  it('pans and zooms with the same reach', () => {
    const reach = { x: 4000, y: 1800 };
    const view = { x: 3440, y: 1800, zoom: 4 };
    expect(panBy(view, -1e6, 0, factoryLimits, viewport, NO_INSETS_FOR_TEST, reach).x).toBe(4000);
    expect(panBy(view, -1e6, 0, factoryLimits, viewport).x).toBe(3600 - viewport.width / 2 / 4);
    expect(zoomAround(view, viewport, 1, 1280 * 10, 400, factoryLimits, NO_INSETS_FOR_TEST, reach).x).toBe(3440);
  });
});

const NO_INSETS_FOR_TEST: ViewportInsets = { top: 0, right: 0, bottom: 0, left: 0 };
