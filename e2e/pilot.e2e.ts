/**
 * The live position feed end to end (issue 10), against the real server:
 * - the watcher (`npm run pilot`) on a temporary folder: a screenshot written there moves the
 *   player of a page subscribed with `?connection=CODE`;
 * - a map change in the feed opens that map's page, still following;
 * - a page opened later follows the remembered code with no click;
 * - on a 390×844 touch screen: no panel over the map on load, one finger pans, two fingers
 *   pinch-zoom, a tap opens a marker's popup that fits the screen;
 * - the top bar's Live menu for an unknown code: opens by itself, once (not after a reload), the
 *   focus staying out of it; no "waiting" line; Forget this code leaves the focus on Where am I;
 * - a map chosen by hand: the Live menu names the player's map with a link to it, a reload in
 *   the same tab keeps the choice, the player's next map change moves the page again;
 * - Reconnect on a code that has ended keeps the menu open and says it is still not found;
 * - the stream overlay: see-through (from its first frame, before the app runs), following the
 *   player to the map's corners, its first view centred on a position near the edge when drawn
 *   on the main thread, and its corner note for a code that is no code or not a live feed (none
 *   for a live one); its first address opened again (or reloaded) after the player changed map
 *   takes it to the player's map, where a normal map page in that tab stays and offers "Go to";
 *   a session the player ended is said with its reason, in English and Russian; a player past
 *   the map's edge (Factory at zoom 4) centred, not the edge;
 * - /pilot's Follow a code checks the code first: an unknown one is said by the field (RU, on a
 *   phone), a check that cannot reach the server offers Open the map anyway, a live one opens
 *   its map following it; a code refused for too many guesses (429, RU) is not the field's fault
 *   and offers «Всё равно открыть карту», whose map follows the code and waits out the refusal
 *   (the Live dot limited);
 * - /pilot's Watch my screenshots folder (RU, the picker rejecting): NotAllowedError said in the
 *   page's words only, a closed picker (AbortError) says nothing, another error adds the
 *   browser's own message after «Сообщение браузера:»;
 * - /pilot: the focus after Start (the session's heading, then Copy the code) and End (Start),
 *   in English and Russian; the EN / RU switch on the header's top line at 390 and 1280 px, kept
 *   through a reload, no sideways scroll; a sent file name's position to 2 decimals.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page, Route } from 'playwright-core';
import { afterEach, describe, expect, test } from 'vitest';
import { parseScreenshotName } from '../src/domain/position';
import { MAPS } from '../src/domain/maps';
import { formatPairingCode } from '../src/domain/pilot';
import { gameToMap, mapToGame } from '../src/domain/transform';
import { baseUrl, settleCamera, toScreen, useBrowser, type MapAutomation } from './browser';
import { decodeRgba } from './support/image';
import { startWatcherProcess } from './support/watcher';

const browser = useBrowser();
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PHONE = { width: 390, height: 844 };

type PilotApi = MapAutomation & {
  player(): { x: number; y: number; z: number; look: number | null } | null;
  pilot(): { code: string; status: string; lastUpdateAt: number | null } | null;
  popup(): string | null;
  markers(): Array<{ uid: string; x: number; y: number; alpha: number; visible: boolean }>;
};

const pilotOf = (page: Page) => page.evaluate(() => (window as unknown as { __map: PilotApi }).__map.pilot());
const playerOf = (page: Page) => page.evaluate(() => (window as unknown as { __map: PilotApi }).__map.player());
const popupOf = (page: Page) => page.evaluate(() => (window as unknown as { __map: PilotApi }).__map.popup());

async function pair(): Promise<{ code: string; token: string }> {
  const response = await fetch(`${baseUrl()}/api/be/pilot/pairings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  expect(response.status).toBe(201);
  return (await response.json()) as { code: string; token: string };
}

async function publish(code: string, token: string, message: unknown): Promise<void> {
  const response = await fetch(`${baseUrl()}/api/be/pilot/${code}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(message),
  });
  expect(response.status).toBe(200);
}

/** A code that is well formed but no pairing's (the server answers that it is gone). */
const UNKNOWN_CODE = 'ABCDE23456';
/** The browser logs the server's 404 for it (its events, then the check that it is gone). */
const UNKNOWN_CODE_404 = new RegExp(`404 \\(Not Found\\) \\(.*/api/be/pilot/${UNKNOWN_CODE}(/events)?\\)$`);

/** The focused element: its tag and its accessible name's text (aria-label, else its text). */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return { tag: el?.tagName ?? '', name: (el?.getAttribute('aria-label') ?? el?.textContent ?? '').trim() };
  });

async function waitReady(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as unknown as { __map?: { ready?: boolean } }).__map?.ready === true, undefined, { timeout: 45_000, polling: 100 });
}

async function followed(page: Page, map: string, code: string): Promise<void> {
  await page.goto(`${baseUrl()}/map/${map}?connection=${code.toLowerCase()}`, { waitUntil: 'domcontentloaded' });
  await waitReady(page);
  await expect.poll(() => pilotOf(page), { timeout: 15_000 }).toMatchObject({ code, status: 'connected' });
}

/** The map page of `map` is the one shown and ready (a navigation's old page may still say ready). */
async function mapReady(page: Page, map: string): Promise<void> {
  await page.waitForURL(new RegExp(`/map/${map}(\\?|#|$)`), { timeout: 15_000 });
  await page.waitForFunction(
    (id) => {
      const api = (window as unknown as { __map?: { ready?: boolean; mapId?: string } }).__map;
      return api?.ready === true && api.mapId === id;
    },
    map,
    { timeout: 45_000, polling: 100 },
  );
}

/** A well-formed code no pairing has, for Follow a code and the Live menu (asked again, it counts as one guess). */
const NO_LIVE_CODE = 'ZZZZZZZZZZ';

/** The browser logs the server's 404 for a code that is gone (its events, then the check). */
const gone404 = (code: string) => new RegExp(`404 \\(Not Found\\) \\(.*/api/be/pilot/${code}(/events)?\\)$`);

