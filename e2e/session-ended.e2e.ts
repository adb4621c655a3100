/**
 * A session that ends behind the page's back (signed out on another device, or its cookie gone),
 * on a server of this file's own (demo accounts): the pro user's page, reloaded, says the session
 * ended and asks for a sign-in (not the quest-limit upsell a visitor's long link gets), cuts the
 * followed quests to 3 meanwhile and gives all 5 back with the sign-in; a quest's ✓ pressed while
 * the session is gone asks for the sign-in and is saved after it with no second click, and
 * dropped when the dialog is closed instead; a Russian page says it in Russian, and a page whose
 * user closed the dialog does not ask again on the next reload.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { Quest } from '../src/domain/quests';
import { useBrowser } from './browser';
import { PASSWORD, signIn, useEditorServer, waitReady } from './support/editor';
import { questCatalogue, questsOnMap, questUids } from './support/quests';

const server = useEditorServer('session-ended');
const browser = useBrowser();
const base = () => server.baseUrl();

const PRO_REASON = 'Your session has ended — sign in again to keep your Pro quests.';
const PRO_REASON_RU = 'Сеанс завершён — войдите снова, чтобы сохранить квесты, выбранные с Pro.';
const SAVE_REASON = 'Your session has ended. Sign in to save this.';

/** Five quests with markers on customs (more than a visitor's 3). */
let five: Quest[] = [];
/** Every quest's English name by uid (the quest rows' buttons are named with it). */
const nameOf = new Map<string, string>();

beforeAll(async () => {
  const catalogue = await questCatalogue(base());
  for (const q of catalogue.quests) nameOf.set(q.uid, q.name);
  five = questsOnMap(catalogue, 'customs', 5);
});

const uids = questUids;

async function openAt(page: Page, path: string): Promise<void> {
  await page.goto(`${base()}${path}`, { waitUntil: 'domcontentloaded' });
  await waitReady(page);
}

async function reloadPage(page: Page): Promise<void> {
  await page.reload({ waitUntil: 'domcontentloaded' });
  await waitReady(page);
}

/** The quests the address follows (`?quest=`), as the page wrote it. */
function questParam(page: Page): string[] {
  return new URL(page.url()).searchParams.get('quest')?.split(',').filter(Boolean) ?? [];
}

function selectedQuests(page: Page): Promise<string[]> {
  return page.evaluate(() => window.__map!.selectedQuests());
}

async function resetProgress(page: Page): Promise<void> {
  const res = await page.request.post(`${base()}/api/be/user/progress`, { data: { questsDone: [] } });
  if (!res.ok()) throw new Error(`resetting progress failed: ${res.status()} ${await res.text()}`);
}

async function questsDone(page: Page): Promise<string[] | null> {
  const res = await page.request.get(`${base()}/api/be/user`);
  if (!res.ok()) return null;
  return ((await res.json()) as { questsDone: string[] }).questsDone;
}

/**
 * Signs the page's user out elsewhere: another browser context holding the same cookies (another
 * device with the same session) posts the sign-out. The page itself is told nothing.
 */
async function endSessionElsewhere(page: Page): Promise<void> {
  const { page: other } = await browser.newPage();
  await other.context().addCookies(await page.context().cookies());
  const res = await other.request.post(`${base()}/api/be/auth/logout`);
  if (!res.ok()) throw new Error(`signing out elsewhere failed: ${res.status()} ${await res.text()}`);
  await other.context().close();
}

const signInDialog = (page: Page, title = 'Sign in') => page.getByRole('dialog', { name: title, exact: true });
const reasonText = (dialog: Locator) => dialog.locator('.account-dialog__reason');

