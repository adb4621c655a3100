/**
 * Where am I in Chromium: a pasted screenshot name moves the player (and the level follows the
 * height), a name without a position puts it at 0, 0, 0 with no look (the level stays), and `#pos=x_y_z` sets it
 * on load and leaves the address. Typed text keeps a good position: an empty Enter, a stray key
 * then a click on the map, or Enter on text that is no name change nothing (docs/DECISIONS.md
 * "Where am I keeps a good position"), and the box opened again says where the player is. A
 * `#pos=` link opened in the page empties the box of the name it had applied, and the hint says
 * the link's position ("Where am I drops a name that no longer holds").
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { parseScreenshotName } from '../src/domain/position';
import { baseUrl, canvasPoint, openMap, useBrowser } from './browser';

const browser = useBrowser();

const VALID = '2024-05-01[12-34]_23.45, 4, -90.12_0.12345, -0.54321, 0.11111, 0.82345_12.34 (0).png';

type PlayerApi = { player(): unknown; level(): number; ready: boolean };

const player = (page: Page) => page.evaluate(() => (window as unknown as { __map: PlayerApi }).__map.player());
const level = (page: Page) => page.evaluate(() => (window as unknown as { __map: PlayerApi }).__map.level());

/** Pastes text into the focused element the way the browser does (a paste event with clipboard data). */
async function paste(page: Page, text: string): Promise<void> {
  await page.evaluate((value) => {
    const data = new DataTransfer();
    data.setData('text/plain', value);
    document.activeElement?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

describe('where am I', () => {
  test('a pasted screenshot name sets the player and the level follows its height', async () => {
    const { page } = await browser.newPage();
    await openMap(page, 'factory');
    expect(await player(page)).toBeNull();
    expect(await level(page)).toBe(1);

    await page.getByRole('button', { name: 'Where am I' }).click();
    const box = page.getByRole('textbox', { name: 'Screenshot file name' });
    await box.focus();
    await paste(page, VALID);

    await expect.poll(() => player(page)).toEqual(parseScreenshotName(VALID));
    expect(await box.inputValue()).toBe(VALID);
    await expect.poll(() => level(page)).toBe(2);
  });

  test('a name without a position resets the player to 0, 0, 0 and look null, and says so', async () => {
    const { page } = await browser.newPage();
    await openMap(page, 'factory');
    await page.getByRole('button', { name: 'Where am I' }).click();
    const box = page.getByRole('textbox', { name: 'Screenshot file name' });
    await box.focus();
    await paste(page, VALID);
    await expect.poll(() => level(page)).toBe(2);

    await box.fill('');
    await paste(page, 'IMG_2024-05-01.png');
    await expect.poll(() => player(page)).toEqual({ x: 0, y: 0, z: 0, look: null });
    await expect.poll(() => page.getByText('That file name was not recognised').isVisible()).toBe(true);
    // Not a place the player is at: the level the last name chose stays (beyond the spec; height 0
    // would pick Factory's main level).
    expect(await level(page)).toBe(2);
  });

  test('a typed name is applied on Enter', async () => {
    const { page } = await browser.newPage();
    await openMap(page, 'customs');
    await page.getByRole('button', { name: 'Where am I' }).click();
    await page.getByRole('textbox', { name: 'Screenshot file name' }).fill('2024-05-01[12-34]_-100.5, 8, 200_0, 0, 0, 1_1 (0).png');
    await page.keyboard.press('Enter');
    await expect.poll(() => player(page)).toEqual({ x: -100.5, y: 200, z: 8, look: 0 });
    await expect.poll(() => level(page)).toBe(3);
  });
  test('typed text keeps a good position: an empty Enter, a stray key then a click on the map, Enter on no name; a name cut after its position is read', async () => {
    const { page } = await browser.newPage();
    await page.goto(`${baseUrl()}/map/customs#pos=-100.5_200_8`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => (window as unknown as { __map?: PlayerApi }).__map?.ready === true, undefined, { timeout: 45_000 });
    const linked = { x: -100.5, y: 200, z: 8, look: null };
    expect(await player(page)).toEqual(linked);

    await page.getByRole('button', { name: 'Where am I' }).click();
    const box = page.getByRole('textbox', { name: 'Screenshot file name' });
    const hint = page.locator('.where-am-i__hint');
    // Opened with a position set, the box says where the player is (X, Z, height as in the file).
    await expect.poll(() => hint.textContent()).toBe('You are at X -100.5, Z 200, height 8.');
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    // Enter in the empty box: nothing to read, nothing changes (it reset to 0, 0, 0).
    await page.keyboard.press('Enter');
    expect(await hint.textContent()).toBe('You are at X -100.5, Z 200, height 8.');
    expect(await player(page)).toEqual(linked);

    // A stray key, then a click on the map: leaving the box applies no text that is not a name.
    await page.keyboard.type('x');
    const free = await canvasPoint(page, 640, 500);
    await page.mouse.click(free.x, free.y);
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(false);
    expect(await box.inputValue()).toBe('x');
    expect(await player(page)).toEqual(linked);

    // Enter on it says why it was not read, and that nothing was changed.
    await box.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => hint.textContent()).toMatch(/^That file name was not recognised/);
    expect(await hint.textContent()).toContain('Nothing was changed.');
    expect(await hint.textContent()).not.toContain('0, 0, 0');
    expect(await player(page)).toEqual(linked);

    // A name cut right after its position is read on Enter.
    await box.fill('2024-01-05[14-02]_-20.5, 2, 30.25');
    await page.keyboard.press('Enter');
    await expect.poll(() => player(page)).toEqual({ x: -20.5, y: 30.25, z: 2, look: null });
    await expect.poll(() => hint.textContent()).toBe('You are at X -20.5, Z 30.25, height 2.');

    // Folded (Escape) and opened again: the box comes back empty and says where the player is.
    await page.keyboard.press('Escape');
    await expect.poll(() => box.count()).toBe(0);
    await page.getByRole('button', { name: 'Where am I' }).click();
    await expect.poll(() => hint.textContent()).toBe('You are at X -20.5, Z 30.25, height 2.');
    expect(await box.inputValue()).toBe('');
  });

  test('a #pos= link opened in the page empties the box of the pasted name and says the link\'s position', async () => {
    const { page } = await browser.newPage();
    await openMap(page, 'factory');
    await page.getByRole('button', { name: 'Where am I' }).click();
    const box = page.getByRole('textbox', { name: 'Screenshot file name' });
    const hint = page.locator('.where-am-i__hint');
    await box.focus();
    await paste(page, VALID);
    await expect.poll(() => player(page)).toEqual(parseScreenshotName(VALID));
    expect(await box.inputValue()).toBe(VALID);
    await expect.poll(() => hint.textContent()).toBe('You are at X 23.45, Z -90.12, height 4.');

    await page.evaluate(() => {
      location.hash = '#pos=-40.5_60_1';
    });
    await expect.poll(() => player(page)).toEqual({ x: -40.5, y: 60, z: 1, look: null });
    await expect.poll(() => box.inputValue()).toBe('');
    await expect.poll(() => hint.textContent()).toBe('You are at X -40.5, Z 60, height 1.');
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('');
  });
});

describe('#pos= hash', () => {
  test('sets the player on load and disappears from the address, path and query kept', async () => {
    const { page } = await browser.newPage();
    await page.goto(`${baseUrl()}/map/factory?foo=1#pos=12.5_-30_4`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => (window as unknown as { __map?: PlayerApi }).__map?.ready === true, undefined, { timeout: 45_000 });
    expect(await player(page)).toEqual({ x: 12.5, y: -30, z: 4, look: null });
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('');
    const url = new URL(page.url());
    expect(url.pathname).toBe('/map/factory');
    expect(url.searchParams.get('foo')).toBe('1');
    await expect.poll(() => level(page)).toBe(2);
  });

  test('sets nothing unless it has exactly three numbers, says why and leaves the address', async () => {
    const { page } = await browser.newPage();
    await page.goto(`${baseUrl()}/map/factory?foo=1#pos=1_2_x`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => (window as unknown as { __map?: PlayerApi }).__map?.ready === true, undefined, { timeout: 45_000 });
    expect(await player(page)).toBeNull();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('');
    expect(new URL(page.url()).searchParams.get('foo')).toBe('1');
    const hint = page.locator('.where-am-i__hint');
    await hint.waitFor({ timeout: 10_000 });
    expect(await hint.textContent()).toContain('“1_2_x” is not three numbers');
    // A reload does not say it again: the address no longer carries it.
    await page.reload({ waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => (window as unknown as { __map?: PlayerApi }).__map?.ready === true, undefined, { timeout: 45_000 });
    expect(await page.locator('.where-am-i__hint').count()).toBe(0);
  });
});
