/**
 * The map's on-screen zoom buttons (src/ui/map/ZoomControls.tsx; docs/DECISIONS.md "Zoom buttons
 * on the map"), at 1280×800 with a mouse and on a 390×844 touch screen: a group "Zoom" («Масштаб»)
 * of "Zoom in" / "Zoom out" («Приблизить» / «Отдалить»), 44 px on touch; a press is one ×1.5 step
 * about the middle of the map's visible part; at the min zoom Zoom out is aria-disabled, keeps the
 * focus and does nothing more; the buttons lie clear of the top bar, the panels and a phone's
 * marker popup; the stream overlay (?overlay=1) has none.
 */
import { describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { MAPS } from '../src/domain/maps';
import { baseUrl, camera, openMap, toMap, toScreen, useBrowser } from './browser';
import type { Box } from './support/layout';

const browser = useBrowser();
const map = MAPS.customs;
const PHONE = { width: 390, height: 844 } as const;
const STEP = 1.5;

const zoomGroup = (page: Page, name = 'Zoom') => page.getByRole('group', { name, exact: true });

/**
 * The middle of the part of the map's canvas the page leaves free: below the top bar, between
 * the side panels shown (as camera.e2e.ts measures it).
 */
function visibleMiddle(page: Page): Promise<{ x: number; y: number }> {
  return page.evaluate(() => {
    const canvas = document.querySelector('.map-canvas')!.getBoundingClientRect();
    const bar = document.querySelector('.map-topbar')!.getBoundingClientRect();
    const part = { left: canvas.left, top: Math.max(canvas.top, bar.bottom), right: canvas.right, bottom: canvas.bottom };
    for (const panel of document.querySelectorAll('.map-panel')) {
      const box = panel.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (box.left + box.width / 2 < canvas.left + canvas.width / 2) part.left = Math.max(part.left, box.right);
      else part.right = Math.min(part.right, box.left);
    }
    return { x: (part.left + part.right) / 2, y: (part.top + part.bottom) / 2 };
  });
}

/** The boxes of what the zoom buttons are kept clear of, each with the selector it was found by. */
function coverBoxes(page: Page, selectors: string[]): Promise<Array<{ selector: string; box: Box }>> {
  return page.evaluate((list) => list.flatMap((selector) => [...document.querySelectorAll(selector)]
    .map((el) => el.getBoundingClientRect())
    .filter((r) => r.width > 0 && r.height > 0)
    .map((r) => ({ selector, box: { x: r.x, y: r.y, width: r.width, height: r.height } }))), selectors);
}

const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Fails naming each cover the group's box overlaps. */
async function expectClearOf(page: Page, group: Locator, selectors: string[]): Promise<void> {
  const own = (await group.boundingBox())!;
  const hits = (await coverBoxes(page, selectors)).filter((c) => overlap(own, c.box)).map((c) => c.selector);
  expect(hits, `the zoom buttons (${JSON.stringify(own)}) overlap`).toEqual([]);
}

/**
 * Presses `button` (a tap on touch, a click with a mouse) until it says it is unavailable;
 * returns the presses made. Fails after `max`.
 */
async function pressUntilDisabled(button: Locator, touch: boolean, max = 40): Promise<number> {
  for (let presses = 0; presses < max; presses += 1) {
    if ((await button.getAttribute('aria-disabled')) === 'true') return presses;
    if (touch) await button.tap();
    else await button.click();
  }
  throw new Error(`still enabled after ${max} presses`);
}

for (const size of [
  { name: '1280×800', touch: false },
  { name: '390×844 touch', touch: true },
] as const) {
  describe(`zoom buttons at ${size.name}`, () => {
    test('a named group of Zoom in and Zoom out; Zoom out is one ×1.5 step about the visible middle; at the min zoom it is aria-disabled, does nothing and keeps the focus', async () => {
      const { page } = await browser.newPage(size.touch ? { ...PHONE, hasTouch: true } : {});
      await openMap(page, 'customs');
      const group = zoomGroup(page);
      await group.waitFor();
      const zoomIn = group.getByRole('button', { name: 'Zoom in', exact: true });
      const zoomOut = group.getByRole('button', { name: 'Zoom out', exact: true });
      expect(await group.getByRole('button').count()).toBe(2);
      expect(await zoomIn.isVisible()).toBe(true);
      expect(await zoomOut.isVisible()).toBe(true);
      if (size.touch) {
        // 44 px boxes a tap at their middle reaches (tapSize's corner probes fall outside the
        // group's rounded corner).
        for (const button of [zoomIn, zoomOut]) {
          const box = (await button.boundingBox())!;
          expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44 - 0.5);
          expect(await button.evaluate((el) => { const r = el.getBoundingClientRect(); return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)); })).toBe(true);
        }
      }
      // Clear of the bar and the panels shown (a phone starts with none).
      await expectClearOf(page, group, ['.map-topbar', '.map-panel']);

      // One step out: zoom / 1.5, and the map point under the visible part's middle stays there.
      const start = await camera(page);
      expect(start.zoom / STEP).toBeGreaterThan(map.minZoom);
      const middle = await visibleMiddle(page);
      const there = await toMap(page, middle.x, middle.y);
      if (size.touch) await zoomOut.tap();
      else await zoomOut.click();
      await expect.poll(async () => (await camera(page)).zoom).toBeCloseTo(start.zoom / STEP, 6);
      const moved = await toScreen(page, there.x, there.y);
      expect(moved.x).toBeCloseTo(middle.x, 0);
      expect(moved.y).toBeCloseTo(middle.y, 0);
      expect(await zoomIn.getAttribute('aria-disabled')).toBeNull();

      // To the limit: Zoom out says it is unavailable, at exactly the min zoom.
      await pressUntilDisabled(zoomOut, size.touch);
      expect((await camera(page)).zoom).toBeCloseTo(map.minZoom, 9);
      expect(await zoomIn.getAttribute('aria-disabled')).toBeNull();
      // One more press changes nothing, and the focus stays on the button (a mouse's click
      // focuses it; a tap too).
      const atLimit = await camera(page);
      // Forced: Playwright waits for an aria-disabled control to become enabled.
      if (size.touch) await zoomOut.tap({ force: true });
      else await zoomOut.click({ force: true });
      expect(await camera(page)).toEqual(atLimit);
      expect(await zoomOut.getAttribute('aria-disabled')).toBe('true');
      expect(await zoomOut.evaluate((el) => el === document.activeElement)).toBe(true);
      // The keyboard's press there does nothing either.
      await page.keyboard.press('Enter');
      expect(await camera(page)).toEqual(atLimit);
      expect(await zoomOut.evaluate((el) => el === document.activeElement)).toBe(true);

      // Zoom in is still possible, and makes Zoom out available again.
      if (size.touch) await zoomIn.tap();
      else await zoomIn.click();
      await expect.poll(async () => (await camera(page)).zoom).toBeCloseTo(map.minZoom * STEP, 6);
      await expect.poll(() => zoomOut.getAttribute('aria-disabled')).toBeNull();
    });

    test('in Russian the group and the buttons are named «Масштаб», «Приблизить», «Отдалить»', async () => {
      const { page } = await browser.newPage({ ...(size.touch ? { ...PHONE, hasTouch: true } : {}), locale: 'ru-RU' });
      await openMap(page, 'customs');
      const group = zoomGroup(page, 'Масштаб');
      await group.waitFor();
      expect(await group.getByRole('button', { name: 'Приблизить', exact: true }).isVisible()).toBe(true);
      expect(await group.getByRole('button', { name: 'Отдалить', exact: true }).isVisible()).toBe(true);
    });
  });
}

