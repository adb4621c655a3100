import { describe, expect, it } from 'vitest';
import { followInsets, type CanvasArea } from '../../domain/keep-in-view';
import type { ViewportInsets } from '../../engine/types';
import { wireCoveredInsets } from './wireCoveredInsets';

/** A page whose area the test sets, and which says when it changed. */
function fakePage(area: CanvasArea | null) {
  const page = { area, listener: null as (() => void) | null, stopped: false };
  return {
    page,
    measure: () => page.area,
    watch: (onChange: () => void) => {
      page.listener = onChange;
      return () => {
        page.stopped = true;
      };
    },
  };
}

describe('wireCoveredInsets', () => {
  it('gives the engine the visible part\'s insets each time the page says the area changed', () => {
    const seen: ViewportInsets[] = [];
    const engine = { setCoveredInsets: (insets: ViewportInsets) => seen.push(insets) };
    // A phone: the compact top bar across the top.
    const { page, measure, watch } = fakePage({ width: 390, height: 844, covers: [{ left: 10, top: 10, right: 380, bottom: 64 }] });
    const stop = wireCoveredInsets(engine, { measure, watch });
    // Nothing is measured before the page's next layout says so.
    expect(seen).toEqual([]);
    page.listener?.();
    expect(seen).toEqual([{ top: 64, right: 0, bottom: 0, left: 0 }]);
    // The levels and quests sheet opens at the bottom.
    page.area = { width: 390, height: 844, covers: [{ left: 10, top: 10, right: 380, bottom: 64 }, { left: 10, top: 500, right: 380, bottom: 834 }] };
    page.listener?.();
    expect(seen.at(-1)).toEqual({ top: 64, right: 0, bottom: 344, left: 0 });
    // No laid-out canvas: nothing covers it.
    page.area = null;
    page.listener?.();
    expect(seen.at(-1)).toEqual({ top: 0, right: 0, bottom: 0, left: 0 });
    stop();
    expect(page.stopped).toBe(true);
  });

  it('leaves an engine without the setter (a test fake) alone', () => {
    const { page, measure, watch } = fakePage({ width: 390, height: 844, covers: [] });
    wireCoveredInsets({}, { measure, watch });
    expect(() => page.listener?.()).not.toThrow();
  });

  it('gives a view that follows the player the insets that let it centre any point (the stream overlay)', () => {
    const seen: ViewportInsets[] = [];
    const { page, measure, watch } = fakePage({ width: 401, height: 301, covers: [] });
    wireCoveredInsets({ setCoveredInsets: (insets) => seen.push(insets) }, { measure, watch, insets: followInsets });
    page.listener?.();
    expect(seen).toEqual([{ top: 150, right: 200, bottom: 150, left: 200 }]);
    // The overlay's window resized in the streaming software.
    page.area = { width: 801, height: 601, covers: [] };
    page.listener?.();
    expect(seen.at(-1)).toEqual({ top: 300, right: 400, bottom: 300, left: 400 });
  });

  it('with immediate, measures once at wiring too (the overlay\'s first view), then on each layout', () => {
    const seen: ViewportInsets[] = [];
    const { page, measure, watch } = fakePage({ width: 401, height: 301, covers: [] });
    wireCoveredInsets({ setCoveredInsets: (insets) => seen.push(insets) }, { measure, watch, insets: followInsets, immediate: true });
    expect(seen).toEqual([{ top: 150, right: 200, bottom: 150, left: 200 }]);
    page.area = { width: 801, height: 601, covers: [] };
    page.listener?.();
    expect(seen).toHaveLength(2);
  });
});
