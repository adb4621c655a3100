/**
 * Harness for the admin editor's end-to-end tests (e2e/editor-*.e2e.ts): each file starts its
 * own server with the demo accounts (like accounts.e2e.ts), one Chromium, and pages that either
 * live for one test or are kept for a whole describe (so a describe does not reload the map for
 * every test). Any console error, page error, crash or 5xx on any open page fails the test it
 * happened in; when a test fails, every open page is photographed into a temp folder (named in
 * the error) — nothing is written otherwise. Helpers drive the editor through `window.__map`
 * (docs/AUTOMATION.md) and read the truth from the server's marker list.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { Marker } from '../../src/domain/marker';
import { round4 } from '../../src/domain/transform';
import type { MapAutomation } from '../../src/ui/map/automation';
import { expectRunRenderMode, useRunRenderMode } from '../browser';
import { launchChromium } from './chromium';
import { trackErrors, type PageErrors } from './page-errors';
import { freshDataDir, startServer, type RunningServer } from './server';

export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 390, height: 844 } as const;
export const MAP = 'customs';
export const PASSWORD = 'demo';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

// The type import also brings automation.ts's `Window['__map']` declaration.
export type { MapAutomation };

/**
 * Registers beforeAll / afterAll hooks that start a server of the file's own (sample content,
 * demo accounts, customs seeded, the tiles the global setup cut) and stop it.
 */
