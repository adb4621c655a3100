/**
 * The editor's undo, cancels and leaving, in Chromium with real mouse and keys, on a server of
 * this file's own (demo accounts; docs/EDITOR.md, docs/DECISIONS.md): Ctrl+Z of a marker placed
 * with "Open new markers in edit mode", pressed on its open form, takes the marker off the server
 * and closes the form, its typing set aside in the dock ("Back to them" brings it back after
 * Ctrl+Shift+Z put the marker back); Escape in the middle of an edit handle's drag puts the
 * polygon's point back and records nothing; a copy (Ctrl+C, then a click) takes the floor shown,
 * the source keeping its own; back in view mode after Cancel or Save at the foot of a long form
 * the popup starts at its top, the keyboard on Edit; leaving the map within the app (All maps,
 * the browser's Back) with a change the server did not take asks "Leave this map?" (Stay keeps
 * the page, Leave goes), and with nothing unsaved does not ask; and a marker another admin
 * deletes while it is dragged is not moved, the dock saying so (no read of the gone marker, no
 * console error) until OK.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Locator, Page, Request } from 'playwright-core';
import type { Marker } from '../src/domain/marker';
import { LEVEL_OPACITY } from '../src/domain/maps';
import { shapesStorageKey } from '../src/domain/shapes';
import { round4 } from '../src/domain/transform';
import type { PageErrors } from './support/page-errors';
import {
  addMarker, addMarkerAt, newServerMarkers, serverUids, clickMarker, closePopup, editForm, freeSpots, map, openEditForm, openMap, popupDialog, serverMarker, signIn,
  toolsPanel, until, useEditorBrowser, useEditorServer, waitForMarker, waitReady, type Spot,
} from './support/editor';

const server = useEditorServer('editor-undo');
const browser = useEditorBrowser();
const base = () => server.baseUrl();

const uidsNow = () => serverUids(base());


/** A notice of the admin dock (its role is status) with this text. */
const dockNotice = (page: Page, text: string) => page.locator('.admin-dock').getByRole('status').filter({ hasText: text });

