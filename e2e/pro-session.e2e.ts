/**
 * A pro user's page while who is signed in is still being asked, or could not be asked, and
 * what the page says around signing in and out (docs/DECISIONS.md "Pro controls before the
 * session is known", "A quest action where the account could not be checked", "The limit notice
 * says why it shows", "Progress saved on another device", "The hidden-quests toggle",
 * "Failures said in the page's language; the account dialog's name and refusals"), on a server
 * of this file's own (demo accounts, like e2e/session-ended.e2e.ts): Settings, the look arrow and
 * a fourth quest clicked before GET /api/be/user answers get what a pro user clicked for, never
 * the upsell; a failed user check says so at the quest row with Try again; a sign-out names the
 * quests set aside and a pro sign-in brings them back; a visitor's link of 5 says why 3 are
 * followed; another device's progress shows when the tab comes back (after the 30 s throttle, on
 * a fake clock); a pro list with nothing hidden has no "Show hidden quests"; the sign-up form
 * drops a refusal once its field changes; a failed save on a Russian page is said in Russian; a
 * sign-in name with spaces around it signs in.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { Locator, Page, Route } from 'playwright-core';
import type { Quest } from '../src/domain/quests';
import { useBrowser } from './browser';
import { PASSWORD, signIn, useEditorServer, waitReady } from './support/editor';
import { questCatalogue, questsOnMap, questUids } from './support/quests';

const server = useEditorServer('pro-session');
const browser = useBrowser();
const base = () => server.baseUrl();

const UPSELL = 'raidmap Pro';

/** Five quests with markers on customs (more than a visitor's 3). */
let five: Quest[] = [];

beforeAll(async () => {
  five = questsOnMap(await questCatalogue(base()), 'customs', 5);
});

const uids = questUids;

async function openAt(page: Page, path: string): Promise<void> {
  await page.goto(`${base()}${path}`, { waitUntil: 'domcontentloaded' });
  await waitReady(page);
}

function selectedQuests(page: Page): Promise<string[]> {
  return page.evaluate(() => window.__map!.selectedQuests());
}

/** Clears the pro demo user's progress (through the page's own cookie), so each test starts from nothing done or hidden. */
async function resetProgress(page: Page): Promise<void> {
  for (const data of [{ questsDone: [] }, { questsHidden: [] }]) {
    const res = await page.request.post(`${base()}/api/be/user/progress`, { data });
    if (!res.ok()) throw new Error(`resetting progress failed: ${res.status()} ${await res.text()}`);
  }
}

async function serverUser(page: Page): Promise<{ questsDone: string[]; questsHidden: string[] }> {
  const res = await page.request.get(`${base()}/api/be/user`);
  if (!res.ok()) throw new Error(`GET /api/be/user: ${res.status()}`);
  return (await res.json()) as { questsDone: string[]; questsHidden: string[] };
}

/** Is this the page's question who is signed in (GET /api/be/user, not its progress)? */
const isUserCheck = (route: Route) => route.request().method() === 'GET' && new URL(route.request().url()).pathname === '/api/be/user';

const questList = (page: Page): Locator => page.getByRole('complementary', { name: 'Levels and quests' });
const questRow = (page: Page, quest: Quest): Locator => questList(page).locator(`li.quest-list__item[data-quest-uid="${quest.uid}"]`);
const banner = (page: Page) => page.getByRole('banner');

async function hasClass(locator: Locator, name: string): Promise<boolean> {
  return locator.evaluate((el, cls) => el.classList.contains(cls), name);
}

/** Signs in as pro with the account dialog's own fields (the dialog is open). */
async function signInWith(dialog: Locator, name = 'pro'): Promise<void> {
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe('pro controls used before the sign-in check answers', () => {
  test('Settings, the look arrow and a 4th quest wait for the answer: the settings open, the arrow is on, 4 quests are followed, no upsell', async () => {
    const { page } = await browser.newPage();
    await signIn(page, base(), 'pro');
    await resetProgress(page);
    // Any upsell or limit notice shown at any moment, even one closed again at once.
    await page.addInitScript(() => {
      const w = window as unknown as { __offered: string[] };
      w.__offered = [];
      new MutationObserver(() => {
        for (const cls of ['upsell-popup', 'limit-notice']) if (document.querySelector(`.${cls}`) && !w.__offered.includes(cls)) w.__offered.push(cls);
      }).observe(document, { childList: true, subtree: true });
    });
    // The check is held until every click is made (the outline's 3 s delay, made certain).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = 0;
    await page.route(
      (url) => url.pathname === '/api/be/user',
      async (route) => {
        if (isUserCheck(route)) {
          asked += 1;
          await held;
        }
        await route.continue();
      },
    );
    await openAt(page, '/map/customs');
    expect(asked).toBe(1);

    await questList(page).getByRole('button', { name: /^Settings/ }).click();
    await banner(page).getByRole('button', { name: 'Where am I', exact: true }).click();
    // The where-am-I bar's box (the settings popup has one too, once open).
    const arrow = banner(page).getByRole('checkbox', { name: /^Look direction arrow/ });
    await arrow.click();
    for (const quest of five.slice(0, 4)) await questList(page).getByRole('checkbox', { name: quest.name, exact: true }).click();
    // Nothing answered yet: no settings meanwhile.
    expect(await page.getByRole('dialog', { name: 'Settings' }).count()).toBe(0);

    release();
    await page.getByRole('dialog', { name: 'Settings' }).waitFor();
    await expect.poll(() => selectedQuests(page)).toEqual(uids(five.slice(0, 4)));
    await expect.poll(() => arrow.isChecked()).toBe(true);
    expect(await page.getByRole('dialog', { name: UPSELL }).count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __offered: string[] }).__offered)).toEqual([]);
  });
});

