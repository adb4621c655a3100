/**
 * Accounts, roles and the pro tier in a real browser, against a real server started as
 * `npm start` starts it (sample content, not production), so it has the demo accounts
 * (`visitor`, `pro`, `admin`, password `demo`; a production server refuses them, and its
 * Secure cookies need https): the account menu signs in and out; a
 * visitor's pro controls open the upsell and send nothing; a pro user completes, hides and shows
 * quests (kept across a reload, in the list and in the marker popup, with own progress hiding
 * the markers of done quests), follows a fourth quest and resets the settings only after
 * `Confirm reset?`; an admin sees no pro control at all, and grants pro from the account menu.
 */
import { rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { Quest } from '../src/domain/quests';
import { markers, useBrowser } from './browser';
import { questCatalogue, questsWithMarkersOn } from './support/quests';
import { freshDataDir, startServer, type RunningServer } from './support/server';

const browser = useBrowser();
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = freshDataDir('raidmap-e2e-accounts-');
let server: RunningServer | undefined;

function baseUrl(): string {
  if (!server) throw new Error('the accounts server did not start');
  return server.baseUrl;
}

/** Opens `path` on the accounts server and waits until the map is ready. */
async function openAt(page: Page, path: string): Promise<void> {
  await page.goto(`${baseUrl()}${path}`, { waitUntil: 'domcontentloaded' });
  await page.waitForFunction(() => (window as unknown as { __map?: { ready: boolean } }).__map?.ready === true, undefined, { timeout: 45_000, polling: 100 });
}

const openMap = (page: Page, mapId: string) => openAt(page, `/map/${mapId}`);

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const UPSELL = 'raidmap Pro';
const PASSWORD = 'demo';

interface ListedMarker {
  uid: string;
  questUid?: string | null;
}

/** Quests with markers on customs, and one quest marker of the first two. */
let onCustoms: Quest[] = [];
let questMarkerOf: Map<string, string>;

beforeAll(async () => {
  server = await startServer({
    repoRoot,
    dataDir,
    env: { NODE_ENV: 'development', DEMO_ACCOUNTS: '1', SEED_MAPS: 'customs', TILES_DIR: inject('tilesDir') },
    tilesTimeoutMs: 120_000,
  });
  const [catalogue, list] = await Promise.all([
    questCatalogue(baseUrl()),
    fetch(`${baseUrl()}/api/be/markers/list?map=customs`).then((r) => r.json() as Promise<{ markers: ListedMarker[] }>),
  ]);
  onCustoms = questsWithMarkersOn(catalogue, 'customs', 4);
  questMarkerOf = new Map();
  for (const m of list.markers) if (m.questUid && !questMarkerOf.has(m.questUid)) questMarkerOf.set(m.questUid, m.uid);
});

/** Signs the page's browser context in through the API (the cookie lands in the context). */
async function signIn(page: Page, name: string): Promise<void> {
  const res = await page.request.post(`${baseUrl()}/api/be/auth/login`, { data: { name, password: PASSWORD } });
  if (!res.ok()) throw new Error(`signing in as ${name} failed: ${res.status()} ${await res.text()}`);
}

/** Clears the pro demo user's progress, so each test starts from nothing done or hidden. */
async function resetProgress(page: Page): Promise<void> {
  for (const data of [{ questsDone: [] }, { questsHidden: [] }]) {
    const res = await page.request.post(`${baseUrl()}/api/be/user/progress`, { data });
    if (!res.ok()) throw new Error(`resetting progress failed: ${res.status()} ${await res.text()}`);
  }
}

async function serverUser(page: Page): Promise<{ questsDone: string[]; questsHidden: string[] }> {
  const res = await page.request.get(`${baseUrl()}/api/be/user`);
  return (await res.json()) as { questsDone: string[]; questsHidden: string[] };
}

/** Records the account and progress calls a page makes from now on. */
function recordAccountCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/api/be/user') || path.startsWith('/api/be/auth')) calls.push(`${request.method()} ${path}`);
  });
  return calls;
}

function questList(page: Page): Locator {
  return page.getByRole('complementary', { name: 'Levels and quests' });
}

function questRow(page: Page, quest: Quest): Locator {
  return questList(page).locator(`li.quest-list__item[data-quest-uid="${quest.uid}"]`);
}

function selectedQuests(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __map: { selectedQuests(): string[] } }).__map.selectedQuests());
}

async function hasClass(locator: Locator, name: string): Promise<boolean> {
  return locator.evaluate((el, cls) => el.classList.contains(cls), name);
}

async function questMarkers(page: Page): Promise<number> {
  return (await markers(page)).filter((m) => m.subCategory === 'Quest').length;
}

