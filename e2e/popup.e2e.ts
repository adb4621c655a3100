/**
 * The marker popup in Chromium on customs: a real click on a marker opens it (its name, and
 * `__map.popup()` is its uid), images page with a counter, the enlarged size survives a reload,
 * Escape closes it and clears `obj` / `quest` from the address, and `?obj=` opens a marker's
 * popup with the map centred on it, also after a reload. Labels: a hovered marker gets one,
 * extractions have one without hovering.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import type { Marker } from '../src/domain/marker';
import { MAPS } from '../src/domain/maps';
import { baseUrl, camera, markers, openMap, settleCamera, toScreen, useBrowser, type AutomationMarker, type MapAutomation } from './browser';
import { decodeRgba, type Rgba } from './support/image';

const browser = useBrowser();
const MAP = 'customs';

type PopupApi = { popup(): string | null; ready: boolean };
const popupUid = (page: Page) => page.evaluate(() => (window as unknown as { __map: PopupApi }).__map.popup());

let byUid: Map<string, Marker>;
beforeAll(async () => {
  const res = await fetch(`${baseUrl()}/api/be/markers/list?map=${MAP}`);
  const { markers: list } = (await res.json()) as { markers: Marker[] };
  byUid = new Map(list.map((m) => [m.uid, m]));
});

async function waitReady(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as unknown as { __map?: PopupApi }).__map?.ready === true, undefined, { timeout: 45_000, polling: 100 });
}

/** A marker drawn at full opacity, on the bare canvas, far from other markers, that matches `want`. */
async function clickableMarker(page: Page, want: (m: Marker) => boolean, spacing = 30): Promise<AutomationMarker & { sx: number; sy: number }> {
  await settleCamera(page);
  const all: Array<AutomationMarker & { sx: number; sy: number }> = await page.evaluate(() => {
    const api = (window as unknown as { __map: MapAutomation }).__map;
    return api.markers().filter((m) => m.visible).map((m) => {
      const p = api.toScreen(m.x, m.y);
      return { ...m, sx: p.x, sy: p.y };
    });
  });
  for (const m of all) {
    const marker = byUid.get(m.uid);
    if (!marker || m.alpha !== 1 || !want(marker)) continue;
    if (m.sx < 80 || m.sy < 80 || m.sx > 1200 || m.sy > 560) continue;
    if (all.some((o) => o.uid !== m.uid && Math.hypot(o.sx - m.sx, o.sy - m.sy) < spacing)) continue;
    const free = await page.evaluate(([x, y]) => {
      const bare = (dx: number, dy: number) => document.elementFromPoint(x + dx, y + dy)?.tagName === 'CANVAS';
      return bare(0, 0) && bare(-36, 16) && bare(36, 16) && bare(0, 28);
    }, [m.sx, m.sy] as const);
    if (free) return m;
  }
  throw new Error(`no isolated, clickable marker found among ${all.length}`);
}

const englishName = (m: Marker) => m.name_l10n?.en || m.name;

/** What `markerAbovePopup` answers for a marker shown where it should be. */
const SHOWN_ABOVE = { acrossTheMiddle: true, clearOfBar: true, clearOfPopup: true, midway: true };

/**
 * Where a marker opened by a link or Find a marker is on screen, once the camera has settled:
 * across the window's middle, clear of the top bar and of its popup (at the bottom, a phone's
 * bottom sheet), midway between the two (14 px: the marker's icon).
 */
async function markerAbovePopup(page: Page, target: Marker): Promise<typeof SHOWN_ABOVE> {
  await settleCamera(page);
  const at = await toScreen(page, target.geometry.x, target.geometry.y);
  const width = page.viewportSize()!.width;
  const bar = await page.locator('.map-topbar').evaluate((el) => el.getBoundingClientRect().bottom);
  const popupTop = await page.getByRole('dialog').evaluate((el) => el.getBoundingClientRect().top);
  return {
    acrossTheMiddle: Math.abs(at.x - width / 2) < 1.5,
    clearOfBar: at.y - 14 > bar,
    clearOfPopup: at.y + 14 < popupTop,
    midway: Math.abs(at.y - (bar + popupTop) / 2) < 3,
  };
}