describe('zoom buttons and what covers the map', () => {
  test("on a phone with a marker's popup open (?obj=), the buttons overlap neither it nor the bar", async () => {
    const body = (await (await fetch(`${baseUrl()}/api/be/markers/list?map=customs`)).json()) as { markers: Array<{ uid: string; category: string; level: number }> };
    const plain = body.markers.find((m) => m.category === 'Extractions' && m.level === 1) ?? body.markers[0];
    const { page } = await browser.newPage({ ...PHONE, hasTouch: true });
    await page.goto(`${baseUrl()}/map/customs?obj=${plain.uid}`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction((uid) => window.__map?.ready === true && window.__map.popup() === uid, plain.uid, { timeout: 45_000 });
    const group = zoomGroup(page);
    await group.waitFor();
    const popup = page.locator('.marker-popup .popup');
    await popup.waitFor();
    // Placed after the popup's layout (a frame at most): polled.
    await expect.poll(async () => overlap((await group.boundingBox())!, (await popup.boundingBox())!)).toBe(false);
    await expectClearOf(page, group, ['.map-topbar', '.map-panel', '.marker-popup .popup']);
  });

  test('the stream overlay (?overlay=1) has no zoom buttons', async () => {
    const { page } = await browser.newPage();
    await page.goto(`${baseUrl()}/map/customs?overlay=1`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => window.__map?.ready === true, undefined, { timeout: 45_000 });
    // The map page itself is there (its canvas), the buttons are not.
    await page.locator('.map-canvas').waitFor();
    // The buttons look for the started engine four times a second: past a few of those checks
    // they would be there.
    await page.waitForTimeout(1_000);
    expect(await page.getByRole('group', { name: 'Zoom' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Zoom (in|out)$/ }).count()).toBe(0);
    expect(await page.locator('.zoom-controls').count()).toBe(0);
  });
});
