/** Hit-test and click rules (spec §9: a click counts only if down → up is under 300 ms). */

export const CLICK_MAX_MS = 300;
/** Pointer travel (CSS px) beyond which a press becomes a drag. */
export const DRAG_THRESHOLD_PX = 5;
/**
 * The same for a finger: a fingertip wobbles more than a mouse, so a tap may travel up to 10 CSS
 * px (Android's touch slop is 8 dp, iOS's about 10 pt) and still be a tap; the 300 ms rule holds.
 */
export const TOUCH_DRAG_THRESHOLD_PX = 10;

export interface PointerSample {
  screenX: number;
  screenY: number;
  /** ms (performance.now or event.timeStamp). */
  time: number;
  /** The pointer's kind (PointerEvent.pointerType); absent: a mouse. */
  pointerType?: string;
}

/** Travel (CSS px) at which a press by this kind of pointer becomes a drag. */
export function dragThreshold(pointerType?: string): number {
  return pointerType === 'touch' ? TOUCH_DRAG_THRESHOLD_PX : DRAG_THRESHOLD_PX;
}

export function movedBeyond(
  down: PointerSample,
  now: Pick<PointerSample, 'screenX' | 'screenY'>,
  threshold = dragThreshold(down.pointerType),
): boolean {
  return Math.hypot(now.screenX - down.screenX, now.screenY - down.screenY) >= threshold;
}

/**
 * A press is a click (a tap, for a finger) when released within 300 ms and without moving the
 * pointer's drag threshold or more (5 px for a mouse or pen, 10 px for a finger).
 */
export function isClick(down: PointerSample, up: PointerSample): boolean {
  const elapsed = up.time - down.time;
  return elapsed >= 0 && elapsed < CLICK_MAX_MS && !movedBeyond(down, up);
}

export interface ScreenBox {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  /** Index of the marker (into the columns). */
  index: number;
  /** Draw order: a higher value is drawn on top and wins a tie. */
  order: number;
}

/** Box of an icon of `sizePx` centred on a screen point. */
export function iconBox(screenX: number, screenY: number, sizePx: number, index: number, order: number): ScreenBox {
  const h = sizePx / 2;
  return { minX: screenX - h, minY: screenY - h, maxX: screenX + h, maxY: screenY + h, index, order };
}

/** Of the boxes under a point, the one whose centre is nearest (top-most on a tie); -1 when none. */
export function pickHit(boxes: readonly ScreenBox[], screenX: number, screenY: number): number {
  let best = -1;
  let bestDist = Infinity;
  let bestOrder = -Infinity;
  for (const b of boxes) {
    if (screenX < b.minX || screenX > b.maxX || screenY < b.minY || screenY > b.maxY) continue;
    const d = ((b.minX + b.maxX) / 2 - screenX) ** 2 + ((b.minY + b.maxY) / 2 - screenY) ** 2;
    if (d < bestDist - 1e-9 || (Math.abs(d - bestDist) <= 1e-9 && b.order > bestOrder)) {
      best = b.index;
      bestDist = d;
      bestOrder = b.order;
    }
  }
  return best;
}
