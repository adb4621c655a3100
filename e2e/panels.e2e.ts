/**
 * The side panels in a real browser: category counts and toggles change the markers drawn
 * (filtered in the worker) and are remembered per map, Hide all / Show all too; Find a marker
 * opens a marker from the keyboard and tries text typed on the other keyboard layout; the level radios and Alt + wheel
 * change the level (markers of other levels at 0.2) without zooming; Settings opens the
 * pro upsell for a visitor.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { iconAtlasSize } from '../src/domain/icon-atlas';
import { SUBCATEGORIES } from '../src/domain/categories';
import { LEVEL_OPACITY, MAPS } from '../src/domain/maps';
import { camera, canvasPoint, markers, openMap, settleCamera, toScreen, useBrowser } from './browser';
import { decodeRgba, meanDiffAround } from './support/image';

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
    // The icon is a cell of the server's icon atlas (one PNG), and the atlas loads.
    const icon = panel.getByRole('checkbox', { name: 'Safe', exact: true }).locator('xpath=..').locator('.sub-category-icon');
    expect(await icon.getAttribute('data-icon')).toBe('Safe');
    expect(await icon.evaluate((el) => getComputedStyle(el).backgroundImage)).toMatch(/\/icons\/atlas\.png(\?v=[\w-]+)?"\)$/);
    const atlasSize = await page.evaluate(async () => {
      const img = new Image();
      img.src = '/icons/atlas.png';
      await img.decode();
      return [img.naturalWidth, img.naturalHeight];
    });
    expect(atlasSize).toEqual([iconAtlasSize().width, iconAtlasSize().height]);

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

  test('Hide all leaves no marker; one category ticked after it shows only it, also after a reload; Show all brings all back', async () => {
    const { page } = await browser.newPage();
    await openMap(page, 'customs');
    const panel = page.getByRole('complementary', { name: 'Categories' });
    const all = (await markers(page)).length;
    await panel.getByRole('button', { name: 'Hide all', exact: true }).click();
    await expect.poll(async () => (await markers(page)).length).toBe(0);
    // Loot markers are not tied to quests: every one of them is drawn.
    const loot = await shownCount(page, 'Loot');
    await panel.getByRole('checkbox', { name: 'Loot', exact: true }).click();
    await expect.poll(async () => (await markers(page)).map((m) => m.category)).toEqual(Array(loot).fill('Loot'));

    await page.reload({ waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => (window as unknown as { __map?: { ready: boolean } }).__map?.ready === true, undefined, { timeout: 45_000 });
    await expect.poll(async () => (await markers(page)).length).toBe(loot);
    await page.getByRole('complementary', { name: 'Categories' }).getByRole('button', { name: 'Show all', exact: true }).click();
    await expect.poll(async () => (await markers(page)).length).toBe(all);
  });

  test('Find a marker, keyboard only: Tab to the field, type, ArrowDown, Enter opens that marker\'s popup with the focus in it; a hidden marker is shown', async () => {
    const { page } = await browser.newPage();
    await openMap(page, 'customs');
    // Hidden first: the search finds every marker of the map, and choosing one shows its category.
    await page.getByRole('complementary', { name: 'Categories' }).getByRole('checkbox', { name: 'Loot', exact: true }).click();
    // Loaded again (the filter is kept), so Tab starts from the top of the page.
    await page.reload({ waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => (window as unknown as { __map?: { ready: boolean } }).__map?.ready === true, undefined, { timeout: 45_000 });
    const field = page.getByRole('combobox', { name: 'Find a marker' });
    for (let i = 0; i < 40 && !(await field.evaluate((el) => el === document.activeElement)); i += 1) await page.keyboard.press('Tab');
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('safe');
    const options = page.getByRole('listbox', { name: 'Markers found' }).getByRole('option');
    await expect.poll(() => options.count()).toBeGreaterThan(0);
    // Loot's safes are hidden: the list says they will be shown.
    await expect.poll(() => options.filter({ hasText: 'hidden, will be shown' }).count()).toBeGreaterThan(0);
    await page.keyboard.press('ArrowDown');
    const chosen = (await page.getByRole('option', { selected: true }).locator('.marker-search__name').textContent())!;
    expect(chosen.toLowerCase()).toContain('safe');
    await page.keyboard.press('Enter');
    const popup = () => page.evaluate(() => (window as unknown as { __map: { popup(): string | null } }).__map.popup());
    await expect.poll(popup).not.toBeNull();
    const uid = (await popup())!;
    // Chosen hidden or not, it is drawn now (its category shown).
    await expect.poll(async () => (await markers(page)).some((m) => m.uid === uid)).toBe(true);
    // The focus moved into the open popup.
    await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('.marker-popup'))).toBe(true);
  });

  test('Find a marker finds by type ("exit": the extractions), says how many, and tells same-named markers apart by level and place', async () => {
    const { page } = await browser.newPage();
    await openMap(page, 'customs');
    const field = page.getByRole('combobox', { name: 'Find a marker' });
    const options = page.getByRole('listbox', { name: 'Markers found' }).getByRole('option');
    // The markers' rows ("Show N more" after them is not a marker).
    const names = () => options.evaluateAll((els) => els.filter((el) => !el.classList.contains('marker-search__show-more')).map((el) => el.getAttribute('aria-label') ?? ''));
    const said = () => page.locator('.live-announcer').textContent();

    // No marker is named "exit": the Extractions category is (an alias), so its markers come.
    await field.fill('exit');
    await expect.poll(() => options.count()).toBeGreaterThan(3);
    for (const name of await names()) expect(name).toMatch(/Extraction|Transition/);
    await expect.poll(said).toMatch(/^\d+ markers/);

    await field.fill('weapon box');
    await expect.poll(() => options.count()).toBeGreaterThan(1);
    const boxes = await names();
    // Every row's accessible name is its own: same label, told apart by level and place.
    expect(new Set(boxes).size).toBe(boxes.length);
    for (const name of boxes) {
      expect(name.toLowerCase()).toContain('weapon box');
      expect(name).toMatch(/Main|Underground|Level \d/);
      expect(name).toMatch(/ m from | by /);
    }
    // Arrowing through the list keeps the active row in sight.
    for (let i = 0; i < 6; i += 1) await page.keyboard.press('ArrowDown');
    const inView = await page.evaluate(() => {
      const list = document.querySelector('.marker-search__list')!.getBoundingClientRect();
      const row = document.querySelector('.marker-search__hit--active')!.getBoundingClientRect();
      return row.top >= list.top - 1 && row.bottom <= list.bottom + 1;
    });
    expect(inView).toBe(true);
  });

  test('Find a marker tries text that finds nothing on the other keyboard layout ("ыфау": safe; in Russian "ctqa": сейф) and says so', async () => {
    for (const { locale, field, typed, switched, words } of [
      { locale: 'en-US', field: 'Find a marker', typed: 'ыфау', switched: 'safe', words: 'Showing results for “safe”' },
      { locale: 'ru-RU', field: 'Найти метку', typed: 'ctqa', switched: 'сейф', words: 'Показаны результаты по запросу «сейф»' },
    ]) {
      const { page } = await browser.newPage({ locale });
      await openMap(page, 'customs');
      const input = page.getByRole('combobox', { name: field });
      const options = page.getByRole('listbox').getByRole('option');
      const note = page.locator('.marker-search__switched');
      await input.fill(typed);
      await expect.poll(() => options.count()).toBeGreaterThan(0);
      await expect.poll(() => note.textContent()).toBe(words);
      expect(await note.isVisible()).toBe(true);
      const first = (await options.first().locator('.marker-search__name').textContent())!;
      expect(first.toLowerCase()).toContain(switched);
      // Text that finds something as typed is never switched.
      await input.fill(switched);
      await expect.poll(() => options.count()).toBeGreaterThan(0);
      await expect.poll(() => note.count()).toBe(0);
      await page.context().close();
    }
  });

  test('on a phone, in Russian, Find a marker finds the extractions by "выход" and its rows are finger-sized', async () => {
    const { page } = await browser.newPage({ width: 390, height: 844, hasTouch: true });
    await openMap(page, 'customs');
    const banner = page.getByRole('banner');
    await banner.getByRole('button', { name: 'Menu' }).tap();
    await banner.getByRole('button', { name: 'RU Русский', exact: true }).tap();
    const menu = banner.getByRole('button', { name: 'Меню' });
    if ((await banner.getByRole('button', { name: 'Показать панели' }).count()) === 0) await menu.tap();
    await banner.getByRole('button', { name: 'Показать панели' }).tap();
    const field = page.getByRole('combobox', { name: 'Найти метку' });
    await field.tap();
    await field.fill('выход');
    const options = page.getByRole('listbox').getByRole('option');
    await expect.poll(() => options.count()).toBeGreaterThan(3);
    const heights = await options.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().height));
    for (const h of heights) expect(h).toBeGreaterThanOrEqual(44);
  });

  for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844, hasTouch: true }]) {
    test(`at ${size.width}×${size.height} the first Tab stops are skip links to Find a marker and to the quests; the panels open for them`, async () => {
      const { page } = await browser.newPage(size);
      await openMap(page, 'customs');
      const hash = new URL(page.url()).hash;
      const focused = () => page.evaluate(() => ({ id: document.activeElement?.id ?? '', text: document.activeElement?.textContent?.trim() ?? '' }));
      await page.keyboard.press('Tab');
      expect((await focused()).text).toBe('Skip to map search');
      // Out of sight until focused, then in view at the top.
      const link = page.getByRole('link', { name: 'Skip to map search' });
      const box = (await link.boundingBox())!;
      expect(box.width).toBeGreaterThan(100);
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y).toBeLessThan(100);
      await page.keyboard.press('Enter');
      // A phone starts with the panels hidden: the link shows them, then focuses the field.
      await expect.poll(focused).toMatchObject({ id: 'map-search-input' });
      expect(await page.getByRole('combobox', { name: 'Find a marker' }).isVisible()).toBe(true);
      expect(new URL(page.url()).hash).toBe(hash);

      await page.reload({ waitUntil: 'domcontentloaded' });
      await page.waitForFunction(() => (window as unknown as { __map?: { ready: boolean } }).__map?.ready === true, undefined, { timeout: 45_000 });
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      expect((await focused()).text).toBe('Skip to quests');
      await page.keyboard.press('Enter');
      await expect.poll(focused).toMatchObject({ id: 'quest-list-title' });
      // The next Tab is inside the quest list.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('[aria-label="Levels and quests"]'))).toBe(true);
    });
  }

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

describe('marker icons', () => {
  /** A 36 px square of the page around a marker that has no other marker near it, in the middle of the map. */
  async function lonelyMarker(page: Page): Promise<{ x: number; y: number }> {
    const drawn = (await markers(page)).filter((m) => m.visible && m.alpha === 1);
    const at = await Promise.all(drawn.map((m) => toScreen(page, m.x, m.y)));
    const i = at.findIndex((p, k) => p.x > 420 && p.x < 860 && p.y > 150 && p.y < 650 && at.every((q, j) => j === k || Math.hypot(q.x - p.x, q.y - p.y) > 60));
    if (i < 0) throw new Error('no marker stands alone in the middle of the view');
    return at[i];
  }
  const square = async (page: Page, p: { x: number; y: number }) =>
    decodeRgba(await page.screenshot({ clip: { x: Math.round(p.x) - 18, y: Math.round(p.y) - 18, width: 36, height: 36 } }));

  test('come from the one atlas image; when it fails, from the SVGs, and look the same', async () => {
    const icons = (page: Page) => {
      const urls: string[] = [];
      page.on('request', (r) => {
        const path = new URL(r.url()).pathname;
        if (path.startsWith('/icons/')) urls.push(path);
      });
      return urls;
    };
    const withAtlas = await browser.newPage();
    const asked = icons(withAtlas.page);
    await openMap(withAtlas.page, 'customs');
    await settleCamera(withAtlas.page);
    expect(asked).toContain('/icons/atlas.png');
    expect(asked.filter((p) => p.endsWith('.svg'))).toEqual([]);
    const spot = await lonelyMarker(withAtlas.page);
    const fromAtlas = await square(withAtlas.page, spot);

    const withoutAtlas = await browser.newPage();
    withoutAtlas.errors.allow(/atlas\.png.*404|404.*atlas\.png|status of 404/);
    await withoutAtlas.page.route(/\/icons\/atlas\.png(\?|$)/, (route) => route.fulfill({ status: 404, contentType: 'application/json', body: '{"error":"not_found"}' }));
    const askedWithout = icons(withoutAtlas.page);
    const warned = new Promise<string>((resolve) => withoutAtlas.page.on('console', (m) => m.type() === 'warning' && m.text().includes('icon atlas') && resolve(m.text())));
    await openMap(withoutAtlas.page, 'customs');
    await settleCamera(withoutAtlas.page);
    expect(await warned).toMatch(/drawing the icons from their SVGs/);
    expect(new Set(askedWithout.filter((p) => p.endsWith('.svg'))).size).toBe(SUBCATEGORIES.length);
    const fromSvgs = await square(withoutAtlas.page, spot);

    // The same icon at the same place: the white glyph is there, and both drawings agree.
    let white = 0;
    for (let o = 0; o < fromAtlas.data.length; o += 4) if (fromAtlas.data[o] > 230 && fromAtlas.data[o + 1] > 230 && fromAtlas.data[o + 2] > 230) white += 1;
    expect(white).toBeGreaterThan(10);
    // (about 0.4 here; another icon in the cell measured 13)
    expect(meanDiffAround(fromAtlas, fromSvgs, 18, 18, 17)).toBeLessThan(4);
  });
});
