/**
 * Two writers at once, on a server of this file's own (demo accounts): docs/DECISIONS.md "An
 * image upload names the image it replaces; quest progress is saved as a change" and "An upload
 * the server refused (409) brings their images into the form; an upload follows the row the
 * admin picked". An admin's upload into image 1 after another admin removed that image (the
 * first admin's live feed cut, a name typed in the form) is refused (409): the form takes their
 * images, says their change in a box ("Another admin changed this marker: nothing was
 * uploaded", also in Russian on a phone), keeps the typed name, and the same file chosen again
 * is stored; Save stores both. An upload after "Move image 2 up" replaces the image the row
 * shows, where it is stored, and Save keeps the order the form shows. Two uploads of the same
 * new image at once: one 200, one 409, two images stored.
 * A pro user completing quest X on one device while another completes Y (X's save held until Y's
 * is stored) keeps both done, on both pages after a reload and on the server.
 */
import { describe, expect, test } from 'vitest';
import type { Locator, Page, Response, Route } from 'playwright-core';
import type { Marker } from '../src/domain/marker';
import type { Quest } from '../src/domain/quests';
import {
  MAP, PHONE, TINY_PNG, addMarker, freeTopPoint, openAdminMapHearingNothing, openMap, popupDialog, serverMarker, signIn, until, useEditorBrowser, useEditorServer, waitPopupOpen,
  type NewPageOptions,
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

/** The edit form's words these tests use, in the page's language (src/i18n/locales/{en,ru}/marker-edit.json, marker-conflict.json). */
const WORDS = {
  en: {
    edit: 'Edit',
    form: 'Edit marker',
    nameEn: 'Name (English)',
    upload: (n: number) => `Upload a file for image ${n}`,
    url: (n: number) => `URL of image ${n}`,
    taken: 'Another admin changed this marker: nothing was uploaded',
    removed: (name: string) => `Image removed: ${name}`,
  },
  ru: {
    edit: 'Изменить',
    form: 'Изменение метки',
    nameEn: 'Название (английский)',
    upload: (n: number) => `Загрузить файл для изображения ${n}`,
    url: (n: number) => `Адрес изображения ${n}`,
    taken: 'Другой админ изменил эту метку: файл не загружен',
    removed: (name: string) => `Удалено изображение: ${name}`,
  },
} as const;
type Words = (typeof WORDS)[keyof typeof WORDS];

/** A new file chosen in the form (each upload is stored under a URL of its own). */
const NEW_FILE = { name: 'new.png', mimeType: 'image/png', buffer: TINY_PNG };

interface OpenForm {
  page: Page;
  form: Locator;
  /** The stored marker the form was opened on. */
  marker: Marker;
  words: Words;
}

/**
 * An admin's page that hears nothing live (another admin's change reaches it only as the
 * server's 409 to its own write), a marker of its own with one uploaded image per name in
 * `names` (named so), and its edit form open on that stored marker, in `lang`.
 */
async function formOnUploadedImages(names: readonly string[], { lang = 'en', ...options }: NewPageOptions & { lang?: keyof typeof WORDS } = {}): Promise<OpenForm> {
  const words = WORDS[lang];
  const a = await browser.newPage({ locale: lang === 'ru' ? 'ru-RU' : 'en-US', ...options });
  await openAdminMapHearingNothing(a, base());
  const added = await addMarker(a.page, base(), { geometry: await freeTopPoint(a.page), name: 'Caches' });
  for (const index of names.keys()) expect((await apiUpload(a.page, added.uid, index, null)).status()).toBe(200);
  const uploaded = (await serverMarker(base(), added.uid))!;
  const marker = await updateAs(a.page, added.uid, { imgs: uploaded.imgs.map((image, i) => ({ ...image, name: names[i] })) });

  await openMap(a.page, base(), `?obj=${added.uid}`);
  await waitPopupOpen(a.page, added.uid);
  const edit = popupDialog(a.page, added.uid).getByRole('button', { name: words.edit, exact: true });
  await (options.hasTouch ? edit.tap() : edit.click());
  const form = a.page.getByRole('form', { name: words.form });
  await form.waitFor();
  return { page: a.page, form, marker, words };
}

/**
 * `formOnUploadedImages` of images "Cache 1/2" and "Cache 2/2", a new English name typed in the
 * form, then another admin (B, through the API) removing image 1: `theirs` is B's marker.
 */
async function formWhileImage1Removed(options: Parameters<typeof formOnUploadedImages>[1] = {}): Promise<OpenForm & { typed: string; theirs: Marker }> {
  const open = await formOnUploadedImages(['Cache 1/2', 'Cache 2/2'], options);
  const { form, marker, words } = open;
  expect(await urlOf(form, 1, words)).toBe(marker.imgs[0].img);
  const typed = 'Two caches, renamed';
  await form.getByLabel(words.nameEn, { exact: true }).fill(typed);
  const theirs = await updateAs(await apiAdmin(), marker.uid, { imgs: [marker.imgs[1]] });
  expect(theirs.imgs.map((i) => i.name)).toEqual(['Cache 2/2']);
  return { ...open, typed, theirs };
}

/** The form's image rows (each a group named "Image n"). */
function imageRows(form: Locator): Locator {
  return form.getByRole('group', { name: /^Image \d+$/ });
}

/** The URL the form's image `n` shows. */
function urlOf(form: Locator, n: number, words: Words = WORDS.en): Promise<string> {
  return form.getByLabel(words.url(n), { exact: true }).inputValue();
}

/** The statuses the server answered the page's uploads with, from now on, in order. */
function uploadAnswers(page: Page): number[] {
  const answers: number[] = [];
  page.on('response', (r: Response) => {
    if (r.url().includes(UPLOAD)) answers.push(r.status());
  });
  return answers;
}

describe('an upload names the image it replaces', () => {
  test('another admin removed image 1 while the form was open: the upload into it is refused (409), the form takes their images and says their change, the typed name kept; the upload again and Save store both', async () => {
    const { page, form, marker, words, typed, theirs } = await formWhileImage1Removed();
    const answers = uploadAnswers(page);

    await form.getByLabel(words.upload(1)).setInputFiles(NEW_FILE);
    const taken = form.getByRole('alert', { name: words.taken, exact: true });
    await taken.waitFor();
    expect(await taken.getByRole('listitem').allTextContents()).toEqual([words.removed('Cache 1/2')]);
    expect(answers).toEqual([409]);
    // Nothing replaced: B's marker as B stored it. The form shows it, the typed name kept.
    expect(await serverMarker(base(), marker.uid)).toEqual(theirs);
    expect(await imageRows(form).count()).toBe(1);
    expect(await urlOf(form, 1)).toBe(theirs.imgs[0].img);
    expect(await form.getByLabel('Name of image 1', { exact: true }).inputValue()).toBe('Cache 2/2');
    expect(await form.getByLabel(words.nameEn, { exact: true }).inputValue()).toBe(typed);

    // The file again: it names the image the server has now.
    await form.getByLabel(words.upload(1)).setInputFiles(NEW_FILE);
    await form.getByRole('status').filter({ hasText: 'Image 1 uploaded.' }).waitFor();
    expect(answers).toEqual([409, 200]);
    const stored = (await serverMarker(base(), marker.uid))!;
    expect(stored.imgs.map((i) => i.name)).toEqual(['Cache 2/2']);
    expect([marker.imgs[0].img, marker.imgs[1].img]).not.toContain(stored.imgs[0].img);
    expect(await urlOf(form, 1)).toBe(stored.imgs[0].img);

    await form.getByRole('button', { name: 'Save', exact: true }).click();
    const saved = await until(() => serverMarker(base(), marker.uid), (m) => m?.name_l10n.en === typed, 'the typed name on the server');
    expect(saved!.imgs).toEqual(stored.imgs);
    expect(answers).toEqual([409, 200]);
  });

  test('an upload into image 1 after "Move image 2 up" (not saved) replaces the image that row shows, at its stored place; Save then stores the order the form shows', async () => {
    const { form, marker } = await formOnUploadedImages(['Door', 'Inside']);
    const [door, inside] = marker.imgs;
    await form.getByRole('button', { name: 'Move image 2 up', exact: true }).click();
    expect(await urlOf(form, 1)).toBe(inside.img);

    await form.getByLabel('Upload a file for image 1').setInputFiles(NEW_FILE);
    await form.getByRole('status').filter({ hasText: 'Image 1 uploaded.' }).waitFor();
    const stored = (await serverMarker(base(), marker.uid))!;
    // "Inside" replaced where it is stored (its name kept); "Door" untouched.
    expect(stored.imgs[0]).toEqual(door);
    expect(stored.imgs[1].name).toBe('Inside');
    expect([door.img, inside.img]).not.toContain(stored.imgs[1].img);
    const newFile = stored.imgs[1].img;
    expect(await urlOf(form, 1)).toBe(newFile);
    expect(await urlOf(form, 2)).toBe(door.img);

    await form.getByRole('button', { name: 'Save', exact: true }).click();
    const saved = await until(() => serverMarker(base(), marker.uid), (m) => m?.imgs[0]?.img === newFile, 'the saved order on the server');
    expect(saved!.imgs.map(({ name, img }) => ({ name, img }))).toEqual([
      { name: 'Inside', img: newFile },
      { name: 'Door', img: door.img },
    ]);
  });

  test('on a 390×844 touch screen in Russian: the refused upload says «Другой админ изменил эту метку: файл не загружен» with their change', async () => {
    const { page, form, words } = await formWhileImage1Removed({ ...PHONE, hasTouch: true, lang: 'ru' });
    const answers = uploadAnswers(page);
    await form.getByLabel(words.upload(1)).setInputFiles(NEW_FILE);
    const taken = form.getByRole('alert', { name: words.taken, exact: true });
    await taken.waitFor();
    expect(await taken.getByRole('listitem').allTextContents()).toEqual([words.removed('Cache 1/2')]);
    expect(answers).toEqual([409]);
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
