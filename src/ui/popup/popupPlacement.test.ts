import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { focusPoint, maxPopupHeight, placementBox, popupCoveredInsets, popupPlacement, SIDE_MIN_WINDOW, uncoverPoint, type ViewportSize } from './popupPlacement';

const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };
const landscape = { width: 844, height: 390 };

describe('popupPlacement', () => {
  it('keeps the bottom centre where the popup leaves its marker free', () => {
    expect(popupPlacement({ x: 640, y: 400 }, desktop, 240)).toBe('bottom');
    expect(popupPlacement({ x: 195, y: 422 }, phone, 300)).toBe('bottom');
    // A marker off to the side of the popup's column.
    expect(popupPlacement({ x: 100, y: 700 }, desktop, 240)).toBe('bottom');
  });

  it('goes to the top when the bottom would cover the marker', () => {
    expect(popupPlacement({ x: 640, y: 650 }, desktop, 240)).toBe('top');
    expect(popupPlacement({ x: 195, y: 700 }, phone, 300)).toBe('top');
  });

  it('goes to the side away from the marker when neither the bottom nor the top leaves it free (phone landscape)', () => {
    expect(popupPlacement({ x: 422, y: 195 }, landscape, 0)).toBe('left');
    expect(popupPlacement({ x: 380, y: 195 }, landscape, 0)).toBe('right');
  });

  it('counts the largest the popup may grow to until it is measured', () => {
    // 46 % of 800 px tall: a centred marker sits inside the tallest bottom popup, not inside a short one.
    expect(popupPlacement({ x: 640, y: 430 }, desktop, 0)).not.toBe('bottom');
    expect(popupPlacement({ x: 640, y: 430 }, desktop, 150)).toBe('bottom');
  });

  it('falls back to the bottom where no place leaves the marker free', () => {
    expect(popupPlacement({ x: 150, y: 150 }, { width: 300, height: 300 }, 0)).toBe('bottom');
    expect(popupPlacement({ x: 0, y: 0 }, { width: 0, height: 0 }, 0)).toBe('bottom');
  });
});

describe('popupPlacement with the admin editor dock', () => {
  // A phone with the editor tools open: the dock takes 300 px at the bottom, the popup sits above it.
  const phoneWithTools = { ...phone, dockHeight: 300 };

  it('counts the dock the bottom popup sits on: a marker just above the dock goes under a bottom popup', () => {
    // Without the dock the bottom popup (609–828) leaves the marker free; above the dock (309–528) it covers it.
    expect(popupPlacement({ x: 290, y: 420 }, phone, 219)).toBe('bottom');
    expect(popupPlacement({ x: 290, y: 420 }, phoneWithTools, 219)).toBe('top');
  });

  it('keeps the bottom where the popup above the dock still leaves the marker free', () => {
    expect(popupPlacement({ x: 290, y: 200 }, phoneWithTools, 219)).toBe('bottom');
  });

  it('counts the dock in how tall the popup may grow until it is measured', () => {
    // A 450 px dock leaves the popup 844 − 96 − 450 = 298 px at most: the bottom one (80–378) hides
    // more of a marker at 370 than the top one (64–362). At 388 px (46 % of the window) the top one would hide it all.
    expect(popupPlacement({ x: 195, y: 370 }, { ...phone, dockHeight: 450 }, 0)).toBe('top');
  });

  it('hides the least of the marker where no place leaves it free (the QA case: a marker at y 300)', () => {
    // Bottom above the dock: 309–528, hides the icon's lower 11 px; top: 64–283, its upper 3 px.
    expect(popupPlacement({ x: 290, y: 300 }, phoneWithTools, 219)).toBe('top');
    // The other way round: a marker at 272 is hidden 19 px by the top popup, not at all by the bottom one.
    expect(popupPlacement({ x: 290, y: 272 }, phoneWithTools, 219)).toBe('bottom');
  });
});

