/**
 * The map page and the home page on a phone (390×844, touch), against a server of this file's
 * own with the demo accounts (as accounts.e2e.ts): a pro user's quest list keeps whole rows in
 * view after hiding a quest and scrolls, its panel cuts none of its controls off; the
 * categories panel fits the window and scrolls; every control a finger aims at has a hit area
 * of at least 44 px that a tap reaches; the top bar stays one row; Where am I's field has 16 px
 * text (a phone's browser zooms into a smaller one); Escape in the Menu folds it with the focus
 * on Menu; Where am I and the panels take turns (in English and Russian): the box hides the
 * panels and keeps the bar short, Show panels folds the box and gives the categories room for
 * their rows. At 1280×800 with a mouse the panels and the bar keep their compact desktop look.
 */
import { rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { useBrowser } from './browser';
import { insideWindow, scrollerOf, tappableBox, tapSize, touchScroll, wholeRowsShown } from './support/layout';
import { freshDataDir, startServer, type RunningServer } from './support/server';

const browser = useBrowser();
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = freshDataDir('raidmap-e2e-touch-');
let server: RunningServer | undefined;

const PHONE = { width: 390, height: 844 } as const;
const FINGER = 44;
const ROWS = '.quest-list__item';

beforeAll(async () => {
  server = await startServer({
    repoRoot,
    dataDir,
    env: { NODE_ENV: 'development', DEMO_ACCOUNTS: '1', SEED_MAPS: 'customs', TILES_DIR: inject('tilesDir') },
    tilesTimeoutMs: 120_000,
  });
});

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

function baseUrl(): string {
  if (!server) throw new Error('the touch-layout server did not start');
  return server.baseUrl;
}

/** Signs the page's browser context in through the API, with nothing done or hidden yet. */
async function signIn(page: Page, name: 'pro' | 'visitor'): Promise<void> {
  const res = await page.request.post(`${baseUrl()}/api/be/auth/login`, { data: { name, password: 'demo' } });
  if (!res.ok()) throw new Error(`signing in as ${name} failed: ${res.status()} ${await res.text()}`);
  if (name !== 'pro') return;
  for (const data of [{ questsDone: [] }, { questsHidden: [] }]) {
    const reset = await page.request.post(`${baseUrl()}/api/be/user/progress`, { data });
    if (!reset.ok()) throw new Error(`resetting progress failed: ${reset.status()} ${await reset.text()}`);
  }
}

async function openMap(page: Page, mapId: string): Promise<void> {
  await page.goto(`${baseUrl()}/map/${mapId}`, { waitUntil: 'domcontentloaded' });
  await page.waitForFunction(() => (window as unknown as { __map?: { ready: boolean } }).__map?.ready === true, undefined, { timeout: 45_000, polling: 100 });
}

/** A phone starts with the panels hidden: Menu, then Show panels; waits for the quest rows. */
async function showPanels(page: Page): Promise<void> {
  const banner = page.getByRole('banner');
  await banner.getByRole('button', { name: 'Menu' }).tap();
  await banner.getByRole('button', { name: 'Show panels' }).tap();
  await page.locator(ROWS).first().waitFor();
}

const questPanel = (page: Page) => page.getByRole('complementary', { name: 'Levels and quests' });
const categoryPanel = (page: Page) => page.getByRole('complementary', { name: 'Categories' });

/** The box a tap on a checkbox or radio reaches it through: its label. */
const labelOf = (input: Locator) => input.locator('xpath=ancestor::label[1]');

/** Fails naming each target whose tappable box is under 44 px on its smaller side. */
async function expectFingerSized(targets: Record<string, Locator>): Promise<void> {
  const small: string[] = [];
  for (const [name, target] of Object.entries(targets)) {
    const size = await tapSize(target.first());
    if (size < FINGER - 0.5) small.push(`${name}: ${size.toFixed(1)} px`);
  }
  expect(small, 'controls with a hit area under 44 px (0: a tap does not reach all of it)').toEqual([]);
}

/**
 * Hides the first quest row's quest (saved for the pro user), then opens the map again with the
 * panels shown: a row hidden from itself stays in place until the list is drawn anew
 * (docs/DECISIONS.md "The hidden-quests toggle"), and then it is behind Show hidden quests.
 */
async function hideFirstQuest(page: Page, panel: Locator): Promise<void> {
  const saved = page.waitForResponse((r) => r.url().includes('/api/be/user/progress') && r.request().method() === 'POST' && r.ok());
  await panel.getByRole('button', { name: /^Hide: / }).first().tap();
  await saved;
  await openMap(page, 'customs');
  await showPanels(page);
}

describe('on a 390×844 touch screen', () => {
  test("a pro user's quest list keeps whole rows in view after hiding a quest, and scrolls; its panel cuts nothing off", async () => {
    const { page } = await browser.newPage({ ...PHONE, hasTouch: true });
    await signIn(page, 'pro');
    await openMap(page, 'customs');
    await showPanels(page);
    const panel = questPanel(page);
    await hideFirstQuest(page, panel);
    const showHidden = panel.getByRole('button', { name: 'Show hidden quests (1)' });
    await showHidden.waitFor();

    // The panel's own controls are whole and inside the window (before: no quest row at all,
    // the panel cut at 302 of its 373 px).
    const controls = {
      'the first level': labelOf(panel.getByRole('radio').first()),
      'Only quests on this map': labelOf(panel.getByRole('checkbox', { name: 'Only quests on this map' })),
      'Show hidden quests (1)': showHidden,
      Settings: panel.getByRole('button', { name: /Settings/ }),
    };
    for (const [name, control] of Object.entries(controls)) {
      const box = await tappableBox(control);
      expect(box, `${name} is reachable whole`).not.toBeNull();
      expect(insideWindow(box!, PHONE.width, PHONE.height), `${name} is inside the window`).toBe(true);
    }
    expect(await wholeRowsShown(page, ROWS)).toBeGreaterThanOrEqual(3);

    // It scrolls: a finger's swipe on the rows brings later quests into view.
    const rows = page.locator(ROWS);
    expect((await scrollerOf(rows.first())).scrolls).toBe(true);
    const at = (await rows.first().boundingBox())!;
    await touchScroll(page, { x: at.x + 40, y: at.y + at.height / 2 }, 400);
    await expect.poll(() => tappableBox(rows.first())).toBeNull();
    expect(await wholeRowsShown(page, ROWS)).toBeGreaterThanOrEqual(3);
    // Settings stays at the panel's foot while the rows scroll.
    expect(await tappableBox(controls.Settings)).not.toBeNull();
  });

  test('the categories panel sits inside the window under the bar, and scrolls', async () => {
    const { page } = await browser.newPage({ ...PHONE, hasTouch: true });
    await openMap(page, 'customs');
    await showPanels(page);
    const panel = categoryPanel(page);
    const box = (await panel.boundingBox())!;
    expect(insideWindow(box, PHONE.width, PHONE.height)).toBe(true);
    const banner = (await page.getByRole('banner').boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(banner.y + banner.height);
    // It leaves the middle of the map clear of both panels.
    const quests = (await questPanel(page).boundingBox())!;
    expect(quests.y).toBeGreaterThan(box.y + box.height);

    const before = await panel.evaluate((el) => el.scrollTop);
    expect((await scrollerOf(panel.getByRole('checkbox').first())).scrolls).toBe(true);
    await touchScroll(page, { x: box.x + box.width / 2, y: box.y + box.height / 2 }, 200);
    await expect.poll(() => panel.evaluate((el) => el.scrollTop)).toBeGreaterThan(before);
  });

  test('every control a finger aims at has a 44 px hit area; the bar stays one row', async () => {
    const { page } = await browser.newPage({ ...PHONE, hasTouch: true });
    await signIn(page, 'pro');
    await openMap(page, 'customs');
    const banner = page.getByRole('banner');
    const bar = {
      'All maps': banner.getByRole('link', { name: 'All maps' }),
      'Where am I': banner.getByRole('button', { name: 'Where am I' }),
      Menu: banner.getByRole('button', { name: 'Menu' }),
    };
    await expectFingerSized(bar);
    // One row: the three share a line, and the bar is no taller than a finger and its frame.
    const tops = await Promise.all(Object.values(bar).map(async (l) => (await l.boundingBox())!.y));
    expect(Math.max(...tops) - Math.min(...tops)).toBeLessThan(1);
    const barBox = (await banner.boundingBox())!;
    expect(barBox.height).toBeLessThan(60);
    expect(insideWindow(barBox, PHONE.width, PHONE.height)).toBe(true);

    await bar.Menu.tap();
    const menu = {
      'Show panels': banner.getByRole('button', { name: 'Show panels' }),
      'Full screen': banner.getByRole('button', { name: 'Full screen' }),
      EN: banner.getByRole('button', { name: 'EN English', exact: true }),
      RU: banner.getByRole('button', { name: 'RU Русский', exact: true }),
      'the account button': banner.locator('.account-menu__button'),
    };
    await expectFingerSized(menu);
    for (const item of Object.values(menu)) expect(insideWindow((await item.boundingBox())!, PHONE.width, PHONE.height)).toBe(true);

    await menu['Show panels'].tap();
    await page.locator(ROWS).first().waitFor();
    const categories = categoryPanel(page);
    const quests = questPanel(page);
    const firstRow = page.locator(ROWS).first();
    await expectFingerSized({
      'Show all': categories.getByRole('button', { name: 'Show all' }),
      'a category': labelOf(categories.getByRole('checkbox', { name: 'Markers', exact: true })),
      'a subcategory': labelOf(categories.getByRole('checkbox', { name: 'Marker', exact: true })),
      'a level': labelOf(quests.getByRole('radio').first()),
      'Only quests on this map': labelOf(quests.getByRole('checkbox', { name: 'Only quests on this map' })),
      'a quest': labelOf(firstRow.getByRole('checkbox')),
      'the quest ✓': firstRow.getByRole('button', { name: /^Complete: / }),
      'the quest hide': firstRow.getByRole('button', { name: /^Hide: / }),
      Settings: quests.getByRole('button', { name: /Settings/ }),
    });
    // Show hidden quests appears once a quest is hidden.
    await hideFirstQuest(page, quests);
    await expectFingerSized({ 'Show hidden quests': quests.getByRole('button', { name: /^Show hidden quests/ }) });
  });

  test("Where am I's field has 16 px text, and Help is finger-sized", async () => {
    const { page } = await browser.newPage({ ...PHONE, hasTouch: true });
    await openMap(page, 'customs');
    const banner = page.getByRole('banner');
    await banner.getByRole('button', { name: 'Where am I' }).tap();
    const field = banner.getByRole('textbox', { name: 'Screenshot file name' });
    expect(await field.evaluate((el) => parseFloat(getComputedStyle(el).fontSize))).toBeGreaterThanOrEqual(16);
    await expectFingerSized({ 'the field': field, Help: banner.getByRole('button', { name: 'Help' }) });
  });

  test('Escape in the Menu folds it and leaves the focus on Menu', async () => {
    const { page } = await browser.newPage({ ...PHONE, hasTouch: true });
    await openMap(page, 'customs');
    const banner = page.getByRole('banner');
    const menu = banner.getByRole('button', { name: 'Menu' });
    await menu.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Tab');
    const active = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    await expect.poll(active).toBe('Show panels');
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('false');
    expect(await menu.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await banner.getByRole('button', { name: 'Show panels' }).isVisible()).toBe(false);
  });

  for (const lang of ['en', 'ru'] as const) {
    test(`${lang.toUpperCase()}: Where am I and the panels take turns; the categories keep whole rows`, async () => {
      const words = lang === 'ru'
        ? { menu: 'Меню', showPanels: 'Показать панели', whereAmI: 'Где я', categories: 'Категории' }
        : { menu: 'Menu', showPanels: 'Show panels', whereAmI: 'Where am I', categories: 'Categories' };
      const { page } = await browser.newPage({ ...PHONE, hasTouch: true, locale: lang === 'ru' ? 'ru-RU' : 'en-US' });
      await openMap(page, 'customs');
      const banner = page.getByRole('banner');
      const panel = page.getByRole('complementary', { name: words.categories });
      const rows = panel.locator('.category-row');
      const box = banner.locator('form.where-am-i');
      const where = banner.getByRole('button', { name: words.whereAmI, exact: true });
      const showPanels = async () => {
        await banner.getByRole('button', { name: words.menu }).tap();
        await banner.getByRole('button', { name: words.showPanels }).tap();
      };

      await showPanels();
      await rows.first().waitFor();
      expect(await rows.first().isVisible()).toBe(true);

      // Where am I hides the panels; the bar with the box stays short.
      await where.tap();
      await box.waitFor();
      await expect.poll(() => page.getByRole('complementary').count()).toBe(0);
      const bar = (await banner.boundingBox())!;
      expect(bar.y + bar.height).toBeLessThan(260);

      // Show panels folds the box; the focus is on Menu, which held the item pressed.
      await showPanels();
      await expect.poll(() => box.count()).toBe(0);
      await expect.poll(() => where.getAttribute('aria-expanded')).toBe('false');
      await rows.first().waitFor();
      const p = (await panel.boundingBox())!;
      expect(p.height).toBeGreaterThanOrEqual(250);
      const whole = await rows.evaluateAll((list, area) => list.filter((row) => {
        const r = row.getBoundingClientRect();
        return r.height > 0 && r.top >= area.y - 0.5 && r.bottom <= area.y + area.height + 0.5 && r.left >= area.x - 0.5 && r.right <= area.x + area.width + 0.5;
      }).length, p);
      expect(whole).toBeGreaterThanOrEqual(1);
      // The menu item pressed went with the folded menu: the focus is on Menu (as after any of
      // its items), not lost to the page.
      const focusedText = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
      await expect.poll(focusedText).toBe(words.menu);
    });
  }

  test('the home page\'s Sign in is finger-sized', async () => {
    const { page } = await browser.newPage({ ...PHONE, hasTouch: true });
    await page.goto(`${baseUrl()}/`, { waitUntil: 'domcontentloaded' });
    const signIn = page.getByRole('button', { name: 'Sign in' });
    await signIn.waitFor();
    await expectFingerSized({ 'Sign in': signIn });
  });
});

describe('the map page\'s chrome on a 390×844 touch screen (docs/DECISIONS.md "The map page\'s chrome on phones")', () => {
  /** A marker of customs to open a popup for (?obj=). */
  async function plainMarker(): Promise<string> {
    const body = (await (await fetch(`${baseUrl()}/api/be/markers/list?map=customs`)).json()) as { markers: Array<{ uid: string; category: string; level: number }> };
    return (body.markers.find((m) => m.category === 'Extractions' && m.level === 1) ?? body.markers[0]).uid;
  }

  test('with a notch and a home-indicator band the bar keeps out of them; a Menu opened over an enlarged popup is on top, and Show panels works with the popup open', async () => {
    const uid = await plainMarker();
    const { page } = await browser.newPage({ ...PHONE, hasTouch: true });
    // The phone's safe areas (CDP Emulation.setSafeAreaInsetsOverride, experimental; index.html
    // has viewport-fit=cover, so env(safe-area-inset-*) takes them).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setSafeAreaInsetsOverride' as never, { insets: { top: 47, topMax: 47, bottom: 34, bottomMax: 34, left: 0, leftMax: 0, right: 0, rightMax: 0 } } as never);
    await page.goto(`${baseUrl()}/map/customs?obj=${uid}`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction((id) => window.__map?.ready === true && window.__map.popup() === id, uid, { timeout: 45_000 });
    const banner = page.getByRole('banner');
    expect((await banner.boundingBox())!.y).toBeGreaterThanOrEqual(57);
    const popup = page.getByRole('dialog').first();
    await popup.waitFor();
    const sheet = (await popup.boundingBox())!;
    expect(sheet.y + sheet.height).toBeLessThanOrEqual(PHONE.height - 34 - 16 + 0.5);

    // The popup enlarged: its top sheet starts under the bar, where the Menu drops down.
    await popup.getByRole('button', { name: 'Enlarge' }).tap();
    await expect.poll(() => page.locator('.marker-popup--xl').count()).toBe(1);
    const menu = banner.getByRole('button', { name: 'Menu' });
    await menu.tap();
    await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('true');
    const more = page.locator('.topbar__more--open');
    await more.waitFor();
    // Each item of the open Menu is what a tap at its middle reaches (before: the popup).
    const covered = await more.evaluate((panel) => [...panel.querySelectorAll('button, a')]
      .filter((el) => el.getBoundingClientRect().width > 0)
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return !panel.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
      })
      .map((el) => el.textContent?.trim()));
    expect(covered, 'Menu items under something else').toEqual([]);
    await banner.getByRole('button', { name: 'Show panels' }).tap();
    await page.getByRole('complementary').first().waitFor();
    expect(await page.evaluate(() => window.__map!.popup())).toBe(uid);
  });

  test('signed in from the phone Menu, the focus is on Menu and "Signed in as visitor" is said', async () => {
    const { page } = await browser.newPage({ ...PHONE, hasTouch: true });
    await openMap(page, 'customs');
    const banner = page.getByRole('banner');
    await banner.getByRole('button', { name: 'Menu' }).tap();
    await banner.getByRole('button', { name: 'Sign in', exact: true }).tap();
    const dialog = page.getByRole('dialog', { name: 'Sign in' });
    await dialog.getByLabel('Name').fill('visitor');
    await dialog.getByLabel('Password').fill('demo');
    await dialog.getByRole('button', { name: 'Sign in', exact: true }).tap();
    await dialog.waitFor({ state: 'detached' });
    const menu = banner.getByRole('button', { name: 'Menu' });
    await expect.poll(() => menu.evaluate((el) => el === document.activeElement)).toBe(true);
    await expect.poll(() => page.locator('.live-announcer').textContent()).toBe('Signed in as visitor');
  });

  test('the Quests link is in the Menu and opens the Quests page', async () => {
    const { page } = await browser.newPage({ ...PHONE, hasTouch: true });
    await openMap(page, 'customs');
    const banner = page.getByRole('banner');
    const quests = banner.getByRole('link', { name: 'Quests', exact: true });
    expect(await quests.isVisible()).toBe(false);
    await banner.getByRole('button', { name: 'Menu' }).tap();
    await expect.poll(() => quests.isVisible()).toBe(true);
    expect(await page.locator('.topbar__more--open').getByRole('link', { name: 'Quests', exact: true }).count()).toBe(1);
    await quests.tap();
    await page.waitForURL((url) => url.pathname === '/progression/quests');
  });
});

describe('at 1280×800 with a mouse', () => {
  test('the panels and the bar keep their compact look; the quest list scrolls inside its panel', async () => {
    const { page } = await browser.newPage();
    await signIn(page, 'pro');
    await openMap(page, 'customs');
    await page.locator(ROWS).first().waitFor();
    const banner = page.getByRole('banner');
    expect((await banner.getByRole('button', { name: 'Where am I' }).boundingBox())!.height).toBeLessThan(36);
    expect((await banner.boundingBox())!.height).toBeLessThan(50);
    const rows = page.locator(ROWS);
    expect((await rows.first().boundingBox())!.height).toBeLessThan(36);
    // The list is the panel's scroller, the panel itself does not scroll: the levels stay put.
    const list = page.locator('.quest-list__items');
    expect(await list.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    expect(await questPanel(page).evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
    expect(await wholeRowsShown(page, ROWS)).toBeGreaterThanOrEqual(10);
  });
});