let watcher: ChildProcess | undefined;
const folders: string[] = [];
afterEach(() => {
  watcher?.kill('SIGTERM');
  watcher = undefined;
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('the live position feed', () => {
  test('a screenshot in the watched folder moves the player on the subscribed page', async () => {
    const { code, token } = await pair();
    const { page } = await browser.newPage();
    await followed(page, 'customs', code);
    // The code left the address (the page remembers it).
    expect(new URL(page.url()).searchParams.has('connection')).toBe(false);
    expect(await playerOf(page)).toBeNull();

    const folder = mkdtempSync(join(tmpdir(), 'raidmap-e2e-screens-'));
    folders.push(folder);
    watcher = await startWatcherProcess({ repoRoot, baseUrl: baseUrl(), folder, code, token });
    const name = '2025-03-14[19-07]_-153.20, 2.41, 88.67_0.00000, 0.70711, 0.00000, 0.70711_15.64 (0).png';
    writeFileSync(join(folder, name), 'not a real png');
    await expect.poll(() => playerOf(page), { timeout: 15_000 }).toEqual(parseScreenshotName(name));
    const last = (await pilotOf(page))?.lastUpdateAt;
    expect(typeof last).toBe('number');
    // The top bar says the page follows the feed.
    expect(await page.getByRole('banner').getByRole('button', { name: /Following live position/ }).count()).toBe(1);
  });

  test('a map change in the feed opens that map, still following; a page opened later follows with no click', async () => {
    const { code, token } = await pair();
    const { page } = await browser.newPage();
    await followed(page, 'customs', code);
    await publish(code, token, { type: 'map', data: { map: 'woods' } });
    await page.waitForURL(/\/map\/woods/, { timeout: 15_000 });
    await waitReady(page);
    await expect.poll(() => pilotOf(page), { timeout: 15_000 }).toMatchObject({ code, status: 'connected' });
    await publish(code, token, { type: 'position', data: { x: 10, y: 20, z: 1, look: 0 } });
    await expect.poll(() => playerOf(page), { timeout: 10_000 }).toEqual({ x: 10, y: 20, z: 1, look: 0 });

    // Another tab of the same browser, no code in the address.
    const later = await page.context().newPage();
    await later.goto(`${baseUrl()}/map/woods`, { waitUntil: 'domcontentloaded' });
    await waitReady(later);
    await expect.poll(() => pilotOf(later), { timeout: 15_000 }).toMatchObject({ code, status: 'connected' });
    // The last position is replayed to a page that connects.
    await expect.poll(() => playerOf(later), { timeout: 10_000 }).toEqual({ x: 10, y: 20, z: 1, look: 0 });
  });

  test('the same map sent again keeps the follower\'s player; a position far off the map is refused and reaches no follower', async () => {
    const { code, token } = await pair();
    const { page } = await browser.newPage();
    await followed(page, 'customs', code);
    await publish(code, token, { type: 'map', data: { map: 'customs' } });
    await publish(code, token, { type: 'position', data: { x: 10, y: 20, z: 1, look: 0 } });
    await expect.poll(() => playerOf(page), { timeout: 10_000 }).toEqual({ x: 10, y: 20, z: 1, look: 0 });
    // A publisher's resend after a server restart: the player stays where the last position said.
    await publish(code, token, { type: 'map', data: { map: 'customs' } });
    const far = await fetch(`${baseUrl()}/api/be/pilot/${code}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ type: 'position', data: { x: 50_000, y: 20, z: 1, look: 0 } }),
    });
    expect(far.status).toBe(400);
    expect(await far.json()).toMatchObject({ error: 'outside_map', map: 'customs' });
    // The next real position arrives, and nothing in between moved or cleared the player.
    await publish(code, token, { type: 'position', data: { x: 12, y: 22, z: 1, look: 0 } });
    await expect.poll(() => playerOf(page), { timeout: 10_000 }).toEqual({ x: 12, y: 22, z: 1, look: 0 });
    expect(page.url()).toMatch(/\/map\/customs/);
  });

  test('an ended pairing says so in the top bar', async () => {
    const { code, token } = await pair();
    const { page } = await browser.newPage();
    await followed(page, 'customs', code);
    const ended = await fetch(`${baseUrl()}/api/be/pilot/${code}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
    expect(ended.status).toBe(204);
    await expect.poll(() => pilotOf(page).then((p) => p?.status), { timeout: 30_000 }).toBe('gone');
    // The server's `end` said why: the player ended the session (not a 404's "ended, expired, or was mistyped").
    expect(await page.getByRole('banner').getByRole('button', { name: /has ended: the player ended the session\./ }).count()).toBe(1);
  });

  test('an unknown code: the Live menu says no "waiting"; Forget this code takes the indicator away and leaves the focus on Where am I', async () => {
    const { page, errors } = await browser.newPage();
    errors.allow(UNKNOWN_CODE_404);
    await page.goto(`${baseUrl()}/map/customs?connection=${UNKNOWN_CODE}`, { waitUntil: 'domcontentloaded' });
    await waitReady(page);
    await expect.poll(() => pilotOf(page).then((p) => p?.status), { timeout: 30_000 }).toBe('gone');
    const banner = page.getByRole('banner');
    const live = banner.getByRole('button', { name: /No live feed with code/ });
    // The menu opens by itself as the page learns the code is gone (a click would close it).
    const menu = banner.getByRole('group', { name: 'Live position feed' });
    await menu.waitFor();
    expect(await live.getAttribute('aria-expanded')).toBe('true');
    const text = (await menu.textContent()) ?? '';
    expect(text).toContain('No live feed with code ABCDE-23456');
    expect(text).not.toMatch(/waiting/i);

    const forget = menu.getByRole('button', { name: 'Forget this code' });
    await forget.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.pilot-indicator').count()).toBe(0);
    expect(await pilotOf(page)).toBeNull();
    await expect.poll(() => focused(page)).toEqual({ tag: 'BUTTON', name: 'Where am I' });
  });

  test('a map chosen by hand: the Live menu names the player\'s map with a link; a reload keeps the choice; the player\'s next change moves the page', async () => {
    const { code, token } = await pair();
    await publish(code, token, { type: 'map', data: { map: 'woods' } });
    const { page } = await browser.newPage();
    await page.goto(`${baseUrl()}/map/customs?connection=${code}`, { waitUntil: 'domcontentloaded' });
    await mapReady(page, 'woods');
    await expect.poll(() => pilotOf(page), { timeout: 15_000 }).toMatchObject({ code, status: 'connected' });

    // The visitor goes to Customs by hand: All maps, then Customs.
    const banner = page.getByRole('banner');
    await banner.getByRole('link', { name: 'All maps' }).click();
    await page.waitForURL(`${baseUrl()}/`);
    await page.getByRole('list', { name: 'Maps' }).getByRole('link', { name: 'Customs', exact: true }).click();
    await mapReady(page, 'customs');
    await expect.poll(() => pilotOf(page), { timeout: 15_000 }).toMatchObject({ code, status: 'connected' });

    const live = banner.locator('.pilot-indicator__button');
    const elsewhere = () => live.evaluate((el) => el.classList.contains('pilot-indicator--elsewhere'));
    const expectElsewhereMenu = async () => {
      await expect.poll(elsewhere, { timeout: 15_000 }).toBe(true);
      await live.click();
      const menu = banner.getByRole('group', { name: 'Live position feed' });
      await menu.waitFor();
      expect(await menu.textContent()).toContain('The player is on Woods, not on this map.');
      const link = menu.getByRole('link', { name: 'Go to Woods' });
      expect(new URL((await link.getAttribute('href'))!, baseUrl()).pathname).toBe('/map/woods');
      await page.keyboard.press('Escape');
      // Still on Customs, the page of the visitor's choice.
      expect(new URL(page.url()).pathname).toBe('/map/customs');
      expect(await page.evaluate(() => (window as unknown as { __map: PilotApi }).__map.mapId)).toBe('customs');
    };
    await expectElsewhereMenu();

    // A reload in the same tab: the feed replays Woods, an answered change; the page stays.
    await page.reload({ waitUntil: 'domcontentloaded' });
    await mapReady(page, 'customs');
    await expect.poll(() => pilotOf(page), { timeout: 15_000 }).toMatchObject({ code, status: 'connected' });
    await expectElsewhereMenu();

    // The player's next map change still moves the page.
    await publish(code, token, { type: 'map', data: { map: 'interchange' } });
    await mapReady(page, 'interchange');
    await expect.poll(() => pilotOf(page), { timeout: 15_000 }).toMatchObject({ code, status: 'connected' });
    await expect.poll(elsewhere).toBe(false);
  });

  test('Reconnect on a code that has ended keeps the menu open and says it is still not found', async () => {
    const { code, token } = await pair();
    const ended = await fetch(`${baseUrl()}/api/be/pilot/${code}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
    expect(ended.status).toBe(204);
    const { page, errors } = await browser.newPage();
    errors.allow(gone404(code));
    await page.goto(`${baseUrl()}/map/woods?connection=${code}`, { waitUntil: 'domcontentloaded' });
    await waitReady(page);
    await expect.poll(() => pilotOf(page).then((p) => p?.status), { timeout: 30_000 }).toBe('gone');

    const banner = page.getByRole('banner');
    const live = banner.locator('.pilot-indicator__button');
    // The menu opens by itself as the page learns the code is gone (a click would close it).
    const menu = banner.getByRole('group', { name: 'Live position feed' });
    await menu.waitFor();
    const result = menu.getByRole('status');
    expect(await result.textContent()).toBe('');
    await menu.getByRole('button', { name: 'Reconnect' }).click();
    await expect.poll(() => result.textContent(), { timeout: 30_000 }).toBe('Still not found: the code has ended or expired.');
    expect(await live.getAttribute('aria-expanded')).toBe('true');
    expect(await menu.isVisible()).toBe(true);
    expect((await pilotOf(page))?.status).toBe('gone');
  });

  test('a followed code the server does not know: the Live menu opens once by itself with the reason, the focus not in it; after a reload it stays closed', async () => {
    const { page, errors } = await browser.newPage();
    errors.allow(gone404(NO_LIVE_CODE));
    await page.goto(`${baseUrl()}/map/customs?connection=${NO_LIVE_CODE}`, { waitUntil: 'domcontentloaded' });
    await waitReady(page);
    const banner = page.getByRole('banner');
    const live = banner.locator('.pilot-indicator__button');
    const menu = banner.locator('.pilot-indicator__menu');
    // No tap: the menu opens as the page learns the code is gone.
    await menu.waitFor({ timeout: 30_000 });
    expect(await menu.getAttribute('role')).toBe('group');
    expect(await menu.textContent()).toContain(`No live feed with code ${formatPairingCode(NO_LIVE_CODE)}`);
    expect(await live.getAttribute('aria-expanded')).toBe('true');
    expect((await pilotOf(page))?.status).toBe('gone');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('.pilot-indicator__menu')))).toBe(false);

    // A later page shows the code gone (remembered) without opening the menu again.
    await page.reload({ waitUntil: 'domcontentloaded' });
    await waitReady(page);
    await expect.poll(() => pilotOf(page).then((p) => p?.status), { timeout: 15_000 }).toBe('gone');
    await expect.poll(() => live.getAttribute('aria-label')).toContain(`No live feed with code ${formatPairingCode(NO_LIVE_CODE)}`);
    expect(await live.getAttribute('aria-expanded')).toBe('false');
    expect(await menu.count()).toBe(0);
  });
});

/** Two fingers through CDP touch events (Chromium turns them into touch pointer events). */
async function pinch(page: Page, centre: { x: number; y: number }, from: number, to: number, steps = 8): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const points = (half: number) => [
    { x: centre.x - half, y: centre.y, id: 1 },
    { x: centre.x + half, y: centre.y, id: 2 },
  ];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: points(from / 2) });
  for (let i = 1; i <= steps; i += 1) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: points((from + ((to - from) * i) / steps) / 2) });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

async function swipe(page: Page, from: { x: number; y: number }, to: { x: number; y: number }, steps = 8): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ ...from, id: 1 }] });
  for (let i = 1; i <= steps; i += 1) {
    const x = from.x + ((to.x - from.x) * i) / steps;
    const y = from.y + ((to.y - from.y) * i) / steps;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y, id: 1 }] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

describe('on a phone (390×844, touch)', () => {
  test('the map is what one sees; a finger pans, two fingers pinch, a tap opens a popup that fits', async () => {
    const { page } = await browser.newPage({ ...PHONE, hasTouch: true });
    await page.goto(`${baseUrl()}/map/customs`, { waitUntil: 'domcontentloaded' });
    await waitReady(page);
    // Nothing covers the middle of the map on load; the top bar fits the width.
    const centre = { x: PHONE.width / 2, y: PHONE.height / 2 };
    expect(await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.tagName, [centre.x, centre.y] as const)).toBe('CANVAS');
    const banner = await page.getByRole('banner').boundingBox();
    expect(banner!.width).toBeLessThanOrEqual(PHONE.width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    const start = await settleCamera(page);
    await swipe(page, { x: 150, y: 500 }, { x: 250, y: 420 });
    const panned = await settleCamera(page);
    expect(Math.hypot(panned.x - start.x, panned.y - start.y)).toBeGreaterThan(10);
    expect(panned.zoom).toBeCloseTo(start.zoom, 6);

    // Bring the marker of the shown level nearest the middle under the middle, a finger at a time.
    const shown = () =>
      page.evaluate(() => {
        const map = (window as unknown as { __map: PilotApi }).__map;
        return map.markers().filter((m) => m.alpha === 1).map((m) => ({ uid: m.uid, ...map.toScreen(m.x, m.y)! }));
      });
    const nearest = (await shown()).sort((a, b) => Math.hypot(a.x - centre.x, a.y - centre.y) - Math.hypot(b.x - centre.x, b.y - centre.y))[0];
    expect(nearest, 'a marker of the shown level').toBeDefined();
    for (let i = 0; i < 8; i += 1) {
      const now = (await shown()).find((m) => m.uid === nearest.uid)!;
      const dx = centre.x - now.x;
      const dy = centre.y - now.y;
      if (Math.hypot(dx, dy) < 4) break;
      const step = Math.min(1, 250 / Math.hypot(dx, dy));
      await swipe(page, centre, { x: centre.x + dx * step, y: centre.y + dy * step });
      await settleCamera(page);
    }
    const panned2 = await settleCamera(page);

    // Pinch around it: it stays under the fingers while the map grows.
    await pinch(page, centre, 60, 240);
    const zoomed = await settleCamera(page);
    expect(zoomed.zoom).toBeGreaterThan(panned2.zoom * 1.5);
    // Pinching never opened a popup.
    expect(await popupOf(page)).toBeNull();
    const target = (await shown()).find((m) => m.uid === nearest.uid)!;
    expect(Math.hypot(target.x - centre.x, target.y - centre.y)).toBeLessThan(20);
    expect(await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.tagName, [target!.x, target!.y] as const)).toBe('CANVAS');
    await page.touchscreen.tap(target!.x, target!.y);
    await expect.poll(() => popupOf(page)).toBe(target!.uid);
    const dialog = page.getByRole('dialog').first();
    await dialog.waitFor();
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width + 0.5);
    expect(box!.y + box!.height).toBeLessThanOrEqual(PHONE.height + 0.5);
  });
});

describe('on a phone, the compact top bar', () => {
  test('is one short row; Menu folds out Show panels, which opens the panels as sheets that leave the middle of the map clear', async () => {
    const { page } = await browser.newPage({ ...PHONE, hasTouch: true });
    await page.goto(`${baseUrl()}/map/customs`, { waitUntil: 'domcontentloaded' });
    await waitReady(page);
    const banner = page.getByRole('banner');
    expect((await banner.boundingBox())!.height).toBeLessThan(60);
    expect(await banner.getByRole('button', { name: 'Show panels' }).isVisible()).toBe(false);
    expect(await page.getByRole('complementary').count()).toBe(0);

    await banner.getByRole('button', { name: 'Menu' }).tap();
    await banner.getByRole('button', { name: 'Show panels' }).tap();
    await expect.poll(() => page.getByRole('complementary').count()).toBeGreaterThan(0);
    expect(await banner.getByRole('button', { name: 'Hide panels' }).isVisible()).toBe(false);
    expect(await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.tagName, [PHONE.width / 2, PHONE.height / 2] as const)).toBe('CANVAS');
  });
});

describe('stream overlay', () => {
  /** Records the text of every note the overlay shows, from the document's start (docs: OverlayNote). */
  const recordNotes = (page: Page) =>
    page.addInitScript(() => {
      const w = window as unknown as { __notes: string[] };
      w.__notes = [];
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('.overlay-note')) w.__notes.push(el.textContent ?? '');
      }).observe(document, { childList: true, subtree: true });
    });
  const notesSeen = (page: Page) => page.evaluate(() => (window as unknown as { __notes: string[] }).__notes);
  const ON_CUSTOMS = { x: 10, y: 20, z: 1, look: 0 };
  const ON_FACTORY = { x: -40.5, y: 60, z: 1, look: 0 };

  /**
   * Outline A's start: an overlay opened on Customs (`first`, its address), following a player on
   * Customs; the player goes to Factory and the overlay follows; its first address opened again
   * in the same tab (OBS reloads what it was given) takes it to Factory again, showing the player.
   */
  async function overlayFollowedToFactory(page: Page, code: string, token: string): Promise<string> {
    await publish(code, token, { type: 'map', data: { map: 'customs' } });
    await publish(code, token, { type: 'position', data: ON_CUSTOMS });
    const first = `${baseUrl()}/map/customs?overlay=1&connection=${code}&zoom=4&scale=4`;
    await page.goto(first, { waitUntil: 'domcontentloaded' });
    await mapReady(page, 'customs');
    await expect.poll(() => playerOf(page), { timeout: 15_000 }).toEqual(ON_CUSTOMS);

    await publish(code, token, { type: 'map', data: { map: 'factory' } });
    await publish(code, token, { type: 'position', data: ON_FACTORY });
    await mapReady(page, 'factory');
    const onFactory = `${baseUrl()}/map/factory?overlay=1&zoom=4&scale=4`;
    await expect.poll(() => page.url()).toBe(onFactory);
    await expect.poll(() => playerOf(page), { timeout: 15_000 }).toEqual(ON_FACTORY);

    // The first address again, in the same tab: the feed replays Factory, a change this tab answered.
    await page.goto(first, { waitUntil: 'domcontentloaded' });
    await mapReady(page, 'factory');
    await expect.poll(() => page.url()).toBe(onFactory);
    await expect.poll(() => playerOf(page), { timeout: 15_000 }).toEqual(ON_FACTORY);
    return first;
  }

  test('opened again at its first address, or reloaded, after the player changed map, it shows the player\'s map and the player, with no note; a normal map page in that tab stays and offers Go to Factory', async () => {
    const { code, token } = await pair();
    const { page } = await browser.newPage({ width: 1280, height: 720 });
    await recordNotes(page);
    await overlayFollowedToFactory(page, code, token);
    expect(await pilotOf(page)).toMatchObject({ code, status: 'connected' });
    // The note's own delay (NOTE_DELAY_MS, 1.5 s) and some: an "elsewhere" note would be up by now.
    await page.waitForTimeout(2000);
    expect(await notesSeen(page)).toEqual([]);
    expect(await page.locator('.overlay-note').count()).toBe(0);

    await page.reload({ waitUntil: 'domcontentloaded' });
    await mapReady(page, 'factory');
    expect(page.url()).toBe(`${baseUrl()}/map/factory?overlay=1&zoom=4&scale=4`);
    await expect.poll(() => playerOf(page), { timeout: 15_000 }).toEqual(ON_FACTORY);
    await page.waitForTimeout(2000);
    expect(await notesSeen(page)).toEqual([]);
    expect(await page.locator('.overlay-note').count()).toBe(0);

    // A normal map page in the same tab, opened on Customs: the change is answered, it stays,
    // and its Live menu names the player's map with a link there.
    await page.goto(`${baseUrl()}/map/customs?connection=${code}`, { waitUntil: 'domcontentloaded' });
    await mapReady(page, 'customs');
    await expect.poll(() => pilotOf(page), { timeout: 15_000 }).toMatchObject({ code, status: 'connected' });
    const banner = page.getByRole('banner');
    const live = banner.locator('.pilot-indicator__button');
    await expect.poll(() => live.evaluate((el) => el.classList.contains('pilot-indicator--elsewhere')), { timeout: 15_000 }).toBe(true);
    await live.click();
    const menu = banner.getByRole('group', { name: 'Live position feed' });
    await menu.waitFor();
    expect(await menu.textContent()).toContain('The player is on Factory, not on this map.');
    const link = menu.getByRole('link', { name: 'Go to Factory' });
    expect(new URL((await link.getAttribute('href'))!, baseUrl()).pathname).toBe('/map/factory');
    expect(new URL(page.url()).pathname).toBe('/map/customs');
    expect(await page.evaluate(() => (window as unknown as { __map: PilotApi }).__map.mapId)).toBe('customs');
  });

  for (const lang of ['en', 'ru'] as const) {
    test(`${lang.toUpperCase()}: a session the player ended is said in the note with its reason`, async () => {
      const { code, token } = await pair();
      const { page } = await browser.newPage({ width: 1280, height: 720, locale: lang === 'ru' ? 'ru-RU' : 'en-US' });
      await overlayFollowedToFactory(page, code, token);
      const ended = await fetch(`${baseUrl()}/api/be/pilot/${code}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
      expect(ended.status).toBe(204);
      await expect.poll(() => pilotOf(page).then((p) => p?.status), { timeout: 30_000 }).toBe('gone');
      const shown = formatPairingCode(code);
      const words = lang === 'ru' ? `raidmap: Трансляция позиции ${shown} закончилась: игрок завершил сеанс.` : `raidmap: Live position ${shown} has ended: the player ended the session.`;
      await expect.poll(() => page.locator('.overlay-note').allTextContents(), { timeout: 10_000 }).toEqual([words]);
      expect(await page.locator('.overlay-note').getAttribute('data-problem')).toBe('gone');
    });
  }

  test('?overlay=1 is a see-through page with only the map, following the player at the chosen zoom', async () => {
    const { code, token } = await pair();
    const { page } = await browser.newPage();
    await page.goto(`${baseUrl()}/map/customs?overlay=1&zoom=0.01&connection=${code}`, { waitUntil: 'domcontentloaded' });
    await waitReady(page);
    await expect.poll(() => pilotOf(page), { timeout: 15_000 }).toMatchObject({ code, status: 'connected' });
    // No top bar, no panels; the overlay stays the overlay once the code has left the address.
    expect(await page.getByRole('banner').count()).toBe(0);
    expect(await page.getByRole('complementary').count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('overlay')).toBe('1');
    const backgrounds = await page.evaluate(() => [document.documentElement, document.body].map((el) => getComputedStyle(el).backgroundColor));
    expect(backgrounds).toEqual(['rgba(0, 0, 0, 0)', 'rgba(0, 0, 0, 0)']);

    await publish(code, token, { type: 'position', data: { x: 0, y: 0, z: 0, look: 0 } });
    await expect.poll(() => playerOf(page), { timeout: 10_000 }).toEqual({ x: 0, y: 0, z: 0, look: 0 });
    // Zoomed all the way out, the map does not fill the window: around it the canvas is clear,
    // and once the tiles around the player are in, the map art in the middle is opaque.
    const alphas = async () => {
      const image = await decodeRgba(await page.screenshot({ omitBackground: true }));
      const alphaAt = (x: number, y: number) => image.data[(y * image.width + x) * 4 + 3];
      const corners = [alphaAt(2, 2), alphaAt(image.width - 3, 2), alphaAt(2, image.height - 3), alphaAt(image.width - 3, image.height - 3)];
      return { clearCorners: corners.filter((alpha) => alpha === 0).length >= 2, middle: alphaAt(Math.floor(image.width / 2), Math.floor(image.height / 2)) };
    };
    await expect.poll(alphas, { timeout: 10_000 }).toEqual({ clearCorners: true, middle: 255 });
  });

  test('is see-through from its very first frame, before the app runs', async () => {
    const { code } = await pair();
    const { page } = await browser.newPage();
    // Every animation frame from the document's start: the backgrounds and colour scheme about to be painted.
    await page.addInitScript(() => {
      type Frame = { html: string; scheme: string; body: string | null; app: boolean };
      const w = window as unknown as { __frames: Frame[] };
      w.__frames = [];
      const look = () => {
        const html = document.documentElement;
        if (html) {
          const style = getComputedStyle(html);
          w.__frames.push({
            html: style.backgroundColor,
            scheme: style.colorScheme,
            body: document.body ? getComputedStyle(document.body).backgroundColor : null,
            app: document.querySelector('.map-page') !== null,
          });
        }
        requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    });
    // The entry module comes late (a slow start), so frames are painted before the app runs.
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await new Promise((r) => setTimeout(r, 300));
      await route.continue();
    });
    await page.goto(`${baseUrl()}/map/customs?overlay=1&connection=${code}`, { waitUntil: 'domcontentloaded' });
    await waitReady(page);
    const frames = await page.evaluate(() => (window as unknown as { __frames: { html: string; scheme: string; body: string | null; app: boolean }[] }).__frames);
    expect(frames.filter((f) => !f.app).length, 'frames painted before the app ran').toBeGreaterThan(0);
    expect(frames.filter((f) => f.app).length, 'frames of the app').toBeGreaterThan(0);
    const opaque = frames.map((f, i) => ({ i, ...f })).filter((f) => f.html !== 'rgba(0, 0, 0, 0)' || (f.body !== null && f.body !== 'rgba(0, 0, 0, 0)') || f.scheme !== 'normal');
    expect(opaque.slice(0, 3), `${opaque.length} of ${frames.length} frames not see-through`).toEqual([]);
  });

  test('follows the player to the map\'s very corner: the player stays in the middle of the overlay', async () => {
    const { code, token } = await pair();
    const { page } = await browser.newPage({ width: 640, height: 360 });
    await page.goto(`${baseUrl()}/map/customs?overlay=1&zoom=2&connection=${code}`, { waitUntil: 'domcontentloaded' });
    await waitReady(page);
    await expect.poll(() => pilotOf(page), { timeout: 15_000 }).toMatchObject({ code, status: 'connected' });
    const middle = { x: 320, y: 180 };
    // Near each of two opposite corners of the map (40 map pixels in), where a map page's camera
    // would stop with the map's edge at the window's edge and the player off to the side.
    for (const corner of [{ mapX: 40, mapY: 40 }, { mapX: 4360, mapY: 3160 }]) {
      const game = mapToGame(MAPS.customs.transform, corner);
      await publish(code, token, { type: 'position', data: { x: game.gameX, y: game.gameZ, z: 0, look: 0 } });
      await expect.poll(async () => {
        await settleCamera(page);
        const at = await toScreen(page, corner.mapX, corner.mapY);
        return Math.max(Math.abs(at.x - middle.x), Math.abs(at.y - middle.y));
      }, { timeout: 10_000 }).toBeLessThan(2);
    }
  });

  test('drawn on the main thread, its first view is centred on a last position near the map\'s edge', async () => {
    const { code, token } = await pair();
    const corner = { mapX: 4350, mapY: 3150 };
    const game = mapToGame(MAPS.customs.transform, corner);
    await publish(code, token, { type: 'map', data: { map: 'customs' } });
    await publish(code, token, { type: 'position', data: { x: game.gameX, y: game.gameZ, z: 0, look: 0 } });
    // The page opens on a feed whose last position is already there (replayed on connect).
    const { page } = await browser.newPage({ width: 1280, height: 720 });
    await page.goto(`${baseUrl()}/map/customs?overlay=1&connection=${code}&render=main`, { waitUntil: 'domcontentloaded' });
    await waitReady(page);
    await expect.poll(() => playerOf(page), { timeout: 15_000 }).not.toBeNull();
    await expect
      .poll(async () => {
        const cam = await settleCamera(page);
        const at = await toScreen(page, corner.mapX, corner.mapY);
        return { camera: Math.max(Math.abs(cam.x - corner.mapX), Math.abs(cam.y - corner.mapY)) <= 1, player: Math.max(Math.abs(at.x - 640), Math.abs(at.y - 360)) <= 2, cam, at };
      }, { timeout: 10_000 })
      .toMatchObject({ camera: true, player: true });
  });

  test('centres on a player past the map\'s edge (Factory, zoom 4): the marker in the middle, not the edge; the level follows the height', async () => {
    const { code, token } = await pair();
    await publish(code, token, { type: 'map', data: { map: 'factory' } });
    // Off the drawing's east edge (mapX about 3928 of 3600), within the margin the feed accepts; height 4 is Level 2.
    const off = { x: 23.45, y: -90.12 };
    await publish(code, token, { type: 'position', data: { ...off, z: 4, look: 0 } });
    const { page } = await browser.newPage({ width: 1280, height: 720 });
    await page.goto(`${baseUrl()}/map/factory?overlay=1&connection=${code}&zoom=4&scale=4`, { waitUntil: 'domcontentloaded' });
    await mapReady(page, 'factory');
    const levelOf = () => page.evaluate(() => (window as unknown as { __map: { level(): number } }).__map.level());
    /** The view's centre and where the player's map point is drawn, against that point. */
    const centredOn = (point: { mapX: number; mapY: number }) => async () => {
      const cam = await settleCamera(page);
      const at = await toScreen(page, point.mapX, point.mapY);
      return {
        camera: Math.max(Math.abs(cam.x - point.mapX), Math.abs(cam.y - point.mapY)) <= 1,
        player: Math.max(Math.abs(at.x - 640), Math.abs(at.y - 360)) <= 2,
        cam,
        at,
      };
    };
    const offMap = gameToMap(MAPS.factory.transform, { gameX: off.x, gameZ: off.y });
    expect(offMap.mapX).toBeGreaterThan(MAPS.factory.size.width);
    await expect.poll(() => playerOf(page), { timeout: 15_000 }).toMatchObject({ ...off, z: 4 });
    await expect.poll(levelOf).toBe(2);
    await expect.poll(centredOn(offMap), { timeout: 10_000 }).toMatchObject({ camera: true, player: true });

    // Height 1 (the main level): the level changes, the view stays centred on the player.
    await publish(code, token, { type: 'position', data: { ...off, z: 1, look: 0 } });
    await expect.poll(() => playerOf(page), { timeout: 10_000 }).toMatchObject({ z: 1 });
    await expect.poll(levelOf).toBe(1);
    await expect.poll(centredOn(offMap), { timeout: 10_000 }).toMatchObject({ camera: true, player: true });

    // A position inside the drawing: centred there.
    const inside = { x: 10, y: -20 };
    const insideMap = gameToMap(MAPS.factory.transform, { gameX: inside.x, gameZ: inside.y });
    expect(insideMap.mapX).toBeGreaterThan(0);
    expect(insideMap.mapX).toBeLessThan(MAPS.factory.size.width);
    expect(insideMap.mapY).toBeGreaterThan(0);
    expect(insideMap.mapY).toBeLessThan(MAPS.factory.size.height);
    await publish(code, token, { type: 'position', data: { ...inside, z: 1, look: 0 } });
    await expect.poll(() => playerOf(page), { timeout: 10_000 }).toMatchObject(inside);
    await expect.poll(centredOn(insideMap), { timeout: 10_000 }).toMatchObject({ camera: true, player: true });
  });

  test('a corner note says when its code is no code or not a live feed; a live feed shows none', async () => {
    const overlay = { width: 1280, height: 720 };
    const note = (page: Page) => page.getByRole('note');

    const { page: bad } = await browser.newPage(overlay);
    await bad.goto(`${baseUrl()}/map/customs?overlay=1&connection=hello-world`, { waitUntil: 'domcontentloaded' });
    await waitReady(bad);
    await note(bad).filter({ hasText: '“hello-world”' }).waitFor({ timeout: 3000 });
    const box = (await note(bad).boundingBox())!;
    expect(box.x).toBeLessThan(20);
    expect(box.y + box.height).toBeGreaterThan(overlay.height - 20);

    const { page: unknown, errors } = await browser.newPage(overlay);
    errors.allow(UNKNOWN_CODE_404);
    await unknown.goto(`${baseUrl()}/map/customs?overlay=1&connection=${UNKNOWN_CODE}`, { waitUntil: 'domcontentloaded' });
    await waitReady(unknown);
    // The note writes the code with its dash, as everywhere else.
    await note(unknown).filter({ hasText: `no live feed with code ${formatPairingCode(UNKNOWN_CODE)}` }).waitFor({ timeout: 15_000 });

    // A live feed: no note at any moment, before or after a position comes.
    const { code, token } = await pair();
    const { page: live } = await browser.newPage(overlay);
    await live.addInitScript(() => {
      const w = window as unknown as { __notes: string[] };
      w.__notes = [];
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('[role="note"]')) w.__notes.push(el.textContent ?? '');
      }).observe(document, { childList: true, subtree: true });
    });
    const notesSeen = () => live.evaluate(() => (window as unknown as { __notes: string[] }).__notes);
    await live.goto(`${baseUrl()}/map/customs?overlay=1&connection=${code}`, { waitUntil: 'domcontentloaded' });
    await waitReady(live);
    await expect.poll(() => pilotOf(live), { timeout: 15_000 }).toMatchObject({ code, status: 'connected' });
    // The note's own delay (NOTE_DELAY_MS, 1.5 s) and some: it would be up by now.
    await live.waitForTimeout(2000);
    expect(await notesSeen()).toEqual([]);
    await publish(code, token, { type: 'position', data: { x: 10, y: 20, z: 1, look: 0 } });
    await expect.poll(() => playerOf(live), { timeout: 10_000 }).toEqual({ x: 10, y: 20, z: 1, look: 0 });
    await live.waitForTimeout(2000);
    expect(await notesSeen()).toEqual([]);
    expect(await note(live).count()).toBe(0);
  });
});

