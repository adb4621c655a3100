import { describe, expect, it } from 'vitest';
import { popupPlacement } from './popupPlacement';

const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };
const landscape = { width: 844, height: 390 };

describe('popupPlacement', () => {
  it('keeps the bottom centre where the popup leaves its marker free', () => {
    expect(popupPlacement({ x: 640, y: 400 }, desktop, 240)).toBe('bottom');
    expect(popupPlacement({ x: 195, y: 422 }, phone, 300)).toBe('bottom');
    // A marker off to the side of the popup's column.
    expect(popupPlacement({ x: 100, y: 700 }, desktop, 240)).toBe('bottom');
  });

  it('goes to the top when the bottom would cover the marker', () => {
    expect(popupPlacement({ x: 640, y: 650 }, desktop, 240)).toBe('top');
    expect(popupPlacement({ x: 195, y: 700 }, phone, 300)).toBe('top');
  });

  it('goes to the side away from the marker when neither the bottom nor the top leaves it free (phone landscape)', () => {
    expect(popupPlacement({ x: 422, y: 195 }, landscape, 0)).toBe('left');
    expect(popupPlacement({ x: 380, y: 195 }, landscape, 0)).toBe('right');
  });

  it('counts the largest the popup may grow to until it is measured', () => {
    // 46 % of 800 px tall: a centred marker sits inside the tallest bottom popup, not inside a short one.
    expect(popupPlacement({ x: 640, y: 430 }, desktop, 0)).not.toBe('bottom');
    expect(popupPlacement({ x: 640, y: 430 }, desktop, 150)).toBe('bottom');
  });

  it('falls back to the bottom where no place leaves the marker free', () => {
    expect(popupPlacement({ x: 150, y: 150 }, { width: 300, height: 300 }, 0)).toBe('bottom');
    expect(popupPlacement({ x: 0, y: 0 }, { width: 0, height: 0 }, 0)).toBe('bottom');
  });
});