describe('one admin page', () => {
  let page: Page;
  let errors: PageErrors;
  beforeAll(async () => {
    ({ page, errors } = await browser.newPage({ keep: true }));
    await signIn(page, base(), 'admin');
    await openMap(page, base());
    await toolsPanel(page).waitFor();
  });
  afterAll(() => browser.closeKept());

  /** A marker added through the API at a free screen spot, once the page draws it. */
  const markerAt = (spot: Spot, fields: Partial<Marker> = {}) => addMarkerAt(page, base(), spot, fields);

  const isFocused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement);

  /**
   * Back to pan with no popup open, whatever a failed test left (an Escape in a form's field
   * closes the form first, the next the popup, the next leaves the tool): the next test starts clean.
   */
  async function settle(): Promise<void> {
    await until(
      async () => {
        const clean = (await map(page).toolPath()) === 'pan.idle' && (await map(page).popup()) === null;
        if (!clean) await page.keyboard.press('Escape');
        return clean;
      },
      (clean) => clean,
      'pan with no popup open',
    );
  }

  test('Ctrl+Z on the open form of a marker just placed takes it off the server and closes the form; the typing is set aside, and "Back to them" brings it back after Ctrl+Shift+Z', async () => {
    await settle();
    const option = toolsPanel(page).getByRole('checkbox', { name: 'Edit new: open new markers in edit mode', exact: true });
    await option.check();
    try {
      await page.keyboard.press('l');
      await expect.poll(() => map(page).toolPath()).toBe('draw.marker.idle');
      const [spot] = await freeSpots(page, 1, { clearance: 60, box: { left: 340, top: 120, right: 940, bottom: 560 } });
      const before = await uidsNow();
      await page.mouse.click(spot.x, spot.y);
      const [placed] = await newServerMarkers(base(), before, 1);
      await expect.poll(() => map(page).popup()).toBe(placed.uid);
      const form = editForm(page);
      await form.waitFor();
      await form.getByLabel('Name (English)', { exact: true }).click();
      await page.keyboard.type('Stash');
      // On the form's buttons Ctrl+Z is the map's undo (in a text field it would be the field's).
      await form.getByRole('button', { name: 'Add an image', exact: true }).focus();
      await page.keyboard.press('Control+z');

      // The placement undone: gone from the server and the map, the form and its popup closed.
      await until(() => serverMarker(base(), placed.uid), (m) => m === null, 'the undone marker gone from the server');
      await waitForMarker(page, placed.uid, true);
      await expect.poll(() => map(page).popup()).toBeNull();
      expect(await editForm(page).count()).toBe(0);
      // The focus went on to the map, not to the page's body.
      expect(await page.evaluate(() => document.activeElement !== document.body && document.activeElement !== null)).toBe(true);
      // The typing is kept: the dock says so, and that the marker itself went: its button adds it again.
      const notice = page.locator('.admin-set-aside');
      await notice.filter({ hasText: 'Your unsaved changes to “Stash” were kept; Undo took the marker itself away.' }).waitFor();
      expect(await notice.getByRole('button', { name: 'Add it again', exact: true }).count()).toBe(1);
      expect(await notice.getByRole('button', { name: 'Back to them', exact: true }).count()).toBe(0);
      // Nothing added it back meanwhile (a Save left behind would have).
      expect(await serverMarker(base(), placed.uid)).toBeNull();

      // The redo puts the marker back: the work is an edit of it again.
      await page.keyboard.press('Control+Shift+z');
      const back = (await until(() => serverMarker(base(), placed.uid), (m) => m !== null, 'the redone marker on the server again'))!;
      expect(back).toMatchObject({ category: placed.category, subCategory: placed.subCategory, level: placed.level, geometry: placed.geometry });
      await waitForMarker(page, placed.uid);
      await notice.filter({ hasText: 'Your unsaved changes to “Stash” were kept when its form closed.' }).waitFor();

      await notice.getByRole('button', { name: 'Back to them', exact: true }).click();
      const again = editForm(page);
      await again.waitFor();
      expect(await map(page).popup()).toBe(placed.uid);
      expect(await again.getByLabel('Name (English)', { exact: true }).inputValue()).toBe('Stash');
      await notice.waitFor({ state: 'detached' });
      await again.getByRole('button', { name: 'Save', exact: true }).click();
      await editForm(page).waitFor({ state: 'detached' });
      await expect.poll(async () => (await serverMarker(base(), placed.uid))?.name_l10n).toMatchObject({ en: 'Stash' });
    } finally {
      await settle();
      await option.uncheck();
    }
  });

  test("Escape in the middle of an edit handle's drag puts the polygon's point back and records nothing", async () => {
    await settle();
    const shapes = () => map(page).shapes();
    const stored = () => page.evaluate((key) => localStorage.getItem(key), shapesStorageKey('customs'));
    // Three corners of a triangle on bare map: two on a row, the third well below them.
    const spots = await freeSpots(page, 8, { clearance: 70, box: { left: 380, top: 140, right: 900, bottom: 520 } });
    const first = spots[0];
    const second = spots.find((s) => s.x - first.x >= 120 && Math.abs(s.y - first.y) <= 40) ?? spots[1];
    const third = spots.find((s) => s.y - Math.max(first.y, second.y) >= 100) ?? spots[2];
    const corners = [first, second, third];
    const count = (await shapes()).length;
    await page.keyboard.press('6');
    await expect.poll(() => map(page).toolPath()).toBe('draw.poly.idle');
    for (const c of corners) await page.mouse.click(c.x, c.y);
    await expect.poll(async () => (await shapes()).length).toBe(count + 1);
    const id = (await shapes()).at(-1)!.id;
    const polygon = async () => (await shapes()).find((s) => s.id === id) ?? null;
    await expect.poll(async () => (await polygon())?.geometry.points?.length).toBe(3);
    await page.keyboard.press('Escape');
    await expect.poll(() => map(page).toolPath()).toBe('pan.idle');
    const drawn = await polygon();
    const storedBefore = await stored();
    expect(storedBefore).toContain(id);

    await page.keyboard.press('e');
    await expect.poll(() => map(page).toolPath()).toBe('edit.idle');
    // A click on the first edge, a third of the way along (not on its midpoint's handle), selects it.
    const [a, b, c] = corners;
    await page.mouse.click(a.x + (b.x - a.x) / 3, a.y + (b.y - a.y) / 3);
    await expect.poll(async () => (await map(page).editor()).selectedShape).toBe(id);

    // The last point, pressed and dragged partway: the polygon follows the pointer.
    await page.mouse.move(c.x, c.y);
    await page.mouse.down();
    try {
      await page.mouse.move(c.x + 40, c.y + 30, { steps: 5 });
      await expect.poll(() => map(page).toolPath()).toBe('edit.dragging_handle');
      const midDrag = await map(page).toMap(c.x + 40, c.y + 30);
      await until(polygon, (p) => !!p && Math.abs(p.geometry.points![2][0] - midDrag.x) < 1e-3 && Math.abs(p.geometry.points![2][1] - midDrag.y) < 1e-3, 'the point following the drag');
      // Escape, the button still down; then the release, which must not commit anything.
      await page.keyboard.press('Escape');
      await expect.poll(() => map(page).toolPath()).toBe('pan.idle');
    } finally {
      await page.mouse.up();
    }
    expect(await map(page).toolPath()).toBe('pan.idle');
    await expect.poll(polygon).toEqual(drawn);
    expect(await stored()).toBe(storedBefore);

    // Nothing recorded: the next Ctrl+Z undoes the polygon's last drawn point, not a drag.
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await polygon())?.geometry.points).toEqual(drawn!.geometry.points!.slice(0, 2));
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(polygon).toEqual(drawn);
  });

  test('a copy (Ctrl+C, then a click) takes the floor shown; the source keeps its own', async () => {
    await settle();
    const levels = page.getByRole('group', { name: 'Levels' });
    expect(await levels.getByRole('radio', { name: 'Main' }).isChecked()).toBe(true);
    const [spot] = await freeSpots(page, 1, { box: { left: 320, top: 90, right: 960, bottom: 200 } });
    const source = await markerAt(spot, { name: 'On the ground floor', level: 1 });
    await clickMarker(page, source.uid);
    await page.keyboard.press('Control+c');
    try {
      await levels.getByRole('radio', { name: 'Level 2' }).click();
      await expect.poll(() => page.evaluate(() => window.__map!.level())).toBe(2);
      const before = await uidsNow();
      const [target] = await freeSpots(page, 1, { box: { left: 300, top: 250, right: 960, bottom: 600 } });
      const at = await map(page).toMap(target.x, target.y);
      await page.mouse.click(target.x, target.y);
      const [copy] = await newServerMarkers(base(), before, 1);
      expect(copy).toMatchObject({ name: 'On the ground floor', level: 2 });
      expect(copy.geometry.x).toBeCloseTo(at.x, 3);
      expect(copy.geometry.y).toBeCloseTo(at.y, 3);
      expect(await serverMarker(base(), source.uid)).toMatchObject({ level: 1, version: 1 });
      // On the floor shown the copy is drawn in full, the source faded.
      const alpha = async (uid: string) => (await map(page).markers()).find((m) => m.uid === uid)?.alpha;
      await expect.poll(() => alpha(copy.uid)).toBe(LEVEL_OPACITY.selected);
      expect(await alpha(source.uid)).toBe(LEVEL_OPACITY.otherLevelMarker);
    } finally {
      await levels.getByRole('radio', { name: 'Main' }).click();
      await expect.poll(() => page.evaluate(() => window.__map!.level())).toBe(1);
      await settle();
    }
  });

  test('back in view mode after Cancel or Save at the foot of a long form, the popup starts at its top with the keyboard on Edit', async () => {
    await settle();
    const [spot] = await freeSpots(page, 1, { box: { left: 320, top: 90, right: 960, bottom: 200 } });
    const long = Array.from({ length: 40 }, (_, i) => `Line ${i + 1} of a long description, read from the top.`).join(' ');
    expect(long.length).toBeGreaterThan(1900);
    const marker = await markerAt(spot, { name: 'Long read', desc: long });
    const dialog = popupDialog(page, marker.uid);
    const body = dialog.locator('.popup__body');
    const scroll = () => body.evaluate((el) => ({ top: el.scrollTop, room: el.scrollHeight - el.clientHeight }));
    const edit = dialog.getByRole('button', { name: 'Edit', exact: true });

    /** Opens the form, wheels its body to the bottom, and presses `button` there. */
    async function fromTheFoot(button: 'Cancel' | 'Save', change?: string): Promise<void> {
      const form = await openEditForm(page, marker.uid);
      if (change) await form.getByLabel('Name (English)', { exact: true }).fill(change);
      const box = (await body.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await until(
        async () => {
          await page.mouse.wheel(0, 400);
          return scroll();
        },
        ({ top, room }) => room > 0 && top >= room - 1,
        'the form scrolled to its foot',
      );
      await form.getByRole('button', { name: button, exact: true }).click();
      await editForm(page).waitFor({ state: 'detached' });
    }

    await clickMarker(page, marker.uid);
    // The view scrolls too (the long description): a top of 0 is not for want of room.
    expect((await scroll()).room).toBeGreaterThan(100);

    await fromTheFoot('Cancel');
    await expect.poll(() => isFocused(edit)).toBe(true);
    expect((await scroll()).top).toBe(0);
    expect(await serverMarker(base(), marker.uid)).toMatchObject({ version: 1 });

    await fromTheFoot('Save', 'Long read, saved');
    await expect.poll(async () => (await serverMarker(base(), marker.uid))?.name_l10n).toMatchObject({ en: 'Long read, saved' });
    await expect.poll(() => dialog.locator('.popup__title').textContent()).toBe('Long read, saved');
    await expect.poll(() => isFocused(edit)).toBe(true);
    expect((await scroll()).top).toBe(0);
    await closePopup(page);
  });

  test('a marker another admin deletes while it is dragged is not moved; the dock says so until OK', async () => {
    await settle();
    const other = await browser.newPage();
    await signIn(other.page, base(), 'admin');
    const [spot] = await freeSpots(page, 1, { clearance: 60, box: { left: 340, top: 120, right: 900, bottom: 500 } });
    const marker = await markerAt(spot, { category: 'Loot', subCategory: 'Safe', name: 'Office safe' });
    await page.keyboard.press('m');
    await expect.poll(() => map(page).toolPath()).toBe('move.idle');
    const from = await map(page).toScreen(marker.geometry.x, marker.geometry.y);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    let held = true;
    await page.mouse.move(from.x + 30, from.y + 20, { steps: 4 });
    await expect.poll(() => map(page).toolPath()).toBe('move.dragging');

    // What the page asks of the server from the delete on.
    const asked: string[] = [];
    const onRequest = (r: Request) => {
      if (r.url().includes('/api/be/markers/one') || r.url().includes('/api/be/admin/')) asked.push(`${r.method()} ${r.url()}`);
    };
    page.on('request', onRequest);
    try {
      const res = await other.page.request.delete(`${base()}/api/be/admin/marker/${marker.uid}?version=${marker.version}`, { headers: { origin: base() } });
      expect(res.status()).toBe(200);
      await waitForMarker(page, marker.uid, true);
      await page.mouse.move(from.x + 60, from.y + 40, { steps: 4 });
      await page.mouse.up();
      held = false;
      await expect.poll(() => map(page).toolPath()).toBe('move.idle');

      const notice = dockNotice(page, 'Another admin deleted the “Safe” marker you were moving, so it was not moved.');
      await notice.waitFor();
      expect(await serverMarker(base(), marker.uid)).toBeNull();
      expect((await map(page).markers()).some((m) => m.uid === marker.uid)).toBe(false);
      expect(asked).toEqual([]);
      expect(errors.list).toEqual([]);
      await notice.getByRole('button', { name: 'OK', exact: true }).click();
      await notice.waitFor({ state: 'detached' });
    } finally {
      page.off('request', onRequest);
      if (held) await page.mouse.up();
      await settle();
    }
  });
});

