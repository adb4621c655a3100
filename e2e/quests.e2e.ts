/**
 * Following quests in a real browser: a followed quest's markers are drawn, a fourth quest is
 * refused with the limit notice (max 280 px wide), `?quest=` selects on load (de-duplicated,
 * cut to 3, with the notice) and the address keeps the selection across a reload. A pro user
 * (a server of its own, with the demo accounts) hides a followed quest from its row: the row
 * stays in place as Show with the focus, the head counts it apart ("1 followed, 1 hidden").
 * Following a quest never moves the map; a followed quest's row has Show, which selects the
 * floor holding its markers and frames them in the part the top bar and panels leave free, and
 * a quiet note counts its markers on other floors ("1 on Level 4") until they are the floor shown.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import type { Quest } from '../src/domain/quests';
import { MAPS } from '../src/domain/maps';
import { baseUrl, camera, canvasPoint, markers, openMap, settleCamera, useBrowser, wheelUntilStill } from './browser';
import { signIn, useEditorServer } from './support/editor';
import { questCatalogue, questsWithMarkersOn } from './support/quests';
import { allInside, elsewhereNote, level, markerPoints, questOnOtherFloor, questPlaces, uncoveredPart, type QuestPlaces } from './support/quest-places';

const browser = useBrowser();

/** Quests with markers on customs, as the server lists them. */
let onCustoms: Quest[] = [];

beforeAll(async () => {
  onCustoms = questsWithMarkersOn(await questCatalogue(baseUrl()), 'customs', 4);
});

function selectedQuests(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __map: { selectedQuests(): string[] } }).__map.selectedQuests());
}

async function questMarkers(page: Page): Promise<number> {
  return (await markers(page)).filter((m) => m.subCategory === 'Quest').length;
}

function questParam(page: Page): string | null {
  return new URL(page.url()).searchParams.get('quest');
}

