/**
 * The editor when its session ends behind the page's back, and an edit form after a change it
 * missed, on a server of this file's own (demo accounts). Signed out on another device (a second
 * context with the same cookies posts the sign-out), an admin's placed marker is refused (401):
 * the sign-in dialog opens ("Your session has ended. Sign in to save this."), the dock says the
 * change is not saved because the session ended, and signing in again as admin in that dialog
 * saves it with no Retry; closing the dialog leaves it failed, and Retry asks again; signing in as
 * pro instead takes the admin tools away and sends nothing. An edit form's Save refused so shows
 * the reason in the form, and the sign-in saves it and closes the form. An edit form open while
 * the live feed is down learns of another admin's change once the feed is back (the list read
 * again), with no Save pressed: Keep mine, then Save, stores my name on their description.
 * A move and a delete refused so, then a pro sign-in in that dialog: no editor, the page keeps
 * them (A still drawn where it was dragged) with a notice ("2 map changes were not saved: this
 * account may not edit the map"), nothing is sent; "Sign in as admin" then the admin sign-in
 * sends both, Discard shows the server's markers again and sends nothing, and another admin's
 * change of A made meanwhile is a conflict, never overwritten.
 */
import { describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { Marker } from '../src/domain/marker';
import { round4 } from '../src/domain/transform';
import {
  addMarker, editForm, freeSpots, map, newServerMarkers, openEditForm, openMap, popupDialog, serverMarker, serverUids, signIn, toolsPanel, until, useEditorBrowser,
  useEditorServer, waitForMarker, waitPopupOpen,
} from './support/editor';
import { KEPT_TWO, SAVE_REASON, drawnAt, endedSessions, flagOf, keptNotice, near, reasonText, signInDialog, signInWith } from './support/ended-session';

const server = useEditorServer('editor-session');
const browser = useEditorBrowser();
const base = () => server.baseUrl();
const { adminPage, endSessionElsewhere, keptAfterProSignIn } = endedSessions(browser, base);

/** The dock's notice of one failed change (admin.unsaved.text_one, markerEdit.errors.signedOut). */
const DOCK_SIGNED_OUT = '1 change not saved: your session has ended. Sign in as an admin and it is saved.';
/** The form's failure (markerEdit.pendingFailed with markerEdit.errors.signedOut). */
const FORM_SIGNED_OUT = 'Your change is not saved: your session has ended. Sign in as an admin and it is saved.';

/** The dock's "not saved" notice (UnsavedChanges.tsx), read by class: a modal dialog may hide it from the role tree. */
const dockNotice = (page: Page) => page.locator('.admin-dock .admin-unsaved');

/** Presses l and clicks a free spot: the placed marker (refused), once the page badges it failed. */
async function placeRefused(page: Page): Promise<{ uid: string }> {
  const [spot] = await freeSpots(page, 1, { clearance: 60, box: { left: 340, top: 120, right: 940, bottom: 560 } });
  const before = new Set((await map(page).markers()).map((m) => m.uid));
  await page.keyboard.press('l');
  await expect.poll(() => map(page).toolPath()).toBe('draw.marker.idle');
  await page.mouse.click(spot.x, spot.y);
  const placed = await until(
    async () => (await map(page).markers()).find((m) => !before.has(m.uid) && m.flag === 'failed'),
    (m) => !!m,
    'the refused marker badged on the map',
  );
  return { uid: placed!.uid };
}

/**
 * An admin's page whose session then ended elsewhere, and a marker placed there (refused, badged
 * failed): the page, the server's marker uids from before, the placed marker and the sign-in
 * dialog (not waited for).
 */
async function placedAfterSessionEnded(): Promise<{ page: Page; before: Set<string>; placed: { uid: string }; dialog: Locator }> {
  const { page } = await adminPage();
  const before = await serverUids(base());
  await endSessionElsewhere(page);
  const placed = await placeRefused(page);
  return { page, before, placed, dialog: signInDialog(page) };
}

describe('a 401 on a save asks for a sign-in and saves after it', () => {
  test('a marker placed after the session ended elsewhere: the dialog asks, the dock says why, the admin sign-in saves it with no Retry', async () => {
    const { page, before, placed, dialog } = await placedAfterSessionEnded();
    await dialog.waitFor();
    await expect.poll(() => reasonText(dialog).textContent()).toBe(SAVE_REASON);
    await expect.poll(() => dockNotice(page).locator('.admin-set-aside__text').textContent()).toBe(DOCK_SIGNED_OUT);
    // The admin stays shown signed in meanwhile: the editor and its change stay.
    expect(await toolsPanel(page).count()).toBe(1);
    expect(await serverMarker(base(), placed.uid)).toBeNull();

    await signInWith(dialog, 'admin');
    const [saved] = await newServerMarkers(base(), before, 1);
    expect(saved.uid).toBe(placed.uid);
    await expect.poll(() => flagOf(page, placed.uid)).toBeNull();
    await expect.poll(() => dockNotice(page).count()).toBe(0);
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  test('the dialog closed instead: the change stays failed, and the dock\'s Retry asks again', async () => {
    const { page, before, placed, dialog } = await placedAfterSessionEnded();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // Given up: still failed, said in the dock; nothing on the server.
    await expect.poll(() => dockNotice(page).locator('.admin-set-aside__text').textContent()).toBe(DOCK_SIGNED_OUT);
    expect(await flagOf(page, placed.uid)).toBe('failed');
    expect(await serverMarker(base(), placed.uid)).toBeNull();

    // Retry is refused again (401) and asks again; this time the sign-in saves it.
    await dockNotice(page).getByRole('button', { name: 'Retry', exact: true }).click();
    const again = signInDialog(page);
    await again.waitFor();
    await expect.poll(() => reasonText(again).textContent()).toBe(SAVE_REASON);
    expect(await flagOf(page, placed.uid)).toBe('failed');
    await signInWith(again, 'admin');
    const [saved] = await newServerMarkers(base(), before, 1);
    expect(saved.uid).toBe(placed.uid);
    await expect.poll(() => flagOf(page, placed.uid)).toBeNull();
    await expect.poll(() => dockNotice(page).count()).toBe(0);
  });

  test('signed in as pro in the dialog: the admin tools go away and nothing is sent', async () => {
    const { page, before, placed, dialog } = await placedAfterSessionEnded();
    const adds: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes('/api/be/admin/')) adds.push(r.url());
    });
    await dialog.waitFor();
    await signInWith(dialog, 'pro');

    await page.getByRole('banner').getByRole('button', { name: /^pro\b/ }).waitFor();
    await expect.poll(() => toolsPanel(page).count()).toBe(0);
    await expect.poll(() => map(page).toolPath()).toBe('pan.idle');
    // The sign-in was handled by now (the tools went with it): nothing was sent after it.
    expect(adds).toEqual([]);
    expect(await serverMarker(base(), placed.uid)).toBeNull();
    expect([...(await serverUids(base()))].filter((uid) => !before.has(uid))).toEqual([]);
  });

  test("an edit form's Save refused (the session ended elsewhere) shows why; the admin sign-in saves it and closes the form", async () => {
    const { page } = await adminPage();
    const [spot] = await freeSpots(page, 1, { box: { left: 320, top: 90, right: 960, bottom: 400 } });
    const at = await map(page).toMap(spot.x, spot.y);
    const marker = await addMarker(page, base(), { geometry: { x: round4(at.x), y: round4(at.y) }, name: 'Before the sign-out' });
    await waitForMarker(page, marker.uid);
    await endSessionElsewhere(page);

    const form = await openEditForm(page, marker.uid);
    await form.getByLabel('Name when no translation', { exact: true }).fill('Saved after the sign-in');
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = signInDialog(page);
    await dialog.waitFor();
    await expect.poll(() => reasonText(dialog).textContent()).toBe(SAVE_REASON);
    await expect.poll(() => form.locator('.marker-edit__failed .marker-edit__error').textContent()).toBe(FORM_SIGNED_OUT);
    expect((await serverMarker(base(), marker.uid))?.name).toBe('Before the sign-out');

    await signInWith(dialog, 'admin');
    await until(() => serverMarker(base(), marker.uid), (m) => m?.name === 'Saved after the sign-in', 'the edit saved after the sign-in');
    await editForm(page).waitFor({ state: 'detached' });
    await expect.poll(() => popupDialog(page, marker.uid).locator('.popup__title').textContent()).toBe('Saved after the sign-in');
  });
});

