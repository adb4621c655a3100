/**
 * A lost WebGL context (a GPU reset, a driver update; `window.__map.loseContext` makes one), with
 * the map drawn on the main thread and in the render worker: the map draws again when the
 * browser gives the context back, with no input needed; a context that does not come back is
 * said so, and "Try again" draws the map on a new one (in a new render worker, for a worker map).
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { baseUrl, useBrowser } from './browser';
import { canvasTransferred, mapSpread } from './support/map-canvas';

const browser = useBrowser();

type Api = { ready?: boolean; loseContext(ms?: number | null): boolean; stats(): { frames: number } | null };
const api = 'window.__map';

async function openReady(page: Page, search: string): Promise<void> {
  await page.goto(`${baseUrl()}/map/customs${search}`, { waitUntil: 'domcontentloaded' });
  await waitReady(page);
}

function waitReady(page: Page): Promise<unknown> {
  return page.waitForFunction(() => (window as unknown as { __map?: Api }).__map?.ready === true, undefined, { timeout: 45_000, polling: 100 });
}

/** Polls until the map shows a drawn picture again (or the time is up); the last spread. */
async function spreadWithin(page: Page, ms: number): Promise<number> {
  const deadline = Date.now() + ms;
  let last = await mapSpread(page);
  while (last <= 8 && Date.now() < deadline) {
    await page.waitForTimeout(200);
    last = await mapSpread(page);
  }
  return last;
}

/**
 * `blankWhileLost`: the page's canvas shows a lost context as nothing; a worker's canvas keeps
 * showing its last frame (nothing new is committed), so there only the frames tell.
 */
const modes = [
  { name: 'on the main thread', search: '?render=main', transferred: false, blankWhileLost: true },
  { name: 'in the render worker', search: '?render=worker', transferred: true, blankWhileLost: false },
];

const frames = (page: Page) => page.evaluate(() => (window as unknown as { __map: Api }).__map.stats()?.frames ?? 0);

/** The frame count once the map has stopped drawing (labels and late tiles settle within seconds of ready). */
async function settledFrames(page: Page): Promise<number> {
  let before = await frames(page);
  for (let i = 0; i < 20; i++) {
    await page.waitForTimeout(400);
    const now = await frames(page);
    if (now === before) return now;
    before = now;
  }
  return before;
}

describe.each(modes)('a lost WebGL context, the map drawn $name', ({ search, transferred, blankWhileLost }) => {
  test('the map draws again, untouched, when the context comes back', async () => {
    const { page } = await browser.newPage();
    await openReady(page, search);
    expect(await spreadWithin(page, 5000)).toBeGreaterThan(8);
    const before = await settledFrames(page);
    expect(await page.evaluate(`${api}.loseContext(1500)`)).toBe(true);
    await page.waitForTimeout(400);
    if (blankWhileLost) expect(await mapSpread(page)).toBeLessThan(2);
    // Nothing is drawn on a lost context.
    expect(await frames(page)).toBe(before);
    // Back after 1.5 s: drawn again with no pointer or key from anyone.
    await page.waitForFunction((n) => ((window as unknown as { __map: Api }).__map.stats()?.frames ?? 0) > n, before, { timeout: 6000, polling: 100 });
    expect(await spreadWithin(page, 6000)).toBeGreaterThan(8);
    expect(await page.locator('.map-error').count()).toBe(0);
  });

  test('a context that does not come back is said so, and "Try again" draws on a new one', async () => {
    const { page, errors } = await browser.newPage();
    errors.allow(/graphics context was lost/);
    await openReady(page, search);
    expect(await page.evaluate(`${api}.loseContext(null)`)).toBe(true);
    const alert = page.locator('.map-error');
    await alert.waitFor({ timeout: 15_000 });
    expect(await alert.textContent()).toContain('graphics context was lost');
    await alert.locator('button').first().click();
    await waitReady(page);
    expect(await canvasTransferred(page)).toBe(transferred);
    expect(await spreadWithin(page, 5000)).toBeGreaterThan(8);
  });
});
