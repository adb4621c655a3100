/**
 * The benchmark's fixed gesture: about 8 seconds of real wheel and drag input at fixed times,
 * the same for every run. It zooms out to the minimum, zooms in to the maximum around three
 * points with pans between them, pans at a high zoom, and zooms out again. Zoom steps are
 * generous so that any sensible wheel sensitivity reaches both limits (the camera clamps).
 */

export type GestureEvent =
  | { t: number; type: 'mouseWheel'; x: number; y: number; deltaY: number }
  | { t: number; type: 'mousePressed' | 'mouseMoved' | 'mouseReleased'; x: number; y: number; buttons: 0 | 1 };

export interface Viewport {
  width: number;
  height: number;
}

/** Appends a drag from (x0, y0) by (dx, dy) over `durationMs`, one move every `stepMs`. */
function drag(events: GestureEvent[], t: number, x0: number, y0: number, dx: number, dy: number, durationMs: number, stepMs = 16): number {
  events.push({ t, type: 'mousePressed', x: x0, y: y0, buttons: 1 });
  const steps = Math.max(1, Math.round(durationMs / stepMs));
  for (let i = 1; i <= steps; i += 1) {
    events.push({ t: t + i * stepMs, type: 'mouseMoved', x: Math.round(x0 + (dx * i) / steps), y: Math.round(y0 + (dy * i) / steps), buttons: 1 });
  }
  const end = t + steps * stepMs + stepMs;
  events.push({ t: end, type: 'mouseReleased', x: Math.round(x0 + dx), y: Math.round(y0 + dy), buttons: 0 });
  return end;
}

/** Appends `count` wheel ticks at (x, y), one every `everyMs`. */
function wheel(events: GestureEvent[], t: number, x: number, y: number, deltaY: number, count: number, everyMs: number): number {
  for (let i = 0; i < count; i += 1) events.push({ t: t + i * everyMs, type: 'mouseWheel', x, y, deltaY });
  return t + count * everyMs;
}

export function buildGesture(viewport: Viewport): GestureEvent[] {
  const { width: w, height: h } = viewport;
  if (!(w >= 400 && h >= 300)) throw new RangeError(`viewport ${w}×${h} is too small for the gesture (at least 400×300)`);
  const cx = Math.round(w / 2);
  const cy = Math.round(h / 2);
  const events: GestureEvent[] = [];
  let t = 0;
  // 1. Zoom out to the minimum around the centre.
  t = wheel(events, t, cx, cy, 240, 12, 50);
  // 2. Zoom in around three points, panning between them.
  const points = [
    { x: Math.round(w * 0.3), y: Math.round(h * 0.35) },
    { x: Math.round(w * 0.65), y: Math.round(h * 0.6) },
    { x: Math.round(w * 0.5), y: Math.round(h * 0.45) },
  ];
  for (const [i, p] of points.entries()) {
    t = wheel(events, t + 50, p.x, p.y, -120, 18, 45);
    if (i < points.length - 1) t = drag(events, t + 50, cx, cy, (i % 2 ? 1 : -1) * Math.round(w * 0.2), Math.round(h * 0.15), 400);
  }
  // 3. Pan around at a high zoom: four drags in different directions.
  const pans = [
    { dx: -Math.round(w * 0.3), dy: 0 },
    { dx: 0, dy: -Math.round(h * 0.3) },
    { dx: Math.round(w * 0.3), dy: Math.round(h * 0.2) },
    { dx: -Math.round(w * 0.15), dy: Math.round(h * 0.25) },
  ];
  for (const pan of pans) t = drag(events, t + 60, cx - Math.round(pan.dx / 2), cy - Math.round(pan.dy / 2), pan.dx, pan.dy, 500);
  // 4. Zoom out to the minimum around two points.
  t = wheel(events, t + 50, Math.round(w * 0.4), Math.round(h * 0.4), 240, 12, 55);
  wheel(events, t + 50, Math.round(w * 0.6), Math.round(h * 0.55), 240, 12, 55);
  return events;
}

export function gestureDuration(events: readonly GestureEvent[]): number {
  return events.length === 0 ? 0 : events[events.length - 1].t - events[0].t;
}