describe('marker popup', () => {
  test('a click on a marker opens its popup: its name, description, and popup() is its uid', async () => {
    const { page } = await browser.newPage();
    await openMap(page, MAP);
    expect(await popupUid(page)).toBeNull();
    const target = await clickableMarker(page, () => true);
    const marker = byUid.get(target.uid)!;

    await page.mouse.click(target.sx, target.sy);
    await expect.poll(() => popupUid(page)).toBe(target.uid);
    const dialog = page.getByRole('dialog', { name: englishName(marker) });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(marker.desc_l10n?.en || marker.desc);
  });

  test('issue 11: the page reads the compact list, and a popup reads its full marker once', async () => {
    const { page } = await browser.newPage();
    const asked: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      // Once its live feed listens, the page asks (HEAD, no body) whether the list it read is still the server's.
      if (request.method() === 'HEAD') return;
      if (path.startsWith('/api/be/markers/')) asked.push(`${path}${path.endsWith('/one') ? `?uid=${new URL(request.url()).searchParams.get('uid')}` : ''}`);
    });
    await openMap(page, MAP);
    expect(asked).toEqual(['/api/be/markers/compact']);
    const target = await clickableMarker(page, (m) => m.desc.length > 0);
    const marker = byUid.get(target.uid)!;
    for (let i = 0; i < 2; i += 1) {
      await page.mouse.click(target.sx, target.sy);
      const dialog = page.getByRole('dialog', { name: englishName(marker) });
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain(marker.desc_l10n?.en || marker.desc);
      await page.keyboard.press('Escape');
      await expect.poll(() => popupUid(page)).toBeNull();
    }
    expect(asked).toEqual(['/api/be/markers/compact', `/api/be/markers/one?uid=${target.uid}`]);
  });

  test('images page with a counter; another marker starts again at its first image', async () => {
    const first = [...byUid.values()].find(
      (m) => m.imgs.length >= 2 && !m.questUid && m.geometry.x > 1150 && m.geometry.x < 3250 && m.geometry.y > 750 && m.geometry.y < 2450,
    )!;
    const { page } = await browser.newPage();
    await page.goto(`${baseUrl()}/map/${MAP}?obj=${first.uid}`, { waitUntil: 'domcontentloaded' });
    await waitReady(page);
    await expect.poll(() => popupUid(page)).toBe(first.uid);
    const dialog = page.getByRole('dialog', { name: englishName(first) });
    await dialog.waitFor();

    const count = first.imgs.length;
    const image = dialog.getByRole('img');
    expect(await image.getAttribute('src')).toBe(first.imgs[0].img);
    expect(await dialog.getByText(`1 / ${count}`).count()).toBe(1);
    await expect.poll(() => image.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);

    await dialog.getByRole('button', { name: 'Next' }).click();
    expect(await dialog.getByText(`2 / ${count}`).count()).toBe(1);
    expect(await image.getAttribute('src')).toBe(first.imgs[1].img);
    await expect.poll(() => image.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await dialog.getByRole('button', { name: 'Previous' }).click();
    expect(await dialog.getByText(`1 / ${count}`).count()).toBe(1);
    expect(await dialog.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Next' }).click();
    expect(await dialog.getByText(`2 / ${count}`).count()).toBe(1);

    // Another marker, then this one again: it starts again at its first image.
    const other = await clickableMarker(page, (m) => m.uid !== first.uid);
    await page.mouse.click(other.sx, other.sy);
    await expect.poll(() => popupUid(page)).toBe(other.uid);
    const at = await page.evaluate(([x, y]) => (window as unknown as { __map: MapAutomation }).__map.toScreen(x, y), [first.geometry.x, first.geometry.y] as const);
    await page.mouse.click(at.x, at.y);
    await expect.poll(() => popupUid(page)).toBe(first.uid);
    const again = page.getByRole('dialog', { name: englishName(first) });
    expect(await again.getByText(`1 / ${count}`).count()).toBe(1);
    expect(await again.getByRole('img').getAttribute('src')).toBe(first.imgs[0].img);
  });

  test('the enlarged size is remembered across a reload', async () => {
    const { page } = await browser.newPage();
    await openMap(page, MAP);
    const target = await clickableMarker(page, () => true);
    await page.mouse.click(target.sx, target.sy);
    await expect.poll(() => popupUid(page)).toBe(target.uid);
    await page.getByRole('button', { name: 'Enlarge' }).click();
    expect(await page.evaluate(() => localStorage.getItem('map_popup'))).toBe('xlsize');
    const normalWidth = 420;
    const wide = await page.getByRole('dialog').evaluate((el) => el.getBoundingClientRect().width);
    expect(wide).toBeGreaterThan(normalWidth);

    // The address names the open marker (?obj=), so the reload opens it again: enlarged.
    expect(new URL(page.url()).searchParams.get('obj')).toBe(target.uid);
    await page.reload({ waitUntil: 'domcontentloaded' });
    await waitReady(page);
    await expect.poll(() => popupUid(page)).toBe(target.uid);
    expect(await page.getByRole('button', { name: 'Shrink' }).count()).toBe(1);
    expect(await page.getByRole('dialog').evaluate((el) => el.getBoundingClientRect().width)).toBeCloseTo(wide, 0);

    await page.getByRole('button', { name: 'Shrink' }).click();
    expect(await page.evaluate(() => localStorage.getItem('map_popup'))).toBeNull();
    expect(await page.getByRole('dialog').evaluate((el) => el.getBoundingClientRect().width)).toBeLessThanOrEqual(normalWidth);
  });

  test('?obj= opens the popup with the marker in the middle of the map above it, also after a reload; Escape closes it and clears obj and quest', async () => {
    const { page } = await browser.newPage();
    // A marker of a category hidden in this browser: the link shows it anyway.
    const target = [...byUid.values()].find(
      (m) => m.category === 'Loot' && !m.questUid && m.level === 1 && m.geometry.x > 1300 && m.geometry.x < 3100 && m.geometry.y > 900 && m.geometry.y < 2300,
    )!;
    const quest = [...byUid.values()].find((m) => m.questUid)!.questUid!;
    await page.goto(`${baseUrl()}/map/${MAP}`, { waitUntil: 'domcontentloaded' });
    await page.evaluate(
      ([key, sub]) => localStorage.setItem(key, JSON.stringify({ hiddenCategories: ['Loot'], hiddenSubCategories: [sub] })),
      [`map:filters:${MAP}`, target.subCategory] as const,
    );

    for (let load = 0; load < 2; load++) {
      if (load === 0) await page.goto(`${baseUrl()}/map/${MAP}?quest=${quest}&obj=${target.uid}`, { waitUntil: 'domcontentloaded' });
      else await page.reload({ waitUntil: 'domcontentloaded' });
      await waitReady(page);
      await expect.poll(() => popupUid(page)).toBe(target.uid);
      await page.getByRole('dialog', { name: englishName(target) }).waitFor();
      await expect.poll(() => markerAbovePopup(page, target), { timeout: 10_000 }).toEqual(SHOWN_ABOVE);
      expect((await markers(page)).some((m) => m.uid === target.uid)).toBe(true);
      expect(new URL(page.url()).searchParams.get('obj')).toBe(target.uid);
    }

    await page.keyboard.press('Escape');
    await expect.poll(() => popupUid(page)).toBeNull();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => new URL(page.url()).search).toBe('');
    expect((await camera(page)).x).toBeCloseTo(target.geometry.x, 0);
  });

  test('on a phone, a marker chosen in Find a marker shows above its bottom sheet, the panels folded away', async () => {
    const { page } = await browser.newPage({ width: 390, height: 844, hasTouch: true });
    const names = new Map<string, number>();
    for (const m of byUid.values()) names.set(englishName(m), (names.get(englishName(m)) ?? 0) + 1);
    // Away from the map's edges (the camera's clamp does not stop it), named like no other.
    const target = [...byUid.values()].find(
      (m) => m.level === 1 && !m.questUid && names.get(englishName(m)) === 1 && m.geometry.x > 1100 && m.geometry.x < 3300 && m.geometry.y > 1400 && m.geometry.y < 2400,
    );
    expect(target, 'a marker with a name of its own in the middle of the map').toBeDefined();
    if (!target) return;
    await openMap(page, MAP);
    const banner = page.getByRole('banner');
    await banner.getByRole('button', { name: 'Menu' }).tap();
    await banner.getByRole('button', { name: 'Show panels' }).tap();
    const field = page.getByRole('combobox', { name: 'Find a marker' });
    await field.tap();
    await field.fill(englishName(target));
    const option = page.getByRole('listbox', { name: 'Markers found' }).getByRole('option').filter({ hasText: englishName(target) }).first();
    await option.tap();
    await expect.poll(() => popupUid(page)).toBe(target.uid);
    // The panels were sheets over the map: they fold away, and the marker is seen above its sheet.
    await expect.poll(() => page.getByRole('complementary').count()).toBe(0);
    await page.getByRole('dialog', { name: englishName(target) }).waitFor();
    await expect.poll(() => markerAbovePopup(page, target), { timeout: 10_000 }).toEqual(SHOWN_ABOVE);
  });

  test('on a phone, a marker at the map\'s corner or top edge opened by a link shows between the top bar and its sheet; closed, the map goes back inside its edges', async () => {
    const { width, height } = MAPS[MAP].size;
    const all = [...byUid.values()];
    const nearest = (score: (m: Marker) => number) => all.reduce((best, m) => (score(m) < score(best) ? m : best));
    const corner = nearest((m) => Math.hypot(m.geometry.x, height - m.geometry.y));
    const top = nearest((m) => m.geometry.y + Math.abs(m.geometry.x - width / 2) / 4);
    for (const target of [corner, top]) {
      const { page } = await browser.newPage({ width: 390, height: 844, hasTouch: true });
      await page.goto(`${baseUrl()}/map/${MAP}?obj=${target.uid}`, { waitUntil: 'domcontentloaded' });
      await waitReady(page);
      await page.getByRole('dialog', { name: englishName(target) }).waitFor();
      // Before, the clamp held the map at its edge: the marker sat at the screen's edge, under the bar or the sheet.
      await expect.poll(() => markerAbovePopup(page, target), { timeout: 10_000 }).toEqual(SHOWN_ABOVE);
      await page.keyboard.press('Escape');
      await expect.poll(() => popupUid(page)).toBeNull();
      await settleCamera(page);
      // The popup's room is gone: the map's corners are at or beyond the screen's again (its top
      // edge may come down to the top bar, as the page's covers allow, no further).
      const bar = await page.locator('.map-topbar').evaluate((el) => el.getBoundingClientRect().bottom);
      const topLeft = await toScreen(page, 0, 0);
      const bottomRight = await toScreen(page, width, height);
      expect(topLeft.x).toBeLessThanOrEqual(1);
      expect(topLeft.y).toBeLessThanOrEqual(bar + 1);
      expect(bottomRight.x).toBeGreaterThanOrEqual(389);
      expect(bottomRight.y).toBeGreaterThanOrEqual(843);
      await page.context().close();
    }
  });

  test('keyboard: a popup opened by a link sits in the Tab order after the map (Tab out goes to All maps, Shift+Tab to the skip links)', async () => {
    const { page } = await browser.newPage();
    const target = [...byUid.values()].find((m) => m.level === 1 && m.geometry.x > 1300 && m.geometry.x < 3100 && m.geometry.y > 900 && m.geometry.y < 2300)!;
    await page.goto(`${baseUrl()}/map/${MAP}?obj=${target.uid}`, { waitUntil: 'domcontentloaded' });
    await waitReady(page);
    const dialog = page.getByRole('dialog', { name: englishName(target) });
    await dialog.waitFor();
    const activeClass = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.className ?? '');
    const inPopup = () => page.evaluate(() => !!document.activeElement?.closest('.marker-popup'));
    await dialog.focus();
    await page.keyboard.press('Shift+Tab');
    await expect.poll(activeClass).toContain('skip-links__link');
    // Back in, then Tab through the popup: the first stop outside it is the top bar's All maps.
    await dialog.focus();
    let steps = 0;
    do {
      await page.keyboard.press('Tab');
      steps += 1;
    } while ((await inPopup()) && steps < 20);
    expect(await inPopup()).toBe(false);
    expect(await activeClass()).toContain('map-topbar__home');
  });

  test('labels: a hovered marker gets one, an extraction has one without hovering', async () => {
    const { page } = await browser.newPage();
    // Label text is white with a dark outline, drawn just under the icon.
    const whiteBelow = async (uid: string): Promise<number> => {
      const m = byUid.get(uid)!;
      const at = await page.evaluate(([x, y]) => (window as unknown as { __map: MapAutomation }).__map.toScreen(x, y), [m.geometry.x, m.geometry.y] as const);
      // The icon is 28 px: its label starts 15 px below the marker's point.
      const png = await page.screenshot({ clip: { x: Math.round(at.x - 50), y: Math.round(at.y + 15), width: 100, height: 18 } });
      const image: Rgba = await decodeRgba(png);
      let white = 0;
      for (let i = 0; i < image.width * image.height; i++) {
        const o = i * 4;
        if (image.data[o] > 235 && image.data[o + 1] > 235 && image.data[o + 2] > 235) white += 1;
      }
      return white;
    };
    const all = [...byUid.values()];
    const central = (m: Marker) => m.geometry.x > 1150 && m.geometry.x < 3250 && m.geometry.y > 750 && m.geometry.y < 2450 && !m.questUid;
    const alone = (m: Marker, radius: number, others: (o: Marker) => boolean) =>
      !all.some((o) => o.uid !== m.uid && others(o) && Math.hypot(o.geometry.x - m.geometry.x, o.geometry.y - m.geometry.y) < radius);
    /** Opens the marker through ?obj= (centred), then closes its popup and moves the pointer away. */
    const centreOn = async (m: Marker) => {
      await page.goto(`${baseUrl()}/map/${MAP}?obj=${m.uid}`, { waitUntil: 'domcontentloaded' });
      await waitReady(page);
      await expect.poll(() => popupUid(page)).toBe(m.uid);
      await page.keyboard.press('Escape');
      await expect.poll(() => popupUid(page)).toBeNull();
      await page.mouse.move(640, 790);
      await settleCamera(page);
    };

    // A marker with no other marker nearby: no label until the pointer is over it.
    const plain = all.find((m) => central(m) && m.category !== 'Extractions' && alone(m, 90, () => true))!;
    await centreOn(plain);
    const before = await whiteBelow(plain.uid);
    expect(before).toBeLessThan(10);
    const at = await page.evaluate(([x, y]) => (window as unknown as { __map: MapAutomation }).__map.toScreen(x, y), [plain.geometry.x, plain.geometry.y] as const);
    await page.mouse.move(at.x, at.y);
    await expect.poll(() => whiteBelow(plain.uid), { timeout: 5000 }).toBeGreaterThan(before + 20);

    // An extraction, neither selected nor hovered, far from other labelled markers: labelled.
    const exits = all.filter((m) => central(m) && m.category === 'Extractions');
    const exit = exits.find((m) => alone(m, 120, (o) => o.category === 'Extractions')) ?? exits[0];
    expect(exit).toBeDefined();
    await centreOn(exit);
    await expect.poll(() => whiteBelow(exit.uid), { timeout: 5000 }).toBeGreaterThan(20);
  });
});