export function useEditorServer(prefix: string): { baseUrl(): string } {
  const dataDir = freshDataDir(`raidmap-e2e-${prefix}-`);
  let server: RunningServer | undefined;
  beforeAll(async () => {
    server = await startServer({
      repoRoot,
      dataDir,
      env: { NODE_ENV: 'development', DEMO_ACCOUNTS: '1', SEED_MAPS: MAP, TILES_DIR: inject('tilesDir') },
      tilesTimeoutMs: 120_000,
    });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    baseUrl() {
      if (!server) throw new Error(`the ${prefix} server did not start`);
      return server.baseUrl;
    },
  };
}

export interface EditorPage {
  page: Page;
  context: BrowserContext;
  errors: PageErrors;
}

/**
 * The page hears nothing live (its live-events stream refused), so another admin's change
 * reaches it only as the server's 409 to its own write; both failures are allowed.
 */
export async function hearNothingLive({ page, errors }: EditorPage): Promise<void> {
  await page.route('**/api/be/live/**', (route) => route.abort());
  errors.allow(/ERR_FAILED.*\/api\/be\/live\//);
  errors.allow(/409 \(Conflict\)/);
}

/** An admin's map page, signed in and open, that hears nothing live (see `hearNothingLive`). */
export async function openAdminMapHearingNothing(tracked: EditorPage, baseUrl: string): Promise<void> {
  await hearNothingLive(tracked);
  await signIn(tracked.page, baseUrl, 'admin');
  await openMap(tracked.page, baseUrl);
}

export interface NewPageOptions {
  width?: number;
  height?: number;
  hasTouch?: boolean;
  /** The browser's language (en-US: the tests read English names; the UI starts in it). */
  locale?: string;
  /** Keep the page open after the test (until `closeKept` or the end of the file). */
  keep?: boolean;
}

/**
 * One Chromium for the file. `newPage()` opens a fresh context (own cookies and storage);
 * pages close after their test unless kept. Errors on any open page fail the running test.
 */
export function useEditorBrowser() {
  let browser: Browser | undefined;
  const perTest: EditorPage[] = [];
  const kept: EditorPage[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterEach(async (context) => {
    const open = [...kept, ...perTest];
    if (context.task.result?.state === 'fail' && open.length > 0) {
      const folder = mkdtempSync(join(tmpdir(), 'raidmap-e2e-editor-shots-'));
      const shots = await Promise.all(
        open.map(async (p, i) => {
          const file = join(folder, `page-${i + 1}-${p.page.viewportSize()?.width ?? 0}w.png`);
          return p.page.screenshot({ path: file }).then(() => file, () => null);
        }),
      );
      console.log(`screenshots of the failed test "${context.task.name}": ${shots.filter(Boolean).join(', ')}`);
    }
    const problems = open.flatMap((p) => p.errors.list.splice(0));
    const closing = perTest.splice(0);
    await Promise.all(closing.map((p) => p.context.close().catch(() => undefined)));
    if (problems.length > 0) throw new Error(`the page reported errors:\n${problems.join('\n')}`);
  });

  afterAll(async () => {
    await browser?.close();
  });

  return {
    async newPage(options: NewPageOptions = {}): Promise<EditorPage> {
      if (!browser) throw new Error('browser not launched: call newPage inside a test or a hook');
      const context = await browser.newContext({
        viewport: { width: options.width ?? DESKTOP.width, height: options.height ?? DESKTOP.height },
        deviceScaleFactor: 1,
        hasTouch: options.hasTouch ?? false,
        // The UI starts in the browser's language: the tests read English names unless told.
        locale: options.locale ?? 'en-US',
        acceptDownloads: true,
      });
      await useRunRenderMode(context);
      const page = await context.newPage();
      const tracked = { page, context, errors: trackErrors(page) };
      (options.keep ? kept : perTest).push(tracked);
      return tracked;
    },
    /** Closes the kept pages (end of a describe). */
    async closeKept(): Promise<void> {
      const closing = kept.splice(0);
      await Promise.all(closing.map((p) => p.context.close().catch(() => undefined)));
    },
  };
}

/** Signs the page's context in through the API (the session cookie lands in the context). */
export async function signIn(page: Page, baseUrl: string, name: 'admin' | 'pro' | 'visitor'): Promise<void> {
  const res = await page.request.post(`${baseUrl}/api/be/auth/login`, { data: { name, password: PASSWORD } });
  if (!res.ok()) throw new Error(`signing in as ${name} failed: ${res.status()} ${await res.text()}`);
}

/** Waits until the map page is ready (first tiles and markers drawn). */
export async function waitReady(page: Page): Promise<void> {
  await page.waitForFunction(() => window.__map?.ready === true, undefined, { timeout: 45_000, polling: 100 });
  await expectRunRenderMode(page);
}

/** Opens `/map/customs{suffix}` and waits for it to be ready. */
export async function openMap(page: Page, baseUrl: string, suffix = ''): Promise<void> {
  await page.goto(`${baseUrl}/map/${MAP}${suffix}`, { waitUntil: 'domcontentloaded' });
  await waitReady(page);
}

export async function reload(page: Page): Promise<void> {
  await page.reload({ waitUntil: 'domcontentloaded' });
  await waitReady(page);
}

/** `window.__map` of a page, read member by member (docs/AUTOMATION.md). */
export function map(page: Page) {
  return {
    toolPath: () => page.evaluate(() => window.__map!.toolPath()),
    shapes: () => page.evaluate(() => window.__map!.shapes()),
    editor: () => page.evaluate(() => window.__map!.editor()),
    markers: () => page.evaluate(() => window.__map!.markers()),
    popup: () => page.evaluate(() => window.__map!.popup()),
    camera: () => page.evaluate(() => window.__map!.camera()!),
    toScreen: (x: number, y: number) => page.evaluate(([mx, my]) => window.__map!.toScreen(mx, my)!, [x, y] as const),
    toMap: (x: number, y: number) => page.evaluate(([sx, sy]) => window.__map!.toMap(sx, sy)!, [x, y] as const),
  };
}

/** Polls until `read()` satisfies `check` (generous timeout; never a timing assertion). */
export async function until<T>(read: () => Promise<T>, check: (value: T) => boolean, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (!check(last)) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}; last value: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 100));
    last = await read();
  }
  return last;
}

/** The server's markers of the map (the list is public; read without any page cache). */
export async function serverMarkers(baseUrl: string): Promise<Marker[]> {
  const res = await fetch(`${baseUrl}/api/be/markers/list?map=${MAP}`, { headers: { 'cache-control': 'no-cache' } });
  if (!res.ok) throw new Error(`marker list answered ${res.status}`);
  return ((await res.json()) as { markers: Marker[] }).markers;
}

/**
 * One marker as the database holds it now (null once deleted), read with the uncached
 * `markers/one` call: the list above may lag a write by up to 100 ms (server/http/json-cache.ts),
 * so a check made right after a write must not read the list.
 */
export async function serverMarker(baseUrl: string, uid: string): Promise<Marker | null> {
  const res = await fetch(`${baseUrl}/api/be/markers/one?uid=${encodeURIComponent(uid)}`);
  if (res.status === 404) return null;
  if (!res.ok) throw new Error(`marker ${uid} answered ${res.status}`);
  return ((await res.json()) as { marker: Marker }).marker;
}