/** /pilot's words in each language (src/i18n/locales/{en,ru}/pilot.json). */
const PILOT_WORDS = {
  en: { start: 'Start a live session', active: 'Your live session', copyCode: 'Copy the code', end: 'End session' },
  ru: { start: 'Начать трансляцию', active: 'Ваша трансляция', copyCode: 'Скопировать код', end: 'Завершить трансляцию' },
} as const;

async function openPilot(page: Page): Promise<void> {
  await page.goto(`${baseUrl()}/pilot`, { waitUntil: 'domcontentloaded' });
  await page.getByRole('heading', { level: 1 }).waitFor();
}

describe('the /pilot page', () => {
  for (const lang of ['en', 'ru'] as const) {
    test(`${lang.toUpperCase()}: Start puts the focus on the session's heading, then Copy the code; End puts it on Start`, async () => {
      const words = PILOT_WORDS[lang];
      const { page } = await browser.newPage({ locale: lang === 'ru' ? 'ru-RU' : 'en-US' });
      await openPilot(page);
      const start = page.getByRole('button', { name: words.start, exact: true });
      await start.focus();
      await page.keyboard.press('Enter');
      await page.getByTestId('pilot-code').waitFor();
      await expect.poll(() => focused(page), { timeout: 10_000 }).toEqual({ tag: 'H2', name: words.active });
      await page.keyboard.press('Tab');
      await expect.poll(() => focused(page)).toEqual({ tag: 'BUTTON', name: words.copyCode });

      await page.getByRole('button', { name: words.end, exact: true }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByTestId('pilot-code').count(), { timeout: 10_000 }).toBe(0);
      await expect.poll(() => focused(page), { timeout: 10_000 }).toEqual({ tag: 'BUTTON', name: words.start });
    });
  }

  for (const size of [{ width: 390, height: 844, hasTouch: true }, { width: 1280, height: 800, hasTouch: false }]) {
    test(`at ${size.width} px the header holds EN / RU on the site name's line; RU sticks through a reload; no sideways scroll`, async () => {
      const { page } = await browser.newPage(size);
      await openPilot(page);
      const header = page.locator('.pilot-page .page__header');
      const brand = header.getByRole('link', { name: 'raidmap' });
      const expectSwitchBesideBrand = async (name: string) => {
        const group = header.getByRole('group', { name });
        const g = (await group.boundingBox())!;
        const b = (await brand.boundingBox())!;
        // The same top line: the two overlap vertically, the switch right of the name, both in the window.
        expect(g.y).toBeLessThan(b.y + b.height);
        expect(b.y).toBeLessThan(g.y + g.height);
        expect(g.x).toBeGreaterThanOrEqual(b.x + b.width);
        expect(g.x + g.width).toBeLessThanOrEqual(size.width);
        const h1 = (await header.getByRole('heading', { level: 1 }).boundingBox())!;
        expect(g.y + g.height).toBeLessThanOrEqual(h1.y + 1);
      };
      await expectSwitchBesideBrand('Language');
      const ru = header.getByRole('button', { name: 'RU Русский', exact: true });
      if (size.hasTouch) await ru.tap();
      else await ru.click();
      await header.getByRole('heading', { level: 1, name: 'Живая трансляция позиции' }).waitFor();
      expect(await ru.getAttribute('aria-pressed')).toBe('true');
      expect(await header.getByRole('button', { name: 'EN English', exact: true }).getAttribute('aria-pressed')).toBe('false');
      const scrollWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
      expect(await scrollWidth()).toBe(size.width);

      await page.reload({ waitUntil: 'domcontentloaded' });
      await header.getByRole('heading', { level: 1, name: 'Живая трансляция позиции' }).waitFor();
      expect(await ru.getAttribute('aria-pressed')).toBe('true');
      await expectSwitchBesideBrand('Язык');
      expect(await scrollWidth()).toBe(size.width);
    });
  }

  test('a sent file name\'s position reads to 2 decimals under Sent and Last sent', async () => {
    const { page } = await browser.newPage();
    await openPilot(page);
    await page.getByRole('button', { name: 'Start a live session', exact: true }).click();
    await page.getByTestId('pilot-code').waitFor();
    await page.getByRole('textbox', { name: 'Screenshot file name' }).fill('2024-05-01[12-34]_5.75, 2.31, 1.45_0, 0, 0, 1_1 (0).png');
    await page.getByRole('button', { name: 'Send this position' }).click();
    const words = 'X 5.75, Z 1.45, height 2.31';
    const testCard = page.getByRole('region', { name: 'Test with a file name' });
    await testCard.getByText(`Sent: ${words}.`, { exact: true }).waitFor();
    const last = page.getByRole('region', { name: 'Last sent' });
    await expect.poll(() => last.locator('dd').first().textContent()).toMatch(new RegExp(`^${words} · `));
  });
});

