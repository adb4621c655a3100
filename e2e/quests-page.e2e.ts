/**
 * /progression/quests in Chromium against the real server: every quest of the quest cache is
 * listed with its trader and wiki link, `?quest=` is highlighted and scrolled into view, and
 * a quest links back to the maps where it has markers; following one opens that map with the
 * quest selected. The marker popup's quest link leads here. The map link (`?follow=`) adds its
 * quest to those the tab follows there: at the free limit the one followed longest gives its
 * place, named with Undo, and the map shows the quest's floor and markers; a shared `?quest=`
 * link still replaces what is followed. The "Find a quest" box narrows the list by a quest's name
 * or its trader in either language, the count saying how many match (EN and RU); each card is one
 * Tab stop, ← and → reaching its other controls (docs/DECISIONS.md "Filtering the Quests page"), its
 * first stop its map link. Back from a map link brings the filter, the scroll offset and the focus
 * on the link; on a touch screen the fields take 16 px text and the links are 44 px; a map link to
 * a quest whose markers the filters hide turns them back on, with a note and Undo.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import type { Quest } from '../src/domain/quests';
import { baseUrl, markers, useBrowser } from './browser';
import { tapSize } from './support/layout';
import { questCatalogue } from './support/quests';
import { allInside, level, markerPoints, questOnOtherFloor, questPlaces, uncoveredPart } from './support/quest-places';

const browser = useBrowser();

let questList: Quest[];
let questMaps: Record<string, string[]>;
beforeAll(async () => {
  ({ quests: questList, maps: questMaps } = await questCatalogue(baseUrl()));
});

describe('/progression/quests', () => {
  test('lists every quest with trader and wiki link, and highlights and scrolls to ?quest=', async () => {
    // The quest last in the list, so it has to be scrolled to.
    const sortedNames = questList.map((q) => q.name).sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base', numeric: true }));
    const target = questList.find((q) => q.name === sortedNames[sortedNames.length - 1])!;
    const { page } = await browser.newPage();
    await page.goto(`${baseUrl()}/progression/quests?quest=${encodeURIComponent(target.uid)}`, { waitUntil: 'domcontentloaded' });
    const list = page.getByRole('list', { name: 'Quests' });
    await list.waitFor();
    expect(await page.title()).toBe('Quests - raidmap');
    expect(await list.getByRole('listitem').count()).toBe(questList.length);

    const item = page.locator('li[aria-current="true"]');
    expect(await item.count()).toBe(1);
    expect(await item.getAttribute('data-uid')).toBe(target.uid);
    expect(await item.getByRole('heading').textContent()).toBe(target.name);
    expect(await item.textContent()).toContain(target.trader);
    if (target.wikiUrl) expect(await item.getByRole('link', { name: 'Wiki' }).getAttribute('href')).toBe(target.wikiUrl);
    await expect.poll(() => item.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    })).toBe(true);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  });

  test('a quest links to the maps where it has markers, which open with the quest selected', async () => {
    const [uid, maps] = Object.entries(questMaps).find(([, list]) => list.length > 0)!;
    const quest = questList.find((q) => q.uid === uid)!;
    const { page } = await browser.newPage();
    await page.goto(`${baseUrl()}/progression/quests?quest=${encodeURIComponent(uid)}`, { waitUntil: 'domcontentloaded' });
    const item = page.locator(`li[data-uid="${uid}"]`);
    await item.waitFor();
    const links = item.locator('a[href^="/map/"]');
    await expect.poll(() => links.count()).toBe(maps.length);
    const hrefs = await links.evaluateAll((els) => els.map((el) => el.getAttribute('href')));
    // `follow`: the site's own link adds its quest to those the tab follows there (a shared `quest` link replaces them).
    expect(hrefs).toEqual(maps.map((id) => `/map/${id}?follow=${encodeURIComponent(uid)}`));
    expect(await item.getByRole('heading').textContent()).toBe(quest.name);

    await links.first().click();
    await page.waitForFunction(() => (window as unknown as { __map?: { ready: boolean } }).__map?.ready === true, undefined, { timeout: 45_000 });
    expect(new URL(page.url()).pathname).toBe(`/map/${maps[0]}`);
    await expect.poll(() => page.evaluate(() => (window as unknown as { __map: { selectedQuests(): string[] } }).__map.selectedQuests())).toEqual([uid]);
    // The link's `follow` became the page's own `quest` list.
    await expect.poll(() => new URL(page.url()).searchParams.get('quest')).toBe(uid);
    expect(new URL(page.url()).searchParams.has('follow')).toBe(false);
  });
});

function waitForMap(page: Page): Promise<unknown> {
  return page.waitForFunction(() => (window as unknown as { __map?: { ready: boolean } }).__map?.ready === true, undefined, { timeout: 45_000 });
}

function selectedQuests(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __map: { selectedQuests(): string[] } }).__map.selectedQuests());
}

/** The address's `quest` list, and whether it still has `follow`. */
function addressQuests(page: Page): { follow: boolean; quest: string[] } {
  const params = new URL(page.url()).searchParams;
  return { follow: params.has('follow'), quest: params.get('quest')?.split(',').filter(Boolean) ?? [] };
}