describe('every placement between the top bar and the admin dock', () => {
  // A phone held landscape with the editor tools open: the dock takes 100 px at the bottom.
  const landscapeWithTools = { ...landscape, dockHeight: 100 };

  it('ends a side popup above the dock, as the bottom one', () => {
    expect(placementBox('left', landscapeWithTools, 0)).toEqual({ left: 16, right: 390, top: 64, bottom: 274 });
    expect(placementBox('right', landscapeWithTools, 0)).toEqual({ left: 454, right: 828, top: 64, bottom: 274 });
    expect(placementBox('bottom', landscapeWithTools, 150)?.bottom).toBe(274);
    // Without the dock the side runs to the window's margin.
    expect(placementBox('left', landscape, 0)?.bottom).toBe(374);
  });

  it('starts the top and side popups below the top bar as it is published, however tall it is', () => {
    // The phone's compact bar ends at 74 px: 10 px below it, not at a fixed 64 px inside it.
    const phoneBar = { ...phone, topBarBottom: 74 };
    expect(placementBox('top', phoneBar, 200)).toMatchObject({ top: 84, bottom: 284 });
    expect(placementBox('left', { ...landscape, topBarBottom: 74 }, 0)?.top).toBe(84);
    // Unpublished, the bar's default (popup.css's fallback): 54 + 10.
    expect(placementBox('top', phone, 200)?.top).toBe(64);
    // The bottom popup grows no higher than an edge's margin below where the top one starts.
    expect(placementBox('bottom', { ...phone, topBarBottom: 500 }, 1000)).toMatchObject({ top: 526, bottom: 828 });
  });

  it('leaves the top for a side when a wrapped top bar brings the top popup down over the marker', () => {
    const desktopWithTools = { ...desktop, dockHeight: 100 };
    // The bottom popup (444–684 above the dock) covers a marker at 460; the top one (64–304) does not.
    expect(popupPlacement({ x: 640, y: 460 }, desktopWithTools, 240)).toBe('top');
    // With the where-am-I box open the bar ends at 200: the top popup (210–450) reaches the marker's icon.
    expect(popupPlacement({ x: 640, y: 460 }, { ...desktopWithTools, topBarBottom: 200 }, 240)).toBe('left');
  });
});

describe('focusPoint: where a marker opened by a link or Find a marker is shown', () => {
  /** The marker's icon (20 px around its point) is clear of the bottom popup `height` tall. */
  const clearOfBottom = (point: { y: number }, viewport: typeof phone & { dockHeight?: number }, height: number) =>
    point.y + 20 <= placementBox('bottom', viewport, height)!.top;

  it('puts it in the middle between the top bar and the top of the phone\'s bottom sheet', () => {
    const phoneBar = { ...phone, topBarBottom: 100 };
    // The sheet 300 px tall ends 16 px above the bottom: its top at 528; the bar ends at 100.
    expect(focusPoint(phoneBar, 300)).toEqual({ x: 195, y: 314 });
    expect(popupPlacement({ x: 195, y: 314 }, phoneBar, 300)).toBe('bottom');
    // Unpublished, the bar's default bottom (54).
    expect(focusPoint(phone, 300)).toEqual({ x: 195, y: 291 });
  });

  it('is clear of the sheet whatever its height; unmeasured, clear of the tallest it may grow to', () => {
    for (const height of [0, 120, 250, 388]) {
      const point = focusPoint(phone, height)!;
      expect(clearOfBottom(point, phone, height)).toBe(true);
      expect(popupPlacement(point, phone, height)).toBe('bottom');
    }
    // 46 % of 844 px: the sheet may grow to 388 px, its top at 440; unmeasured, the marker sits above that.
    const unmeasured = focusPoint(phone, 0)!;
    for (const height of [120, 250, 388]) expect(clearOfBottom(unmeasured, phone, height)).toBe(true);
    // Not at the middle of the screen (422), where the tallest sheet would cover it.
    expect(unmeasured.y).toBeLessThan(422 - 20);
  });

  it('does the same above a desktop\'s bottom popup, and above the admin dock', () => {
    expect(focusPoint(desktop, 240)).toEqual({ x: 640, y: 299 });
    // The dock takes 100 px: the popup sits 100 px higher, and the marker half as much.
    expect(focusPoint({ ...desktop, dockHeight: 100 }, 240)).toEqual({ x: 640, y: 249 });
  });

  it('takes the first place that leaves room where the bottom does not (a short window), as the popup will', () => {
    // A phone held landscape with a 300 px tall edit form: no room above it; below a top popup there is.
    const point = focusPoint(landscape, 300)!;
    expect(point.x).toBe(422);
    expect(point.y).toBeGreaterThan(placementBox('top', landscape, 300)!.bottom + 20);
    expect(point.y).toBeLessThan(390 - 20);
    expect(popupPlacement(point, landscape, 300)).toBe('top');
  });

  it('an enlarged popup, or no room anywhere: the middle of the map between the top bar and the dock', () => {
    expect(focusPoint(desktop, 700, true)).toEqual({ x: 640, y: 427 });
    expect(focusPoint({ ...desktop, dockHeight: 100 }, 700, true)).toEqual({ x: 640, y: 377 });
    expect(focusPoint({ width: 300, height: 120 }, 0)).toEqual({ x: 150, y: 87 });
  });

  it('without a window size: none (the map is centred on the marker)', () => {
    expect(focusPoint({ width: 0, height: 0 }, 0)).toBeNull();
  });
});

