/**
 * Marker links and Find a marker where the marker is not simply there to open, on a server of
 * this file's own (demo accounts, customs and factory seeded): a `?obj=` link of customs naming
 * a factory marker goes to the factory map with that marker open, replacing the history entry,
 * never "Marker not found"; a visitor already following 3 quests who opens a 4th quest's marker
 * (typed into Find a marker, or by a link) is told which quest gave its place, with Undo that
 * follows it again; and a pro user's marker of a quest they completed says why the map does not
 * draw it, with "Mark not done", after which it is drawn.
 */
import { rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { Page } from 'playwright-core';
import type { Marker } from '../src/domain/marker';
import type { Quest } from '../src/domain/quests';
import { useBrowser } from './browser';
import { PASSWORD, waitReady } from './support/editor';
import { freshDataDir, startServer, type RunningServer } from './support/server';

const browser = useBrowser();
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = freshDataDir('raidmap-e2e-links-');
let server: RunningServer | undefined;

function base(): string {
  if (!server) throw new Error('the links server did not start');
  return server.baseUrl;
}

async function markerList(map: string): Promise<Marker[]> {
  const res = await fetch(`${base()}/api/be/markers/list?map=${map}`);
  if (!res.ok) throw new Error(`the ${map} marker list answered ${res.status}`);
  return ((await res.json()) as { markers: Marker[] }).markers;
}

/** A factory marker of no quest (opened on any map it would just open). */
let factoryMarker: Marker;
/** Three quests with markers on customs (a visitor's limit), and a fourth with one marker of a name no other customs marker has. */
let followed: Quest[];
let fourth: Quest;
let fourthMarker: Marker;

beforeAll(async () => {
  server = await startServer({
    repoRoot,
    dataDir,
    env: { NODE_ENV: 'development', DEMO_ACCOUNTS: '1', SEED_MAPS: 'customs,factory', TILES_DIR: inject('tilesDir') },
    tilesTimeoutMs: 120_000,
  });
  const [factory, customs, quests] = await Promise.all([
    markerList('factory'),
    markerList('customs'),
    fetch(`${base()}/api/be/quests`).then((r) => r.json() as Promise<{ quests: Quest[] }>),
  ]);
  const plain = factory.find((m) => !m.questUid);
  if (!plain) throw new Error('no factory marker without a quest');
  factoryMarker = plain;
  const sameName = (name: string) => customs.filter((m) => m.name === name).length;
  const questsOnCustoms = quests.quests.filter((q) => customs.some((m) => m.questUid === q.uid));
  const withUnique = questsOnCustoms.map((q) => ({ q, m: customs.find((m) => m.questUid === q.uid && m.name !== '' && sameName(m.name) === 1) }));
  const pick = withUnique.find((x) => x.m);
  if (!pick?.m) throw new Error('no customs quest marker with a name of its own');
  fourth = pick.q;
  fourthMarker = pick.m;
  followed = questsOnCustoms.filter((q) => q.uid !== fourth.uid).slice(0, 3);
  if (followed.length < 3) throw new Error(`need 4 quests with markers on customs, found ${questsOnCustoms.length}`);
});

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function openAt(page: Page, path: string): Promise<void> {
  await page.goto(`${base()}${path}`, { waitUntil: 'domcontentloaded' });
  await waitReady(page);
}

const popup = (page: Page) => page.evaluate(() => window.__map!.popup());
const drawn = (page: Page, uid: string) => page.evaluate((id) => window.__map!.markers().some((m) => m.uid === id && m.visible), uid);
const selectedQuests = (page: Page) => page.evaluate(() => window.__map!.selectedQuests());
const questParam = (page: Page) => new URL(page.url()).searchParams.get('quest')?.split(',').filter(Boolean) ?? [];
const questBox = (page: Page, quest: Quest) => page.getByRole('complementary', { name: 'Levels and quests' }).getByRole('checkbox', { name: quest.name, exact: true });
const popupOf = (page: Page, uid: string) => page.locator(`.marker-popup[data-uid="${uid}"]`).getByRole('dialog');
const followedLink = () => `/map/customs?quest=${followed.map((q) => q.uid).join(',')}`;

/** The popup's note for the 4th quest's marker: it followed the 4th quest in place of the first one. */
async function expectSwapNote(page: Page): Promise<void> {
  await expect.poll(() => popup(page)).toBe(fourthMarker.uid);
  const note = popupOf(page, fourthMarker.uid).locator('.marker-popup__quest-swap');
  await expect.poll(() => note.textContent()).toContain(`“${fourth.name}” is now followed in place of “${followed[0].name}”`);
  // The address follows the swap: the 4th quest instead of the first.
  await expect.poll(() => questParam(page)).toEqual(expect.arrayContaining([fourth.uid, followed[1].uid, followed[2].uid]));
  expect(questParam(page)).not.toContain(followed[0].uid);
  // Said in the popup, not with the limit upsell a 4th quest ticked by hand gets.
  expect(await page.getByRole('dialog', { name: 'Quest limit' }).count()).toBe(0);
  // Its quest followed, the marker is on the map.
  await expect.poll(() => drawn(page, fourthMarker.uid)).toBe(true);
}

describe('a link to another map\'s marker', () => {
  test('/map/customs?obj=<a factory marker> goes to /map/factory with it open, in place of the link in the history', async () => {
    const { page } = await browser.newPage();
    // The home page first: the history then has one entry before the link.
    await page.goto(`${base()}/`, { waitUntil: 'domcontentloaded' });
    await page.goto(`${base()}/map/customs?obj=${factoryMarker.uid}`, { waitUntil: 'domcontentloaded' });
    // Read on the customs page, before its markers are loaded and the link is looked for.
    expect(new URL(page.url()).pathname).toBe('/map/customs');
    const entries = await page.evaluate(() => history.length);
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 30_000 }).toBe('/map/factory');
    expect(new URL(page.url()).searchParams.get('obj')).toBe(factoryMarker.uid);
    await waitReady(page);
    await expect.poll(() => page.evaluate(() => window.__map!.mapId)).toBe('factory');
    await expect.poll(() => popup(page), { timeout: 20_000 }).toBe(factoryMarker.uid);
    expect(await page.getByText('Marker not found').count()).toBe(0);
    // Replaced, not pushed: as many history entries as before, and Back leaves the maps.
    expect(await page.evaluate(() => history.length)).toBe(entries);
    await page.goBack({ waitUntil: 'domcontentloaded' });
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
  });
});