describe('the Quests page\'s map link adds its quest (customs, a visitor: 3 quests at most)', () => {
  test('at the limit the quest followed longest gives its place, named with Undo; the map shows the quest\'s floor; Undo and a reload keep the three', async () => {
    const places = await questPlaces(baseUrl(), 'customs');
    // The link's quest has its markers on another floor than the one the map opens on.
    const far = questOnOtherFloor(places, 'customs');
    const [a, b, c] = places.filter((q) => q.quest.uid !== far.quest.uid).map((q) => q.quest);
    if (!c) throw new Error('need 4 quests with markers on customs');
    const { page } = await browser.newPage();
    // The tab follows three quests on customs.
    await page.goto(`${baseUrl()}/map/customs?quest=${[a, b, c].map((q) => q.uid).join(',')}`, { waitUntil: 'domcontentloaded' });
    await waitForMap(page);
    await expect.poll(() => selectedQuests(page)).toEqual([a.uid, b.uid, c.uid]);

    await page.goto(`${baseUrl()}/progression/quests`, { waitUntil: 'domcontentloaded' });
    const link = page.locator(`li[data-uid="${far.quest.uid}"]`).getByRole('link', { name: 'Customs', exact: true });
    expect(await link.getAttribute('href')).toBe(`/map/customs?follow=${encodeURIComponent(far.quest.uid)}`);
    await link.click();
    await waitForMap(page);

    // Added to the two kept; the first followed gave its place, and the address says so.
    await expect.poll(() => selectedQuests(page)).toEqual([b.uid, c.uid, far.quest.uid]);
    await expect.poll(() => addressQuests(page)).toEqual({ follow: false, quest: [b.uid, c.uid, far.quest.uid] });
    const swap = page.getByRole('complementary', { name: 'Levels and quests' }).locator('.quest-list__swap');
    await swap.waitFor();
    expect(await swap.locator('p').textContent()).toBe(`“${far.quest.name}” is now followed in place of “${a.name}” (free visitors follow up to 3 quests).`);
    // Said in the list, not with the limit notice a 4th quest ticked by hand gets.
    expect(await page.getByRole('dialog', { name: /Quest limit|Quests set aside/ }).count()).toBe(0);
    // The map shows where the quest's markers are: their floor, in the part the top bar and panels leave free.
    await expect.poll(() => level(page)).toBe(far.floor);
    const farUids = far.markers.map((m) => m.uid);
    await expect.poll(async () => allInside(await markerPoints(page, farUids), await uncoveredPart(page))).toBe(true);

    // Undo: the quest that gave its place is followed again, the link's no more.
    await swap.getByRole('button', { name: 'Undo', exact: true }).click();
    await expect.poll(() => selectedQuests(page)).toEqual([a.uid, b.uid, c.uid]);
    await swap.waitFor({ state: 'detached' });
    await expect.poll(() => addressQuests(page)).toEqual({ follow: false, quest: [a.uid, b.uid, c.uid] });

    await page.reload({ waitUntil: 'domcontentloaded' });
    await waitForMap(page);
    await expect.poll(() => selectedQuests(page)).toEqual([a.uid, b.uid, c.uid]);
    expect(await swap.count()).toBe(0);
  });

  test('a shared ?quest= link still replaces the quests the tab follows', async () => {
    const places = await questPlaces(baseUrl(), 'customs');
    const [a, b, c] = places.map((q) => q.quest);
    if (!c) throw new Error('need 3 quests with markers on customs');
    const { page } = await browser.newPage();
    await page.goto(`${baseUrl()}/map/customs?quest=${a.uid},${b.uid}`, { waitUntil: 'domcontentloaded' });
    await waitForMap(page);
    await expect.poll(() => selectedQuests(page)).toEqual([a.uid, b.uid]);
    // Remembered by the tab: the map without `quest` follows them again.
    await page.goto(`${baseUrl()}/map/customs`, { waitUntil: 'domcontentloaded' });
    await waitForMap(page);
    await expect.poll(() => selectedQuests(page)).toEqual([a.uid, b.uid]);

    await page.goto(`${baseUrl()}/map/customs?quest=${c.uid}`, { waitUntil: 'domcontentloaded' });
    await waitForMap(page);
    await expect.poll(() => selectedQuests(page)).toEqual([c.uid]);
    await expect.poll(() => addressQuests(page)).toEqual({ follow: false, quest: [c.uid] });
    expect(await page.locator('.quest-list__swap').count()).toBe(0);
  });
});

