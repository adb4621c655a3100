import { describe, expect, test } from 'vitest';
import { buildGesture, gestureDuration } from './gesture';

describe('the benchmark gesture', () => {
  const viewport = { width: 1280, height: 800 };
  const events = buildGesture(viewport);

  test('lasts about 8 seconds and is in time order', () => {
    expect(gestureDuration(events)).toBeGreaterThan(7000);
    expect(gestureDuration(events)).toBeLessThan(9000);
    for (let i = 1; i < events.length; i += 1) expect(events[i].t).toBeGreaterThanOrEqual(events[i - 1].t);
  });

  test('stays inside the window', () => {
    for (const e of events) {
      expect(e.x).toBeGreaterThanOrEqual(0);
      expect(e.x).toBeLessThan(viewport.width);
      expect(e.y).toBeGreaterThanOrEqual(0);
      expect(e.y).toBeLessThan(viewport.height);
    }
  });

  test('zooms out first, then in, and ends zooming out', () => {
    const wheels = events.filter((e) => e.type === 'mouseWheel');
    expect(wheels[0].deltaY).toBeGreaterThan(0);
    expect(wheels.some((w) => w.deltaY < 0)).toBe(true);
    expect(events[events.length - 1]).toMatchObject({ type: 'mouseWheel' });
    expect((events[events.length - 1] as { deltaY: number }).deltaY).toBeGreaterThan(0);
    // Zoom in around several distinct points.
    const zoomInPoints = new Set(wheels.filter((w) => w.deltaY < 0).map((w) => `${w.x},${w.y}`));
    expect(zoomInPoints.size).toBeGreaterThanOrEqual(3);
  });

  test('every press is released, and moves in between hold the button', () => {
    let down = false;
    let drags = 0;
    for (const e of events) {
      if (e.type === 'mousePressed') {
        expect(down).toBe(false);
        down = true;
        drags += 1;
      } else if (e.type === 'mouseReleased') {
        expect(down).toBe(true);
        down = false;
      } else if (e.type === 'mouseMoved') {
        expect(e.buttons).toBe(down ? 1 : 0);
      } else {
        expect(down).toBe(false);
      }
    }
    expect(down).toBe(false);
    expect(drags).toBeGreaterThanOrEqual(4);
  });

  test('a window too small for the gesture is refused', () => {
    expect(() => buildGesture({ width: 100, height: 100 })).toThrow(RangeError);
  });
});