describe('a visitor at the free limit opens a 4th quest\'s marker', () => {
  test('Find a marker says which quest it will replace, the popup says it did, and Undo follows that quest again', async () => {
    const { page } = await browser.newPage();
    await openAt(page, followedLink());
    await expect.poll(() => questParam(page)).toEqual(followed.map((q) => q.uid));

    const field = page.getByRole('combobox', { name: 'Find a marker' });
    await field.click();
    await page.keyboard.type(fourthMarker.name);
    const options = page.getByRole('listbox', { name: 'Markers found' }).getByRole('option');
    const row = options.filter({ has: page.locator('.marker-search__name', { hasText: fourthMarker.name }) }).first();
    await row.waitFor();
    // Before the choice, the row says what choosing it does.
    expect(await row.textContent()).toContain(`in place of “${followed[0].name}”`);
    // Arrow down to that row (the list may hold others with the same words), then Enter.
    const index = await options.evaluateAll((els, name) => els.findIndex((el) => el.querySelector('.marker-search__name')?.textContent === name), fourthMarker.name);
    for (let i = 0; i <= index; i += 1) await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.getByRole('option', { selected: true }).locator('.marker-search__name').textContent()).toBe(fourthMarker.name);
    await page.keyboard.press('Enter');
    await expectSwapNote(page);

    // Undo: the first quest is followed again, the 4th no more, and the popup closes with its marker.
    await popupOf(page, fourthMarker.uid).getByRole('button', { name: 'Undo', exact: true }).click();
    await expect.poll(() => popup(page)).toBeNull();
    await expect.poll(() => questBox(page, followed[0]).isChecked()).toBe(true);
    expect(await questBox(page, fourth).isChecked()).toBe(false);
    await expect.poll(() => selectedQuests(page)).toEqual(expect.arrayContaining(followed.map((q) => q.uid)));
    expect(await selectedQuests(page)).not.toContain(fourth.uid);
    // A closed popup takes `obj` and `quest` out of the address (useObjUrl.ts, spec §4); the quests stay followed.
    await expect.poll(() => new URL(page.url()).searchParams.has('obj')).toBe(false);
    await expect.poll(() => drawn(page, fourthMarker.uid)).toBe(false);
  });

  test('a link with 3 quests and the 4th quest\'s marker says the same in its popup', async () => {
    const { page } = await browser.newPage();
    await openAt(page, `${followedLink()}&obj=${fourthMarker.uid}`);
    await expectSwapNote(page);
    expect(await questBox(page, followed[0]).isChecked()).toBe(false);
    expect(await questBox(page, fourth).isChecked()).toBe(true);
  });
});

describe('a pro user\'s marker of a completed quest', () => {
  test('its link\'s popup says why it is not drawn, and "Mark not done" draws it', async () => {
    const { page } = await browser.newPage();
    const login = await page.request.post(`${base()}/api/be/auth/login`, { data: { name: 'pro', password: PASSWORD } });
    expect(login.ok()).toBe(true);
    const progress = (questsDone: string[]) => page.request.post(`${base()}/api/be/user/progress`, { data: { questsDone } });
    expect((await progress([fourth.uid])).ok()).toBe(true);
    try {
      await openAt(page, `/map/customs?obj=${fourthMarker.uid}`);
      await expect.poll(() => popup(page)).toBe(fourthMarker.uid);
      const note = popupOf(page, fourthMarker.uid).locator('.marker-popup__quest-off');
      await expect.poll(() => note.textContent()).toContain('You completed this quest, so its markers are hidden on the map.');
      expect(await drawn(page, fourthMarker.uid)).toBe(false);

      await note.getByRole('button', { name: 'Mark not done', exact: true }).click();
      await note.waitFor({ state: 'detached' });
      await expect.poll(() => drawn(page, fourthMarker.uid)).toBe(true);
      const user = (await (await page.request.get(`${base()}/api/be/user`)).json()) as { questsDone: string[] };
      expect(user.questsDone).toEqual([]);
    } finally {
      await progress([]);
    }
  });
});
