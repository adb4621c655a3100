/**
 * The marker an admin just placed stays drawn whatever the thinning (docs/DECISIONS.md "Markers
 * drawn whatever the thinning"), in Chromium at 1280×800 on customs at its start zoom (0.6, where
 * markers are thinned to one per icon-sized cell): a marker placed beside a drawn one is drawn
 * too, Enter on the cross-hair over it opens it, a zoom out and back in keeps it, and it is
 * thinned again once the admin places another; a visitor's map thins it as before. Once at
 * 390×844 (touch): a marker placed with a tap beside a drawn one is drawn too.
 *
 * Map changes kept for an admin (docs/DECISIONS.md "Map changes kept for an admin: across a
 * reload…"): a move and a delete refused by a 401, then a pro sign-in, are kept in the tab's
 * sessionStorage (`map:keptForAdmin`, markers only): a reload shows the same notice, and the admin
 * signed in from it has both sent; Discard after a reload clears them for good; a kept move of a
 * marker another admin deleted meanwhile meets "someone else deleted this marker". A move still on
 * its way as the pro signs in is kept once its 401 comes; an edit form's refused Save is sent by
 * the admin and its work is not offered a second time.
 */
import { describe, expect, test } from 'vitest';
import type { Locator, Page, Route } from 'playwright-core';
import {
  addMarker, addMarkerAt, closePopup, drag, editForm, freeSpots, freeTopPoint, map, newServerMarkers, openMap, popupDialog, reload, serverMarker, serverUids, signIn,
  toolsPanel, toPan, until, useEditorBrowser, useEditorServer, waitForMarker, waitPopupOpen, PHONE, type Spot,
} from './support/editor';
import {
  KEPT_ONE, KEPT_TWO, SAVE_REASON, drawnAt, endedSessions, flagOf, keptNotice, near, reasonText, signInDialog, signInWith,
} from './support/ended-session';
import type { Marker } from '../src/domain/marker';
import { MAPS } from '../src/domain/maps';
import { ICON_CSS } from '../src/engine/marker-placement';

const server = useEditorServer('editor-kept');
const browser = useEditorBrowser();
const base = () => server.baseUrl();
const { adminPage, endSessionElsewhere, keptAfterProSignIn } = endedSessions(browser, base);

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

/** The tab's store of the changes kept for an admin (editor/keptChanges.ts KEPT_FOR_ADMIN_STORAGE_KEY). */
const KEPT_KEY = 'map:keptForAdmin';
const storedKept = (page: Page) => page.evaluate((key) => sessionStorage.getItem(key), KEPT_KEY);
/** The texts of the elements `locator` finds now, joined ('' when none: read without waiting for one). */
const textsNow = async (locator: Locator) => (await locator.allTextContents()).join('\n');
const keptText = (page: Page) => textsNow(keptNotice(page).locator('.kept-for-admin__text'));

/** The notice's "Sign in as admin", then the admin sign-in in the dialog it opens; resolves once the editor is there. */
async function adminFromNotice(page: Page): Promise<void> {
  await keptNotice(page).getByRole('button', { name: 'Sign in as admin', exact: true }).click();
  await signInWith(signInDialog(page), 'admin');
  await toolsPanel(page).waitFor();
}

