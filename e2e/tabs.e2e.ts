/**
 * Settings, filters and the language across two tabs of one browser (one context, so one
 * localStorage), on a server of this file's own (demo accounts), both tabs on /map/customs as the
 * pro user: a setting changed in one tab's Settings shows in the other tab's open Settings at once
 * (the `storage` event), each tab writes only what it changed over what is stored (so the second
 * tab's change does not put back the first's old values), a language chosen in one tab switches
 * the other's page, Reset in one tab brings the other back to the defaults, and the category
 * filters of the map follow each other the same way and are stored once, both changes kept.
 */
import { afterAll, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { trackErrors, type PageErrors } from './support/page-errors';
import { openMap, reload, signIn, useEditorBrowser, useEditorServer, waitReady } from './support/editor';

const server = useEditorServer('tabs');
const browser = useEditorBrowser();
const base = () => server.baseUrl();

const questPanel = (page: Page) => page.getByRole('complementary', { name: 'Levels and quests' });
const settingsDialog = (page: Page) => page.getByRole('dialog', { name: /^(Settings|Настройки)$/ });
const sizeSlider = (page: Page) => settingsDialog(page).getByRole('slider', { name: 'Marker size' });
const category = (page: Page, name: string) => page.getByRole('complementary', { name: 'Categories' }).getByRole('checkbox', { name, exact: true });
const lang = (page: Page) => page.evaluate(() => document.documentElement.lang);
const stored = (page: Page, key: string) => page.evaluate((k) => localStorage.getItem(k), key);

async function openSettings(page: Page): Promise<Locator> {
  await questPanel(page).getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = settingsDialog(page);
  await dialog.waitFor();
  return dialog;
}

describe('two tabs of one browser', () => {
  let one: Page;
  let two: Page;
  let twoErrors: PageErrors;

  afterAll(() => browser.closeKept());

  test('a setting changed in one tab shows in the other\'s open Settings, and each tab stores only what it changed', async () => {
    const first = await browser.newPage({ keep: true });
    one = first.page;
    await signIn(one, base(), 'pro');
    // The second tab: a page of the same context (same cookies, same localStorage), its errors failing the test too.
    two = await first.context.newPage();
    twoErrors = trackErrors(two);
    await openMap(one, base());
    await openMap(two, base());

    const dialogOne = await openSettings(one);
    const dialogTwo = await openSettings(two);
    await dialogOne.getByRole('radio', { name: 'All markers' }).check();
    // The slider by the keyboard: End takes it to its top, ×2.
    await sizeSlider(one).focus();
    await one.keyboard.press('End');
    expect(await sizeSlider(one).inputValue()).toBe('2');

    // Tab two's dialog was open all along: it follows without a reload.
    await expect.poll(() => dialogTwo.getByRole('radio', { name: 'All markers' }).isChecked()).toBe(true);
    await expect.poll(() => sizeSlider(two).inputValue()).toBe('2');
    await expect.poll(() => dialogTwo.locator('output').textContent()).toBe('×2');

    // Tab two changes another setting: tab one follows, and tab two's write keeps tab one's choices
    // (it writes its change over what is stored, not its own copy from before).
    await dialogTwo.getByRole('checkbox', { name: 'Look direction arrow' }).uncheck();
    await expect.poll(() => dialogOne.getByRole('checkbox', { name: 'Look direction arrow' }).isChecked()).toBe(false);
    await reload(one);
    expect(JSON.parse((await stored(one, 'map:settings')) ?? '{}')).toMatchObject({ markerSize: 2, labels: 'all', lookArrow: false });
    expect(twoErrors.list).toEqual([]);
  });

  test('a language chosen in one tab switches the other tab\'s page, both ways', async () => {
    const dialogTwo = settingsDialog(two);
    await dialogTwo.getByLabel('Language').selectOption('ru');
    await expect.poll(() => lang(one)).toBe('ru');
    // Tab one's page speaks Russian too, not only its <html lang>: its right panel is named in Russian.
    await expect.poll(() => one.getByRole('complementary', { name: 'Уровни и квесты', exact: true }).count()).toBe(1);
    // Tab two's dialog is in Russian now: its language field is "Язык".
    await dialogTwo.getByLabel('Язык').selectOption('en');
    await expect.poll(() => lang(one)).toBe('en');
    await expect.poll(() => questPanel(one).getByRole('button', { name: 'Settings', exact: true }).count()).toBe(1);
    expect(twoErrors.list).toEqual([]);
  });

  test('Reset in one tab (after its confirm) takes the other tab back to the defaults', async () => {
    // Tab one was reloaded: its Settings open again, showing what is stored.
    await openSettings(one);
    expect(await sizeSlider(one).inputValue()).toBe('2');

    const asked: string[] = [];
    two.once('dialog', (d) => {
      asked.push(d.message());
      void d.accept();
    });
    await settingsDialog(two).getByRole('button', { name: 'Reset', exact: true }).click();
    await expect.poll(() => asked).toEqual(['Confirm reset?']);
    await expect.poll(() => sizeSlider(one).inputValue()).toBe('1');
    await expect.poll(() => settingsDialog(one).getByRole('radio', { name: 'All markers' }).isChecked()).toBe(false);
    expect(await settingsDialog(one).getByRole('checkbox', { name: 'Look direction arrow' }).isChecked()).toBe(true);
    expect(await stored(one, 'map:settings')).toBeNull();
    expect(twoErrors.list).toEqual([]);
  });

  test('the map\'s category filters follow each other across tabs, and both changes are stored', async () => {
    for (const page of [one, two]) {
      await settingsDialog(page).getByRole('button', { name: 'Close' }).click();
      await settingsDialog(page).waitFor({ state: 'detached' });
    }
    await category(one, 'Loot').uncheck();
    await expect.poll(() => category(two, 'Loot').isChecked()).toBe(false);
    // Tab two hides Keys on top of tab one's Loot, not over a copy that still shows Loot.
    await category(two, 'Keys').uncheck();
    await expect.poll(() => category(one, 'Keys').isChecked()).toBe(false);
    expect(await category(one, 'Loot').isChecked()).toBe(false);
    expect(JSON.parse((await stored(two, 'map:filters:customs')) ?? 'null')).toEqual({ hiddenCategories: ['Loot', 'Keys'], hiddenSubCategories: [] });
    // The map of tab one draws neither: the filter reached its engine, not only its checkboxes.
    await expect
      .poll(() => one.evaluate(() => window.__map!.markers().filter((m) => m.category === 'Loot' || m.category === 'Keys').length))
      .toBe(0);
    await waitReady(one);
    expect(twoErrors.list).toEqual([]);
  });
});
