/**
 * Every map opens: the title, `window.__map` ready on WebGL, markers on screen, a canvas
 * that is not blank, and marker sprites that really change the pixels under them.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { MAP_IDS, MAPS, markerOpacity } from '../src/domain/maps';
import { markers, mapInfo, openMap, recordTiles, settleCamera, useBrowser } from './browser';
import { colourCount, decodeRgba, luminanceStdDev, meanDiffAround, toGray } from './support/image';

const browser = useBrowser();

async function canvasBox(page: Page) {
  const box = await page.locator('canvas').first().boundingBox();
  if (!box) throw new Error('no canvas on the map page');
  return box;
}

interface ScreenMarker {
  uid: string;
  alpha: number;
  screenX: number;
  screenY: number;
  /** The canvas is the topmost element at the marker's point (no panel over it). */
  uncovered: boolean;
}

/** Screen points of the visible markers, and whether a panel covers each. */
function uncoveredMarkerPoints(page: Page): Promise<ScreenMarker[]> {
  return page.evaluate(() => {
    type Api = {
      markers(): { uid: string; x: number; y: number; alpha: number; visible: boolean }[];
      toScreen(x: number, y: number): { x: number; y: number };
    };
    const api = (window as unknown as { __map: Api }).__map;
    return api
      .markers()
      .filter((m) => m.visible)
      .map((m) => {
        const p = api.toScreen(m.x, m.y);
        const top = document.elementFromPoint(p.x, p.y);
        return { uid: m.uid, alpha: m.alpha, screenX: p.x, screenY: p.y, uncovered: top instanceof HTMLCanvasElement };
      });
  });
}

/** A point where the canvas shows, at least `distance` px from every marker, or null. */
async function freePoint(page: Page, points: ScreenMarker[], box: { x: number; y: number; width: number; height: number }, distance: number) {
  const free: { x: number; y: number }[] = [];
  for (let y = box.y + distance; y < box.y + box.height - distance; y += 20) {
    for (let x = box.x + distance; x < box.x + box.width - distance; x += 20) {
      if (points.every((p) => Math.hypot(p.screenX - x, p.screenY - y) > distance)) free.push({ x, y });
    }
  }
  const uncovered = await page.evaluate(
    (list) => list.filter((p) => document.elementFromPoint(p.x, p.y) instanceof HTMLCanvasElement),
    free,
  );
  return uncovered.length > 0 ? uncovered[Math.floor(uncovered.length / 2)] : null;
}

describe('every map opens', () => {
  test.each(MAP_IDS.map((id) => [id, MAPS[id].name] as const))('%s: title, ready on WebGL, markers drawn', async (mapId, name) => {
    const { page } = await browser.newPage();
    const tiles = recordTiles(page);
    await openMap(page, mapId);

    await expect.poll(() => page.title()).toBe(`Map - ${name} - raidmap`);
    const info = await mapInfo(page);
    expect(info).toEqual({ mapId, renderer: 'webgl', ready: true });

    const listed = await markers(page);
    expect(listed.length).toBeGreaterThan(0);
    const visible = listed.filter((m) => m.visible);
    expect(visible.length, 'markers inside the viewport').toBeGreaterThan(0);
    const levels = new Set(MAPS[mapId].levels.map((l) => l.num));
    for (const m of listed.slice(0, 50)) {
      expect(levels.has(m.level), `marker ${m.uid} level ${m.level}`).toBe(true);
      expect(m.x).toBeGreaterThanOrEqual(0);
      expect(m.y).toBeGreaterThanOrEqual(0);
      expect(m.x).toBeLessThanOrEqual(MAPS[mapId].size.width);
      expect(m.y).toBeLessThanOrEqual(MAPS[mapId].size.height);
      expect(m.alpha).toBeGreaterThanOrEqual(0);
      expect(m.alpha).toBeLessThanOrEqual(1);
    }
    // Markers on the selected (default) level are opaque; others are faded (spec: 0.2).
    expect(visible.some((m) => m.alpha === 1)).toBe(true);
    const level = MAPS[mapId].defaultLevel;
    const wrongAlpha = listed.filter((m) => Math.abs(m.alpha - markerOpacity(m.level, level)) > 1e-6);
    expect(wrongAlpha.slice(0, 3), 'markers whose opacity does not match their level').toEqual([]);

    // The map opens at its start zoom.
    const cam = await settleCamera(page);
    expect(cam.zoom).toBeCloseTo(MAPS[mapId].startZoom, 6);

    // Tiles of this map were fetched, and the canvas shows a picture, not one flat colour.
    expect(tiles.tiles.some((t) => t.status === 200)).toBe(true);
    await tiles.idle();
    const box = await canvasBox(page);
    const shot = await decodeRgba(await page.screenshot({ clip: box }));
    expect(colourCount(shot)).toBeGreaterThan(30);
    expect(luminanceStdDev(toGray(shot))).toBeGreaterThan(5);
  });
});

describe('marker sprites are drawn', () => {
  test('pixels at visible markers differ from the same view with no markers (customs)', async () => {
    const mapId = 'customs';
    const withMarkers = await browser.newPage();
    const tilesA = recordTiles(withMarkers.page);
    await openMap(withMarkers.page, mapId);
    await settleCamera(withMarkers.page);
    await tilesA.idle();
    const box = await canvasBox(withMarkers.page);
    const onScreen = await uncoveredMarkerPoints(withMarkers.page);
    // Opaque markers well inside the canvas, each at least 30 px from every other visible
    // marker (so one marker's pixels are not another's).
    const candidates = onScreen
      .filter((m) => m.alpha === 1 && m.uncovered)
      .filter((m) => m.screenX > box.x + 30 && m.screenX < box.x + box.width - 30 && m.screenY > box.y + 30 && m.screenY < box.y + box.height - 30)
      .filter((m) => onScreen.every((o) => o === m || Math.hypot(o.screenX - m.screenX, o.screenY - m.screenY) > 30))
      .slice(0, 12);
    expect(candidates.length, 'opaque markers on screen').toBeGreaterThanOrEqual(3);
    const a = await decodeRgba(await withMarkers.page.screenshot());

    // The same view, served an empty marker list.
    const without = await browser.newPage();
    await without.page.route(/\/api\/be\/markers\/(list|compact)\?/, (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ markers: [] }) }),
    );
    const tilesB = recordTiles(without.page);
    await openMap(without.page, mapId);
    expect(await markers(without.page)).toEqual([]);
    await settleCamera(without.page);
    await tilesB.idle();
    const b = await decodeRgba(await without.page.screenshot());

    const diffs = candidates.map((c) => meanDiffAround(a, b, c.screenX, c.screenY, 5));
    const drawn = diffs.filter((d) => d > 8).length;
    expect(drawn, `mean pixel differences at markers: ${diffs.map((d) => d.toFixed(1)).join(', ')}`).toBeGreaterThanOrEqual(
      Math.ceil(candidates.length * 0.8),
    );
    // Away from markers the two renders agree: the difference is the markers, not the tiles.
    const free = await freePoint(withMarkers.page, onScreen, box, 40);
    expect(free, 'a canvas point 40 px from every marker').not.toBeNull();
    if (free) expect(meanDiffAround(a, b, free.x, free.y, 3)).toBeLessThan(8);
  });
});
