/**
 * The marker an admin just placed stays drawn whatever the thinning (docs/DECISIONS.md "Markers
 * drawn whatever the thinning"), in Chromium at 1280×800 on customs at its start zoom (0.6, where
 * markers are thinned to one per icon-sized cell): a marker placed beside a drawn one is drawn
 * too, Enter on the cross-hair over it opens it, a zoom out and back in keeps it, and it is
 * thinned again once the admin places another; a visitor's map thins it as before. Once at
 * 390×844 (touch): a marker placed with a tap beside a drawn one is drawn too.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import {
  addMarkerAt, closePopup, drag, freeSpots, map, newServerMarkers, openMap, serverUids, signIn, toolsPanel, toPan, until, useEditorBrowser,
  useEditorServer, waitForMarker, waitPopupOpen, PHONE, type Spot,
} from './support/editor';
import type { Marker } from '../src/domain/marker';
import { MAPS } from '../src/domain/maps';
import { ICON_CSS } from '../src/engine/marker-placement';

const server = useEditorServer('editor-kept');
const browser = useEditorBrowser();

/** Where the new marker is clicked, from the drawn marker beside it (screen px). */
const BESIDE = { x: 13, y: 9 };

const canvasFocused = (page: Page) => page.evaluate(() => document.activeElement?.classList.contains('map-canvas') === true);

/**
 * The map's canvas focused from the keyboard (Tab from the top of the page, or Shift+Tab off it
 * and Tab back when it has the focus); its cross-hair shows, in the middle of the visible part.
 */