describe('popupCoveredInsets: how far the open popup lets the map be panned out', () => {
  it('on a phone, lets every point of the map reach the focus point (the middle above the sheet)', () => {
    // A 300 px sheet: its top at 528, the bar's bottom at 54: the focus point at (195, 291).
    expect(focusPoint(phone, 300)).toEqual({ x: 195, y: 291 });
    expect(popupCoveredInsets(phone, 300)).toEqual({ top: 290.5, right: 194.5, bottom: 552.5, left: 194.5 });
    // The sheet's room and the top bar are counted in that, whatever the sheet's height.
    const tallest = popupCoveredInsets({ ...phone, topBarBottom: 110 }, 0);
    expect(tallest?.bottom).toBeGreaterThan(16 + 844 * 0.46);
    expect(tallest?.top).toBeGreaterThan(110);
  });

  it('follows the sheet\'s height, the admin dock and an enlarged popup', () => {
    expect(popupCoveredInsets(phone, 200)?.top).toBe(340.5);
    expect(popupCoveredInsets({ ...phone, dockHeight: 200 }, 200)?.top).toBe(240.5);
    // Enlarged, it covers the map whatever the marker's place: the middle between the bar and the bottom.
    expect(popupCoveredInsets(phone, 300, true)).toEqual({ top: 448.5, right: 194.5, bottom: 394.5, left: 194.5 });
  });

  it('is none where the popup can sit beside its marker (desktop, tablet, a phone held landscape) or without a window', () => {
    expect(popupCoveredInsets(desktop, 300)).toBeNull();
    expect(popupCoveredInsets({ width: 768, height: 1024 }, 300)).toBeNull();
    expect(popupCoveredInsets(landscape, 0)).toBeNull();
    expect(popupCoveredInsets({ width: 0, height: 0 }, 300)).toBeNull();
  });
});

