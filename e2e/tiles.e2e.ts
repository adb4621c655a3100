/**
 * Deep zoom is sharp: at the max zoom the engine requests and draws deep pyramid levels
 * (z ≥ 6), and the picture's edges are much crisper than the 1:1 level stretched to the same
 * scale (what a map engine that never loads deeper tiles would show).
 */
import { describe, expect, test } from 'vitest';
import { MAPS } from '../src/domain/maps';
import { tileBounds, tileScale, Z_ONE_TO_ONE } from '../src/domain/tiles';
import { baseUrl, openMap, recordTiles, settleCamera, toMap, toScreen, useBrowser, wheelUntilStill } from './browser';
import { cropGray, decodeGray, edgeSharpness, strongestEdges } from './support/image';
import { fetchManifest, stretch, tileMosaic } from './support/tiles';

const browser = useBrowser();

describe('tiles at a deep zoom (customs)', () => {
  const map = MAPS.customs;

  test('deep tiles are requested and drawn, and the view is sharp', async () => {
    const { page } = await browser.newPage();
    // No markers: their crisp icons would make any picture look sharp.
    await page.route(/\/api\/be\/markers\/(list|compact)\?/, (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ markers: [] }) }),
    );
    const tiles = recordTiles(page);
    await openMap(page, map.id);
    await settleCamera(page);

    const manifest = await fetchManifest(baseUrl(), map.id);
    const layer = manifest.layers.includes('main') ? 'main' : manifest.layers[0];

    // Find strong edges of the map (roads, coasts, buildings) in the visible part of the
    // whole-map overview (z = 0), and pick one the canvas shows with no panel over it.
    const canvas = await page.locator('canvas').first().boundingBox();
    if (!canvas) throw new Error('no canvas');
    const topLeft = await toMap(page, canvas.x + 150, canvas.y + 150);
    const bottomRight = await toMap(page, canvas.x + canvas.width - 150, canvas.y + canvas.height - 150);
    const overview = await decodeGray(
      await tileMosaic(baseUrl(), manifest, layer, 0, { minX: 0, minY: 0, maxX: manifest.width, maxY: manifest.height }),
    );
    const s0 = tileScale(0);
    const edges = strongestEdges(
      overview,
      { left: topLeft.x * s0, top: topLeft.y * s0, right: bottomRight.x * s0, bottom: bottomRight.y * s0 },
      30,
      12,
    );
    expect(edges.length, 'edges in the sample map').toBeGreaterThan(0);
    let target: { mapX: number; mapY: number; screenX: number; screenY: number } | null = null;
    for (const edge of edges) {
      const mapX = (edge.x + 0.5) / s0;
      const mapY = (edge.y + 0.5) / s0;
      const p = await toScreen(page, mapX, mapY);
      const uncovered = await page.evaluate(([x, y]) => document.elementFromPoint(x, y) instanceof HTMLCanvasElement, [p.x, p.y] as const);
      if (uncovered) {
        target = { mapX, mapY, screenX: p.x, screenY: p.y };
        break;
      }
    }
    if (!target) throw new Error('every strong edge is under a panel');

    // Zoom in with the wheel around that point, to the max zoom.
    const zooms = await wheelUntilStill(page, -240, { x: target.screenX, y: target.screenY });
    expect(zooms[zooms.length - 1]).toBe(map.maxZoom);
    await tiles.idle();
    await settleCamera(page);

    // Deep tiles (z ≥ 6) were requested, served, and cover the point we zoomed to.
    const deep = tiles.tiles.filter((t) => t.z >= 6 && t.layer === layer);
    expect(deep.length, `tile levels requested: ${[...new Set(tiles.tiles.map((t) => t.z))].join(',')}`).toBeGreaterThan(0);
    // Every deep tile the server answered was served; the engine may cancel the ones it no
    // longer wants while zooming, but none may fail otherwise.
    const bad = deep.filter((t) => t.status !== 200 && t.failure !== 'net::ERR_ABORTED');
    expect(bad.map((t) => `${t.url}: ${t.status} ${t.failure ?? ''}`)).toEqual([]);
    const under = await toMap(page, target.screenX, target.screenY);
    const covering = deep.filter((t) => {
      const b = tileBounds(manifest.width, manifest.height, t.z, t.x, t.y);
      return t.status === 200 && under.x >= b.minX && under.x < b.maxX && under.y >= b.minY && under.y < b.maxY;
    });
    expect(covering.length, 'deep tiles under the zoom point').toBeGreaterThan(0);

    // Compare the crisp edge with the 1:1 level stretched to the max zoom.
    const half = 120;
    const left = Math.round(Math.min(Math.max(canvas.x, target.screenX - half), canvas.x + canvas.width - 2 * half));
    const top = Math.round(Math.min(Math.max(canvas.y, target.screenY - half), canvas.y + canvas.height - 2 * half));
    const shot = cropGray(await decodeGray(await page.screenshot()), left, top, 2 * half, 2 * half);
    const a = await toMap(page, left, top);
    const b = await toMap(page, left + 2 * half, top + 2 * half);
    const low = await tileMosaic(baseUrl(), manifest, layer, Z_ONE_TO_ONE, { minX: a.x, minY: a.y, maxX: b.x, maxY: b.y });
    const stretched = await decodeGray(await stretch(low, 2 * half, 2 * half));

    const sharpNow = edgeSharpness(shot);
    const sharpStretched = edgeSharpness(stretched);
    if (process.env.E2E_VERBOSE) {
      console.log(`tiles: zoomed at map ${target.mapX.toFixed(0)},${target.mapY.toFixed(0)}; deep levels ${[...new Set(deep.map((t) => t.z))].join(',')}; sharpness ${sharpNow.toFixed(1)} on screen vs ${sharpStretched.toFixed(1)} stretched`);
    }
    expect(sharpNow, `sharpness on screen ${sharpNow.toFixed(1)} vs stretched 1:1 level ${sharpStretched.toFixed(1)}`).toBeGreaterThan(20);
    expect(sharpNow).toBeGreaterThan(2 * sharpStretched);
  });
});