describe('/pilot: Follow a code checks the code first', () => {
  /** The "Follow a code" card in the page's language (its heading names the region). */
  const followCard = (page: Page, lang: 'en' | 'ru' = 'en') => page.getByRole('region', { name: lang === 'ru' ? 'Следить по коду' : 'Follow a code' });

  test('RU on a phone: a code no live position has is said by the field; the page stays, the code kept, the focus back in the field', async () => {
    const { page, errors } = await browser.newPage({ ...PHONE, hasTouch: true, locale: 'ru-RU' });
    errors.allow(gone404(NO_LIVE_CODE));
    await openPilot(page);
    const card = followCard(page, 'ru');
    const input = card.getByRole('textbox', { name: 'Код', exact: true });
    await input.tap();
    await input.fill('ZZZZZ-ZZZZZ');
    await card.getByRole('button', { name: 'Следить', exact: true }).tap();
    const alert = card.getByRole('alert');
    await alert.waitFor({ timeout: 15_000 });
    expect(await alert.textContent()).toContain('Нет трансляции позиции с кодом ZZZZZ-ZZZZZ');
    expect(new URL(page.url()).pathname).toBe('/pilot');
    expect(await input.inputValue()).toBe('ZZZZZ-ZZZZZ');
    await expect.poll(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    expect(await input.getAttribute('aria-describedby')).toBe(await alert.getAttribute('id'));
    // Nothing offers to open the map for a code the server does not know.
    expect(await card.getByRole('button', { name: 'Всё равно открыть карту' }).count()).toBe(0);
  });

  test('the check cannot reach the server: says so by the field; Open the map anyway opens Customs following the code', async () => {
    const { page, errors } = await browser.newPage();
    const check = `**/api/be/pilot/${NO_LIVE_CODE}`;
    errors.allow(new RegExp(`ERR_FAILED.*/api/be/pilot/${NO_LIVE_CODE}`));
    // The map page then asks the server itself, which does not know the code.
    errors.allow(gone404(NO_LIVE_CODE));
    await page.route(check, (route) => route.abort());
    await openPilot(page);
    const card = followCard(page);
    const input = card.getByRole('textbox', { name: 'Code', exact: true });
    await input.fill(NO_LIVE_CODE);
    await card.getByRole('button', { name: 'Follow', exact: true }).click();
    const alert = card.getByRole('alert');
    await alert.waitFor({ timeout: 15_000 });
    expect(await alert.textContent()).toContain('Could not check the code: the server could not be reached.');
    expect(new URL(page.url()).pathname).toBe('/pilot');
    // Not the code's fault.
    expect(await input.getAttribute('aria-invalid')).toBe('false');

    await page.unroute(check);
    await card.getByRole('button', { name: 'Open the map anyway', exact: true }).click();
    await mapReady(page, 'customs');
    // The code left the address; the page follows it.
    await expect.poll(() => new URL(page.url()).searchParams.has('connection')).toBe(false);
    expect((await pilotOf(page))?.code).toBe(NO_LIVE_CODE);
  });

  test('RU: a code refused for too many guesses (429) offers «Всё равно открыть карту», the field not at fault; the map opens following it and waits out the refusal', async () => {
    // A live code: only this page's address is refused (the server's guessing rule, here by route).
    const { code } = await pair();
    const { page, errors } = await browser.newPage({ locale: 'ru-RU' });
    const refused = { error: 'Too Many Requests', message: 'too many unknown pairing codes', limit: 'guesses', retryAfter: 300 };
    // The check, then the map's stream and its check, are refused (the browser logs each 429).
    errors.allow(new RegExp(`429 \\(Too Many Requests\\) \\(.*/api/be/pilot/${code}(/events)?\\)$`));
    errors.allow(/EventSource/);
    const refuse = (route: Route) => route.fulfill({ status: 429, contentType: 'application/json', headers: { 'retry-after': '300' }, body: JSON.stringify(refused) });
    await page.route(`**/api/be/pilot/${code}`, refuse);
    await page.route(`**/api/be/pilot/${code}/events`, refuse);
    // Every address the tab shows, the map page's own rewrite of it included.
    const addresses: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) addresses.push(frame.url());
    });
    await openPilot(page);
    const card = followCard(page, 'ru');
    const input = card.getByRole('textbox', { name: 'Код', exact: true });
    await input.fill(formatPairingCode(code));
    await card.getByRole('button', { name: 'Следить', exact: true }).click();
    const alert = card.getByRole('alert');
    await alert.waitFor({ timeout: 15_000 });
    const said = (await alert.textContent()) ?? '';
    expect(said).toContain('Пока отказано: с вашего сетевого адреса пришло слишком много неизвестных кодов');
    expect(said).toContain('Или откройте карту уже сейчас: она подключится сама, когда ожидание закончится.');
    expect(new URL(page.url()).pathname).toBe('/pilot');
    // Not the code's fault: kept, not marked.
    expect(await input.inputValue()).toBe(formatPairingCode(code));
    expect(await input.getAttribute('aria-invalid')).toBe('false');

    await card.getByRole('button', { name: 'Всё равно открыть карту', exact: true }).click();
    await mapReady(page, 'customs');
    expect(addresses.map((url) => `${new URL(url).pathname}${new URL(url).search}`)).toContain(`/map/customs?connection=${code}`);
    // The map follows the code and waits out the server's refusal (amber), saying when it asks again.
    await expect.poll(() => pilotOf(page).then((p) => p && { code: p.code, status: p.status }), { timeout: 15_000 }).toEqual({ code, status: 'limited' });
    const live = page.getByRole('banner').locator('.pilot-indicator__button');
    await expect.poll(() => live.getAttribute('class')).toContain('pilot-indicator--limited');
    expect(await live.getAttribute('aria-label')).toContain(`Позиция ${formatPairingCode(code)}: с вашего сетевого адреса пришло слишком много неизвестных кодов, сервер просит подождать.`);
    // The server's 300 s, counted down from when the page heard it (about 5 minutes, not "now").
    expect(await live.getAttribute('aria-label')).toMatch(/Новая попытка через [56] минут\./);
  });

  test('a live code typed and followed opens its map with the Live dot live', async () => {
    const { code } = await pair();
    const { page } = await browser.newPage();
    await openPilot(page);
    const card = followCard(page);
    await card.getByRole('textbox', { name: 'Code', exact: true }).fill(formatPairingCode(code).toLowerCase());
    await card.getByRole('button', { name: 'Follow', exact: true }).click();
    await mapReady(page, 'customs');
    await expect.poll(() => pilotOf(page), { timeout: 15_000 }).toMatchObject({ code, status: 'connected' });
    expect(new URL(page.url()).searchParams.has('connection')).toBe(false);
    const live = page.getByRole('banner').locator('.pilot-indicator__button');
    await expect.poll(() => live.getAttribute('class')).toContain('pilot-indicator--connected');
    expect(await live.getAttribute('aria-label')).toContain(`Following live position ${formatPairingCode(code)}`);
  });
});