describe('map changes kept for an admin, across a reload of the tab', () => {
  test('a reload shows the same notice from the tab\'s store (markers only, nothing sent); "Sign in as admin" sends the move and the delete and clears the store', async () => {
    const { page, a, b, to, sent } = await keptAfterProSignIn();
    await expect.poll(() => keptText(page)).toBe(KEPT_TWO);
    await reload(page);
    await expect.poll(() => keptText(page)).toBe(KEPT_TWO);
    const text = await storedKept(page);
    expect(text).not.toMatch(/password|token/i);
    const stored = JSON.parse(text!) as Record<string, { uid: string; marker: Marker | null; basedOn?: number }[]>;
    expect(Object.keys(stored)).toEqual(['customs']);
    expect(stored.customs.map((change) => [change.uid, change.marker === null, change.basedOn])).toEqual([
      [a.uid, false, a.version],
      [b.uid, true, b.version],
    ]);
    // The reloaded map shows the server's markers until an admin has the changes sent.
    await expect.poll(() => drawnAt(page, a.uid)).toSatisfy((p: { x: number; y: number } | null) => near(p, a.geometry));
    expect(await serverMarker(base(), a.uid)).toMatchObject({ geometry: a.geometry, version: a.version });
    expect(await serverMarker(base(), b.uid)).toMatchObject({ name: 'Kept B', version: b.version });
    expect(sent).toEqual([]);

    await adminFromNotice(page);
    await until(() => serverMarker(base(), a.uid), (m) => near(m?.geometry ?? null, to) && m?.version === (a.version ?? 0) + 1, 'A moved on the server after the admin sign-in');
    await until(() => serverMarker(base(), b.uid), (m) => m === null, 'B deleted on the server after the admin sign-in');
    await expect.poll(() => keptNotice(page).count()).toBe(0);
    await expect.poll(() => storedKept(page)).toBeNull();
    await expect.poll(() => flagOf(page, a.uid)).toBeNull();

    // Sent once: a reload has nothing kept, and sends nothing again.
    const sentBefore = sent.length;
    await reload(page);
    await toolsPanel(page).waitFor();
    expect(await keptNotice(page).count()).toBe(0);
    expect(await storedKept(page)).toBeNull();
    expect(sent.slice(sentBefore).filter((call) => call.startsWith('POST'))).toEqual([]);
    expect(await serverMarker(base(), a.uid)).toMatchObject({ version: (a.version ?? 0) + 1 });
  });

  test('Discard after a reload: the notice goes, the store is emptied, nothing is sent, and another reload has nothing kept', async () => {
    const { page, a, b, sent } = await keptAfterProSignIn();
    await reload(page);
    await expect.poll(() => keptText(page)).toBe(KEPT_TWO);
    await keptNotice(page).getByRole('button', { name: 'Discard', exact: true }).click();
    await expect.poll(() => keptNotice(page).count()).toBe(0);
    expect(await storedKept(page)).toBeNull();
    await reload(page);
    await waitForMarker(page, b.uid);
    expect(await keptNotice(page).count()).toBe(0);
    expect(await storedKept(page)).toBeNull();
    expect(await serverMarker(base(), a.uid)).toMatchObject({ geometry: a.geometry, version: a.version });
    expect(await serverMarker(base(), b.uid)).toMatchObject({ name: 'Kept B', version: b.version });
    expect(sent).toEqual([]);
  });

  test('a kept move of a marker another admin deleted meanwhile: after a reload the admin sign-in shows it deleted elsewhere, and the kept delete is done', async () => {
    const { page, errors, a, b } = await keptAfterProSignIn();
    // A's update meets the server's 404.
    errors.allow(/404/);
    await reload(page);
    await expect.poll(() => keptText(page)).toBe(KEPT_TWO);
    const other = await browser.newPage();
    await signIn(other.page, base(), 'admin');
    const res = await other.page.request.delete(`${base()}/api/be/admin/marker/${a.uid}`);
    expect(res.ok(), `deleting A answered ${res.status()}`).toBe(true);
    expect(await serverMarker(base(), a.uid)).toBeNull();

    await adminFromNotice(page);
    // The dock's notice of A's failed move (admin.unsaved.text_one, markerEdit.errors.deletedElsewhere).
    await expect
      .poll(() => textsNow(page.locator('.admin-dock .admin-unsaved .admin-set-aside__text')))
      .toBe('1 change not saved: someone else deleted this marker. Retry to restore it.');
    expect(await flagOf(page, a.uid)).toBe('failed');
    await until(() => serverMarker(base(), b.uid), (m) => m === null, 'B deleted on the server after the admin sign-in');
    expect(await serverMarker(base(), a.uid)).toBeNull();
    await expect.poll(() => keptNotice(page).count()).toBe(0);
    await expect.poll(() => storedKept(page)).toBeNull();
  });

  test('a move still on its way as a pro signs in is kept once its 401 comes', async () => {
    const { page } = await adminPage();
    const [spot] = await freeSpots(page, 1, { clearance: 90, box: { left: 340, top: 120, right: 900, bottom: 460 } });
    const a = await addMarkerAt(page, base(), spot, { name: 'Held A' });
    let held: Route | undefined;
    await page.route('**/api/be/admin/marker/update', (route) => {
      held = route;
    });

    await page.keyboard.press('m');
    await expect.poll(() => map(page).toolPath()).toBe('move.idle');
    const from = await map(page).toScreen(a.geometry.x, a.geometry.y);
    await drag(page, from, { x: from.x + 70, y: from.y + 40 });
    await expect.poll(() => held !== undefined).toBe(true);
    await endSessionElsewhere(page);

    // This page signs out and in again as pro (its account menu) while the move is on its way.
    await toPan(page);
    const banner = page.getByRole('banner');
    await banner.getByRole('button', { name: /^admin\b/ }).click();
    await banner.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
    await banner.getByRole('button', { name: 'Sign in', exact: true }).click();
    await signInWith(signInDialog(page), 'pro');
    await banner.getByRole('button', { name: /^pro\b/ }).waitFor();
    await expect.poll(() => toolsPanel(page).count()).toBe(0);
    // Not refused yet: nothing is said to be kept.
    expect(await keptNotice(page).count()).toBe(0);

    await held!.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ error: 'Unauthorized', message: 'sign in first' }) });
    await expect.poll(() => keptText(page)).toBe(KEPT_ONE);
    const stored = JSON.parse((await storedKept(page))!) as Record<string, { uid: string }[]>;
    expect(stored.customs.map((change) => change.uid)).toEqual([a.uid]);
    expect(await serverMarker(base(), a.uid)).toMatchObject({ geometry: a.geometry, version: a.version });
  });

  test("an edit form's refused Save, then a pro sign-in: kept; the admin signed in from the notice has it saved, and the form's work is not offered again", async () => {
    const { page } = await adminPage();
    const marker = await addMarker(page, base(), { geometry: await freeTopPoint(page), name: 'Before the sign-out' });
    await openMap(page, base(), `?obj=${marker.uid}`);
    await toolsPanel(page).waitFor();
    await waitPopupOpen(page, marker.uid);
    await endSessionElsewhere(page);

    await popupDialog(page, marker.uid).getByRole('button', { name: 'Edit', exact: true }).click();
    const form = editForm(page);
    await form.waitFor();
    await form.getByLabel('Name when no translation', { exact: true }).fill('Kept for the admin');
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = signInDialog(page);
    await dialog.waitFor();
    await expect.poll(() => reasonText(dialog).textContent()).toBe(SAVE_REASON);
    await signInWith(dialog, 'pro');
    await page.getByRole('banner').getByRole('button', { name: /^pro\b/ }).waitFor();
    await expect.poll(() => keptText(page)).toBe(KEPT_ONE);
    expect((await serverMarker(base(), marker.uid))?.name).toBe('Before the sign-out');
    await closePopup(page);

    await adminFromNotice(page);
    await until(() => serverMarker(base(), marker.uid), (m) => m?.name === 'Kept for the admin', 'the edit saved after the admin sign-in');
    await expect.poll(() => keptNotice(page).count()).toBe(0);
    // Sent: the form's work set aside holds nothing more, so the dock offers nothing ("Back to them").
    await expect.poll(() => page.locator('.admin-dock .admin-set-aside').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Back to them', exact: true }).count()).toBe(0);
  });
});