describe('leaving the map within the app', () => {
  const allMaps = (page: Page) => page.getByRole('banner').getByRole('link', { name: 'All maps' });
  const leaveDialog = (page: Page) => page.getByRole('dialog', { name: 'Leave this map?' });

  /** An admin's page opened at / and taken to Customs by its link (a navigation within the app). */
  async function viaHome(): Promise<{ page: Page; errors: PageErrors; mapUrl: string }> {
    const { page, errors } = await browser.newPage();
    await signIn(page, base(), 'admin');
    await page.goto(`${base()}/`, { waitUntil: 'domcontentloaded' });
    await page.locator('a[href$="/map/customs"]').first().click();
    await page.waitForURL('**/map/customs');
    await waitReady(page);
    await toolsPanel(page).waitFor();
    return { page, errors, mapUrl: page.url() };
  }

  test('a change the server did not take: All maps and Back ask "Leave this map?"; Stay keeps the page, Leave goes to /', async () => {
    const { page, errors, mapUrl } = await viaHome();
    const [spot] = await freeSpots(page, 1, { clearance: 60, box: { left: 340, top: 120, right: 900, bottom: 500 } });
    const at = await map(page).toMap(spot.x, spot.y);
    const marker = await addMarker(page, base(), { geometry: { x: round4(at.x), y: round4(at.y) }, name: 'Moved offline' });
    await waitForMarker(page, marker.uid);
    // The server refuses nothing: the page cannot reach it.
    await page.route('**/api/be/admin/**', (route) => route.abort());
    errors.allow(/ERR_FAILED.*\/api\/be\/admin\//);

    await page.keyboard.press('m');
    await expect.poll(() => map(page).toolPath()).toBe('move.idle');
    const from = await map(page).toScreen(marker.geometry.x, marker.geometry.y);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x + 70, from.y + 40, { steps: 8 });
    await page.mouse.up();
    const unsaved = dockNotice(page, '1 change not saved');
    await unsaved.waitFor({ timeout: 20_000 });
    await page.keyboard.press('Escape');
    await expect.poll(() => map(page).toolPath()).toBe('pan.idle');

    await allMaps(page).click();
    const dialog = leaveDialog(page);
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('1 change on this map is not saved on the server yet. If you leave now, it will be lost.');
    await dialog.getByRole('button', { name: 'Stay', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(page.url()).toBe(mapUrl);
    expect(await unsaved.count()).toBe(1);
    expect(await page.evaluate(() => window.__map?.ready === true)).toBe(true);

    // The browser's Back (to /, within the app) asks too, and Stay keeps the address.
    await page.goBack({ waitUntil: 'commit' }).catch(() => null);
    await dialog.waitFor();
    await expect.poll(() => page.url()).toBe(mapUrl);
    await dialog.getByRole('button', { name: 'Stay', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.url()).toBe(mapUrl);
    expect(await unsaved.count()).toBe(1);

    await allMaps(page).click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Leave', exact: true }).click();
    await page.waitForURL(`${base()}/`);
    await page.locator('a[href$="/map/customs"]').first().waitFor();
    expect(await leaveDialog(page).count()).toBe(0);
  });

  test('with nothing unsaved, All maps goes straight to / without asking', async () => {
    const { page } = await viaHome();
    await allMaps(page).click();
    await page.waitForURL(`${base()}/`);
    await page.locator('a[href$="/map/customs"]').first().waitFor();
    expect(await leaveDialog(page).count()).toBe(0);
  });
});