describe('/pilot: Watch my screenshots folder says the browser\'s refusals in the page\'s words', () => {
  test('RU: NotAllowedError is said in Russian only; a closed picker (AbortError) says nothing; another error ends with «Сообщение браузера: …»', async () => {
    const { page } = await browser.newPage({ locale: 'ru-RU' });
    // The picker rejects as the test says (window.__pickerError); every alert the card shows is recorded.
    await page.addInitScript(() => {
      const w = window as unknown as { __pickerError: { name: string; message: string }; __pickerCalls: number; __alerts: string[]; showDirectoryPicker: () => Promise<never> };
      w.__pickerCalls = 0;
      w.__alerts = [];
      w.showDirectoryPicker = () => {
        w.__pickerCalls += 1;
        return Promise.reject(new DOMException(w.__pickerError.message, w.__pickerError.name));
      };
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('[role="alert"]')) {
          const text = el.textContent ?? '';
          if (text !== '' && w.__alerts.at(-1) !== text) w.__alerts.push(text);
        }
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    const pick = async (error: { name: string; message: string }) => {
      const calls = await page.evaluate((e) => {
        const w = window as unknown as { __pickerError: { name: string; message: string }; __pickerCalls: number };
        w.__pickerError = e;
        return w.__pickerCalls;
      }, error);
      await choose.click();
      await expect.poll(() => page.evaluate(() => (window as unknown as { __pickerCalls: number }).__pickerCalls)).toBe(calls + 1);
    };
    const alertsSeen = () => page.evaluate(() => (window as unknown as { __alerts: string[] }).__alerts);

    await openPilot(page);
    await page.getByRole('button', { name: PILOT_WORDS.ru.start, exact: true }).click();
    await page.getByTestId('pilot-code').waitFor();
    const card = page.getByRole('region', { name: 'Следить за папкой скриншотов' });
    const choose = card.getByRole('button', { name: 'Выбрать папку скриншотов', exact: true });
    const alert = card.getByRole('alert');

    await pick({ name: 'NotAllowedError', message: 'The request is not allowed by the user agent or the platform in the current context.' });
    await alert.waitFor();
    const notAllowed = 'Не удалось следить за папкой: браузеру не разрешили её читать. Выберите папку снова и разрешите доступ, когда браузер спросит.';
    expect(await alert.textContent()).toBe(notAllowed);
    expect(await alert.textContent()).not.toMatch(/[A-Za-z]/);

    // Closed without choosing: the last notice goes, nothing new is said, the button stays.
    await pick({ name: 'AbortError', message: 'The user aborted a request.' });
    await expect.poll(() => alert.count()).toBe(0);
    expect(await alertsSeen()).toEqual([notAllowed]);
    expect(await choose.isVisible()).toBe(true);

    // An error the page has no words for: its own sentence, then the browser's, set apart.
    await pick({ name: 'InvalidStateError', message: 'The folder is busy.' });
    await alert.waitFor();
    const other = (await alert.textContent()) ?? '';
    expect(other).toBe('Не удалось следить за папкой: браузер сообщил о непредвиденной ошибке. Выберите папку снова или запустите наблюдатель на ПК. Сообщение браузера: InvalidStateError: The folder is busy.');
    expect(other).toMatch(/Сообщение браузера: InvalidStateError: The folder is busy\.$/);
    expect(await alertsSeen()).toEqual([notAllowed, other]);
  });
});
