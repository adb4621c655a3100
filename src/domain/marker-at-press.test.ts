import { describe, expect, it } from 'vitest';
import { markerAtPress } from './marker-at-press';

const toScreen = (x: number, y: number) => ({ x: x * 2, y: y * 2 });
const marker = (uid: string, x: number, y: number, visible = true) => ({ uid, x, y, visible });

describe('markerAtPress', () => {
  it('names the drawn marker whose centre is nearest the press', () => {
    const markers = [marker('a', 100, 100), marker('b', 108, 100), marker('c', 300, 300)];
    expect(markerAtPress(markers, toScreen, { screenX: 203, screenY: 200 })).toBe('a');
    expect(markerAtPress(markers, toScreen, { screenX: 212, screenY: 201 })).toBe('b');
  });

  it('never a marker that is not drawn, nor one out of reach', () => {
    const markers = [marker('hidden', 100, 100, false), marker('far', 150, 100)];
    expect(markerAtPress(markers, toScreen, { screenX: 200, screenY: 200 })).toBeNull();
    expect(markerAtPress(markers, toScreen, { screenX: 270, screenY: 200 })).toBe('far');
    expect(markerAtPress(markers, toScreen, { screenX: 270, screenY: 200 }, 20)).toBeNull();
    expect(markerAtPress([], toScreen, { screenX: 0, screenY: 0 })).toBeNull();
  });
});
