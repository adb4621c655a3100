/**
 * The editor between browsers, on a server of this file's own (demo accounts): two admins edit
 * the same marker, A saves and B's open form gets the conflict with "Keep mine" / "Take theirs",
 * and each choice does what it says on the server and on both pages; a visitor's page shows an
 * admin's new marker, its move and its deletion without a reload (the live feed); and a visitor
 * (signed out or in) and a pro user get no admin control at all: no tools panel, no status
 * bar, no point history, no Edit button in a marker popup, the keys m, l, e and the tool numbers
 * leave the state path at pan.idle and Enter / Delete do nothing to the open marker; and a map
 * page opened again through Back shows a marker added meanwhile. Another admin's change under
 * this page's work: a Delete refused (409; A's live feed cut) is said as a delete in the dock
 * ("You deleted “X”…") and in its box (their change, Before / Theirs), where "Keep their marker"
 * sends nothing and "Delete anyway" deletes it; an edit form with nothing typed follows their
 * change ("Updated with another admin’s change.", no Keep mine) and saves on their version; and
 * Ctrl+Z of a place after their change asks ("Undo would delete…") instead of deleting it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import type { Marker } from '../src/domain/marker';
import { round4 } from '../src/domain/transform';
import {
  addMarker, clickMarker, closePopup, drag, editForm, freeSpots, freeTopPoint, map, openAdminMapHearingNothing, openEditForm, openMap, popupDialog, serverMarker, serverMarkers, signIn,
  statusBar, toolsPanel, until, useEditorBrowser, useEditorServer, waitForMarker, waitPopupOpen, type EditorPage,
} from './support/editor';

const server = useEditorServer('editor-live');
const browser = useEditorBrowser();
const base = () => server.baseUrl();

async function adminPage(keep: boolean): Promise<EditorPage> {
  const tracked = await browser.newPage({ keep });
  await signIn(tracked.page, base(), 'admin');
  await openMap(tracked.page, base());
  await toolsPanel(tracked.page).waitFor();
  return tracked;
}

/** A marker added by admin A at a free spot of A's page, once both pages draw it. */
async function sharedMarker(a: Page, b: Page, name: string): Promise<Marker> {
  const marker = await addMarker(a, base(), { geometry: await freeTopPoint(a), name });
  await waitForMarker(a, marker.uid);
  await waitForMarker(b, marker.uid);
  return marker;
}

const conflictBox = (page: Page) => page.getByRole('alert', { name: 'Another admin changed this marker' });
const title = (page: Page, uid: string) => popupDialog(page, uid).locator('.popup__title');