/** Adds a marker through the admin API of the page's (admin) context; the live feed brings it to open pages. */
export async function addMarker(page: Page, baseUrl: string, fields: Partial<Marker> & { geometry: { x: number; y: number } }): Promise<Marker> {
  const res = await page.request.post(`${baseUrl}/api/be/admin/marker/add`, {
    data: { map: MAP, category: 'Markers', subCategory: 'Marker', level: 1, ...fields },
  });
  if (res.status() !== 201) throw new Error(`adding a marker answered ${res.status()} ${await res.text()}`);
  return ((await res.json()) as { marker: Marker }).marker;
}

/** A marker added through the API at a screen spot of the page (map px, 4 decimals), once the page draws it. */
export async function addMarkerAt(page: Page, baseUrl: string, spot: Spot, fields: Partial<Marker> = {}): Promise<Marker> {
  const at = await map(page).toMap(spot.x, spot.y);
  const marker = await addMarker(page, baseUrl, { geometry: { x: round4(at.x), y: round4(at.y) }, ...fields });
  await waitForMarker(page, marker.uid);
  return marker;
}

/** The uids of the markers the server lists now. */
export async function serverUids(baseUrl: string): Promise<Set<string>> {
  return new Set((await serverMarkers(baseUrl)).map((m) => m.uid));
}

/** Waits until the server lists at least `count` markers not in `before`, and returns them. */
export async function newServerMarkers(baseUrl: string, before: ReadonlySet<string>, count: number): Promise<Marker[]> {
  return until(
    async () => (await serverMarkers(baseUrl)).filter((m) => !before.has(m.uid)),
    (list) => list.length >= count,
    `${count} new markers on the server`,
  );
}

/** Waits until the page draws the marker `uid` (or, with `gone`, no longer draws it). */
export async function waitForMarker(page: Page, uid: string, gone = false): Promise<void> {
  await page.waitForFunction(
    ([id, absent]) => window.__map!.markers().some((m) => m.uid === id) !== absent,
    [uid, gone] as const,
    { timeout: 15_000, polling: 100 },
  );
}

export interface Spot {
  x: number;
  y: number;
}

/**
 * Screen points on the bare canvas (no panel or popup over them) at least `clearance` px from
 * every drawn marker and from each other, inside the given box, in reading order.
 */
export async function freeSpots(
  page: Page,
  count: number,
  options: { clearance?: number; box?: { left: number; top: number; right: number; bottom: number }; step?: number } = {},
): Promise<Spot[]> {
  const { clearance = 40, box = { left: 280, top: 80, right: 980, bottom: 600 }, step = 10 } = options;
  const spots = await page.evaluate(
    ({ count: n, clearance: gap, box: b, step: s }) => {
      const api = window.__map!;
      const taken = api
        .markers()
        .map((m) => api.toScreen(m.x, m.y)!)
        .filter((p) => p.x > b.left - 100 && p.x < b.right + 100 && p.y > b.top - 100 && p.y < b.bottom + 100);
      const found: { x: number; y: number }[] = [];
      const bare = (x: number, y: number) => document.elementFromPoint(x, y) instanceof HTMLCanvasElement;
      for (let y = b.top; y <= b.bottom && found.length < n; y += s) {
        for (let x = b.left; x <= b.right && found.length < n; x += s) {
          if (!bare(x, y) || !bare(x - 20, y - 20) || !bare(x + 20, y + 20) || !bare(x - 20, y + 20) || !bare(x + 20, y - 20)) continue;
          if (taken.some((p) => Math.hypot(p.x - x, p.y - y) < gap)) continue;
          if (found.some((p) => Math.hypot(p.x - x, p.y - y) < gap)) continue;
          found.push({ x, y });
        }
      }
      return found;
    },
    { count, clearance, box, step },
  );
  if (spots.length < count) throw new Error(`found only ${spots.length} of ${count} free canvas spots`);
  return spots;
}

/**
 * The map point (map px, 4 decimals) of a bare canvas spot in the view's top band: a marker put
 * there shows clear of the panels, and its popup opens below it.
 */
export async function freeTopPoint(page: Page): Promise<{ x: number; y: number }> {
  const [spot] = await freeSpots(page, 1, { box: { left: 320, top: 90, right: 960, bottom: 220 } });
  const at = await map(page).toMap(spot.x, spot.y);
  return { x: round4(at.x), y: round4(at.y) };
}

