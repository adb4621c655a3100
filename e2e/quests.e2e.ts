/**
 * Following quests in a real browser: a followed quest's markers are drawn, a fourth quest is
 * refused with the limit notice (max 280 px wide), `?quest=` selects on load (de-duplicated,
 * cut to 3, with the notice) and the address keeps the selection across a reload.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import type { Quest } from '../src/domain/quests';
import { baseUrl, markers, openMap, useBrowser } from './browser';

const browser = useBrowser();

/** Quests with markers on customs, as the server lists them. */
let onCustoms: Quest[] = [];

beforeAll(async () => {
  const [quests, maps] = await Promise.all([
    fetch(`${baseUrl()}/api/be/quests`).then((r) => r.json() as Promise<{ quests: Quest[] }>),
    fetch(`${baseUrl()}/api/be/quests/maps`).then((r) => r.json() as Promise<{ maps: Record<string, string[]> }>),
  ]);
  onCustoms = quests.quests.filter((q) => maps.maps[q.uid]?.includes('customs'));
  if (onCustoms.length < 4) throw new Error(`need 4 quests with markers on customs, found ${onCustoms.length}`);
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