describe('quests (customs)', () => {
  test('following quests draws their markers; a fourth is refused with the limit notice', async () => {
    const { page } = await browser.newPage();
    await openMap(page, 'customs');
    const list = page.getByRole('complementary', { name: 'Levels and quests' });
    const [a, b, c, d] = onCustoms;
    // Quest-linked markers are drawn only while their quest is followed.
    expect(await questMarkers(page)).toBe(0);

    await list.getByRole('checkbox', { name: a.name, exact: true }).click();
    await expect.poll(() => questMarkers(page)).toBeGreaterThan(0);
    const withA = await questMarkers(page);
    expect(await selectedQuests(page)).toEqual([a.uid]);
    expect(questParam(page)).toBe(a.uid);

    await list.getByRole('checkbox', { name: b.name, exact: true }).click();
    await list.getByRole('checkbox', { name: c.name, exact: true }).click();
    await expect.poll(() => questMarkers(page)).toBeGreaterThan(withA);
    expect(await selectedQuests(page)).toEqual([a.uid, b.uid, c.uid]);
    expect(await page.getByRole('dialog').count()).toBe(0);

    const fourth = list.getByRole('checkbox', { name: d.name, exact: true });
    await fourth.click();
    const notice = page.getByRole('dialog', { name: 'Quest limit' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain('up to 3 quests');
    const box = await notice.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(280);
    expect(await fourth.isChecked()).toBe(false);
    expect(await selectedQuests(page)).toEqual([a.uid, b.uid, c.uid]);
    expect(questParam(page)).toBe([a.uid, b.uid, c.uid].join(','));

    await notice.getByRole('button', { name: 'OK', exact: true }).click();
    await notice.waitFor({ state: 'detached' });
    // Unfollowing one frees a place, and its markers leave the map.
    const withThree = await questMarkers(page);
    await list.getByRole('checkbox', { name: a.name, exact: true }).click();
    await expect.poll(() => questMarkers(page)).toBe(withThree - withA);
    await fourth.click();
    expect(await selectedQuests(page)).toEqual([b.uid, c.uid, d.uid]);
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  test('?quest=a,b,c,d,a selects 3 with the notice, and the selection survives a reload', async () => {
    const { page } = await browser.newPage();
    const [a, b, c, d] = onCustoms;
    await page.goto(`${baseUrl()}/map/customs?quest=${[a, b, c, d, a].map((q) => q.uid).join(',')}`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => (window as unknown as { __map?: { ready: boolean } }).__map?.ready === true, undefined, { timeout: 45_000 });
    await expect.poll(() => selectedQuests(page)).toEqual([a.uid, b.uid, c.uid]);
    const notice = page.getByRole('dialog', { name: 'Quest limit' });
    await notice.waitFor();
    await expect.poll(() => questParam(page)).toBe([a.uid, b.uid, c.uid].join(','));
    await expect.poll(() => questMarkers(page)).toBeGreaterThan(0);
    const list = page.getByRole('complementary', { name: 'Levels and quests' });
    for (const q of [a, b, c]) expect(await list.getByRole('checkbox', { name: q.name, exact: true }).isChecked()).toBe(true);
    expect(await list.getByRole('checkbox', { name: d.name, exact: true }).isChecked()).toBe(false);
    await page.keyboard.press('Escape');
    await notice.waitFor({ state: 'detached' });
    const drawn = await questMarkers(page);

    await page.reload({ waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => (window as unknown as { __map?: { ready: boolean } }).__map?.ready === true, undefined, { timeout: 45_000 });
    await expect.poll(() => selectedQuests(page)).toEqual([a.uid, b.uid, c.uid]);
    await expect.poll(() => questMarkers(page)).toBe(drawn);
    // Three fit the limit: no notice after the reload.
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  test('the quest list follows the language: Russian names sorted in ru', async () => {
    const { page } = await browser.newPage();
    await openMap(page, 'customs');
    // By its class, not its accessible name: the name is translated too.
    const names = () => page.locator('.quest-list .quest-list__label').allTextContents();
    // The rows come just after the map's first view (src/ui/useAfterMapDrawn.ts).
    await expect.poll(async () => (await names()).length).toBeGreaterThan(3);
    const en = await names();
    expect(en).toEqual([...en].sort((x, y) => x.localeCompare(y, 'en', { sensitivity: 'base', numeric: true })));
    await page.getByRole('button', { name: 'RU Русский', exact: true }).click();
    await expect.poll(async () => (await names())[0]).not.toBe(en[0]);
    const ru = await names();
    expect(ru).toHaveLength(en.length);
    expect(ru.every((n) => /[а-яё]/i.test(n))).toBe(true);
    expect(ru).toEqual([...ru].sort((x, y) => x.localeCompare(y, 'ru', { sensitivity: 'base', numeric: true })));
  });
});

describe('showing a followed quest\'s markers (customs)', () => {
  const { defaultLevel } = MAPS.customs;
  let places: QuestPlaces[] = [];
  /** A quest whose customs markers are all on one floor, not the one the map opens on. */
  let far: QuestPlaces & { floor: number };

  beforeAll(async () => {
    places = await questPlaces(baseUrl(), 'customs');
    far = questOnOtherFloor(places, 'customs');
    if (places.length < 4) throw new Error(`need 4 quests with markers on customs, found ${places.length}`);
  });

  test('following moves nothing; Show selects the floor of the quest\'s markers and frames them; the other-floors note goes', async () => {
    const { page } = await browser.newPage();
    await openMap(page, 'customs');
    const list = page.getByRole('complementary', { name: 'Levels and quests' });
    const [first, third, unfollowed] = places.filter((q) => q.quest.uid !== far.quest.uid);
    const showOf = (q: QuestPlaces) =>
      list.locator(`li.quest-list__item[data-quest-uid="${q.quest.uid}"]`).getByRole('button', { name: `Show where “${q.quest.name}” is on the map`, exact: true });
    const note = list.locator(`li.quest-list__item[data-quest-uid="${far.quest.uid}"] .quest-list__elsewhere`);
    const farUids = far.markers.map((m) => m.uid);
    expect(await level(page)).toBe(defaultLevel);
    const opened = await settleCamera(page);

    for (const q of [first, far, third]) await list.getByRole('checkbox', { name: q.quest.name, exact: true }).click();
    await expect.poll(() => selectedQuests(page)).toEqual([first.quest.uid, far.quest.uid, third.quest.uid]);
    await showOf(far).waitFor();
    // The quiet note: its markers are all on another floor ("1 on Level 4").
    await expect.poll(() => note.allTextContents()).toEqual([elsewhereNote('customs', far.markers, defaultLevel)]);
    await expect.poll(async () => (await markerPoints(page, farUids)).length).toBe(far.markers.length);
    // Following three quests moved neither the camera nor the floor.
    expect(await settleCamera(page)).toEqual(opened);
    expect(await level(page)).toBe(defaultLevel);
    // Show is for followed quests only.
    expect(await showOf(unfollowed).count()).toBe(0);

    // Zoomed in far from the quest's markers, so that Show has to move the map.
    await wheelUntilStill(page, -300, await canvasPoint(page, 640, 420));
    const zoomedIn = await settleCamera(page);
    expect(zoomedIn.zoom).toBeGreaterThan(opened.zoom);
    expect(allInside(await markerPoints(page, farUids), await uncoveredPart(page))).toBe(false);

    await showOf(far).click();
    await expect.poll(() => level(page)).toBe(far.floor);
    // Its markers come to the part of the map that the top bar and the panels leave free, and stay there.
    await expect.poll(async () => allInside(await markerPoints(page, farUids), await uncoveredPart(page))).toBe(true);
    const framed = await settleCamera(page);
    expect(allInside(await markerPoints(page, farUids), await uncoveredPart(page))).toBe(true);
    // The zoom is only ever lowered (as far as the markers need).
    expect(framed.zoom).toBeLessThanOrEqual(zoomedIn.zoom);
    // Every marker is on the floor shown: no note.
    await expect.poll(() => note.allTextContents()).toEqual([]);
    expect(await camera(page)).toEqual(framed);
  });
});

describe('a pro user hiding a followed quest (customs)', () => {
  // The shared server has no accounts (production): this one has the demo accounts (accounts.e2e.ts).
  const pro = useEditorServer('quests-pro');
  let quests: Quest[] = [];

  beforeAll(async () => {
    quests = questsWithMarkersOn(await questCatalogue(pro.baseUrl()), 'customs', 2);
  });

  /** Clears the pro demo user's progress, as accounts.e2e.ts does. */
  async function resetProgress(page: Page): Promise<void> {
    for (const data of [{ questsDone: [] }, { questsHidden: [] }]) {
      const res = await page.request.post(`${pro.baseUrl()}/api/be/user/progress`, { data });
      if (!res.ok()) throw new Error(`resetting progress failed: ${res.status()} ${await res.text()}`);
    }
  }

  async function questsHidden(page: Page): Promise<string[]> {
    const res = await page.request.get(`${pro.baseUrl()}/api/be/user`);
    return ((await res.json()) as { questsHidden: string[] }).questsHidden;
  }

  test.each([
    ['a mouse', false],
    ['a touch screen', true],
  ])('with %s, Hide keeps the row in place as Show with the focus; the head reads "1 followed, 1 hidden"; Enter shows it again', async (_, hasTouch) => {
    const { page } = await browser.newPage({ hasTouch });
    await signIn(page, pro.baseUrl(), 'pro');
    await resetProgress(page);
    await page.goto(`${pro.baseUrl()}/map/customs`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => (window as unknown as { __map?: { ready: boolean } }).__map?.ready === true, undefined, { timeout: 45_000 });
    const list = page.getByRole('complementary', { name: 'Levels and quests' });
    const head = list.locator('.quest-list__followed');
    const [a, b] = quests;

    await list.getByRole('checkbox', { name: a.name, exact: true }).click();
    await list.getByRole('checkbox', { name: b.name, exact: true }).click();
    await expect.poll(() => selectedQuests(page)).toEqual([a.uid, b.uid]);
    await expect.poll(() => head.textContent()).toBe('2 followed');

    const row = list.locator(`li.quest-list__item[data-quest-uid="${b.uid}"]`);
    const before = (await row.boundingBox())!;
    await row.getByRole('button', { name: `Hide: ${b.name}`, exact: true }).click();
    await expect.poll(async () => questsHidden(page)).toEqual([b.uid]);

    // The head counts what is seen; the hidden one is counted apart (progress.json "followedHidden").
    await expect.poll(() => head.textContent()).toBe('1 followed, 1 hidden');
    expect(await list.getByRole('button', { name: '1 hidden: show the followed quest you hid', exact: true }).count()).toBe(1);
    // Hiding does not unfollow.
    expect(await selectedQuests(page)).toEqual([a.uid, b.uid]);

    // The row is where it was, its Hide now Show, with the focus.
    const show = row.getByRole('button', { name: `Show: ${b.name}`, exact: true });
    await show.waitFor();
    await expect.poll(() => show.evaluate((el) => el === document.activeElement)).toBe(true);
    // Not a pixel: the head's "1 hidden" button keeps the head's line (on a touch screen too,
    // where it is 44 px tall to aim at); a vanished row, or one moved by a neighbour's height, fails.
    const after = (await row.boundingBox())!;
    expect(Math.abs(after.y - before.y)).toBeLessThan(0.5);
    expect(Math.abs(after.x - before.x)).toBeLessThan(0.5);

    // Enter on it: shown again, on the server too.
    await page.keyboard.press('Enter');
    const hide = row.getByRole('button', { name: `Hide: ${b.name}`, exact: true });
    await hide.waitFor();
    await expect.poll(async () => questsHidden(page)).toEqual([]);
    await expect.poll(() => head.textContent()).toBe('2 followed');
    expect(await selectedQuests(page)).toEqual([a.uid, b.uid]);
    expect(Math.abs((await row.boundingBox())!.y - before.y)).toBeLessThan(0.5);
  });
});