describe('the edit form: placed clear of its marker, at the tallest it may grow to', () => {
  // The probe's window: 1280 × 800, the admin dock 202 px tall, the top bar's default bottom (54).
  const desktopWithDock = { ...desktop, dockHeight: 202 };
  const covers = (box: { left: number; right: number; top: number; bottom: number } | null, p: { x: number; y: number }) =>
    !!box && p.x + 20 > box.left && p.x - 20 < box.right && p.y + 20 > box.top && p.y - 20 < box.bottom;

  it('goes to the side away from a marker its bottom and top boxes would cover (the probe: markers at 450 and 500, y 150)', () => {
    // popup.css: min(80vh, 760px, 100vh − bar − 42 − dock) = 502: the bottom form at 430–850 × 80–582, as the probe saw it.
    expect(maxPopupHeight(desktopWithDock, 'edit')).toBe(502);
    expect(placementBox('bottom', desktopWithDock, 0, 'edit')).toEqual({ left: 430, right: 850, top: 80, bottom: 582 });
    for (const marker of [{ x: 450, y: 150 }, { x: 500, y: 150 }]) {
      const placement = popupPlacement(marker, desktopWithDock, 0, 'edit');
      expect(placement).toBe('right');
      expect(covers(placementBox(placement, desktopWithDock, 0, 'edit'), marker)).toBe(false);
    }
    // Right of the middle: the left side; beside the bottom form's column: the bottom, as ever.
    expect(popupPlacement({ x: 640, y: 500 }, desktopWithDock, 0, 'edit')).toBe('left');
    expect(popupPlacement({ x: 900, y: 400 }, desktopWithDock, 0, 'edit')).toBe('bottom');
  });

  it('does not follow the measured height (the form grows as the admin types): it stays where it opened', () => {
    // A view popup 120 px tall leaves a marker at y 150 free at the bottom; the form is placed as if at its tallest.
    expect(popupPlacement({ x: 450, y: 150 }, desktopWithDock, 120)).toBe('bottom');
    for (const height of [0, 120, 300, 502, 900]) expect(popupPlacement({ x: 450, y: 150 }, desktopWithDock, height, 'edit')).toBe('right');
  });

  it('every placement of the form is inside the window, below the top bar and above the dock', () => {
    const viewports: ViewportSize[] = [desktopWithDock, desktop, { ...desktop, topBarBottom: 120 }, { width: 700, height: 500, dockHeight: 150 }, landscape, phone];
    for (const viewport of viewports) {
      for (const placement of ['bottom', 'top', 'left', 'right'] as const) {
        const box = placementBox(placement, viewport, 0, 'edit');
        if (!box) continue;
        expect(box.left).toBeGreaterThanOrEqual(0);
        expect(box.right).toBeLessThanOrEqual(viewport.width);
        expect(box.top).toBeGreaterThanOrEqual((viewport.topBarBottom ?? 54) + 10);
        expect(box.bottom).toBeLessThanOrEqual(viewport.height - 16 - (viewport.dockHeight ?? 0));
      }
    }
  });

  it('on a phone (no room at the sides) is a sheet of at most 60 % of the map, leaving the rest for its marker', () => {
    const phoneBar = { ...phone, topBarBottom: 64 };
    // (844 − 64) × 0.6 = 468, under 80 % of the window (675): the sheet at 360–828, the map above it free.
    expect(maxPopupHeight(phoneBar, 'edit')).toBe(468);
    expect(placementBox('bottom', phoneBar, 0, 'edit')).toMatchObject({ top: 360, bottom: 828 });
    expect(placementBox('left', phoneBar, 0, 'edit')).toBeNull();
    expect(popupPlacement({ x: 195, y: 300 }, phoneBar, 0, 'edit')).toBe('bottom');
    expect(popupPlacement({ x: 195, y: 600 }, phoneBar, 0, 'edit')).toBe('top');
    // With the editor dock open: 60 % of what is left between the bar and the dock.
    expect(maxPopupHeight({ ...phoneBar, dockHeight: 300 }, 'edit')).toBe(288);
  });

  it('popup.css mirrors the narrow window\'s sheet: the same width, the same share', () => {
    const css = readFileSync(join(__dirname, 'popup.css'), 'utf8');
    expect(SIDE_MIN_WINDOW).toBe(616);
    expect(css).toContain(`@media (max-width: ${SIDE_MIN_WINDOW - 0.02}px)`);
    // The sheet also keeps out of a phone's home-indicator band (--safe-bottom, 0 px where there is none).
    expect(css).toMatch(/\(100vh - var\(--topbar-bottom, 54px\) - var\(--admin-dock-height, 0px\) - var\(--safe-bottom\)\) \* 0\.6\)/);
  });
});

describe('uncoverPoint: where the map moves an edit form\'s marker that no placement leaves free', () => {
  const phoneBar = { ...phone, topBarBottom: 64 };

  it('is none where the form\'s placement leaves the marker free (a desktop: a side; a phone: above or below the sheet)', () => {
    expect(uncoverPoint({ x: 450, y: 150 }, { ...desktop, dockHeight: 202 })).toBeNull();
    expect(uncoverPoint({ x: 195, y: 300 }, phoneBar)).toBeNull();
    expect(uncoverPoint({ x: 195, y: 600 }, phoneBar)).toBeNull();
  });

  it('on a phone, a marker under both the bottom and the top sheet goes to the middle of the map above the bottom one', () => {
    // Bottom sheet 360–828, top sheet 74–542: a marker at 450 is under either. The map above the sheet: 64–360.
    const target = uncoverPoint({ x: 195, y: 450 }, phoneBar)!;
    expect(target).toEqual({ x: 195, y: 212 });
    expect(popupPlacement(target, phoneBar, 0, 'edit')).toBe('bottom');
    expect(target.y + 20).toBeLessThanOrEqual(placementBox('bottom', phoneBar, 0, 'edit')!.top);
  });

  it('is none for an enlarged form, without a window, and where no place would leave the marker free', () => {
    expect(uncoverPoint({ x: 195, y: 450 }, phoneBar, 'edit', true)).toBeNull();
    expect(uncoverPoint({ x: 0, y: 0 }, { width: 0, height: 0 })).toBeNull();
    expect(uncoverPoint({ x: 150, y: 100 }, { width: 300, height: 160 })).toBeNull();
  });

  it('lets the map be panned far enough on a phone for the marker to get there', () => {
    expect(popupCoveredInsets(phoneBar, 0, false, 'edit')).toEqual({ top: 211.5, right: 194.5, bottom: 631.5, left: 194.5 });
    expect(popupCoveredInsets({ ...desktop, dockHeight: 202 }, 0, false, 'edit')).toBeNull();
  });
});
