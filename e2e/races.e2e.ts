/**
 * Two writers at once, on a server of this file's own (demo accounts): docs/DECISIONS.md "An
 * image upload names the image it replaces; quest progress is saved as a change". An admin's
 * upload into image 1 after another admin removed that image (the first admin's live feed cut,
 * a name typed in the form) is refused: the form says "Another admin changed this marker: image 1
 * …", the server keeps the other admin's images untouched, and Save then meets the edit form's
 * conflict choice. Two uploads of the same new image at once: one 200, one 409, two images stored.
 * A pro user completing quest X on one device while another completes Y (X's save held until Y's
 * is stored) keeps both done, on both pages after a reload and on the server.
 */
import { describe, expect, test } from 'vitest';
import type { Page, Response, Route } from 'playwright-core';
import type { Marker } from '../src/domain/marker';
import type { Quest } from '../src/domain/quests';
import {
  MAP, TINY_PNG, addMarker, editForm, freeTopPoint, openAdminMapHearingNothing, openEditForm, openMap, serverMarker, signIn, useEditorBrowser, useEditorServer, waitPopupOpen,
} from './support/editor';
import { questCatalogue } from './support/quests';

const server = useEditorServer('races');
const browser = useEditorBrowser();
const base = () => server.baseUrl();

const UPLOAD = '/api/be/admin/maps/marker/upload/base64';

/** Uploads TINY_PNG into image `index` of `uid` through the admin API of the page's context. */
function apiUpload(page: Page, uid: string, index: number, replaces: string | null) {
  return page.request.post(`${base()}${UPLOAD}`, { data: { uid: `${uid}-${index}`, map: MAP, base64: TINY_PNG.toString('base64'), replaces } });
}