describe('an edit form and a change missed while the live feed was down', () => {
  test("the form gets the conflict once the feed is back, with no Save; Keep mine then Save stores my name on their description", async () => {
    const tracked = await browser.newPage();
    const { page, errors } = tracked;
    const liveRoute = '**/api/be/live/**';
    await page.route(liveRoute, (route) => route.abort());
    errors.allow(/ERR_FAILED.*\/api\/be\/live\//);
    await signIn(page, base(), 'admin');
    await openMap(page, base());
    const [spot] = await freeSpots(page, 1, { box: { left: 320, top: 90, right: 960, bottom: 400 } });
    const at = await map(page).toMap(spot.x, spot.y);
    const marker = await addMarker(page, base(), { geometry: { x: round4(at.x), y: round4(at.y) }, name: 'Locked room', desc: 'Behind the desk' });
    await openMap(page, base(), `?obj=${marker.uid}`);
    await waitPopupOpen(page, marker.uid);
    await popupDialog(page, marker.uid).getByRole('button', { name: 'Edit', exact: true }).click();
    const form = editForm(page);
    await form.waitFor();
    await form.getByLabel('Name when no translation', { exact: true }).fill('My name');

    // Another admin (API only) changes the description; this page hears nothing of it.
    const other = await browser.newPage();
    await signIn(other.page, base(), 'admin');
    const stored = (await serverMarker(base(), marker.uid))!;
    const res = await other.page.request.post(`${base()}/api/be/admin/marker/update`, { data: { ...stored, desc: 'Under the desk', version: stored.version } });
    expect(res.status()).toBe(200);
    const theirs = ((await res.json()) as { marker: Marker }).marker;

    await page.unroute(liveRoute);
    // The feed reopens on its back-off (up to 30 s after the last try), then the list is read again.
    const box = page.getByRole('alert', { name: 'Another admin changed this marker' });
    await box.waitFor({ timeout: 45_000 });
    expect(await box.getByRole('button', { name: 'Keep mine' }).count()).toBe(1);
    expect(await box.getByRole('button', { name: 'Take theirs' }).count()).toBe(1);
    // Nothing was sent by this page: the server holds their version only.
    expect(await serverMarker(base(), marker.uid)).toMatchObject({ name: 'Locked room', desc: 'Under the desk', version: theirs.version });

    await box.getByRole('button', { name: 'Keep mine' }).click();
    await box.waitFor({ state: 'detached' });
    expect(await form.getByLabel('Name when no translation', { exact: true }).inputValue()).toBe('My name');
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await until(
      () => serverMarker(base(), marker.uid),
      (m) => m?.name === 'My name' && m.desc === 'Under the desk' && m.version === (theirs.version ?? 0) + 1,
      'my name on their description on the server',
    );
    await editForm(page).waitFor({ state: 'detached' });
  });
});

describe('a move and a delete refused by a 401, then a pro account signs in', () => {
  test('they are kept on the page with a notice and nothing is sent; "Sign in as admin" then the admin sign-in sends both', async () => {
    const { page, a, b, to, sent } = await keptAfterProSignIn();
    await expect.poll(() => keptNotice(page).locator('.kept-for-admin__text').textContent()).toBe(KEPT_TWO);
    // No editor for the pro account; A still drawn where it was dragged.
    await expect.poll(() => toolsPanel(page).count()).toBe(0);
    expect(await page.locator('.admin-dock').count()).toBe(0);
    await expect.poll(() => drawnAt(page, a.uid)).toSatisfy((p: { x: number; y: number } | null) => near(p, to));
    // The server has neither: A where it was, B still there.
    expect(await serverMarker(base(), a.uid)).toMatchObject({ geometry: a.geometry, version: a.version });
    expect(await serverMarker(base(), b.uid)).toMatchObject({ name: 'Kept B', version: b.version });
    expect(sent).toEqual([]);

    await keptNotice(page).getByRole('button', { name: 'Sign in as admin', exact: true }).click();
    await signInWith(signInDialog(page), 'admin');
    await toolsPanel(page).waitFor();
    await until(() => serverMarker(base(), a.uid), (m) => near(m?.geometry ?? null, to) && m?.version === (a.version ?? 0) + 1, 'A moved on the server after the admin sign-in');
    await until(() => serverMarker(base(), b.uid), (m) => m === null, 'B deleted on the server after the admin sign-in');
    await expect.poll(() => keptNotice(page).count()).toBe(0);
    await waitForMarker(page, b.uid, true);
    await expect.poll(() => flagOf(page, a.uid)).toBeNull();
    expect(await drawnAt(page, a.uid)).toSatisfy((p: { x: number; y: number } | null) => near(p, to));
  });

  test('Discard instead: the map shows the server\'s A and B again, and nothing is sent', async () => {
    const { page, a, b, sent } = await keptAfterProSignIn();
    await keptNotice(page).getByRole('button', { name: 'Discard', exact: true }).click();
    await expect.poll(() => keptNotice(page).count()).toBe(0);
    await expect.poll(() => drawnAt(page, a.uid)).toSatisfy((p: { x: number; y: number } | null) => near(p, a.geometry));
    await waitForMarker(page, b.uid);
    expect(await serverMarker(base(), a.uid)).toMatchObject({ geometry: a.geometry, version: a.version });
    expect(await serverMarker(base(), b.uid)).toMatchObject({ name: 'Kept B', version: b.version });
    expect(sent).toEqual([]);
  });

  test("another admin's change of A made meanwhile: the admin sign-in shows the conflict and does not overwrite it", async () => {
    const { page, errors, a, b } = await keptAfterProSignIn();
    // A's update, sent on the version it was made on, is refused (409).
    errors.allow(/409/);
    const other = await browser.newPage();
    await signIn(other.page, base(), 'admin');
    const res = await other.page.request.post(`${base()}/api/be/admin/marker/update`, { data: { ...a, name: 'Theirs', version: a.version } });
    expect(res.status()).toBe(200);
    const theirs = ((await res.json()) as { marker: Marker }).marker;

    await keptNotice(page).getByRole('button', { name: 'Sign in as admin', exact: true }).click();
    await signInWith(signInDialog(page), 'admin');
    await toolsPanel(page).waitFor();
    await expect.poll(() => page.locator('.admin-waiting-conflicts .admin-set-aside__text').textContent()).toBe('Another admin changed “Kept A” while you edited it: choose which version stays.');
    await until(() => serverMarker(base(), b.uid), (m) => m === null, 'B deleted on the server after the admin sign-in');
    expect(await serverMarker(base(), a.uid)).toMatchObject({ name: 'Theirs', geometry: a.geometry, version: theirs.version });
    await expect.poll(() => keptNotice(page).count()).toBe(0);
  });
});