/** Signs in as pro with the dialog's own fields. */
async function signInWith(dialog: Locator): Promise<void> {
  await dialog.getByLabel('Name', { exact: true }).fill('pro');
  await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** The first quest row of the quest panel: its uid and its ✓ button ("Complete: name"). */
async function firstQuestRow(page: Page): Promise<{ uid: string; complete: Locator }> {
  const row = page.getByRole('complementary', { name: 'Levels and quests' }).locator('li.quest-list__item').first();
  const uid = (await row.getAttribute('data-quest-uid'))!;
  return { uid, complete: row.getByRole('button', { name: `Complete: ${nameOf.get(uid)}`, exact: true }) };
}

describe('a pro session found ended', () => {
  test('a reload asks for a sign-in with the reason, keeps 5 quests for it, and a ✓ asked meanwhile is saved after the sign-in', async () => {
    const { page, errors } = await browser.newPage();
    // The ended session's cookie answers 401 to GET /api/be/user; Chromium logs it as a failed load.
    errors.allow(/401/);
    await signIn(page, base(), 'pro');
    await resetProgress(page);
    await openAt(page, `/map/customs?quest=${uids(five).join(',')}`);
    await expect.poll(() => selectedQuests(page)).toEqual(uids(five));
    await expect.poll(() => questParam(page)).toEqual(uids(five));

    await endSessionElsewhere(page);
    await reloadPage(page);
    const dialog = signInDialog(page);
    await dialog.waitFor();
    await expect.poll(() => reasonText(dialog).textContent()).toBe(PRO_REASON);
    // Not the visitor's upsell for a link of 5: the page knows someone was signed in.
    expect(await page.getByRole('dialog', { name: /Quest limit|Quests set aside/ }).count()).toBe(0);
    // Meanwhile the page follows what a visitor may: the first 3.
    await expect.poll(() => questParam(page)).toEqual(uids(five.slice(0, 3)));

    // Signed in again in that dialog: the 2 cut come back, and nothing else opens.
    await signInWith(dialog);
    await expect.poll(() => questParam(page)).toEqual(uids(five));
    await expect.poll(() => selectedQuests(page)).toEqual(uids(five));
    expect(await page.getByRole('dialog').count()).toBe(0);

    // Ended again, with no reload: the ✓ finds it out, asks for a sign-in, and is saved after it.
    await endSessionElsewhere(page);
    const { uid, complete } = await firstQuestRow(page);
    await complete.click();
    const again = signInDialog(page);
    await again.waitFor();
    await expect.poll(() => reasonText(again).textContent()).toBe(SAVE_REASON);
    expect(await questsDone(page)).toBeNull();
    await signInWith(again);
    // No second click: the ✓ asked before the sign-in is carried out.
    await expect.poll(() => questsDone(page), { timeout: 15_000 }).toEqual([uid]);
    await expect.poll(() => page.locator(`li.quest-list__item[data-quest-uid="${uid}"]`).evaluate((el) => el.classList.contains('quest-list__item--done'))).toBe(true);
  });

  test('a ✓ whose sign-in dialog was closed is dropped: a later sign-in from the menu saves nothing', async () => {
    const { page, errors } = await browser.newPage();
    errors.allow(/401/);
    await signIn(page, base(), 'pro');
    await resetProgress(page);
    await openAt(page, '/map/customs');
    const progressPosts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/api/be/user/progress')) progressPosts.push(request.url());
    });

    await endSessionElsewhere(page);
    const { uid, complete } = await firstQuestRow(page);
    await complete.click();
    const dialog = signInDialog(page);
    await dialog.waitFor();
    await expect.poll(() => reasonText(dialog).textContent()).toBe(SAVE_REASON);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // Signed in later by the user's own choice: the dialog gives no reason, and the ✓ is not sent.
    await page.getByRole('banner').getByRole('button', { name: 'Sign in', exact: true }).click();
    const fromMenu = signInDialog(page);
    await fromMenu.waitFor();
    expect(await reasonText(fromMenu).count()).toBe(0);
    await signInWith(fromMenu);
    await page.getByRole('banner').getByRole('button', { name: /^pro\b/ }).waitFor();
    // A reload (the page's session known again) gives a late save every chance to show.
    await reloadPage(page);
    await page.getByRole('banner').getByRole('button', { name: /^pro\b/ }).waitFor();
    expect(progressPosts).toEqual([]);
    expect(await questsDone(page)).toEqual([]);
    expect(await page.locator(`li.quest-list__item[data-quest-uid="${uid}"]`).evaluate((el) => el.classList.contains('quest-list__item--done'))).toBe(false);
  });

  test('RU: cookies gone, the reload says so in Russian; closed, the next reload asks no more', async () => {
    const { page } = await browser.newPage({ locale: 'ru-RU' });
    await signIn(page, base(), 'pro');
    await openAt(page, `/map/customs?quest=${uids(five).join(',')}`);
    await expect.poll(() => selectedQuests(page)).toEqual(uids(five));

    // The browser lost its cookies (cleared, or expired): no request even asks who is signed in.
    await page.context().clearCookies();
    await reloadPage(page);
    const dialog = signInDialog(page, 'Вход');
    await dialog.waitFor();
    await expect.poll(() => reasonText(dialog).textContent()).toBe(PRO_REASON_RU);
    expect(await page.getByRole('dialog').count()).toBe(1);
    await expect.poll(() => questParam(page)).toEqual(uids(five.slice(0, 3)));

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // Given up: the page carries on as a visitor's, and a reload does not ask again.
    await reloadPage(page);
    await expect.poll(() => questParam(page)).toEqual(uids(five.slice(0, 3)));
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await page.getByRole('banner').getByRole('button', { name: 'Войти', exact: true }).count()).toBe(1);
  });
});
