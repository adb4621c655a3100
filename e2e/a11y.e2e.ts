/**
 * The site's pages against WCAG 2.1 A and AA as a browser can check them (axe-core: contrast,
 * accessible names, roles and ARIA, labels, lang…), in Chromium against the real server: every
 * page at a desktop's and a phone's size, in English and Russian, and the states that add UI: a
 * marker's popup, a pro user's completed quest (its link in the popup, its card on the quests
 * page), an admin's tools and edit form. axe's best-practice rules are not asked: `region` would
 * flag the skip links, which come before the landmarks on purpose (docs/DECISIONS.md "Skip links").
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowser } from './browser';
import { addMarker, useEditorServer } from './support/editor';

const browser = useBrowser();
// Its own server: sample content of customs and the demo accounts (pro, admin).
const server = useEditorServer('a11y');
const baseUrl = () => server.baseUrl();
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SIZES = [
  { name: 'desktop', width: 1280, height: 800, hasTouch: false },
  { name: 'phone', width: 390, height: 844, hasTouch: true },
] as const;
const LOCALES = ['en-US', 'ru-RU'] as const;

interface Violation {
  rule: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** The WCAG 2.1 A / AA violations axe finds in the page as it is now. */
async function violations(page: Page): Promise<Violation[]> {
  // Evaluated, not added as a script tag: the site's CSP allows no inline script.
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: unknown): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }> }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v) => ({ rule: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  });
}

async function expectAccessible(page: Page, where: string): Promise<void> {
  expect({ where, violations: await violations(page) }).toEqual({ where, violations: [] });
}

async function waitMap(page: Page, popup = false): Promise<void> {
  await page.waitForFunction(
    (withPopup) => {
      const map = (window as unknown as { __map?: { ready: boolean; popup(): string | null } }).__map;
      return map?.ready === true && (!withPopup || map.popup() !== null);
    },
    popup,
    { timeout: 45_000, polling: 100 },
  );
}

async function signIn(page: Page, name: 'pro' | 'admin'): Promise<void> {
  const res = await page.request.post(`${baseUrl()}/api/be/auth/login`, { data: { name, password: 'demo' } });
  if (!res.ok()) throw new Error(`signing in as ${name} failed: ${res.status()} ${await res.text()}`);
}

async function setProgress(page: Page, questsDone: string[]): Promise<void> {
  const res = await page.request.post(`${baseUrl()}/api/be/user/progress`, { data: { questsDone } });
  if (!res.ok()) throw new Error(`setting progress failed: ${res.status()} ${await res.text()}`);
}

/** A marker of customs that is drawn at the opening view, and a quest marker with its quest. */
async function customsMarkers(): Promise<{ plain: string; quest: { uid: string; questUid: string } }> {
  const body = (await (await fetch(`${baseUrl()}/api/be/markers/list?map=customs`)).json()) as {
    markers: Array<{ uid: string; category: string; questUid?: string | null; level: number }>;
  };
  const plain = body.markers.find((m) => m.category === 'Extractions' && m.level === 1) ?? body.markers[0];
  const quest = body.markers.find((m) => m.questUid);
  if (!quest?.questUid) throw new Error('the seed has no quest marker on customs');
  return { plain: plain.uid, quest: { uid: quest.uid, questUid: quest.questUid } };
}

describe('accessibility (WCAG 2.1 A and AA, axe-core)', () => {
  test("every page, and a map with a marker's popup, at both sizes in English and Russian", async () => {
    const { plain } = await customsMarkers();
    for (const size of SIZES) {
      for (const locale of LOCALES) {
        const { page } = await browser.newPage({ width: size.width, height: size.height, hasTouch: size.hasTouch, locale });
        for (const path of ['/', '/progression/quests', '/pilot', '/no-such-page']) {
          await page.goto(`${baseUrl()}${path}`, { waitUntil: 'domcontentloaded' });
          await page.locator('main, [role="main"]').first().waitFor();
          await page.waitForLoadState('networkidle');
          await expectAccessible(page, `${path}, ${size.name}, ${locale}`);
        }
        await page.goto(`${baseUrl()}/map/customs?obj=${plain}`, { waitUntil: 'domcontentloaded' });
        await waitMap(page, true);
        await expectAccessible(page, `the map with a popup, ${size.name}, ${locale}`);
      }
    }
  });

  test("a pro user's completed quest: its link in the popup and its card on the quests page", async () => {
    const { quest } = await customsMarkers();
    for (const size of SIZES) {
      const { page } = await browser.newPage({ width: size.width, height: size.height, hasTouch: size.hasTouch });
      await signIn(page, 'pro');
      await setProgress(page, [quest.questUid]);
      try {
        await page.goto(`${baseUrl()}/map/customs?obj=${quest.uid}`, { waitUntil: 'domcontentloaded' });
        await waitMap(page, true);
        await page.locator('.marker-popup__quest-link--done').waitFor();
        await expectAccessible(page, `the popup of a completed quest's marker, ${size.name}`);
        await page.goto(`${baseUrl()}/progression/quests?quest=${encodeURIComponent(quest.questUid)}`, { waitUntil: 'domcontentloaded' });
        await page.locator('.quests-page__quest--done').first().waitFor();
        await expectAccessible(page, `the quests page with a completed quest, ${size.name}`);
      } finally {
        await setProgress(page, []);
      }
    }
  });

  test("an admin's editor tools and a marker's edit form", async () => {
    const { plain } = await customsMarkers();
    for (const size of SIZES) {
      const { page } = await browser.newPage({ width: size.width, height: size.height, hasTouch: size.hasTouch });
      await signIn(page, 'admin');
      await page.goto(`${baseUrl()}/map/customs?obj=${plain}`, { waitUntil: 'domcontentloaded' });
      await waitMap(page, true);
      const show = page.getByRole('button', { name: 'Show editor tools' });
      if (await show.count()) await show.click();
      await page.locator('.marker-popup').getByRole('button', { name: 'Edit', exact: true }).click();
      await page.getByRole('form', { name: /edit/i }).waitFor();
      await expectAccessible(page, `the editor with an edit form, ${size.name}`);
      await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    }
  });
});

