import { describe, expect, it } from 'vitest';
import {
  coveredInsets, followInsets, inVisiblePart, isInView, placeInView, reachInsets, reachIntoView, relaxReach, showsWhole, visibleRect, type CanvasArea,
} from './keep-in-view';
import { DESKTOP_PANELS } from './testing/canvas-areas';

/** A 1280×800 desktop: top bar over the top left, categories down the left, the right panel down the right. */
const DESKTOP: CanvasArea = {
  width: 1280,
  height: 800,
  covers: [
    { left: 10, top: 10, right: 960, bottom: 150 },
    { left: 10, top: 160, right: 250, bottom: 560 },
    { left: 1000, top: 10, right: 1270, bottom: 790 },
  ],
};

/** A 390×844 phone: the top bar (with the where-am-I box open) across the top, panels hidden. */
const PHONE: CanvasArea = { width: 390, height: 844, covers: [{ left: 10, top: 10, right: 380, bottom: 200 }] };

describe('visibleRect', () => {
  it('is the whole canvas when nothing covers it', () => {
    expect(visibleRect({ width: 400, height: 300, covers: [] })).toEqual({ left: 0, top: 0, right: 400, bottom: 300 });
  });

  it('cuts each cover away from the side that loses the least', () => {
    expect(visibleRect(DESKTOP)).toEqual({ left: 250, top: 150, right: 1000, bottom: 800 });
    expect(visibleRect(PHONE)).toEqual({ left: 0, top: 200, right: 390, bottom: 844 });
  });

  it('ignores covers outside the canvas or already cut away', () => {
    const area = { width: 400, height: 300, covers: [{ left: 0, top: 0, right: 400, bottom: 50 }, { left: 100, top: 10, right: 200, bottom: 40 }, { left: 500, top: 0, right: 600, bottom: 300 }] };
    expect(visibleRect(area)).toEqual({ left: 0, top: 50, right: 400, bottom: 300 });
  });

  it('falls back to the whole canvas when the covers leave too little', () => {
    const area = { width: 390, height: 844, covers: [{ left: 0, top: 0, right: 390, bottom: 400 }, { left: 0, top: 480, right: 390, bottom: 844 }] };
    expect(visibleRect(area)).toEqual({ left: 0, top: 0, right: 390, bottom: 844 });
  });
});

describe('isInView', () => {
  it('holds inside the visible part less 15 % at each side', () => {
    // Visible 250…1000 × 150…800: the safe part is 362.5…887.5 × 247.5…702.5.
    expect(isInView({ x: 625, y: 475 }, DESKTOP)).toBe(true);
    expect(isInView({ x: 363, y: 248 }, DESKTOP)).toBe(true);
    expect(isInView({ x: 360, y: 475 }, DESKTOP)).toBe(false);
    expect(isInView({ x: 625, y: 705 }, DESKTOP)).toBe(false);
  });

  it('counts a point under a panel as out of view, though on the canvas', () => {
    expect(isInView({ x: 1200, y: 400 }, DESKTOP)).toBe(false);
    expect(isInView({ x: 195, y: 100 }, PHONE)).toBe(false);
  });
});

describe('placeInView', () => {
  it('leaves a point in view where it is', () => {
    expect(placeInView({ x: 600, y: 500 }, DESKTOP)).toBeNull();
    expect(placeInView({ x: 195, y: 520 }, PHONE)).toBeNull();
  });

  it('puts a point out of view at the centre of the visible part', () => {
    expect(placeInView({ x: 1283, y: 400 }, DESKTOP)).toEqual({ x: 625, y: 475 });
    expect(placeInView({ x: 838, y: 400 }, PHONE)).toEqual({ x: 195, y: 522 });
  });
});

describe('coveredInsets', () => {
  it('is how far the visible part starts in from each edge of the canvas', () => {
    expect(coveredInsets(DESKTOP)).toEqual({ top: 150, right: 280, bottom: 0, left: 250 });
    expect(coveredInsets(PHONE)).toEqual({ top: 200, right: 0, bottom: 0, left: 0 });
  });

  it('is nothing where nothing covers the canvas, or where the covers leave too little of it', () => {
    expect(coveredInsets({ width: 400, height: 300, covers: [] })).toEqual({ top: 0, right: 0, bottom: 0, left: 0 });
    const sheets = { width: 390, height: 844, covers: [{ left: 0, top: 0, right: 390, bottom: 400 }, { left: 0, top: 420, right: 390, bottom: 844 }] };
    expect(coveredInsets(sheets)).toEqual({ top: 0, right: 0, bottom: 0, left: 0 });
  });
});

describe('followInsets', () => {
  it('covers all but the middle pixel of each axis, whatever covers the canvas', () => {
    expect(followInsets({ width: 641, height: 361 })).toEqual({ top: 180, right: 320, bottom: 180, left: 320 });
    expect(followInsets({ width: 1920, height: 1080 })).toEqual({ top: 539.5, right: 959.5, bottom: 539.5, left: 959.5 });
  });

  it('is no inset at all for a canvas not laid out yet', () => {
    expect(followInsets({ width: 0, height: Number.NaN })).toEqual({ top: 0, right: 0, bottom: 0, left: 0 });
  });
});

