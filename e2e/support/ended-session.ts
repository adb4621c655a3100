/**
 * An admin's session ended behind the page's back, and the changes it then refused (401), for
 * e2e/editor-session.e2e.ts and e2e/editor-kept.e2e.ts: the admin's page, the sign-out made
 * elsewhere, the sign-in dialog, and a move and a delete kept for an admin once a pro account
 * signed in (ui/map/signInToSave.ts `keptForAdmin`, ui/admin/KeptForAdminNotice.tsx).
 */
import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { Marker } from '../../src/domain/marker';
import {
  PASSWORD, addMarkerAt, clickMarker, closePopup, drag, freeSpots, map, openMap, popupDialog, serverMarker, signIn, toPan, toolsPanel, type EditorPage,
  type useEditorBrowser,
} from './editor';

/** The sign-in dialog's reason when a save was refused (account.signInReason.saveAction). */
export const SAVE_REASON = 'Your session has ended. Sign in to save this.';

/** The notice of the changes kept for an admin (KeptForAdminNotice.tsx). */
export const keptNotice = (page: Page) => page.locator('.kept-for-admin[role="alert"]');
/** admin.keptForAdmin.textSignedIn_other with 2. */
export const KEPT_TWO = '2 map changes were not saved: this account may not edit the map. They are kept on this page; sign in as an admin and they are saved.';
/** admin.keptForAdmin.textSignedIn_one. */
export const KEPT_ONE = '1 map change was not saved: this account may not edit the map. It is kept on this page; sign in as an admin and it is saved.';

export const signInDialog = (page: Page) => page.getByRole('dialog', { name: 'Sign in', exact: true });
export const reasonText = (dialog: Locator) => dialog.locator('.account-dialog__reason');

/** Signs in with the dialog's own fields and waits until it is gone. */
export async function signInWith(dialog: Locator, name: 'admin' | 'pro'): Promise<void> {
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** The flag `__map.markers()` shows on `uid` (`'saving'`, `'failed'`, null), or undefined when it is not drawn. */
export async function flagOf(page: Page, uid: string): Promise<string | null | undefined> {
  return (await map(page).markers()).find((m) => m.uid === uid)?.flag;
}

/** Where `__map.markers()` draws `uid` (map px), or null when it is not drawn. */
export async function drawnAt(page: Page, uid: string): Promise<{ x: number; y: number } | null> {
  const m = (await map(page).markers()).find((x) => x.uid === uid);
  return m ? { x: m.x, y: m.y } : null;
}

export const near = (p: { x: number; y: number } | null, q: { x: number; y: number }) => !!p && Math.abs(p.x - q.x) < 0.01 && Math.abs(p.y - q.y) < 0.01;

export interface KeptAfterProSignIn {
  page: Page;
  errors: EditorPage['errors'];
  a: Marker;
  b: Marker;
  to: { x: number; y: number };
  sent: string[];
}

/** The helpers of a file's browser and server. */
export function endedSessions(browser: ReturnType<typeof useEditorBrowser>, base: () => string) {
  async function adminPage(): Promise<EditorPage> {
    const tracked = await browser.newPage();
    // The ended session's calls answer 401; Chromium logs each as a failed resource load.
    tracked.errors.allow(/401/);
    await signIn(tracked.page, base(), 'admin');
    await openMap(tracked.page, base());
    await toolsPanel(tracked.page).waitFor();
    return tracked;
  }

  /**
   * Signs the page's user out elsewhere: another browser context holding the same cookies (another
   * device with the same session) posts the sign-out. The page itself is told nothing.
   */
  async function endSessionElsewhere(page: Page): Promise<void> {
    const other = await browser.newPage();
    await other.context.addCookies(await page.context().cookies());
    const res = await other.page.request.post(`${base()}/api/be/auth/logout`);
    if (!res.ok()) throw new Error(`signing out elsewhere failed: ${res.status()} ${await res.text()}`);
    await other.context.close();
  }

  /**
   * An admin's page with two markers of its own (A, B); the session then ends elsewhere, A is
   * dragged with the move tool and B deleted from its popup, both refused (401): the first
   * dialog is closed, the second one answered with the pro account. Resolves once the notice
   * shows; `sent` collects the admin calls the page makes from then on.
   */
  async function keptAfterProSignIn(): Promise<KeptAfterProSignIn> {
    const { page, errors } = await adminPage();
    const [spotA, spotB] = await freeSpots(page, 2, { clearance: 90, box: { left: 340, top: 120, right: 900, bottom: 460 } });
    const a = await addMarkerAt(page, base(), spotA, { name: 'Kept A' });
    const b = await addMarkerAt(page, base(), spotB, { name: 'Kept B' });
    await endSessionElsewhere(page);

    // A dragged: refused, the dialog asks; closed, the change stays failed.
    await page.keyboard.press('m');
    await expect.poll(() => map(page).toolPath()).toBe('move.idle');
    const { zoom } = await map(page).camera();
    const from = await map(page).toScreen(a.geometry.x, a.geometry.y);
    await drag(page, from, { x: from.x + 70, y: from.y + 40 });
    const to = { x: a.geometry.x + 70 / zoom, y: a.geometry.y + 40 / zoom };
    const first = signInDialog(page);
    await first.waitFor();
    await page.keyboard.press('Escape');
    await first.waitFor({ state: 'detached' });
    await expect.poll(() => flagOf(page, a.uid)).toBe('failed');

    // B deleted from its popup: refused too, and the dialog asks again.
    await toPan(page);
    await clickMarker(page, b.uid);
    page.once('dialog', (d) => void d.accept());
    await popupDialog(page, b.uid).getByRole('button', { name: 'Delete', exact: true }).click();
    const second = signInDialog(page);
    await second.waitFor();
    await expect.poll(() => reasonText(second).textContent()).toBe(SAVE_REASON);
    expect(await serverMarker(base(), b.uid)).toMatchObject({ version: b.version });

    await signInWith(second, 'pro');
    await page.getByRole('banner').getByRole('button', { name: /^pro\b/ }).waitFor();
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/be/admin/')) sent.push(`${r.method()} ${r.url()}`);
    });
    await keptNotice(page).waitFor();
    // B's popup stays open over the bottom of the map, where the notice sits: closed first.
    await closePopup(page);
    return { page, errors, a, b, to, sent };
  }

  return { adminPage, endSessionElsewhere, keptAfterProSignIn };
}