describe('readability of the marker popup', () => {
  test('a long name with no space to break at wraps: Close stays in the popup and on a phone screen', async () => {
    const { page: admin } = await browser.newPage();
    await signIn(admin, 'admin');
    const long = await addMarker(admin, baseUrl(), { geometry: { x: 2200, y: 1600 }, name: 'W'.repeat(150) });
    for (const size of SIZES) {
      const { page } = await browser.newPage({ width: size.width, height: size.height, hasTouch: size.hasTouch });
      await page.goto(`${baseUrl()}/map/customs?obj=${long.uid}`, { waitUntil: 'domcontentloaded' });
      await waitMap(page, true);
      const dialog = page.locator('.marker-popup .popup');
      const close = dialog.getByRole('button', { name: 'Close' });
      const [box, closeBox] = [(await dialog.boundingBox())!, (await close.boundingBox())!];
      expect(closeBox.x + closeBox.width, size.name).toBeLessThanOrEqual(box.x + box.width);
      expect(closeBox.x + closeBox.width, size.name).toBeLessThanOrEqual(size.width);
      if (size.hasTouch) await close.tap();
      else await close.click();
      await expect.poll(() => page.evaluate(() => (window as unknown as { __map: { popup(): string | null } }).__map.popup())).toBeNull();
    }
  });

  test('a title of long words beside Enlarge and Close breaks between words on a phone: the buttons go under it', async () => {
    const { page: admin } = await browser.newPage();
    await signIn(admin, 'admin');
    // "Electroencephalography" is wider than what Enlarge and Close leave of a 390 px bar: squeezed
    // beside them it broke in the middle (as "Переименовано" did in Russian).
    const name = 'Electroencephalography laboratory';
    const marker = await addMarker(admin, baseUrl(), { geometry: { x: 2200, y: 1600 }, name });
    for (const size of SIZES) {
      const { page } = await browser.newPage({ width: size.width, height: size.height, hasTouch: size.hasTouch });
      await page.goto(`${baseUrl()}/map/customs?obj=${marker.uid}`, { waitUntil: 'domcontentloaded' });
      await waitMap(page, true);
      const title = page.locator('.marker-popup .popup__title');
      await expect.poll(() => title.textContent()).toBe(name);
      // Each word's text on one line box: a word broken in two has two client rects.
      const brokenWords = await title.evaluate((el) => {
        const text = el.firstChild;
        if (!text || text.nodeType !== Node.TEXT_NODE) return ['(no text node)'];
        const broken: string[] = [];
        for (const m of (text.textContent ?? '').matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(text, m.index);
          range.setEnd(text, m.index + m[0].length);
          if (range.getClientRects().length > 1) broken.push(m[0]);
        }
        return broken;
      });
      expect(brokenWords, size.name).toEqual([]);
      const close = page.locator('.marker-popup .popup').getByRole('button', { name: 'Close' });
      const [titleBox, closeBox] = [(await title.boundingBox())!, (await close.boundingBox())!];
      expect(closeBox.x + closeBox.width, size.name).toBeLessThanOrEqual(size.width);
      // Beside the title or under it, never over it.
      expect(closeBox.x >= titleBox.x + titleBox.width || closeBox.y >= titleBox.y + titleBox.height, size.name).toBe(true);
    }
  });

  test('the enlarged popup is as tall as what it holds, and the map below it takes a tap', async () => {
    const { plain } = await customsMarkers();
    const { page } = await browser.newPage({ width: 390, height: 844, hasTouch: true });
    await page.goto(`${baseUrl()}/map/customs?obj=${plain}`, { waitUntil: 'domcontentloaded' });
    await waitMap(page, true);
    const dialog = page.locator('.marker-popup .popup');
    await dialog.getByRole('button', { name: 'Enlarge' }).tap();
    await dialog.getByRole('button', { name: 'Shrink' }).waitFor();
    const box = (await dialog.boundingBox())!;
    // One line of text, a level: far from the window's height (it was 62–830 px before).
    expect(box.height).toBeLessThan(844 * 0.5);
    const below = { x: 195, y: Math.round((box.y + box.height + 844) / 2) };
    expect(await page.evaluate(({ x, y }) => !!document.elementFromPoint(x, y)?.closest('.map-canvas'), below)).toBe(true);
    // Remembered (spec §9), and back to normal with Shrink.
    expect(await page.evaluate(() => localStorage.getItem('map_popup'))).toBe('xlsize');
    await dialog.getByRole('button', { name: 'Shrink' }).tap();
    await dialog.getByRole('button', { name: 'Enlarge' }).waitFor();
  });
});