describe('the account menu', () => {
  test('signs in with the form, survives a reload and signs out', async () => {
    const { page, errors } = await browser.newPage();
    // The wrong password's 401 is logged by Chromium as a failed resource load.
    errors.allow(/401/);
    await openMap(page, 'customs');
    const bar = page.getByRole('banner');
    await bar.getByRole('button', { name: 'Sign in', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign in' });
    await dialog.getByLabel('Name').fill('pro');
    await dialog.getByLabel('Password').fill('wrong-password');
    await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toMatch(/wrong name or password/i);

    await dialog.getByLabel('Password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    const menuButton = bar.getByRole('button', { name: /^pro\b/ });
    await menuButton.waitFor();
    expect(await menuButton.textContent()).toContain('Pro');

    await page.reload();
    await openMap(page, 'customs');
    await menuButton.waitFor();
    await menuButton.click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await bar.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    expect((await page.request.get(`${baseUrl()}/api/be/user`)).status()).toBe(401);
  });

  test('creating an account: a common password is refused with why, a strong one signs in', async () => {
    const { page, errors } = await browser.newPage();
    // The weak password's 400 is logged by Chromium as a failed resource load.
    errors.allow(/400/);
    await openMap(page, 'customs');
    const bar = page.getByRole('banner');
    await bar.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('dialog', { name: 'Sign in' }).getByRole('button', { name: 'Create an account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create account' });
    await dialog.getByLabel('Name').fill('newcomer');
    await dialog.getByLabel('Password').fill('password');
    await dialog.getByRole('button', { name: 'Create account', exact: true }).click();
    // The real server's zxcvbn verdict, shown in the page's words.
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe('This password is too easy to guess. This is a heavily used password. Add more words that are less common.');
    expect((await page.request.get(`${baseUrl()}/api/be/user`)).status()).toBe(401);

    await dialog.getByLabel('Password').fill('violet kettle drum');
    await dialog.getByRole('button', { name: 'Create account', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await bar.getByRole('button', { name: /^newcomer\b/ }).waitFor();
  });
});

describe('a visitor', () => {
  test('signed out: Complete opens the upsell, no request is made and nothing changes', async () => {
    const { page } = await browser.newPage();
    const calls = recordAccountCalls(page);
    await openMap(page, 'customs');
    // Nobody signed in: the page does not even ask who is.
    expect(calls).toEqual([]);
    const [quest] = onCustoms;
    const row = questRow(page, quest);
    await row.getByRole('button', { name: `Complete: ${quest.name}` }).click();
    await page.getByRole('dialog', { name: UPSELL }).waitFor();
    expect(calls).toEqual([]);
    expect(await hasClass(row, 'quest-list__item--done')).toBe(false);
  });

  test('signed in without pro: Complete and Settings open the upsell and no progress is sent', async () => {
    const { page } = await browser.newPage();
    await signIn(page, 'visitor');
    await openMap(page, 'customs');
    const calls = recordAccountCalls(page);
    const [quest] = onCustoms;
    const row = questRow(page, quest);
    await row.getByRole('button', { name: `Complete: ${quest.name}` }).click();
    const upsell = page.getByRole('dialog', { name: UPSELL });
    await upsell.waitFor();
    await page.keyboard.press('Escape');
    await upsell.waitFor({ state: 'detached' });
    await questList(page).getByRole('button', { name: /^Settings/ }).click();
    await upsell.waitFor();
    expect(calls).toEqual([]);
    expect(await hasClass(row, 'quest-list__item--done')).toBe(false);
    expect(await page.getByRole('dialog', { name: 'Settings' }).count()).toBe(0);
  });
});

describe('a pro user', () => {
  test('completes, hides and shows quests in the list; the user is refreshed first; it survives a reload', async () => {
    const { page } = await browser.newPage();
    await signIn(page, 'pro');
    await resetProgress(page);
    await openMap(page, 'customs');
    const [a, b] = onCustoms;
    const calls = recordAccountCalls(page);

    await questRow(page, a).getByRole('button', { name: `Complete: ${a.name}` }).click();
    await expect.poll(() => hasClass(questRow(page, a), 'quest-list__item--done')).toBe(true);
    // Refreshed before the action, then saved.
    expect(calls).toEqual(['GET /api/be/user', 'POST /api/be/user/progress']);
    // Marked done: a check mark before the title, the row not faded (docs/DECISIONS.md "Done and hidden quests").
    expect(
      await questRow(page, a).evaluate((el) => {
        const title = el.querySelector('.quest-list__label > span');
        return { done: el.classList.contains('quest-list__item--done'), opacity: getComputedStyle(el).opacity, mark: title ? getComputedStyle(title, '::before').content : '' };
      }),
    ).toMatchObject({ done: true, opacity: '1', mark: expect.stringContaining('✓') });
    expect((await serverUser(page)).questsDone).toEqual([a.uid]);

    // Hiding with own progress (on by default): the row stays where it was, its Hide now Show (a
    // second click undoes it, never hides the next row's quest); it leaves the list on reload.
    await questRow(page, b).getByRole('button', { name: `Hide: ${b.name}` }).click();
    await questRow(page, b).getByRole('button', { name: `Show: ${b.name}` }).waitFor();
    await expect.poll(async () => (await serverUser(page)).questsHidden).toEqual([b.uid]);

    await page.reload();
    await openMap(page, 'customs');
    await expect.poll(() => hasClass(questRow(page, a), 'quest-list__item--done')).toBe(true);
    expect(await questRow(page, b).count()).toBe(0);

    // The hidden quests can be listed again and shown.
    await questList(page).getByRole('button', { name: /^Show hidden quests/ }).click();
    await questRow(page, b).getByRole('button', { name: `Show: ${b.name}` }).click();
    await expect.poll(async () => (await serverUser(page)).questsHidden).toEqual([]);
    await questRow(page, a).getByRole('button', { name: `Reopen: ${a.name}` }).click();
    await expect.poll(async () => (await serverUser(page)).questsDone).toEqual([]);
    await expect.poll(() => hasClass(questRow(page, a), 'quest-list__item--done')).toBe(false);
  });

  test('completes a quest from its marker popup; own progress takes its markers off the map', async () => {
    const { page } = await browser.newPage();
    await signIn(page, 'pro');
    await resetProgress(page);
    const quest = onCustoms.find((q) => questMarkerOf.has(q.uid))!;
    const uid = questMarkerOf.get(quest.uid)!;
    await openAt(page, `/map/customs?obj=${encodeURIComponent(uid)}`);
    // The wrapper only positions the popup; its dialog is what shows.
    const popup = page.locator(`.marker-popup[data-uid="${uid}"]`).getByRole('dialog');
    await popup.waitFor();
    await expect.poll(() => questMarkers(page)).toBeGreaterThan(0);

    await popup.locator('.marker-popup__quest-actions').getByRole('button', { name: `Complete: ${quest.name}` }).click();
    await expect.poll(async () => (await serverUser(page)).questsDone).toEqual([quest.uid]);
    // Own progress is on by default for pro: a done quest's markers leave the map.
    await expect.poll(() => questMarkers(page)).toBe(0);
    await popup.locator('.marker-popup__quest-actions').getByRole('button', { name: `Reopen: ${quest.name}` }).click();
    await expect.poll(() => questMarkers(page)).toBeGreaterThan(0);
  });

  test('follows a fourth quest without the limit notice', async () => {
    const { page } = await browser.newPage();
    await signIn(page, 'pro');
    await resetProgress(page);
    await openMap(page, 'customs');
    for (const quest of onCustoms.slice(0, 4)) {
      await questList(page).getByRole('checkbox', { name: quest.name, exact: true }).click();
    }
    await expect.poll(() => selectedQuests(page)).toEqual(onCustoms.slice(0, 4).map((q) => q.uid));
    expect(await page.getByRole('dialog', { name: /Quest limit|Quests set aside/ }).count()).toBe(0);
    // A link with four quests keeps all four for pro once the session is known.
    const four = onCustoms.slice(0, 4).map((q) => q.uid);
    await openAt(page, `/map/customs?quest=${four.join(',')}`);
    await expect.poll(() => selectedQuests(page)).toEqual(four);
  });

  test('settings apply at once, and Reset clears map:settings only after "Confirm reset?" (in the page\'s language)', async () => {
    const { page } = await browser.newPage();
    await signIn(page, 'pro');
    await openMap(page, 'customs');
    await questList(page).getByRole('button', { name: 'Settings', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.waitFor();
    await dialog.getByRole('radio', { name: 'All markers' }).check();
    await dialog.getByLabel('Language').selectOption('ru');
    const stored = () => page.evaluate(() => localStorage.getItem('map:settings'));
    await expect.poll(async () => JSON.parse((await stored()) ?? '{}')).toMatchObject({ labels: 'all', language: 'ru' });
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('ru');

    const messages: string[] = [];
    page.once('dialog', (d) => {
      messages.push(d.message());
      void d.dismiss();
    });
    // The popup is in Russian now: find its Reset button in either language.
    const reset = page.getByRole('dialog').getByRole('button', { name: /^(Reset|Сбросить|Сброс)$/ });
    await reset.click();
    // Asked in the page's language: the spec's "Confirm reset?" is the English page's.
    await expect.poll(() => messages).toEqual(['Сбросить настройки?']);
    expect(JSON.parse((await stored()) ?? '{}')).toMatchObject({ labels: 'all', language: 'ru' });

    page.once('dialog', (d) => {
      messages.push(d.message());
      void d.accept();
    });
    await reset.click();
    await expect.poll(() => messages).toEqual(['Сбросить настройки?', 'Сбросить настройки?']);
    await expect.poll(stored).toBeNull();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('en');

    // Back in English (the popup stays open), the spec's own words.
    await page.getByRole('dialog', { name: 'Settings' }).waitFor();
    page.once('dialog', (d) => {
      messages.push(d.message());
      void d.dismiss();
    });
    await page.getByRole('dialog', { name: 'Settings' }).getByRole('button', { name: 'Reset', exact: true }).click();
    await expect.poll(() => messages.at(-1)).toBe('Confirm reset?');
  });
});

/** Sets the player through the where-am-I box: a screenshot name with a look direction. */
async function pasteLookingPosition(page: Page): Promise<void> {
  await page.getByRole('banner').getByRole('button', { name: 'Where am I', exact: true }).click();
  await page.getByRole('textbox', { name: 'Screenshot file name' }).fill('2024-05-01[12-34]_-100.5, 8, 200_0, 0.7071068, 0, 0.7071068_1 (0).png');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => (window as unknown as { __map: { player(): unknown } }).__map.player() !== null);
}

function playerArrow(page: Page): Promise<number | null> {
  return page.evaluate(() => (window as unknown as { __map: { playerArrow(): number | null } }).__map.playerArrow());
}

describe('the look-direction arrow', () => {
  test('a visitor gets no arrow, and the toggle opens the upsell without changing anything', async () => {
    const { page } = await browser.newPage();
    await openMap(page, 'customs');
    await pasteLookingPosition(page);
    expect(await playerArrow(page)).toBeNull();
    const toggle = page.getByRole('checkbox', { name: /^Look direction arrow/ });
    await toggle.click();
    await page.getByRole('dialog', { name: UPSELL }).waitFor();
    expect(await toggle.isChecked()).toBe(false);
    expect(await playerArrow(page)).toBeNull();
  });

  test('a pro user sees the arrow and can switch it off', async () => {
    const { page } = await browser.newPage();
    await signIn(page, 'pro');
    await openMap(page, 'customs');
    await pasteLookingPosition(page);
    await expect.poll(() => playerArrow(page)).not.toBeNull();
    const toggle = page.getByRole('checkbox', { name: /^Look direction arrow/ });
    expect(await toggle.isChecked()).toBe(true);
    await toggle.click();
    await expect.poll(() => playerArrow(page)).toBeNull();
    await toggle.click();
    await expect.poll(() => playerArrow(page)).not.toBeNull();
  });
});

describe('an admin', () => {
  test('sees no quest actions and no pro controls', async () => {
    const { page } = await browser.newPage();
    await signIn(page, 'admin');
    const quest = onCustoms.find((q) => questMarkerOf.has(q.uid))!;
    const uid = questMarkerOf.get(quest.uid)!;
    await openAt(page, `/map/customs?obj=${encodeURIComponent(uid)}`);
    await page.getByRole('banner').getByRole('button', { name: /^admin\b/ }).waitFor();
    await page.locator(`.marker-popup[data-uid="${uid}"]`).getByRole('dialog').waitFor();

    const list = questList(page);
    await questRow(page, onCustoms[0]).waitFor();
    expect(await list.getByRole('button', { name: /^(Complete|Reopen|Hide|Show): / }).count()).toBe(0);
    expect(await list.getByRole('button', { name: /^Settings/ }).count()).toBe(0);
    expect(await page.locator('.marker-popup__quest-actions').count()).toBe(0);
    expect(await page.getByText('Pro', { exact: true }).count()).toBe(0);
    await page.getByRole('banner').getByRole('button', { name: 'Where am I', exact: true }).click();
    expect(await page.getByLabel('Look direction arrow').count()).toBe(0);
  });

  test('grants and revokes pro from the account menu; the server holds it', async () => {
    const { page } = await browser.newPage();
    await signIn(page, 'admin');
    await openMap(page, 'customs');
    const isPro = async () => {
      const res = await page.request.get(`${baseUrl()}/api/be/admin/users`);
      return ((await res.json()) as { users: { name: string; pro: boolean }[] }).users.find((u) => u.name === 'visitor')?.pro;
    };
    expect(await isPro()).toBe(false);
    await page.getByRole('banner').getByRole('button', { name: /^admin\b/ }).click();
    await page.getByRole('menuitem', { name: 'Accounts and pro' }).click();
    const dialog = page.getByRole('dialog', { name: 'Accounts' });
    const visitorPro = dialog.getByRole('checkbox', { name: 'Pro for visitor' });
    await visitorPro.click();
    await expect.poll(isPro).toBe(true);
    await visitorPro.click();
    await expect.poll(isPro).toBe(false);
  });
});
