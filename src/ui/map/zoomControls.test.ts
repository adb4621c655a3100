import { describe, expect, it } from 'vitest';
import type { CanvasArea } from '../../domain/keep-in-view';
import { KEY_ZOOM_FACTOR, zoomAbout } from './mapKeyboard';
import { canZoom, zoomControlsPlace, zoomStep } from './zoomControls';

const limits = { minZoom: 0.25, maxZoom: 4 };

describe('canZoom', () => {
  it('is possible between the limits, not at them (nor a rounding error off them)', () => {
    expect(canZoom(1, 'in', limits)).toBe(true);
    expect(canZoom(1, 'out', limits)).toBe(true);
    expect(canZoom(4, 'in', limits)).toBe(false);
    expect(canZoom(4, 'out', limits)).toBe(true);
    expect(canZoom(0.25, 'out', limits)).toBe(false);
    expect(canZoom(0.25, 'in', limits)).toBe(true);
    expect(canZoom(4 * (1 - 1e-12), 'in', limits)).toBe(false);
    expect(canZoom(0.25 * (1 + 1e-12), 'out', limits)).toBe(false);
    expect(canZoom(Number.NaN, 'in', limits)).toBe(false);
  });
});

describe('zoomStep', () => {
  const view = { x: 1000, y: 800, zoom: 1 };

  it('is the + and − keys\' step about the anchor (what is there stays there)', () => {
    const anchor = { x: 40, y: -30 };
    expect(zoomStep(view, 'in', limits, anchor)).toEqual(zoomAbout(view, KEY_ZOOM_FACTOR, 40, -30));
    expect(zoomStep(view, 'out', limits, anchor)).toEqual(zoomAbout(view, 1 / KEY_ZOOM_FACTOR, 40, -30));
    // The map point under the anchor before and after.
    const next = zoomStep(view, 'in', limits, anchor)!;
    expect(next.x + anchor.x / next.zoom).toBeCloseTo(view.x + anchor.x / view.zoom, 9);
    expect(next.y + anchor.y / next.zoom).toBeCloseTo(view.y + anchor.y / view.zoom, 9);
  });

  it('lands on a limit exactly, the anchor still in place', () => {
    const near = { x: 1000, y: 800, zoom: 3.5 };
    const next = zoomStep(near, 'in', limits, { x: 100, y: 0 })!;
    expect(next.zoom).toBe(4);
    expect(next.x + 100 / next.zoom).toBeCloseTo(near.x + 100 / near.zoom, 9);
    expect(zoomStep({ ...near, zoom: 0.3 }, 'out', limits, { x: 0, y: 0 })?.zoom).toBe(0.25);
  });

  it('is nothing at the limit', () => {
    expect(zoomStep({ ...view, zoom: 4 }, 'in', limits, { x: 0, y: 0 })).toBeNull();
    expect(zoomStep({ ...view, zoom: 0.25 }, 'out', limits, { x: 0, y: 0 })).toBeNull();
  });
});

describe('zoomControlsPlace', () => {
  const box = { width: 36, height: 70 };
  const desktop = (covers: CanvasArea['covers'] = []): CanvasArea => ({ width: 1280, height: 800, covers });

  it('is the bottom-right corner of an uncovered map, 10 px in', () => {
    expect(zoomControlsPlace(desktop(), box)).toEqual({ right: 10, bottom: 10 });
  });

  it('is beside the right panel and above the admin dock: the visible part\'s corner', () => {
    const area = desktop([
      { left: 10, top: 10, right: 600, bottom: 54 }, // top bar
      { left: 10, top: 64, right: 250, bottom: 800 }, // categories (a column)
      { left: 1000, top: 10, right: 1270, bottom: 800 }, // quests (a column)
      { left: 260, top: 700, right: 990, bottom: 800 }, // admin dock
    ]);
    expect(zoomControlsPlace(area, box)).toEqual({ right: 1280 - 990, bottom: 110 });
  });

  it('is lifted above a phone\'s popup sheet at the bottom, and stays put for one at the top', () => {
    const phone: CanvasArea = { width: 390, height: 844, covers: [{ left: 10, top: 10, right: 380, bottom: 56 }] };
    const sheet = { left: 16, top: 500, right: 374, bottom: 828 };
    expect(zoomControlsPlace(phone, box, [sheet])).toEqual({ right: 10, bottom: 844 - 490 });
    expect(zoomControlsPlace(phone, box, [{ left: 16, top: 66, right: 374, bottom: 400 }])).toEqual({ right: 10, bottom: 10 });
    // A desktop's popup, at the bottom's middle, leaves the corner free.
    expect(zoomControlsPlace(desktop(), box, [{ left: 430, top: 500, right: 850, bottom: 784 }])).toEqual({ right: 10, bottom: 10 });
  });

  it('moves left of what fills the right side from top to bottom, and keeps the corner where nothing fits', () => {
    const landscape: CanvasArea = { width: 844, height: 390, covers: [{ left: 10, top: 10, right: 400, bottom: 50 }] };
    const side = { left: 440, top: 60, right: 828, bottom: 374 };
    expect(zoomControlsPlace(landscape, box, [side])).toEqual({ right: 844 - 430, bottom: 10 });
    const everywhere = { left: 0, top: 0, right: 844, bottom: 390 };
    expect(zoomControlsPlace(landscape, box, [everywhere])).toEqual({ right: 10, bottom: 10 });
  });

  it('keeps clear of the covers where too little is left for a visible part (the canvas is used)', () => {
    // A phone with both sheets open: a 20 px strip between them, so the visible part is the whole
    // canvas. Above the quests sheet is the categories sheet, left of it the screen's edge: the
    // corner stays, under the sheet (the panels are over the buttons).
    const phone: CanvasArea = {
      width: 390,
      height: 844,
      covers: [
        { left: 10, top: 10, right: 380, bottom: 56 },
        { left: 10, top: 66, right: 380, bottom: 400 },
        { left: 10, top: 420, right: 380, bottom: 834 },
      ],
    };
    expect(zoomControlsPlace(phone, box)).toEqual({ right: 10, bottom: 10 });
    // The categories sheet short: room above the quests sheet.
    const short = { ...phone, covers: [phone.covers[0], { left: 10, top: 66, right: 380, bottom: 200 }, phone.covers[2]] };
    expect(zoomControlsPlace(short, box)).toEqual({ right: 10, bottom: 844 - 410 });
  });
});