describe('a quest action where the account could not be checked', () => {
  test('GET /api/be/user answers 500: Complete says the account could not be checked (no upsell); Try again, once it answers, completes', async () => {
    const { page, errors } = await browser.newPage();
    // The check's 500s are what this test is about (Chromium logs them as failed loads).
    errors.allow(/500/);
    await signIn(page, base(), 'pro');
    await resetProgress(page);
    const failing = (route: Route) => (isUserCheck(route) ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"internal server error"}' }) : route.continue());
    const userPath = (url: URL) => url.pathname === '/api/be/user';
    await page.route(userPath, failing);
    await openAt(page, '/map/customs');

    const [quest] = five;
    const row = questRow(page, quest);
    await row.getByRole('button', { name: `Complete: ${quest.name}`, exact: true }).click();
    const alert = row.getByRole('alert');
    await expect.poll(() => alert.textContent().catch(() => '')).toContain('Your account could not be checked (the server did not answer), so nothing was changed.');
    expect(await page.getByRole('dialog', { name: UPSELL }).count()).toBe(0);
    expect((await serverUser(page)).questsDone).toEqual([]);

    await page.unroute(userPath, failing);
    await alert.getByRole('button', { name: 'Try again', exact: true }).click();
    await row.getByRole('button', { name: `Reopen: ${quest.name}`, exact: true }).waitFor();
    await expect.poll(async () => (await serverUser(page)).questsDone).toEqual([quest.uid]);
    expect(await page.getByRole('dialog', { name: UPSELL }).count()).toBe(0);
  });
});

