/**
 * /progression/quests in Chromium against the real server: every quest of the quest cache is
 * listed with its trader and wiki link, `?quest=` is highlighted and scrolled into view, and
 * a quest links back to the maps where it has markers; following one opens that map with the
 * quest selected. The marker popup's quest link leads here.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { Quest } from '../src/domain/quests';
import { baseUrl, useBrowser } from './browser';

const browser = useBrowser();

let questList: Quest[];
let questMaps: Record<string, string[]>;
beforeAll(async () => {
  questList = ((await (await fetch(`${baseUrl()}/api/be/quests`)).json()) as { quests: Quest[] }).quests;
  questMaps = ((await (await fetch(`${baseUrl()}/api/be/quests/maps`)).json()) as { maps: Record<string, string[]> }).maps;
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
