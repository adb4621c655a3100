/**
 * The top bar in Chromium: full screen through the Fullscreen API with its label following,
 * Show / Hide panels, the help popup's four position hints (really loaded), the /pilot page,
 * the language switch, and on a phone the Menu folding when Where am I opens.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { openMap, useBrowser } from './browser';

const browser = useBrowser();

/**
 * Where am I › Help (the names in the page's language): the dialog, its four pictures once all
 * are loaded, and their paths.
 */
async function openHelp(page: Page, names: { whereAmI: string; help: string; title: string }) {
  await page.getByRole('button', { name: names.whereAmI }).click();
  await page.getByRole('button', { name: names.help, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: names.title });
  await dialog.waitFor();
  const images = dialog.getByRole('img');
  expect(await images.count()).toBe(4);
  await expect
    .poll(() => images.evaluateAll((list) => list.map((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0)))
    .toEqual([true, true, true, true]);
  const sources = await images.evaluateAll((list) => list.map((img) => new URL((img as HTMLImageElement).src).pathname));
  return { dialog, images, sources };
}

describe('top bar', () => {
  test('Full screen enters and leaves full screen, the label following the state', async () => {
    const { page } = await browser.newPage();
    await openMap(page, 'factory');
    const fullscreen = () => page.evaluate(() => document.fullscreenElement !== null);
    expect(await fullscreen()).toBe(false);

    await page.getByRole('button', { name: 'Full screen', exact: true }).click();
    await expect.poll(fullscreen).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: 'Exit full screen' }).isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Exit full screen' }).click();
    await expect.poll(fullscreen).toBe(false);
    await expect.poll(() => page.getByRole('button', { name: 'Full screen', exact: true }).isVisible()).toBe(true);
  });

  test('Hide panels hides both side panels and Show panels brings them back', async () => {
    const { page } = await browser.newPage();
    await openMap(page, 'customs');
    const panels = page.getByRole('complementary');
    expect(await panels.count()).toBe(2);
    await page.getByRole('button', { name: 'Hide panels' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Show panels' }).isVisible()).toBe(true);
    await expect.poll(() => panels.count()).toBe(0);
    await page.getByRole('button', { name: 'Show panels' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Hide panels' }).isVisible()).toBe(true);
    await expect.poll(() => panels.count()).toBe(2);
  });

  test('panels hidden stay hidden through a reload of the tab, and a new tab shows them', async () => {
    const { page } = await browser.newPage();
    await openMap(page, 'customs');
    await page.getByRole('button', { name: 'Hide panels' }).click();
    await expect.poll(() => page.getByRole('complementary').count()).toBe(0);
    await page.reload({ waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => (window as unknown as { __map?: { ready: boolean } }).__map?.ready === true, undefined, { timeout: 45_000 });
    expect(await page.getByRole('button', { name: 'Show panels' }).isVisible()).toBe(true);
    expect(await page.getByRole('complementary').count()).toBe(0);
    // Another tab of the same browser starts with them.
    const other = await page.context().newPage();
    await openMap(other, 'customs');
    await expect.poll(() => other.getByRole('complementary').count()).toBe(2);
    // Shown again, a reload keeps them shown.
    await page.getByRole('button', { name: 'Show panels' }).click();
    await page.reload({ waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => (window as unknown as { __map?: { ready: boolean } }).__map?.ready === true, undefined, { timeout: 45_000 });
    await expect.poll(() => page.getByRole('complementary').count()).toBe(2);
  });

  test('in Russian, the help popup shows the four position hints drawn in Russian', async () => {
    const { page } = await browser.newPage({ locale: 'ru-RU' });
    await openMap(page, 'factory');
    const { images, sources } = await openHelp(page, { whereAmI: 'Где я', help: 'Помощь', title: 'Где я: как найти свою позицию' });
    expect(sources).toEqual(['1-screenshot-key', '2-screenshots-folder', '3-copy-file-name', '4-paste-in-raidmap'].map((name) => `/public-images/pos-hints/ru/${name}.svg`));
    expect(await images.first().getAttribute('alt')).toMatch(/клавишей скриншота/);
  });

  test('the help popup shows four loaded position hints and links to /pilot', async () => {
    const { page } = await browser.newPage();
    await openMap(page, 'factory');
    const { dialog, sources } = await openHelp(page, { whereAmI: 'Where am I', help: 'Help', title: 'Where am I: finding your position' });
    for (const src of sources) expect(src).toMatch(/^\/public-images\/pos-hints\/\d-[a-z-]+\.svg$/);

    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);

    await page.getByRole('button', { name: 'Help' }).click();
    await dialog.getByRole('link', { name: 'Live position feed' }).click();
    await page.waitForURL(/\/pilot$/);
    await page.getByRole('heading', { name: 'Live position feed', level: 1 }).waitFor();
    expect(await page.title()).toBe('Live position - raidmap');
    await page.getByRole('link', { name: 'Back to the maps' }).click();
    await page.waitForURL((url) => url.pathname === '/');
  });

  test('the language switch turns the labels Russian and back', async () => {
    const { page } = await browser.newPage();
    await openMap(page, 'factory');
    await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'RU Русский', exact: true }).click();
    await page.getByRole('button', { name: 'Скрыть панели' }).waitFor();
    expect(await page.getByRole('button', { name: 'Где я' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Во весь экран' }).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ru');
    await expect.poll(() => page.title()).toBe('Карта - Завод - raidmap');

    // The choice survives a reload.
    await page.reload({ waitUntil: 'domcontentloaded' });
    await page.getByRole('button', { name: 'Скрыть панели' }).waitFor();

    await page.getByRole('group', { name: 'Язык' }).getByRole('button', { name: 'EN English', exact: true }).click();
    await page.getByRole('button', { name: 'Hide panels' }).waitFor();
    expect(await page.getByRole('button', { name: 'Where am I' }).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
  });

  test('a Russian browser gets the Russian UI on its first visit; a choice of English then wins', async () => {
    const { page } = await browser.newPage({ locale: 'ru-RU' });
    await openMap(page, 'factory');
    await page.getByRole('button', { name: 'Скрыть панели' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ru');
    await page.getByRole('group', { name: 'Язык' }).getByRole('button', { name: 'EN English', exact: true }).click();
    await page.getByRole('button', { name: 'Hide panels' }).waitFor();
    await page.reload({ waitUntil: 'domcontentloaded' });
    await page.getByRole('button', { name: 'Hide panels' }).waitFor();
  });

  test('on a phone, Where am I folds the open Menu and puts the focus in its box', async () => {
    const { page } = await browser.newPage({ width: 390, height: 844, hasTouch: true });
    await openMap(page, 'customs');
    const banner = page.getByRole('banner');
    const menu = banner.getByRole('button', { name: 'Menu' });
    await menu.tap();
    await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => page.locator('.topbar__more--open').count()).toBe(1);

    await banner.getByRole('button', { name: 'Where am I' }).tap();
    const box = page.getByRole('textbox', { name: 'Screenshot file name' });
    await box.waitFor();
    // The sheet stayed open over the map, under the box: now it folds.
    await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('false');
    expect(await page.locator('.topbar__more--open').count()).toBe(0);
    expect(await banner.getByRole('button', { name: 'Show panels' }).isVisible()).toBe(false);
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
  });

  test('the Quests link in the bar opens the Quests page', async () => {
    const { page } = await browser.newPage();
    await openMap(page, 'customs');
    const quests = page.getByRole('banner').getByRole('link', { name: 'Quests', exact: true });
    expect(await quests.isVisible()).toBe(true);
    expect(await quests.getAttribute('href')).toBe('/progression/quests');
    await quests.click();
    await page.waitForURL((url) => url.pathname === '/progression/quests');
  });
});