describe('the limit notice says why', () => {
  test('a pro user following 5 signs out: "Quests set aside" names the 2; a pro sign-in gives all 5 back', async () => {
    const { page } = await browser.newPage();
    await signIn(page, base(), 'pro');
    await openAt(page, `/map/customs?quest=${uids(five).join(',')}`);
    await expect.poll(() => selectedQuests(page)).toEqual(uids(five));

    await banner(page).getByRole('button', { name: /^pro\b/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    const notice = page.getByRole('dialog', { name: 'Quests set aside', exact: true });
    await notice.waitFor();
    await expect
      .poll(() => notice.locator('.limit-notice__text').textContent())
      .toBe(`Signed out: without Pro only 3 quests can be followed at once. These 2 were set aside: ${five[3].name}, ${five[4].name}. They come back when you sign in with Pro again.`);
    await expect.poll(() => selectedQuests(page)).toEqual(uids(five.slice(0, 3)));

    await page.keyboard.press('Escape');
    await notice.waitFor({ state: 'detached' });
    await banner(page).getByRole('button', { name: 'Sign in', exact: true }).click();
    await signInWith(page.getByRole('dialog', { name: 'Sign in', exact: true }));
    await expect.poll(() => selectedQuests(page)).toEqual(uids(five));
  });

  test('a visitor\'s link of 5 quests says so', async () => {
    const { page } = await browser.newPage();
    await openAt(page, `/map/customs?quest=${uids(five).join(',')}`);
    const notice = page.getByRole('dialog', { name: 'Quest limit', exact: true });
    await notice.waitFor();
    await expect.poll(() => notice.locator('.limit-notice__text').textContent()).toBe('This link follows 5 quests; without Pro the first 3 are followed.');
    await expect.poll(() => selectedQuests(page)).toEqual(uids(five.slice(0, 3)));
  });
});

describe('progress saved on another device', () => {
  test('shows when the tab comes back, once 30 s have passed since the server last answered', async () => {
    const { page } = await browser.newPage();
    // Device A: a fake clock from the start (it runs as time passes; the test jumps it past the throttle).
    await page.clock.install();
    await signIn(page, base(), 'pro');
    await resetProgress(page);
    await openAt(page, '/map/customs');
    const [quest] = five;
    const row = questRow(page, quest);
    // The session is known (quest actions are drawn only then).
    await row.getByRole('button', { name: `Complete: ${quest.name}`, exact: true }).waitFor();

    // Device B: another browser, its own session, completes the quest.
    const { page: other } = await browser.newPage();
    await signIn(other, base(), 'pro');
    const res = await other.request.post(`${base()}/api/be/user/progress`, { data: { questsDone: [quest.uid] } });
    expect(res.ok()).toBe(true);
    await other.context().close();

    const comeBack = () =>
      page.evaluate(() => {
        // Hidden, then visible again (a headless tab is always visible: the state is set by hand).
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
        document.dispatchEvent(new Event('visibilitychange'));
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
        document.dispatchEvent(new Event('visibilitychange'));
      });
    await page.clock.fastForward(31_000);
    await comeBack();
    await expect.poll(() => hasClass(row, 'quest-list__item--done')).toBe(true);
    await row.getByRole('button', { name: `Reopen: ${quest.name}`, exact: true }).waitFor();
  });
});

describe('the hidden-quests toggle', () => {
  test('a pro list with nothing hidden has no "Show hidden quests"; one hidden quest out of the list brings it', async () => {
    const { page } = await browser.newPage();
    await signIn(page, base(), 'pro');
    await resetProgress(page);
    await openAt(page, '/map/customs');
    const [quest, next] = five;
    await questRow(page, quest).getByRole('button', { name: `Complete: ${quest.name}`, exact: true }).waitFor();
    expect(await questList(page).getByRole('button', { name: /^Show hidden quests/ }).count()).toBe(0);

    // The toggle is there when it has something to do: a quest hidden elsewhere, out of the list on reload.
    const res = await page.request.post(`${base()}/api/be/user/progress`, { data: { questsHidden: [next.uid] } });
    expect(res.ok()).toBe(true);
    await page.reload({ waitUntil: 'domcontentloaded' });
    await waitReady(page);
    await questList(page).getByRole('button', { name: 'Show hidden quests (1)' }).waitFor();
    await resetProgress(page);
  });
});

describe('the account dialog', () => {
  test('sign-up: the taken name (trimmed) is said; changing the name drops it, and the form\'s own password rule shows', async () => {
    const { page, errors } = await browser.newPage();
    // The taken name's 409 is logged by Chromium as a failed resource load.
    errors.allow(/409/);
    await openAt(page, '/map/customs');
    await banner(page).getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('dialog', { name: 'Sign in' }).getByRole('button', { name: 'Create an account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create account' });
    await dialog.getByLabel('Name', { exact: true }).fill(' pro ');
    await dialog.getByLabel('Password', { exact: true }).fill('violet kettle drum');
    await dialog.getByRole('button', { name: 'Create account', exact: true }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent().catch(() => null)).toBe('the name "pro" is taken');

    await dialog.getByLabel('Name', { exact: true }).fill('newbie2');
    await dialog.getByLabel('Password', { exact: true }).fill('newbie2123');
    await expect.poll(() => dialog.getByRole('alert').count()).toBe(0);
    await dialog.getByText('The password must not contain your name', { exact: true }).waitFor();
  });

  test('sign-in with spaces around the name ("  PRO  ") signs in', async () => {
    const { page } = await browser.newPage();
    await openAt(page, '/map/customs');
    await banner(page).getByRole('button', { name: 'Sign in', exact: true }).click();
    await signInWith(page.getByRole('dialog', { name: 'Sign in', exact: true }), '  PRO  ');
    await banner(page).getByRole('button', { name: /^pro\b/ }).waitFor();
  });
});

describe('a failed save on a Russian page', () => {
  test('a 503 "Service Unavailable" is said in Russian, with no English words', async () => {
    const { page, errors } = await browser.newPage({ locale: 'ru-RU' });
    errors.allow(/503/);
    await signIn(page, base(), 'pro');
    await resetProgress(page);
    await page.route(
      (url) => url.pathname === '/api/be/user/progress',
      (route) => (route.request().method() === 'POST' ? route.fulfill({ status: 503, contentType: 'text/plain', body: 'Service Unavailable' }) : route.continue()),
    );
    await openAt(page, '/map/customs');
    // The panel's name is Russian here: the row by its quest.
    const row = page.locator(`li.quest-list__item[data-quest-uid="${five[0].uid}"]`);
    await row.getByRole('button', { name: /^Отметить выполненным: / }).click();
    const alert = row.getByRole('alert');
    await expect.poll(() => alert.locator('span').first().textContent().catch(() => null)).toBe('Не удалось сохранить прогресс: на сервере произошёл сбой — попробуйте ещё раз чуть позже.');
    expect(await alert.textContent()).not.toMatch(/[A-Za-z]/);
    expect((await serverUser(page)).questsDone).toEqual([]);
  });
});
