/**
 * The other pages: `/` lists every map with a link, an unknown map id shows the not-found
 * page with links to all maps, and following a link from `/` opens that map. `/` lists the Dev
 * test map last, without pixel sizes, and links the Quests page (EN, RU).
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { MAP_IDS, MAPS } from '../src/domain/maps';
import { baseUrl, mapInfo, useBrowser } from './browser';

const browser = useBrowser();

/** Every link to /map/{id} on the page, by id, with its text. */
async function mapLinks(page: Page): Promise<Map<string, string>> {
  const links = await page.$$eval('a[href]', (anchors) =>
    anchors.map((a) => ({ href: new URL((a as HTMLAnchorElement).href).pathname, text: (a.textContent ?? '').trim() })),
  );
  const byId = new Map<string, string>();
  for (const link of links) {
    const m = /^\/map\/([^/]+)\/?$/.exec(link.href);
    if (m) byId.set(m[1], link.text);
  }
  return byId;
}

describe('pages', () => {
  test('/ lists the 12 maps with links', async () => {
    const { page } = await browser.newPage();
    const response = await page.goto(`${baseUrl()}/`);
    expect(response?.status()).toBe(200);
    await page.waitForSelector('a[href*="/map/"]');
    const links = await mapLinks(page);
    expect([...links.keys()].sort()).toEqual([...MAP_IDS].sort());
    const text = await page.locator('body').innerText();
    for (const id of MAP_IDS) expect(text).toContain(MAPS[id].name);
  });

  test('a link on / opens that map', async () => {
    const { page } = await browser.newPage();
    await page.goto(`${baseUrl()}/`);
    await page.locator('a[href$="/map/factory"]').first().click();
    await page.waitForURL('**/map/factory');
    await page.waitForFunction(() => (window as unknown as { __map?: { ready?: boolean } }).__map?.ready === true, undefined, {
      timeout: 45_000,
    });
    expect(await page.title()).toBe('Map - Factory - raidmap');
    expect((await mapInfo(page)).mapId).toBe('factory');
  });

  test('an unknown map id shows the not-found page with links to every map', async () => {
    const { page } = await browser.newPage();
    const response = await page.goto(`${baseUrl()}/map/atlantis`);
    // The SPA answers every page route with index.html; the app renders the not-found page.
    expect(response?.status()).toBe(200);
    await page.waitForSelector('a[href*="/map/"]');
    expect(await page.locator('body').innerText()).toMatch(/not found/i);
    const links = await mapLinks(page);
    expect([...links.keys()].sort()).toEqual([...MAP_IDS].sort());
    // No map engine was started for it.
    expect(await page.evaluate(() => (window as unknown as { __map?: { ready?: boolean } }).__map?.ready === true)).toBe(false);
    expect(await page.locator('canvas').count()).toBe(0);
  });

  for (const [lang, locale, words] of [
    ['EN', 'en-US', { list: 'Maps', dev: 'Dev', test: 'Test map', quests: 'All quests and the maps they are on' }],
    ['RU', 'ru-RU', { list: 'Карты', dev: 'Dev', test: 'Тестовая карта', quests: 'Все квесты и карты, где их выполнять' }],
  ] as const) {
    test(`${lang}: / lists the Dev test map last, shows no pixel sizes, and links the Quests page`, async () => {
      const { page } = await browser.newPage({ locale });
      await page.goto(`${baseUrl()}/`, { waitUntil: 'domcontentloaded' });
      const cards = page.getByRole('list', { name: words.list, exact: true }).getByRole('listitem');
      await expect.poll(() => cards.count()).toBe(MAP_IDS.length);
      const last = cards.last();
      expect(new URL(await last.getByRole('link').evaluate((a) => (a as HTMLAnchorElement).href)).pathname).toBe('/map/dev');
      expect(await last.locator('.map-list__name').textContent()).toBe(words.dev);
      expect(await last.textContent()).toContain(words.test);
      // The number of levels only: no "4400 × 3200".
      expect(await page.locator('body').innerText()).not.toContain('×');

      await page.getByRole('link', { name: words.quests, exact: true }).click();
      await page.waitForURL('**/progression/quests');
      expect(new URL(page.url()).pathname).toBe('/progression/quests');
    });
  }
});
