/**
 * The side panels in a real browser: category counts and toggles change the markers drawn
 * (filtered in the worker) and are remembered per map; the level radios and Alt + wheel
 * change the level (markers of other levels at 0.2) without zooming; Settings opens the
 * pro upsell for a visitor.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { LEVEL_OPACITY, MAPS } from '../src/domain/maps';
import { camera, canvasPoint, markers, openMap, settleCamera, useBrowser } from './browser';

const browser = useBrowser();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function level(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __map: { level(): number } }).__map.level());
}

/** The count shown beside a category or subcategory checkbox. */
async function shownCount(page: Page, name: string): Promise<number> {
  const box = page.getByRole('complementary', { name: 'Categories' }).getByRole('checkbox', { name, exact: true });
  const text = await box.evaluate((el) => el.closest('.category-row')?.querySelector('.category-row__count')?.textContent ?? '');
  return Number(text);
}

describe('category panel (customs)', () => {
  test('counts per subcategory, and toggles shrink and grow the markers drawn', async () => {
    const { page } = await browser.newPage();
    await openMap(page, 'customs');
    const panel = page.getByRole('complementary', { name: 'Categories' });
    const all = await markers(page);
    const byCategory = (list: typeof all, category: string) => list.filter((m) => m.category === category).length;

    const loot = await shownCount(page, 'Loot');
    const safe = await shownCount(page, 'Safe');
    expect(loot).toBeGreaterThan(0);
    expect(safe).toBeGreaterThan(0);
    // Loot and Safe markers are not tied to quests: every one of them is drawn.
    expect(byCategory(all, 'Loot')).toBe(loot);
    expect(all.filter((m) => m.subCategory === 'Safe')).toHaveLength(safe);
    const subs = ['Cache', 'Ammo Box', 'Weapon Box', 'Safe'];
    let sum = 0;
    for (const name of subs) sum += await shownCount(page, name);
    expect(sum).toBeLessThanOrEqual(loot);
    const icon = panel.getByRole('checkbox', { name: 'Safe', exact: true }).locator('xpath=..').locator('img');
    expect(await icon.getAttribute('src')).toBe('/icons/safe.svg');
    await expect.poll(() => icon.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);

    await panel.getByRole('checkbox', { name: 'Loot', exact: true }).click();
    await expect.poll(async () => (await markers(page)).length).toBe(all.length - loot);
    expect(byCategory(await markers(page), 'Loot')).toBe(0);
    expect(await panel.getByRole('checkbox', { name: 'Safe', exact: true }).isChecked()).toBe(false);

    // Showing one subcategory of the hidden category shows only that one.
    await panel.getByRole('checkbox', { name: 'Safe', exact: true }).click();
    await expect.poll(async () => (await markers(page)).length).toBe(all.length - loot + safe);

    await panel.getByRole('checkbox', { name: 'Loot', exact: true }).click();
    await expect.poll(async () => (await markers(page)).length).toBe(all.length);

    await panel.getByRole('checkbox', { name: 'PMC Extraction', exact: true }).click();
    const pmc = await shownCount(page, 'PMC Extraction');
    await expect.poll(async () => (await markers(page)).length).toBe(all.length - pmc);
  });

  test('the filter is remembered for the map across a reload', async () => {
    const { page } = await browser.newPage();
    await openMap(page, 'customs');
    const before = (await markers(page)).length;
    const spawns = await shownCount(page, 'Spawns');
    await page.getByRole('checkbox', { name: 'Spawns', exact: true }).click();
    await expect.poll(async () => (await markers(page)).length).toBe(before - spawns);

    await page.reload({ waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => (window as unknown as { __map?: { ready: boolean } }).__map?.ready === true, undefined, { timeout: 45_000 });
    expect(await page.getByRole('checkbox', { name: 'Spawns', exact: true }).isChecked()).toBe(false);
    expect((await markers(page)).length).toBe(before - spawns);
    expect((await markers(page)).some((m) => m.category === 'Spawns')).toBe(false);

    // Another map keeps its own filter.
    await openMap(page, 'woods');
    expect(await page.getByRole('checkbox', { name: 'Spawns', exact: true }).isChecked()).toBe(true);
  });
});

describe('levels (factory)', () => {
  const factory = MAPS.factory;

  test('the level radios switch the level and dim markers of other levels to 0.2', async () => {
    const { page } = await browser.newPage();
    await openMap(page, factory.id);
    const levels = page.getByRole('group', { name: 'Levels' });
    const labels = await levels.getByRole('radio').evaluateAll((radios) => radios.map((r) => r.closest('label')?.textContent));
    expect(labels).toEqual(['Level 3', 'Level 2', 'Main', 'Basement']);
    expect(await level(page)).toBe(1);
    expect(await levels.getByRole('radio', { name: 'Main' }).isChecked()).toBe(true);

    await levels.getByRole('radio', { name: 'Level 2' }).click();
    expect(await level(page)).toBe(2);
    await expect
      .poll(async () => (await markers(page)).every((m) => m.alpha === (m.level === 2 ? LEVEL_OPACITY.selected : LEVEL_OPACITY.otherLevelMarker)))
      .toBe(true);
    const list = await markers(page);
    expect(list.some((m) => m.level === 2)).toBe(true);
    expect(list.some((m) => m.level !== 2)).toBe(true);

    await levels.getByRole('radio', { name: 'Basement' }).click();
    expect(await level(page)).toBe(-1);
    await expect.poll(async () => (await markers(page)).filter((m) => m.alpha === 1).every((m) => m.level === -1)).toBe(true);
  });

  test('Alt + wheel steps the level up and down, clamped, and never zooms', async () => {
    const { page } = await browser.newPage();
    await openMap(page, factory.id);
    const at = await canvasPoint(page, 640, 420);
    await page.mouse.move(at.x, at.y);
    const before = await settleCamera(page);
    const radios = page.getByRole('group', { name: 'Levels' });

    await page.keyboard.down('Alt');
    await page.mouse.wheel(0, -120);
    await expect.poll(() => level(page)).toBe(2);
    expect(await radios.getByRole('radio', { name: 'Level 2' }).isChecked()).toBe(true);
    for (let i = 0; i < 4; i += 1) {
      await page.mouse.wheel(0, -120);
      await sleep(80);
    }
    await expect.poll(() => level(page)).toBe(3);
    for (let i = 0; i < 6; i += 1) {
      await page.mouse.wheel(0, 120);
      await sleep(80);
    }
    await expect.poll(() => level(page)).toBe(-1);
    await page.keyboard.up('Alt');

    const after = await settleCamera(page);
    expect(after.zoom).toBe(before.zoom);
    expect(after.x).toBeCloseTo(before.x, 6);
    expect(after.y).toBeCloseTo(before.y, 6);
    await expect.poll(async () => (await markers(page)).filter((m) => m.alpha === 1).every((m) => m.level === -1)).toBe(true);

    // Without Alt the wheel zooms again.
    await page.mouse.wheel(0, -120);
    await expect.poll(async () => (await camera(page)).zoom).toBeGreaterThan(before.zoom);
    expect(await level(page)).toBe(-1);
  });
});

describe('settings', () => {
  test('a visitor sees Settings marked Pro, and it opens the pro upsell', async () => {
    const { page } = await browser.newPage();
    await openMap(page, 'customs');
    const settings = page.getByRole('complementary', { name: 'Levels and quests' }).getByRole('button', { name: 'Settings', exact: true });
    expect(await settings.textContent()).toContain('Pro');
    await settings.click();
    const dialog = page.getByRole('dialog', { name: 'raidmap Pro' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('paid subscription');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });
});