/** The Quests page's filter box, count and cards (src/ui/pages/QuestsPage.tsx). */
function questsPage(page: Page, label = 'Find a quest', listLabel = 'Quests') {
  const list = page.getByRole('list', { name: listLabel });
  return {
    box: page.getByRole('searchbox', { name: label }),
    count: page.locator('.quests-page__count[role="status"]'),
    list,
    cards: list.getByRole('listitem'),
    /** The trader each shown card names ("Trader: Prapor"). */
    traders: () => list.locator('.quests-page__meta strong').allTextContents(),
  };
}

/** Where the focus is among the list's cards: the card's index, the control's index within it, its tag, and the card's Tab stops. */
function focusInList(page: Page) {
  return page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    const cards = [...document.querySelectorAll('.quests-page__list > .quests-page__quest')];
    const card = active?.closest('.quests-page__quest') ?? null;
    const controls = card ? [...card.querySelectorAll<HTMLElement>('a[href], button')] : [];
    return {
      card: card ? cards.indexOf(card) : -1,
      control: active ? controls.indexOf(active) : -1,
      tag: active?.tagName ?? '',
      stops: controls.filter((el) => el.tabIndex === 0).length,
    };
  });
}

describe('the Quests page\'s filter and its one Tab stop per quest', () => {
  test('"Find a quest" narrows the list by a Russian trader name, says how many match or that none does, and clearing it lists all again', async () => {
    const prapor = questList.filter((q) => q.trader === 'Prapor');
    if (prapor.length === 0 || prapor.length === questList.length) throw new Error('the quest cache needs some quests of Prapor and some of others');
    const { page } = await browser.newPage();
    await page.goto(`${baseUrl()}/progression/quests`, { waitUntil: 'domcontentloaded' });
    const ui = questsPage(page);
    await ui.list.waitFor();
    await expect.poll(() => ui.count.textContent()).toBe(`${questList.length} quests`);
    expect(await ui.cards.count()).toBe(questList.length);

    // The trader's Russian name on the English page: Prapor's quests, and only his.
    await ui.box.fill('прапор');
    await expect.poll(() => ui.count.textContent()).toBe(`${prapor.length} of ${questList.length} quests`);
    expect(await ui.cards.count()).toBe(prapor.length);
    expect(new Set(await ui.traders())).toEqual(new Set(['Prapor']));

    await ui.box.fill('zzzz');
    await expect.poll(() => ui.count.textContent()).toBe('No quest matches “zzzz”');
    expect(await ui.cards.count()).toBe(0);

    await ui.box.fill('');
    await expect.poll(() => ui.count.textContent()).toBe(`${questList.length} quests`);
    expect(await ui.cards.count()).toBe(questList.length);
  });

  test('on the Russian page: «Найти квест», «Показано квестов: N из M», the trader\'s English name matched too', async () => {
    const prapor = questList.filter((q) => q.trader === 'Prapor');
    const { page } = await browser.newPage({ locale: 'ru-RU' });
    await page.goto(`${baseUrl()}/progression/quests`, { waitUntil: 'domcontentloaded' });
    const ui = questsPage(page, 'Найти квест', 'Квесты');
    await ui.list.waitFor();
    await ui.box.fill('Prapor');
    await expect.poll(() => ui.count.textContent()).toBe(`Показано квестов: ${prapor.length} из ${questList.length}`);
    expect(new Set(await ui.traders())).toEqual(new Set(['Прапор']));
    await ui.box.fill('zzzz');
    await expect.poll(() => ui.count.textContent()).toBe('Нет квестов по запросу «zzzz»');
    expect(await ui.cards.count()).toBe(0);
  });

  test('Tab goes from the box to the first quest and then quest by quest; ← → move within a quest, whose last control stays its Tab stop', async () => {
    const { page } = await browser.newPage();
    await page.goto(`${baseUrl()}/progression/quests`, { waitUntil: 'domcontentloaded' });
    const ui = questsPage(page);
    await ui.list.waitFor();
    // One control of each card is in the Tab order, the others not.
    const cards = await ui.cards.count();
    expect(cards).toBe(questList.length);
    await expect.poll(() => ui.list.locator('[tabindex="0"]').count()).toBe(cards);
    expect(await ui.list.locator('a[href]:not([tabindex="-1"]), button:not([tabindex="-1"])').count()).toBe(cards);

    await ui.box.focus();
    await page.keyboard.press('Tab');
    // A card's first stop is its main action, a link (the first map link, else Wiki), not the ✓.
    await expect.poll(() => focusInList(page)).toMatchObject({ card: 0, tag: 'A' });
    // The next Tab is the next quest's, not this one's next control.
    await page.keyboard.press('Tab');
    await expect.poll(() => focusInList(page)).toMatchObject({ card: 1, tag: 'A' });

    // ← and → within the quest: from its first control (Home), two to the right is its third (after Complete and Hide: the Wiki link).
    await page.keyboard.press('Home');
    await expect.poll(() => focusInList(page)).toMatchObject({ card: 1, control: 0, tag: 'BUTTON' });
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => focusInList(page)).toMatchObject({ card: 1, control: 2, stops: 1 });
    // Every seeded quest has a wiki link: "Wiki: <name> (opens in a new tab)".
    const named = () => page.evaluate(() => document.activeElement!.getAttribute('aria-label'));
    const second = await ui.cards.nth(1).getByRole('heading').textContent();
    expect(await named()).toBe(`Wiki: ${second} (opens in a new tab)`);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => focusInList(page)).toMatchObject({ card: 1, control: 1 });
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => focusInList(page)).toMatchObject({ card: 1, control: 2 });

    // Away and back: the quest's Tab stop is the control last used.
    await page.keyboard.press('Tab');
    await expect.poll(() => focusInList(page)).toMatchObject({ card: 2, tag: 'A' });
    await page.keyboard.press('Shift+Tab');
    await expect.poll(() => focusInList(page)).toMatchObject({ card: 1, control: 2, stops: 1 });
    expect(await named()).toBe(`Wiki: ${second} (opens in a new tab)`);
  });
});