describe('two admins on the same marker', () => {
  let a: EditorPage;
  let b: EditorPage;
  beforeAll(async () => {
    a = await adminPage(true);
    b = await adminPage(true);
    // A save of B's refused (409) is logged by Chromium as a failed resource load.
    b.errors.allow(/409 \(Conflict\)/);
  });
  afterAll(() => browser.closeKept());

  /**
   * Both open the marker in edit mode and type a name; A saves. B's open form hears A's save
   * (the live feed) and shows the conflict at once; B's Save waits for B's choice.
   */
  async function conflictOn(marker: Marker, nameA: string, nameB: string): Promise<void> {
    const formA = await openEditForm(a.page, marker.uid);
    const formB = await openEditForm(b.page, marker.uid);
    await formB.getByLabel('Name when no translation', { exact: true }).fill(nameB);
    await formA.getByLabel('Name when no translation', { exact: true }).fill(nameA);
    await formA.getByRole('button', { name: 'Save', exact: true }).click();
    await editForm(a.page).waitFor({ state: 'detached' });
    await until(() => serverMarker(base(), marker.uid), (m) => m?.name === nameA && m.version === 2, "A's save on the server");

    const box = conflictBox(b.page);
    await box.waitFor();
    expect(await formB.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    // The differing field side by side: B's value (Yours) and A's (Theirs).
    const row = box.getByRole('row').filter({ hasText: 'Name' });
    await expect.poll(() => row.allTextContents()).toEqual([expect.stringContaining(nameB)]);
    expect((await row.textContent())!).toContain(nameA);
    expect(await box.getByRole('button', { name: 'Keep mine' }).count()).toBe(1);
    expect(await box.getByRole('button', { name: 'Take theirs' }).count()).toBe(1);
  }

  test('A saves while B edits: B sees the conflict, and "Keep mine" then Save stores B\'s version for everyone', async () => {
    const marker = await sharedMarker(a.page, b.page, 'Shared marker');
    await conflictOn(marker, 'Name from A', 'Name from B');

    // Keep mine: B's form goes on from A's version with B's name; B's Save stores it.
    await conflictBox(b.page).getByRole('button', { name: 'Keep mine' }).click();
    await conflictBox(b.page).waitFor({ state: 'detached' });
    const form = editForm(b.page);
    expect(await form.getByLabel('Name when no translation', { exact: true }).inputValue()).toBe('Name from B');
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await until(() => serverMarker(base(), marker.uid), (m) => m?.name === 'Name from B' && m.version === 3, "B's version on the server");
    await editForm(b.page).waitFor({ state: 'detached' });
    expect(await conflictBox(b.page).count()).toBe(0);
    await expect.poll(() => title(b.page, marker.uid).textContent()).toBe('Name from B');
    // A's popup (view mode) follows through the live feed.
    await expect.poll(() => title(a.page, marker.uid).textContent()).toBe('Name from B');
    await closePopup(a.page);
    await closePopup(b.page);
  });

  test('A saves while B edits: "Take theirs" drops B\'s edit and keeps A\'s version', async () => {
    const marker = await sharedMarker(a.page, b.page, 'Second shared marker');
    await conflictOn(marker, 'A wins', 'B gives way');

    await conflictBox(b.page).getByRole('button', { name: 'Take theirs' }).click();
    await editForm(b.page).waitFor({ state: 'detached' });
    expect(await conflictBox(b.page).count()).toBe(0);
    await expect.poll(() => title(b.page, marker.uid).textContent()).toBe('A wins');
    const stored = await serverMarker(base(), marker.uid);
    expect(stored).toMatchObject({ name: 'A wins', version: 2 });
    await closePopup(a.page);
    await closePopup(b.page);
  });
});

describe('live changes', () => {
  test("a visitor's page shows an admin's new marker, its move and its deletion without a reload", async () => {
    const admin = await adminPage(false);
    const { page: visitor } = await browser.newPage();
    await openMap(visitor, base());
    const reloads: string[] = [];
    visitor.on('framenavigated', (frame) => {
      if (frame === visitor.mainFrame()) reloads.push(frame.url());
    });

    // Placed with the marker tool.
    const [spot] = await freeSpots(admin.page, 1, { box: { left: 320, top: 90, right: 960, bottom: 400 }, clearance: 60 });
    const before = new Set((await serverMarkers(base())).map((m) => m.uid));
    await admin.page.keyboard.press('l');
    await expect.poll(() => map(admin.page).toolPath()).toBe('draw.marker.idle');
    await admin.page.mouse.click(spot.x, spot.y);
    const [placed] = await until(
      async () => (await serverMarkers(base())).filter((m) => !before.has(m.uid)),
      (list) => list.length === 1,
      'the placed marker on the server',
    );
    await waitForMarker(visitor, placed.uid);
    const seen = (await map(visitor).markers()).find((m) => m.uid === placed.uid)!;
    expect(seen.x).toBeCloseTo(placed.geometry.x, 2);
    expect(seen.y).toBeCloseTo(placed.geometry.y, 2);

    // Moved with the move tool.
    await admin.page.keyboard.press('m');
    await expect.poll(() => map(admin.page).toolPath()).toBe('move.idle');
    const { zoom } = await map(admin.page).camera();
    const from = await map(admin.page).toScreen(placed.geometry.x, placed.geometry.y);
    await drag(admin.page, from, { x: from.x + 60, y: from.y + 45 });
    const to = { x: placed.geometry.x + 60 / zoom, y: placed.geometry.y + 45 / zoom };
    await until(
      async () => (await map(visitor).markers()).find((m) => m.uid === placed.uid) ?? null,
      (m) => !!m && Math.abs(m.x - to.x) < 0.01 && Math.abs(m.y - to.y) < 0.01,
      "the visitor's copy of the moved marker",
    );

    // Deleted (through the API: the popup's Delete is covered elsewhere).
    // The list follows the move within 100 ms: wait for the moved version, not the first read.
    const version = (await until(() => serverMarker(base(), placed.uid), (m) => (m?.version ?? 0) >= 2, 'the moved marker on the server'))!.version;
    const res = await admin.page.request.delete(`${base()}/api/be/admin/marker/${placed.uid}?version=${version}`);
    expect(res.status()).toBe(200);
    await waitForMarker(visitor, placed.uid, true);
    expect(reloads).toEqual([]);
  });

  test('a map page opened again through Back shows a marker added while the visitor was away', async () => {
    const admin = await adminPage(false);
    const { page: visitor } = await browser.newPage();
    await openMap(visitor, base());
    await visitor.goto(`${base()}/quests`);
    const [spot] = await freeSpots(admin.page, 1, { box: { left: 320, top: 90, right: 960, bottom: 400 }, clearance: 40 });
    const at = await map(admin.page).toMap(spot.x, spot.y);
    const added = await addMarker(admin.page, base(), { geometry: { x: round4(at.x), y: round4(at.y) }, name: 'Added while away' });
    // Back: the browser may take the page and its marker list from its cache without asking.
    await visitor.goBack();
    await visitor.waitForFunction(() => window.__map?.ready === true, undefined, { timeout: 30_000 });
    await waitForMarker(visitor, added.uid);
  });
});

describe('visitors and pro users', () => {
  let seeded: Marker;
  beforeAll(async () => {
    seeded = (await serverMarkers(base())).find((m) => m.level === 1 && m.category !== 'Quests')!;
  });

  for (const who of ['signed-out visitor', 'visitor', 'pro'] as const) {
    test(`a ${who} gets no admin control, and m / l leave the path at pan.idle`, async () => {
      const { page } = await browser.newPage();
      if (who !== 'signed-out visitor') await signIn(page, base(), who);
      await openMap(page, base(), `?obj=${encodeURIComponent(seeded.uid)}`);
      const banner = page.getByRole('banner');
      // The session is known (the account button shows) before anything is judged absent.
      await (who === 'signed-out visitor' ? banner.getByRole('button', { name: 'Sign in', exact: true }) : banner.getByRole('button', { name: new RegExp(`^${who}\\b`) })).waitFor();
      await waitPopupOpen(page, seeded.uid);
      const popup = popupDialog(page, seeded.uid);
      await popup.getByText(/Level/).first().waitFor();

      expect(await toolsPanel(page).count()).toBe(0);
      expect(await statusBar(page).count()).toBe(0);
      expect(await popup.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(0);
      expect(await editForm(page).count()).toBe(0);
      expect(await page.locator('.admin-dock').count()).toBe(0);

      // Nor do the admin's keys on the open marker do anything.
      let asked = false;
      page.once('dialog', (d) => {
        asked = true;
        void d.dismiss();
      });
      await page.keyboard.press('Enter');
      await page.keyboard.press('Delete');
      await page.keyboard.press('Control+c');
      expect(asked).toBe(false);
      expect(await editForm(page).count()).toBe(0);
      expect(await map(page).popup()).toBe(seeded.uid);

      await page.keyboard.press('Escape');
      await expect.poll(() => map(page).popup()).toBeNull();
      for (const key of ['m', 'l', 'e', '1', '8', 'Control+z']) {
        await page.keyboard.press(key);
        expect(await map(page).toolPath()).toBe('pan.idle');
      }
      expect((await map(page).editor()).state).toBe('pan');
      await banner.getByRole('heading', { name: 'Customs' }).click({ modifiers: ['Alt'] });
      expect(await page.getByRole('region', { name: 'Point history' }).count()).toBe(0);
      expect(await toolsPanel(page).count()).toBe(0);
    });
  }
});

describe("another admin's change under a delete, an untouched form and an undo", () => {
  /** A second admin (B) who only calls the API: a signed-in context, no map page. */
  async function adminB(): Promise<Page> {
    const { page } = await browser.newPage();
    await signIn(page, base(), 'admin');
    return page;
  }

  /** B saves the stored marker with `patch`, on its stored version; answers the new version. */
  async function changeAs(b: Page, uid: string, patch: Partial<Marker>): Promise<Marker> {
    const stored = (await serverMarker(base(), uid))!;
    const res = await b.request.post(`${base()}/api/be/admin/marker/update`, { data: { ...stored, ...patch, version: stored.version } });
    expect(res.status()).toBe(200);
    return ((await res.json()) as { marker: Marker }).marker;
  }

  const dockNotice = (page: Page, text: string) => page.locator('.admin-dock').getByRole('status').filter({ hasText: text });

  test('a Delete that another admin\'s change stopped says so; "Keep their marker" keeps theirs, "Delete anyway" deletes it', async () => {
    const b = await adminB();
    const a = await browser.newPage();
    // A hears nothing live: the server refuses its delete (409) instead.
    await openAdminMapHearingNothing(a, base());
    const marker = await addMarker(b, base(), { geometry: await freeTopPoint(a.page), name: 'Office safe', desc: 'Behind the desk' });
    await openMap(a.page, base(), `?obj=${marker.uid}`);
    await waitPopupOpen(a.page, marker.uid);
    expect(await toolsPanel(a.page).count()).toBe(1);
    await changeAs(b, marker.uid, { desc: 'Under the desk' });

    const asked: string[] = [];
    const accept = (d: import('playwright-core').Dialog) => {
      asked.push(d.message());
      void d.accept();
    };
    a.page.on('dialog', accept);
    const deletes: string[] = [];
    a.page.on('request', (r) => {
      if (r.method() === 'DELETE' && r.url().includes(`/admin/marker/${marker.uid}`)) deletes.push(r.url());
    });
    await popupDialog(a.page, marker.uid).getByRole('button', { name: 'Delete', exact: true }).click();
    // The popup closed as the marker left, and opens again on their version with the choice;
    // the dock does not repeat it.
    const box = a.page.getByRole('alert', { name: 'You deleted this marker; another admin changed it' });
    await box.waitFor();
    expect(await map(a.page).popup()).toBe(marker.uid);
    const notice = dockNotice(a.page, 'You deleted “Office safe”; another admin changed it meanwhile: choose whether it goes.');
    expect(await notice.count()).toBe(0);
    expect(asked).toEqual(['Are you sure?']);
    expect(deletes).toHaveLength(1);
    expect(await serverMarker(base(), marker.uid)).toMatchObject({ desc: 'Under the desk', version: 2 });

    expect(await box.textContent()).toContain('You deleted “Office safe”; another admin changed it meanwhile. Their change:');
    const row = box.getByRole('row').filter({ hasText: 'Description' });
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).toContain('Behind the desk');
    expect(await row.textContent()).toContain('Under the desk');
    expect(await box.getByRole('button', { name: 'Keep mine' }).count()).toBe(0);
    expect(await box.getByRole('button', { name: 'Take theirs' }).count()).toBe(0);

    // Keep their marker: nothing is sent, their version stays.
    await box.getByRole('button', { name: 'Keep their marker', exact: true }).click();
    await box.waitFor({ state: 'detached' });
    expect(deletes).toHaveLength(1);
    expect(await serverMarker(base(), marker.uid)).toMatchObject({ desc: 'Under the desk', version: 2 });
    await waitForMarker(a.page, marker.uid);
    expect(await notice.count()).toBe(0);

    // B changes it again, unheard; A's second Delete is refused the same way: "Delete anyway" deletes it.
    await changeAs(b, marker.uid, { desc: 'Under the chair' });
    if ((await map(a.page).popup()) !== marker.uid) await clickMarker(a.page, marker.uid);
    await popupDialog(a.page, marker.uid).getByRole('button', { name: 'Delete', exact: true }).click();
    await box.waitFor();
    expect(deletes).toHaveLength(2);
    const again = box.getByRole('row').filter({ hasText: 'Description' });
    expect(await again.textContent()).toContain('Under the chair');
    await box.getByRole('button', { name: 'Delete anyway', exact: true }).click();
    await until(() => serverMarker(base(), marker.uid), (m) => m === null, 'the marker deleted on their version');
    await waitForMarker(a.page, marker.uid, true);
    await expect.poll(() => dockNotice(a.page, 'You deleted').count()).toBe(0);
    expect(asked).toEqual(['Are you sure?', 'Are you sure?']);
    a.page.off('dialog', accept);
  });

  test("an edit form with nothing typed follows another admin's change, asks nothing, and saves on their version", async () => {
    const b = await adminB();
    const a = await adminPage(false);
    const marker = await addMarker(b, base(), {
      geometry: await freeTopPoint(a.page), name: 'Office safe', name_l10n: { en: 'Office safe' }, desc: 'Behind the desk',
    });
    await waitForMarker(a.page, marker.uid);
    const form = await openEditForm(a.page, marker.uid);
    const descField = form.getByLabel(/^Description when no translation/);
    expect(await descField.inputValue()).toBe('Behind the desk');

    await changeAs(b, marker.uid, { desc: 'Under the desk', name_l10n: { en: 'Office safe', ru: 'Сейф' } });
    await expect.poll(() => descField.inputValue()).toBe('Under the desk');
    expect(await form.getByLabel('Name (Russian)', { exact: true }).inputValue()).toBe('Сейф');
    expect(await form.getByRole('status').filter({ hasText: 'Updated with another admin’s change.' }).count()).toBe(1);
    expect(await a.page.getByRole('button', { name: 'Keep mine' }).count()).toBe(0);
    expect(await conflictBox(a.page).count()).toBe(0);
    const save = form.getByRole('button', { name: 'Save', exact: true });
    expect(await save.isEnabled()).toBe(true);

    await form.getByLabel('Name (English)', { exact: true }).fill('Safe');
    await save.click();
    await editForm(a.page).waitFor({ state: 'detached' });
    await expect
      .poll(() => serverMarker(base(), marker.uid))
      .toMatchObject({ name_l10n: { en: 'Safe', ru: 'Сейф' }, desc: 'Under the desk', version: 3 });
    await expect.poll(() => title(a.page, marker.uid).textContent()).toBe('Safe');
    expect(await a.page.getByRole('button', { name: 'Keep mine' }).count()).toBe(0);
  });

  test("Ctrl+Z never deletes another admin's change unasked: the undo of a place asks, and \"Delete anyway\" deletes it", async () => {
    const b = await adminB();
    const a = await browser.newPage();
    a.errors.allow(/409 \(Conflict\)/);
    // What the live feed brings A (Chromium's own record of the stream), to press Ctrl+Z only once A has B's change.
    const heard: { uid: string; version: number }[] = [];
    const cdp = await a.context.newCDPSession(a.page);
    cdp.on('Network.eventSourceMessageReceived', (event) => {
      try {
        const data = JSON.parse(event.data) as { marker?: { uid: string; version: number } };
        if (data.marker) heard.push({ uid: data.marker.uid, version: data.marker.version });
      } catch {
        // not a marker change
      }
    });
    await cdp.send('Network.enable');
    await signIn(a.page, base(), 'admin');
    await openMap(a.page, base());
    await toolsPanel(a.page).waitFor();

    // A places a marker and moves it.
    const [spot] = await freeSpots(a.page, 1, { box: { left: 320, top: 100, right: 700, bottom: 300 }, clearance: 60 });
    const before = new Set((await serverMarkers(base())).map((m) => m.uid));
    await a.page.keyboard.press('l');
    await expect.poll(() => map(a.page).toolPath()).toBe('draw.marker.idle');
    await a.page.mouse.click(spot.x, spot.y);
    const [placed] = await until(
      async () => (await serverMarkers(base())).filter((m) => !before.has(m.uid)),
      (list) => list.length === 1,
      'the placed marker on the server',
    );
    await waitForMarker(a.page, placed.uid);
    await a.page.keyboard.press('m');
    await expect.poll(() => map(a.page).toolPath()).toBe('move.idle');
    const { zoom } = await map(a.page).camera();
    const from = await map(a.page).toScreen(placed.geometry.x, placed.geometry.y);
    await drag(a.page, from, { x: from.x + 70, y: from.y + 40 });
    const movedTo = { x: round4(placed.geometry.x + 70 / zoom), y: round4(placed.geometry.y + 40 / zoom) };
    const near = (m: Marker | null, p: { x: number; y: number }) => !!m && Math.abs(m.geometry.x - p.x) < 5e-4 && Math.abs(m.geometry.y - p.y) < 5e-4;
    await until(() => serverMarker(base(), placed.uid), (m) => near(m, movedTo) && m!.version === 2, 'the move on the server');
    await a.page.keyboard.press('Escape');
    await expect.poll(() => map(a.page).toolPath()).toBe('pan.idle');

    // B names it in Russian; A hears it.
    const theirs = await changeAs(b, placed.uid, { name_l10n: { ru: 'Их метка' } });
    expect(theirs.version).toBe(3);
    await expect.poll(() => heard.some((h) => h.uid === placed.uid && h.version === 3)).toBe(true);

    // The first Ctrl+Z undoes the move on their version (their name stays).
    await a.page.keyboard.press('Control+z');
    const undone = await until(() => serverMarker(base(), placed.uid), (m) => near(m, placed.geometry), 'the undone move on the server');
    expect(undone).toMatchObject({ name_l10n: { ru: 'Их метка' }, version: 4 });
    // The second would delete the marker with their change: it asks instead.
    await a.page.keyboard.press('Control+z');
    const notice = dockNotice(a.page, 'Undo would delete “Marker (unnamed)”; another admin changed it since you placed it: choose whether it goes.');
    await notice.waitFor();
    expect(await serverMarker(base(), placed.uid)).toMatchObject({ name_l10n: { ru: 'Их метка' }, version: 4 });

    await notice.getByRole('button', { name: 'Show', exact: true }).click();
    const box = a.page.getByRole('alert', { name: 'Undo would delete this marker; another admin changed it' });
    await box.waitFor();
    expect(await box.textContent()).toContain('another admin changed it since you placed it');
    const row = box.getByRole('row').filter({ hasText: 'Name (Russian)' });
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).toContain('Их метка');
    expect(await box.getByRole('button', { name: 'Keep mine' }).count()).toBe(0);
    await box.getByRole('button', { name: 'Delete anyway', exact: true }).click();
    await until(() => serverMarker(base(), placed.uid), (m) => m === null, 'the marker deleted after "Delete anyway"');
    await waitForMarker(a.page, placed.uid, true);
  });
});