describe('reachInsets', () => {
  it('lets each edge of the map come in as far as the target, less half a pixel', () => {
    // A phone's marker popup: the middle of the band between the top bar and the bottom sheet.
    expect(reachInsets({ width: 390, height: 844 }, { x: 195, y: 247 })).toEqual({ top: 246.5, right: 194.5, bottom: 596.5, left: 194.5 });
  });

  it('never covers a whole axis, so the clamp keeps it', () => {
    const insets = reachInsets({ width: 390, height: 844 }, { x: 10, y: 800 });
    expect(insets.left + insets.right).toBe(389);
    expect(insets.top + insets.bottom).toBe(843);
  });

  it('takes a target off the canvas at its nearest edge, and gives no inset without a canvas', () => {
    expect(reachInsets({ width: 100, height: 100 }, { x: -50, y: 500 })).toEqual({ top: 99, right: 99, bottom: 0, left: 0 });
    expect(reachInsets({ width: 100, height: 100 }, { x: Number.NaN, y: 50 })).toEqual({ top: 49.5, right: 49.5, bottom: 49.5, left: 49.5 });
    expect(reachInsets({ width: 0, height: 844 }, { x: 0, y: 400 })).toEqual({ top: 399.5, right: 0, bottom: 443.5, left: 0 });
  });
});

/** The probe's 1280×800 page (testing/canvas-areas.ts). */
const PROBE = DESKTOP_PANELS;
const PROBE_INSETS = { top: 52, right: 280, bottom: 0, left: 250 };

describe('showsWhole and inVisiblePart', () => {
  it('tells a marker clear of the covers from one half under a panel or the top bar', () => {
    expect(coveredInsets(PROBE)).toEqual(PROBE_INSETS);
    expect(showsWhole({ x: 640, y: 400 }, PROBE)).toBe(true);
    // Cultist Spawn at the map's right edge, the clamp holding the map's edge at the panel's.
    expect(inVisiblePart({ x: 990, y: 342 }, PROBE)).toBe(true);
    expect(showsWhole({ x: 990, y: 342 }, PROBE)).toBe(false);
    expect(showsWhole({ x: 640, y: 66 }, PROBE)).toBe(false);
    expect(inVisiblePart({ x: 1139, y: 426 }, PROBE)).toBe(false);
  });
});

describe('reachIntoView', () => {
  it('is nothing for a point in view', () => {
    expect(reachIntoView({ x: 640, y: 400 }, PROBE, PROBE_INSETS)).toBeNull();
  });

  it('moves a point the clamp held at a panel\'s edge the least that brings it into view, and lets the map\'s edge in that far', () => {
    // The visible part 250–1000 × 52–800 less 15 %: 362.5–887.5 × 164.2–687.8.
    const reach = reachIntoView({ x: 990, y: 342 }, PROBE, PROBE_INSETS)!;
    expect(reach.to).toEqual({ x: 887.5, y: 342 });
    expect(reach.insets).toEqual({ ...PROBE_INSETS, right: 280 + 102.5 });
    expect(isInView(reach.to, PROBE)).toBe(true);
  });

  it('brings a point under the top bar down, and one in a corner in on both sides', () => {
    expect(reachIntoView({ x: 640, y: 66 }, PROBE, PROBE_INSETS)).toEqual({ to: { x: 640, y: 164.2 }, insets: { ...PROBE_INSETS, top: 52 + 98.2 } });
    const corner = reachIntoView({ x: 260, y: 790 }, PROBE, PROBE_INSETS)!;
    expect(corner.to).toEqual({ x: 362.5, y: 687.8 });
    expect(corner.insets.left).toBeCloseTo(250 + 102.5);
    expect(corner.insets.bottom).toBeCloseTo(102.2);
  });

  it('adds to the reach already let in, and leaves a point that is not a number alone', () => {
    const held = { ...PROBE_INSETS, right: 382.5 };
    expect(reachIntoView({ x: 640, y: 66 }, PROBE, held)?.insets).toEqual({ ...held, top: 150.2 });
    expect(reachIntoView({ x: Number.NaN, y: 66 }, PROBE, PROBE_INSETS)).toBeNull();
  });
});

describe('relaxReach', () => {
  const held = { ...PROBE_INSETS, right: 382.5 };
  it('keeps the reach while the map\'s edge is in that far', () => {
    expect(relaxReach(held, PROBE_INSETS, { top: -500, right: 382.5, bottom: -900, left: -2000 })).toEqual(held);
  });

  it('takes it back as the map\'s edge goes out, never below the covers\' insets, and is null once back to them', () => {
    expect(relaxReach(held, PROBE_INSETS, { top: -500, right: 300, bottom: -900, left: -2000 })).toEqual({ ...held, right: 300.5 });
    expect(relaxReach(held, PROBE_INSETS, { top: -500, right: 100, bottom: -900, left: -2000 })).toBeNull();
    // An edge not known (not a number): the reach stays.
    expect(relaxReach(held, PROBE_INSETS, { top: -500, right: Number.NaN, bottom: -900, left: -2000 })).toEqual(held);
  });
});
