/**
 * requestAnimationFrame held by the test: each test's callbacks wait until `flushFrames()` runs
 * them (a few rounds, for frames that ask for the next). For engine tests in node, where the
 * render loop is driven by frames.
 */
import { afterEach, beforeEach, vi } from 'vitest';

export function useHeldAnimationFrames(): { flushFrames: () => void } {
  let frames: FrameRequestCallback[] = [];
  beforeEach(() => {
    frames = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    vi.stubGlobal('cancelAnimationFrame', () => undefined);
  });
  afterEach(() => vi.unstubAllGlobals());
  return {
    flushFrames() {
      for (let i = 0; i < 5 && frames.length > 0; i++) {
        const run = frames;
        frames = [];
        for (const cb of run) cb(performance.now());
      }
    },
  };
}