async function tabToMap(page: Page): Promise<Spot> {
  if (await canvasFocused(page)) {
    await page.keyboard.press('Shift+Tab');
    await expect.poll(() => canvasFocused(page)).toBe(false);
  }
  for (let i = 0; i < 60 && !(await canvasFocused(page)); i += 1) await page.keyboard.press('Tab');
  expect(await canvasFocused(page)).toBe(true);
  const cursor = page.locator('.map-keyboard-cursor');
  await expect.poll(() => cursor.isVisible()).toBe(true);
  const box = (await cursor.boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Whether the page draws the marker `uid` now (`visible` of `__map.markers()`; false when not listed). */
const drawn = (page: Page, uid: string) => page.evaluate((id) => window.__map!.markers().find((m) => m.uid === id)?.visible ?? false, uid);

const onScreen = (page: Page, uid: string) =>
  page.evaluate((id) => {
    const m = window.__map!.markers().find((x) => x.uid === id)!;
    return window.__map!.toScreen(m.x, m.y)!;
  }, uid);

/**
 * The screen offset of the new marker from W: 13 px right (or left) and 9 px down (or up), the
 * sides chosen so that it lies in W's thinning cell, where it loses to W (one marker per
 * icon-sized cell, ICON_CSS × the cell factor, of a map-pixel grid per zoom step:
 * src/engine/kernels/thinning.ts `cellSizeMap`, `stepForZoom`).
 */
function besideInCell(w: { x: number; y: number }, zoom: number): Spot {
  const { minZoom } = MAPS.customs;
  const step = Math.floor(Math.log2(zoom / minZoom) + 1e-9);
  const cell = ICON_CSS / (minZoom * 2 ** step);
  const side = (at: number, px: number) => (Math.floor((at + px / zoom) / cell) === Math.floor(at / cell) ? px : -px);
  return { x: side(w.x, BESIDE.x), y: side(w.y, BESIDE.y) };
}

/** `l`, a mouse click at `at`: the marker placed there, on the server and listed by the page; then back to pan with no popup open. */
async function placeWithMouse(page: Page, at: Spot): Promise<Marker> {
  const before = await serverUids(server.baseUrl());
  await page.keyboard.press('l');
  await expect.poll(() => map(page).toolPath()).toBe('draw.marker.idle');
  await page.mouse.click(at.x, at.y);
  const [placed] = await newServerMarkers(server.baseUrl(), before, 1);
  await waitForMarker(page, placed.uid);
  await toPan(page);
  await closePopup(page);
  return placed;
}

describe('the marker an admin just placed is drawn whatever the thinning', () => {
  test('placed beside a drawn marker: both drawn, Enter opens it, kept through a zoom, thinned again after the next one; a visitor\'s map thins it', async () => {
    const { page } = await browser.newPage();
    await signIn(page, server.baseUrl(), 'admin');
    await openMap(page, server.baseUrl());
    await toolsPanel(page).waitFor();
    const startZoom = (await map(page).camera()).zoom;
    expect(startZoom).toBeCloseTo(0.6, 5);

    // A key spawn W added through the API where no other marker is near (drawn: its thinning cell
    // is its own; a placed marker, of a category ranked after keys, loses the cell to it), brought
    // beside the cross-hair by a drag of the map, so that the new marker P, clicked 13 px right and
    // 9 px down from it (or left / up, to stay in its cell), lies under the cross-hair.
    const cross = await tabToMap(page);
    const [spot] = await freeSpots(page, 1, { clearance: 70, box: { left: 380, top: 160, right: 900, bottom: 620 } });
    const lone = await addMarkerAt(page, server.baseUrl(), spot, { category: 'Keys', subCategory: 'Key Spawn' });
    const w = lone.uid;
    await expect.poll(() => drawn(page, w)).toBe(true);
    const beside = besideInCell(lone.geometry, startZoom);
    await drag(page, await onScreen(page, w), { x: cross.x - beside.x, y: cross.y - beside.y });
    await expect.poll(() => onScreen(page, w)).toEqual({ x: expect.closeTo(cross.x - beside.x, 0) as number, y: expect.closeTo(cross.y - beside.y, 0) as number });
    expect((await map(page).camera()).zoom).toBeCloseTo(startZoom, 5);

    const p = await placeWithMouse(page, cross);
    // 1. Both drawn (before the fix P lost its cell to W and was not drawn).
    await expect.poll(() => drawn(page, p.uid), { timeout: 10_000 }).toBe(true);
    expect(await drawn(page, w)).toBe(true);

    // 2. The cross-hair is on P (the middle of the visible part, where P was clicked): Enter opens P.
    expect(await tabToMap(page)).toEqual({ x: expect.closeTo(cross.x, 0) as number, y: expect.closeTo(cross.y, 0) as number });
    await page.keyboard.press('Enter');
    await waitPopupOpen(page, p.uid);
    expect(await map(page).popup()).toBe(p.uid);
    await closePopup(page);
    await expect.poll(() => drawn(page, p.uid)).toBe(true);

    // 3. A zoom out one step and back in (about the cross-hair) keeps it drawn.
    await expect.poll(() => canvasFocused(page)).toBe(true);
    await page.keyboard.press('-');
    await expect.poll(async () => (await map(page).camera()).zoom).toBeLessThan(startZoom);
    await page.keyboard.press('+');
    await expect.poll(async () => (await map(page).camera()).zoom).toBeCloseTo(startZoom, 5);
    await expect.poll(() => drawn(page, p.uid)).toBe(true);
    expect(await drawn(page, w)).toBe(true);

    // 4. Another marker placed far from P: P is thinned again, W still drawn.
    const pAt = await onScreen(page, p.uid);
    const far = (await freeSpots(page, 6, { box: { left: 300, top: 120, right: 1000, bottom: 620 } })).find((s) => Math.hypot(s.x - pAt.x, s.y - pAt.y) > 200);
    if (!far) throw new Error('no free spot 200 px from P');
    const q = await placeWithMouse(page, far);
    await expect.poll(() => drawn(page, q.uid), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => drawn(page, p.uid), { timeout: 10_000 }).toBe(false);
    expect(await drawn(page, w)).toBe(true);

    // 5. A visitor's fresh page at the same view: P is in the view but not drawn, W is.
    const camera = await map(page).camera();
    const visitor = (await browser.newPage()).page;
    await openMap(visitor, server.baseUrl());
    await waitForMarker(visitor, p.uid);
    await visitor.locator('.map-canvas').focus();
    // The same centre as the admin's: a drag by the difference (the map's start zoom on both).
    const there = await map(visitor).camera();
    expect(there.zoom).toBeCloseTo(camera.zoom, 5);
    const [from] = await freeSpots(visitor, 1, { box: { left: 500, top: 300, right: 780, bottom: 500 } });
    await drag(visitor, from, { x: from.x - (camera.x - there.x) * camera.zoom, y: from.y - (camera.y - there.y) * camera.zoom });
    await until(() => map(visitor).camera(), (c) => Math.abs(c.x - camera.x) < 1 && Math.abs(c.y - camera.y) < 1, 'the visitor\'s view at the admin\'s centre');
    const inView = await onScreen(visitor, p.uid);
    expect(inView.x > 0 && inView.x < 1280 && inView.y > 0 && inView.y < 800, `P at ${inView.x}, ${inView.y}`).toBe(true);
    await expect.poll(() => drawn(visitor, w)).toBe(true);
    expect(await drawn(visitor, p.uid)).toBe(false);
  });

  test('on a 390×844 touch screen: a marker placed with a tap beside a drawn one is drawn too', async () => {
    const { page } = await browser.newPage({ ...PHONE, hasTouch: true });
    await signIn(page, server.baseUrl(), 'admin');
    await openMap(page, server.baseUrl());
    const zoom = (await map(page).camera()).zoom;
    const [spot] = await freeSpots(page, 1, { clearance: 70, box: { left: 80, top: 200, right: 310, bottom: 560 } });
    const w = await addMarkerAt(page, server.baseUrl(), spot, { category: 'Keys', subCategory: 'Key Spawn' });
    await expect.poll(() => drawn(page, w.uid)).toBe(true);
    const wAt = await onScreen(page, w.uid);
    const beside = besideInCell(w.geometry, zoom);

    const before = await serverUids(server.baseUrl());
    await page.locator('.map-canvas').focus();
    await page.keyboard.press('l');
    await expect.poll(() => map(page).toolPath()).toBe('draw.marker.idle');
    await page.touchscreen.tap(wAt.x + beside.x, wAt.y + beside.y);
    const [p] = await newServerMarkers(server.baseUrl(), before, 1);
    await waitForMarker(page, p.uid);
    await toPan(page);
    await closePopup(page);
    await expect.poll(() => drawn(page, p.uid), { timeout: 10_000 }).toBe(true);
    expect(await drawn(page, w.uid)).toBe(true);
  });
});
