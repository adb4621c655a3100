/**
 * What the map's canvas shows and who draws it, for the render-worker and context-loss suites.
 */
import type { Page } from 'playwright-core';
import { decodeGray, luminanceStdDev } from './image';

/** Luminance spread of the middle of the map (1280×800 pages): a drawn map is far from one flat colour, a blank or lost canvas is flat. */
export async function mapSpread(page: Page): Promise<number> {
  return luminanceStdDev(await decodeGray(await page.screenshot({ clip: { x: 300, y: 150, width: 600, height: 500 } })));
}

/** Whether the map's canvas was handed to a worker (a transferred canvas has no context of its own to give). */
export function canvasTransferred(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const canvas = document.querySelector('.map-canvas canvas') as HTMLCanvasElement | null;
    if (!canvas) throw new Error('no map canvas');
    try {
      canvas.getContext('2d');
      return false;
    } catch {
      return true;
    }
  });
}
