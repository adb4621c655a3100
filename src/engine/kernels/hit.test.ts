import { describe, expect, it } from 'vitest';
import { DRAG_THRESHOLD_PX, TOUCH_DRAG_THRESHOLD_PX, dragThreshold, iconBox, isClick, movedBeyond, pickHit } from './hit';

describe('click rule (spec §9)', () => {
  const down = { screenX: 100, screenY: 100, time: 1000 };
  it('counts a release under 300 ms without moving', () => {
    expect(isClick(down, { screenX: 102, screenY: 101, time: 1299 })).toBe(true);
  });
  it('rejects a release at or after 300 ms', () => {
    expect(isClick(down, { screenX: 100, screenY: 100, time: 1300 })).toBe(false);
    expect(isClick(down, { screenX: 100, screenY: 100, time: 1800 })).toBe(false);
  });
  it('rejects a press that moved 5 px or more', () => {
    expect(movedBeyond(down, { screenX: 103, screenY: 104 })).toBe(true);
    expect(isClick(down, { screenX: 103, screenY: 104, time: 1050 })).toBe(false);
  });
  it('rejects clocks running backwards', () => {
    expect(isClick(down, { screenX: 100, screenY: 100, time: 900 })).toBe(false);
  });
});

describe('tap rule (a finger)', () => {
  const tap = { screenX: 100, screenY: 100, time: 1000, pointerType: 'touch' };
  it('lets a finger wobble up to 10 px and still tap; the 300 ms rule holds', () => {
    expect(dragThreshold('touch')).toBe(TOUCH_DRAG_THRESHOLD_PX);
    expect(dragThreshold('mouse')).toBe(DRAG_THRESHOLD_PX);
    expect(dragThreshold('pen')).toBe(DRAG_THRESHOLD_PX);
    expect(dragThreshold(undefined)).toBe(DRAG_THRESHOLD_PX);
    // 7 px of travel: a tap for a finger, a drag for a mouse.
    expect(isClick(tap, { screenX: 106, screenY: 103.6, time: 1200 })).toBe(true);
    expect(isClick({ ...tap, pointerType: 'mouse' }, { screenX: 106, screenY: 103.6, time: 1200 })).toBe(false);
    expect(isClick(tap, { screenX: 100, screenY: 100, time: 1300 })).toBe(false);
  });
  it('makes 10 px or more of finger travel a drag', () => {
    expect(movedBeyond(tap, { screenX: 106, screenY: 108 })).toBe(true);
    expect(movedBeyond(tap, { screenX: 106, screenY: 107.9 })).toBe(false);
    expect(isClick(tap, { screenX: 110, screenY: 100, time: 1100 })).toBe(false);
  });
});

describe('pickHit', () => {
  it('returns the box under the point whose centre is nearest', () => {
    const boxes = [iconBox(100, 100, 28, 7, 0), iconBox(110, 100, 28, 8, 1)];
    expect(pickHit(boxes, 98, 100)).toBe(7);
    expect(pickHit(boxes, 112, 100)).toBe(8);
  });
  it('prefers the top-most box on a tie and misses empty space', () => {
    const boxes = [iconBox(100, 100, 28, 1, 0), iconBox(100, 100, 28, 2, 5)];
    expect(pickHit(boxes, 100, 100)).toBe(2);
    expect(pickHit(boxes, 200, 200)).toBe(-1);
    expect(pickHit([], 0, 0)).toBe(-1);
  });
  it('treats the box edge as inside, one pixel beyond as outside', () => {
    const boxes = [iconBox(50, 50, 20, 3, 0)];
    expect(pickHit(boxes, 60, 60)).toBe(3);
    expect(pickHit(boxes, 61, 50)).toBe(-1);
  });
});