/** Saves the stored marker with `patch` on its stored version (the page's admin context); answers the new marker. */
async function updateAs(page: Page, uid: string, patch: Partial<Marker>): Promise<Marker> {
  const stored = (await serverMarker(base(), uid))!;
  const res = await page.request.post(`${base()}/api/be/admin/marker/update`, { data: { ...stored, ...patch, version: stored.version } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { marker: Marker }).marker;
}

/** A signed-in admin context that only calls the API (no map page). */
async function apiAdmin(): Promise<Page> {
  const { page } = await browser.newPage();
  await signIn(page, base(), 'admin');
  return page;
}

describe('an upload names the image it replaces', () => {
  test('another admin removed image 1 while the form was open: the upload into it is refused and said at the image, nothing stored; Save then meets the conflict choice', async () => {
    const a = await browser.newPage();
    // A hears nothing live (its form would take up the conflict at once): the server refuses instead.
    await openAdminMapHearingNothing(a, base());
    const added = await addMarker(a.page, base(), { geometry: await freeTopPoint(a.page), name: 'Two caches' });
    for (const index of [0, 1]) expect((await apiUpload(a.page, added.uid, index, null)).status()).toBe(200);
    const uploaded = (await serverMarker(base(), added.uid))!;
    const [url1, url2] = uploaded.imgs.map((i) => i.img);
    const named = await updateAs(a.page, added.uid, { imgs: [{ name: 'Cache 1/2', desc: '', img: url1 }, { name: 'Cache 2/2', desc: '', img: url2 }] });

    await openMap(a.page, base(), `?obj=${added.uid}`);
    await waitPopupOpen(a.page, added.uid);
    const form = await openEditForm(a.page, added.uid);
    expect(await form.getByLabel('Name of image 1', { exact: true }).inputValue()).toBe('Cache 1/2');
    expect(await form.getByLabel('URL of image 1', { exact: true }).inputValue()).toBe(url1);
    await form.getByLabel('Name when no translation', { exact: true }).fill('Two caches, renamed');

    // Meanwhile admin B removes image 1.
    const b = await apiAdmin();
    const theirs = await updateAs(b, added.uid, { imgs: [named.imgs[1]] });
    expect(theirs.imgs.map((i) => i.name)).toEqual(['Cache 2/2']);

    const answers: number[] = [];
    const onResponse = (r: Response) => {
      if (r.url().includes(UPLOAD)) answers.push(r.status());
    };
    a.page.on('response', onResponse);
    try {
      await form.getByLabel('Upload a file for image 1').setInputFiles({ name: 'new.png', mimeType: 'image/png', buffer: TINY_PNG });
      const alert = form.getByRole('alert').filter({ hasText: 'Another admin changed this marker: image 1' });
      await alert.waitFor();
      expect((await alert.textContent())?.trim()).toBe(
        'Another admin changed this marker: image 1 on the server is no longer the one this form shows, so nothing was uploaded or replaced. Save or reopen the form to see their version, then upload again.',
      );
      expect(answers).toEqual([409]);
    } finally {
      a.page.off('response', onResponse);
    }
    // Nothing replaced: B's marker as B stored it (image 2's own file, no new one).
    expect(await serverMarker(base(), added.uid)).toEqual(theirs);
    expect(await form.getByLabel('URL of image 1', { exact: true }).inputValue()).toBe(url1);

    // Save: the edit form's usual conflict choice.
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    const box = a.page.getByRole('alert', { name: 'Another admin changed this marker' });
    await box.waitFor();
    expect(await box.getByRole('button', { name: 'Keep mine' }).count()).toBe(1);
    expect(await box.getByRole('button', { name: 'Take theirs' }).count()).toBe(1);
    expect(await serverMarker(base(), added.uid)).toEqual(theirs);
    expect(await editForm(a.page).count()).toBe(1);
  });

  test('two uploads of the same new image at once: one is stored (200), the other refused (409); the marker has two images', async () => {
    const a = await apiAdmin();
    const added = await addMarker(a, base(), { geometry: { x: 100, y: 100 }, name: 'One cache' });
    expect((await apiUpload(a, added.uid, 0, null)).status()).toBe(200);
    const one = (await serverMarker(base(), added.uid))!;
    expect(one.imgs).toHaveLength(1);

    const answers = await Promise.all([apiUpload(a, added.uid, 1, null), apiUpload(a, added.uid, 1, null)]);
    expect(answers.map((r) => r.status()).sort()).toEqual([200, 409]);
    const stored = ((await answers.find((r) => r.status() === 200)!.json()) as { marker: Marker }).marker;
    const refused = (await answers.find((r) => r.status() === 409)!.json()) as { error: string; marker: Marker };
    expect(refused.error).toBe('conflict');
    const now = (await serverMarker(base(), added.uid))!;
    expect(now.imgs).toHaveLength(2);
    expect(now.imgs[0]).toEqual(one.imgs[0]);
    expect(now.imgs[1].img).toBe(stored.imgs[1].img);
  });
});

describe('quest progress from two devices', () => {
  async function proPage(): Promise<Page> {
    const { page } = await browser.newPage();
    await signIn(page, base(), 'pro');
    return page;
  }

  async function serverDone(page: Page): Promise<string[]> {
    const res = await page.request.get(`${base()}/api/be/user`);
    if (!res.ok()) throw new Error(`GET /api/be/user: ${res.status()}`);
    return ((await res.json()) as { questsDone: string[] }).questsDone;
  }

  const item = (page: Page, quest: Quest) => page.locator(`li[data-uid="${quest.uid}"]`);
  const reopen = (page: Page, quest: Quest) => item(page, quest).getByRole('button', { name: `Reopen: ${quest.name}` });

  async function openQuests(page: Page): Promise<void> {
    await page.goto(`${base()}/progression/quests`, { waitUntil: 'domcontentloaded' });
    await page.getByRole('list', { name: 'Quests' }).waitFor();
  }

  test('device A completes X while device B completes Y (A\'s save held until B\'s is stored): both stay done on both pages and on the server', async () => {
    const { quests } = await questCatalogue(base());
    const [x, y] = quests;
    const pageA = await proPage();
    const pageB = await proPage();
    for (const data of [{ questsDone: [] }, { questsHidden: [] }]) expect((await pageA.request.post(`${base()}/api/be/user/progress`, { data })).ok()).toBe(true);
    await openQuests(pageA);
    await openQuests(pageB);

    // A's progress save is held (not yet sent on) until B's is stored.
    let held!: Route;
    let heldNow!: () => void;
    const heldPromise = new Promise<void>((resolve) => (heldNow = resolve));
    await pageA.route(
      (url) => url.pathname === '/api/be/user/progress',
      (route) => {
        if (route.request().method() !== 'POST') return route.continue();
        held = route;
        heldNow();
        return undefined;
      },
    );
    await item(pageA, x).getByRole('button', { name: `Complete: ${x.name}` }).click();
    await heldPromise;

    await item(pageB, y).getByRole('button', { name: `Complete: ${y.name}` }).click();
    await reopen(pageB, y).waitFor();
    await expect.poll(() => serverDone(pageB)).toEqual([y.uid]);

    await held.continue();
    await reopen(pageA, x).waitFor();
    await expect.poll(async () => (await serverDone(pageA)).sort()).toEqual([x.uid, y.uid].sort());

    for (const page of [pageA, pageB]) {
      await page.reload({ waitUntil: 'domcontentloaded' });
      await reopen(page, x).waitFor();
      await reopen(page, y).waitFor();
    }
    expect((await serverDone(pageB)).sort()).toEqual([x.uid, y.uid].sort());
  });
});
