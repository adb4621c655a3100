/**
 * Layout measurements for the touch tests (e2e/touch-layout.e2e.ts): what a finger can reach,
 * found the way a tap finds it (`document.elementFromPoint`), so an element clipped by a
 * scrolling panel, covered by a sticky footer or pushed out of the window does not count.
 */
import type { Locator, Page } from 'playwright-core';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** How far inside an element's edges a probe point sits (a rounding pixel is not a tap). */
const INSET = 2;

/**
 * The element's box when a tap anywhere in it reaches it: the points just inside its four
 * corners and its centre all hit the element or something inside it. Null when any does not.
 */
export async function tappableBox(target: Locator): Promise<Box | null> {
  return target.evaluate((el, inset) => {
    const box = el.getBoundingClientRect();
    const left = box.left + inset;
    const right = box.right - inset;
    const top = box.top + inset;
    const bottom = box.bottom - inset;
    const points = [
      [left, top],
      [right, top],
      [left, bottom],
      [right, bottom],
      [(left + right) / 2, (top + bottom) / 2],
    ];
    const reached = points.every(([x, y]) => {
      const hit = document.elementFromPoint(x, y);
      return hit !== null && el.contains(hit);
    });
    return reached ? { x: box.x, y: box.y, width: box.width, height: box.height } : null;
  }, INSET);
}

/** The smaller side of `target`'s box when a tap anywhere in it reaches it; 0 when one does not. */
export async function tapSize(target: Locator): Promise<number> {
  const box = await tappableBox(target);
  return box ? Math.min(box.width, box.height) : 0;
}

/**
 * How many of `rows` a finger can reach whole: the points just inside the top and bottom of
 * each row, at its middle, hit the row (so it is inside the window, not clipped by a scrolling
 * panel and not under anything drawn over it).
 */
export function wholeRowsShown(page: Page, rowsSelector: string): Promise<number> {
  return page.evaluate(
    ([selector, inset]) =>
      [...document.querySelectorAll(selector)].filter((row) => {
        const box = row.getBoundingClientRect();
        const x = box.left + box.width / 2;
        return [box.top + inset, box.bottom - inset].every((y) => {
          const hit = document.elementFromPoint(x, y);
          return hit !== null && row.contains(hit);
        });
      }).length,
    [rowsSelector, INSET] as const,
  );
}

/** The element that scrolls `target` into view: its nearest ancestor with more content than room. */
export function scrollerOf(target: Locator): Promise<{ scrollHeight: number; clientHeight: number; scrolls: boolean }> {
  return target.evaluate((el) => {
    for (let at = el.parentElement; at; at = at.parentElement) {
      const overflowY = getComputedStyle(at).overflowY;
      if ((overflowY === 'auto' || overflowY === 'scroll') && at.scrollHeight > at.clientHeight + 1) {
        return { scrollHeight: at.scrollHeight, clientHeight: at.clientHeight, scrolls: true };
      }
    }
    return { scrollHeight: 0, clientHeight: 0, scrolls: false };
  });
}

/**
 * A finger's swipe up from `from` by `distanceY` px, through CDP touch events (as pilot.e2e.ts
 * swipes the map): the panel under the finger scrolls its content on by about that much. CDP's
 * synthesized scroll gesture does not scroll in headless Chromium; touch events do.
 */
export async function touchScroll(page: Page, from: { x: number; y: number }, distanceY: number, steps = 10): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ ...from, id: 1 }] });
    for (let i = 1; i <= steps; i += 1) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: from.x, y: from.y - (distanceY * i) / steps, id: 1 }] });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  } finally {
    await cdp.detach();
  }
}

/** Whether the whole of `box` lies inside a window of `width` × `height`. */
export function insideWindow(box: Box, width: number, height: number): boolean {
  return box.x >= -0.5 && box.y >= -0.5 && box.x + box.width <= width + 0.5 && box.y + box.height <= height + 0.5;
}