/** A press, a drag in steps and a release with the real mouse. */
export async function drag(page: Page, from: Spot, to: Spot, steps = 8): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps });
  await page.mouse.up();
}

/** The admin tools panel and its buttons by their accessible names (src/i18n/locales/en/admin.json). */
export function toolsPanel(page: Page): Locator {
  return page.getByRole('region', { name: 'Editor tools' });
}

export function toolButton(page: Page, name: string): Locator {
  return toolsPanel(page).getByRole('button', { name, exact: true });
}

/**
 * On a phone (touch) page in English: switches the page to Russian from the top bar's menu,
 * closes the menu if it stayed open, and shows the editor tools if they are hidden; the Russian
 * tools panel («Инструменты редактора»).
 */
export async function russianToolsOnPhone(page: Page): Promise<Locator> {
  const banner = page.getByRole('banner');
  await banner.getByRole('button', { name: 'Menu' }).tap();
  await banner.getByRole('button', { name: 'RU Русский', exact: true }).tap();
  const menu = banner.getByRole('button', { name: 'Меню' });
  await menu.waitFor();
  if ((await menu.getAttribute('aria-expanded')) === 'true') await menu.tap();
  const panel = page.getByRole('region', { name: 'Инструменты редактора' });
  await panel.waitFor();
  const show = panel.getByRole('button', { name: 'Показать инструменты редактора' });
  if ((await show.count()) > 0) await show.tap();
  return panel;
}

export function statusBar(page: Page): Locator {
  return page.getByRole('region', { name: 'Editor status' });
}

/** One field of the status bar (`state`, `selected`, `drawing`, `zoom`, `centre`, `map`, `game`, `screen`). */
export async function statusValue(page: Page, field: string): Promise<string> {
  const value = statusBar(page).locator(`[data-field="${field}"] .admin-status__value`);
  // The state shows in words of the page's language; its machine path (pan.idle) is `data-state`.
  if (field === 'state') return (await value.getAttribute('data-state')) ?? '';
  return (await value.textContent()) ?? '';
}

/** The marker popup's dialog (of `uid` when given). */
export function popupDialog(page: Page, uid?: string): Locator {
  return page.locator(uid ? `.marker-popup[data-uid="${uid}"]` : '.marker-popup').getByRole('dialog');
}

export function editForm(page: Page): Locator {
  return page.getByRole('form', { name: 'Edit marker' });
}

/**
 * Waits until the popup of `uid` is open and ready for keys: `__map.popup()` names it and its
 * dialog has taken the focus (its Escape handler is in place by then).
 */
export async function waitPopupOpen(page: Page, uid: string): Promise<void> {
  await expect.poll(() => map(page).popup()).toBe(uid);
  await page.waitForFunction((id) => document.activeElement?.closest('.marker-popup')?.getAttribute('data-uid') === id, uid, { timeout: 15_000, polling: 50 });
}

/** Opens a marker's popup with a real click at its drawn position (pan mode) and waits for it. */
export async function clickMarker(page: Page, uid: string): Promise<void> {
  const m = (await map(page).markers()).find((x) => x.uid === uid);
  if (!m) throw new Error(`marker ${uid} is not drawn`);
  const p = await map(page).toScreen(m.x, m.y);
  await page.mouse.click(p.x, p.y);
  await waitPopupOpen(page, uid);
}

/** The edit form of the open popup: opens the popup on `uid` (a click) and presses Edit. */
export async function openEditForm(page: Page, uid: string): Promise<Locator> {
  if ((await map(page).popup()) !== uid) await clickMarker(page, uid);
  await popupDialog(page, uid).getByRole('button', { name: 'Edit', exact: true }).click();
  const form = editForm(page);
  await form.waitFor();
  return form;
}

/** Goes back to pan (Escape closes a popup too) and waits for it. */
export async function toPan(page: Page): Promise<void> {
  if ((await map(page).toolPath()) !== 'pan.idle') {
    await page.keyboard.press('Escape');
    await expect.poll(() => map(page).toolPath()).toBe('pan.idle');
  }
}

/** Closes the marker popup open for a while, if any (Escape), and waits until it is gone. */
export async function closePopup(page: Page): Promise<void> {
  if ((await map(page).popup()) === null) return;
  await page.keyboard.press('Escape');
  await expect.poll(() => map(page).popup()).toBeNull();
}

/** A 1×1 transparent PNG. */
export const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