/** The focused element: its tag, its href (a link's), its text, and the uid of the card holding it. */
function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      tag: el?.tagName ?? '',
      href: el?.getAttribute('href') ?? null,
      text: el?.textContent?.trim() ?? '',
      card: el?.closest('.quests-page__quest')?.getAttribute('data-uid') ?? null,
    };
  });
}

describe('the Quests page after a map link, by keyboard and on touch (docs/DECISIONS.md "The Quests page remembers its filter in the history entry")', () => {
  test('Back from a map link brings the filter, the scroll offset and the focus on the link left from; a fresh visit starts empty', async () => {
    // The trader with the most quests on customs: his quests fill more than a window.
    const onCustoms = questList.filter((q) => questMaps[q.uid]?.includes('customs'));
    const counts = new Map<string, number>();
    for (const q of onCustoms) counts.set(q.trader, (counts.get(q.trader) ?? 0) + 1);
    const trader = [...counts].sort(([, a], [, b]) => b - a)[0][0];
    const matching = questList.filter((q) => q.trader === trader);
    const { page } = await browser.newPage();
    await page.goto(`${baseUrl()}/progression/quests`, { waitUntil: 'domcontentloaded' });
    const ui = questsPage(page);
    await ui.list.waitFor();
    await ui.box.fill(trader);
    await expect.poll(() => ui.count.textContent()).toBe(`${matching.length} of ${questList.length} quests`);
    // The last card with a Customs link, brought to the middle of the window.
    const links = ui.list.getByRole('link', { name: 'Customs', exact: true });
    await expect.poll(() => links.count()).toBeGreaterThan(0);
    const link = links.last();
    const uid = await link.evaluate((el) => el.closest('.quests-page__quest')!.getAttribute('data-uid'));
    await link.evaluate((el) => el.closest('.quests-page__quest')!.scrollIntoView({ block: 'center' }));
    const y = await page.evaluate(() => window.scrollY);
    expect(y).toBeGreaterThan(0);

    await link.click();
    await page.waitForURL('**/map/customs**');
    await page.goBack({ waitUntil: 'domcontentloaded' });
    await ui.list.waitFor();
    expect(new URL(page.url()).pathname).toBe('/progression/quests');
    await expect.poll(() => ui.box.inputValue()).toBe(trader);
    await expect.poll(() => ui.count.textContent()).toBe(`${matching.length} of ${questList.length} quests`);
    expect(new Set(await ui.traders())).toEqual(new Set([trader]));
    await expect.poll(async () => Math.abs((await page.evaluate(() => window.scrollY)) - y)).toBeLessThanOrEqual(2);
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'A', card: uid, href: `/map/customs?follow=${encodeURIComponent(uid!)}` });

    // A fresh visit (a new history entry): the box starts empty, every quest listed.
    await page.goto(`${baseUrl()}/`, { waitUntil: 'domcontentloaded' });
    await page.getByRole('link', { name: 'All quests and the maps they are on', exact: true }).click();
    await page.waitForURL('**/progression/quests');
    await ui.list.waitFor();
    await expect.poll(() => ui.count.textContent()).toBe(`${questList.length} quests`);
    expect(await ui.box.inputValue()).toBe('');
  });

  test('a visitor\'s first Tab stop in a card is its map link (or Wiki), never Complete; Enter opens the map, no upsell', async () => {
    const { page } = await browser.newPage();
    await page.goto(`${baseUrl()}/progression/quests`, { waitUntil: 'domcontentloaded' });
    const ui = questsPage(page);
    await ui.list.waitFor();
    await expect.poll(() => ui.list.locator('a[href^="/map/"]').count()).toBeGreaterThan(0);
    await ui.box.focus();
    await page.keyboard.press('Tab');
    await expect.poll(async () => (await focused(page)).card).not.toBeNull();
    const first = await focused(page);
    expect(first.tag).toBe('A');
    // The first card's main action: its first map link when it has one, else its wiki link.
    const firstUid = await ui.cards.first().getAttribute('data-uid');
    const maps = questMaps[firstUid!] ?? [];
    if (maps.length > 0) expect(first.href).toBe(`/map/${maps[0]}?follow=${encodeURIComponent(firstUid!)}`);
    else expect(first.text).toBe('Wiki');
    // The next card's stop is a link too.
    await page.keyboard.press('Tab');
    await expect.poll(async () => (await focused(page)).tag).toBe('A');

    // Back to the first: Enter on a map link opens its map, without the Pro upsell.
    await page.keyboard.press('Shift+Tab');
    if (maps.length === 0) return;
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/map/${maps[0]}**`);
    await waitForMap(page);
    expect(await page.locator('.upsell-popup').count()).toBe(0);
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  test('on a 390×844 touch screen the search box, the /pilot code field and the sign-in fields take 16 px text and 44 px; map and wiki links are 44 px', async () => {
    const { page } = await browser.newPage({ width: 390, height: 844, hasTouch: true });
    const fontSize = (target: ReturnType<Page['locator']>) => target.evaluate((el) => getComputedStyle(el).fontSize);
    await page.goto(`${baseUrl()}/progression/quests`, { waitUntil: 'domcontentloaded' });
    const ui = questsPage(page);
    await ui.list.waitFor();
    expect(await fontSize(ui.box)).toBe('16px');
    expect(await tapSize(ui.box)).toBeGreaterThanOrEqual(44);
    const card = ui.cards.filter({ has: page.locator('a[href^="/map/"]') }).first();
    await card.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const mapLink = card.locator('a[href^="/map/"]').first();
    const wiki = card.getByRole('link', { name: /^Wiki: / });
    expect(await tapSize(mapLink)).toBeGreaterThanOrEqual(44);
    expect(await tapSize(wiki)).toBeGreaterThanOrEqual(44);

    await page.goto(`${baseUrl()}/pilot`, { waitUntil: 'domcontentloaded' });
    const code = page.locator('input.pilot-input--code');
    await code.waitFor();
    await code.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    expect(await fontSize(code)).toBe('16px');
    expect(await tapSize(code)).toBeGreaterThanOrEqual(44);

    await page.goto(`${baseUrl()}/`, { waitUntil: 'domcontentloaded' });
    await page.getByRole('button', { name: 'Sign in', exact: true }).tap();
    const dialog = page.getByRole('dialog', { name: 'Sign in' });
    await dialog.waitFor();
    for (const name of ['Name', 'Password']) {
      const field = dialog.getByLabel(name, { exact: true });
      expect(await fontSize(field)).toBe('16px');
      expect(await tapSize(field)).toBeGreaterThanOrEqual(44);
    }
  });
});

describe('a Quests-page map link to a quest whose markers the filters hide (docs/DECISIONS.md "Showing a quest\'s markers the filters hide")', () => {
  test('?follow= turns Quests back on with a note; Undo hides them again and the note goes', async () => {
    const [target] = await questPlaces(baseUrl(), 'customs');
    const uids = target.markers.map((m) => m.uid);
    const { page } = await browser.newPage();
    // Quests hidden on customs, as the category panel stores it (src/state/filters.ts).
    await page.goto(`${baseUrl()}/`, { waitUntil: 'domcontentloaded' });
    await page.evaluate(() => localStorage.setItem('map:filters:customs', JSON.stringify({ hiddenCategories: ['Quests'], hiddenSubCategories: [] })));
    await page.goto(`${baseUrl()}/map/customs?follow=${encodeURIComponent(target.quest.uid)}`, { waitUntil: 'domcontentloaded' });
    await waitForMap(page);
    await expect.poll(() => selectedQuests(page)).toEqual([target.quest.uid]);
    const quests = page.getByRole('complementary', { name: 'Categories' }).getByRole('checkbox', { name: 'Quests', exact: true });
    const drawn = async () => (await markers(page)).filter((m) => uids.includes(m.uid) && m.visible).length;

    await expect.poll(() => quests.isChecked()).toBe(true);
    await expect.poll(drawn).toBeGreaterThan(0);
    const note = page.getByRole('complementary', { name: 'Levels and quests' }).locator('.quest-list__filters-on');
    await note.waitFor();
    expect(await note.locator('p').textContent()).toBe('Turned back on in the filters to show this quest’s markers: Quests.');

    await note.getByRole('button', { name: 'Undo', exact: true }).click();
    await expect.poll(() => quests.isChecked()).toBe(false);
    await expect.poll(drawn).toBe(0);
    await note.waitFor({ state: 'detached' });
    // Undo hides them again; the quest stays followed.
    expect(await selectedQuests(page)).toEqual([target.quest.uid]);
  });
});
