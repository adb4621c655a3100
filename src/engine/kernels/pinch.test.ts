import { describe, expect, it } from 'vitest';
import { MAPS } from '../../domain/maps';
import { panBy, screenToMap, zoomAround, type CameraLimits } from './camera';
import type { CameraView } from './camera-view';
import { PINCH_MIN_DISTANCE_PX, distance, midpoint, pinchStep, type TouchPair } from './pinch';

const customs = MAPS.customs;
const limits: CameraLimits = { minZoom: customs.minZoom, maxZoom: customs.maxZoom, mapWidth: 4400, mapHeight: 3200 };
const viewport = { width: 390, height: 844 };

/** What a tool does with a step: pan by the midpoint's movement, then zoom around the new midpoint. */
function apply(view: CameraView, before: TouchPair, after: TouchPair): CameraView {
  const step = pinchStep(before, after);
  const panned = panBy(view, step.dx, step.dy, limits, viewport);
  return zoomAround(panned, viewport, step.factor, step.x, step.y, limits);
}

const pair = (ax: number, ay: number, bx: number, by: number): TouchPair => [{ x: ax, y: ay }, { x: bx, y: by }];

describe('pinch kernel', () => {
  it('midpoint and distance of a pair', () => {
    expect(midpoint(pair(100, 200, 300, 400))).toEqual({ x: 200, y: 300 });
    expect(distance(pair(0, 0, 30, 40))).toBe(50);
  });

  it('spreading the fingers about a fixed midpoint zooms by the ratio of the distances, no pan', () => {
    const step = pinchStep(pair(150, 400, 250, 400), pair(100, 400, 300, 400));
    expect(step).toEqual({ factor: 2, dx: 0, dy: 0, x: 200, y: 400 });
    const closing = pinchStep(pair(100, 400, 300, 400), pair(150, 400, 250, 400));
    expect(closing.factor).toBe(0.5);
  });

  it('moving both fingers together pans by the midpoint movement at factor 1', () => {
    const step = pinchStep(pair(100, 300, 200, 300), pair(130, 260, 230, 260));
    expect(step.factor).toBeCloseTo(1, 12);
    expect(step.dx).toBeCloseTo(30, 12);
    expect(step.dy).toBeCloseTo(-40, 12);
    expect(step).toMatchObject({ x: 180, y: 260 });
  });

  it('keeps the map point under the midpoint under the midpoint, through a gesture of many steps', () => {
    let view: CameraView = { x: 2200, y: 1600, zoom: 0.8 };
    let fingers = pair(150, 380, 230, 460);
    const anchor = screenToMap(view, viewport, ...(Object.values(midpoint(fingers)) as [number, number]));
    // Spread, rotate a little and drift: 20 steps.
    for (let i = 1; i <= 20; i++) {
      const spread = 1 + i * 0.06;
      const drift = { x: i * 2, y: -i * 1.5 };
      const c = { x: 190 + drift.x, y: 420 + drift.y };
      const angle = Math.PI / 4 + i * 0.01;
      const r = (Math.hypot(80, 80) / 2) * spread;
      const next = pair(c.x - r * Math.cos(angle), c.y - r * Math.sin(angle), c.x + r * Math.cos(angle), c.y + r * Math.sin(angle));
      view = apply(view, fingers, next);
      fingers = next;
    }
    const m = midpoint(fingers);
    const under = screenToMap(view, viewport, m.x, m.y);
    expect(view.zoom).toBeCloseTo(0.8 * 2.2, 9);
    expect(under.x).toBeCloseTo(anchor.x, 6);
    expect(under.y).toBeCloseTo(anchor.y, 6);
  });

  it('stops at the map limits, as the wheel does, with the anchor kept', () => {
    let view: CameraView = { x: 2200, y: 1600, zoom: 8 };
    const before = pair(145, 400, 245, 400);
    const after = pair(45, 400, 345, 400); // ×3
    view = apply(view, before, after);
    expect(view.zoom).toBe(customs.maxZoom);
    let out: CameraView = { x: 2200, y: 1600, zoom: 0.15 };
    out = apply(out, after, before); // ÷3
    expect(out.zoom).toBe(customs.minZoom);
  });

  it('fingers (nearly) on one spot only pan: no division by zero, no wild zoom', () => {
    const tiny = pinchStep(pair(100, 100, 100, 100), pair(100, 100, 140, 100));
    expect(tiny.factor).toBe(1);
    const almost = pinchStep(pair(100, 100, 100 + PINCH_MIN_DISTANCE_PX - 1, 100), pair(100, 100, 200, 100));
    expect(almost.factor).toBe(1);
    expect(almost.dx).toBeCloseTo((200 - 100 - PINCH_MIN_DISTANCE_PX + 1) / 2, 12);
    const nan = pinchStep(pair(Number.NaN, 0, 10, 0), pair(0, 0, 10, 0));
    expect(nan.factor).toBe(1);
    expect(nan.dx).toBe(0);
  });
});
