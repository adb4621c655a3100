import { describe, expect, it } from 'vitest';
import { FrameLoop } from './frame-loop';

function fakeRaf() {
  const queue = new Map<number, FrameRequestCallback>();
  let next = 1;
  return {
    raf: (cb: FrameRequestCallback) => {
      queue.set(next, cb);
      return next++;
    },
    caf: (h: number) => void queue.delete(h),
    flush(now: number) {
      const cbs = [...queue.values()];
      queue.clear();
      for (const cb of cbs) cb(now);
    },
    get size() {
      return queue.size;
    },
  };
}

describe('FrameLoop', () => {
  it('coalesces invalidations into one frame and stays idle afterwards', () => {
    const r = fakeRaf();
    const frames: number[] = [];
    const loop = new FrameLoop((now) => (frames.push(now), false), r.raf, r.caf);
    expect(r.size).toBe(0);
    loop.invalidate();
    loop.invalidate();
    loop.invalidate();
    expect(r.size).toBe(1);
    r.flush(16);
    r.flush(32);
    expect(frames).toEqual([16]);
  });

  it('keeps running while the frame asks for more (animations), then stops', () => {
    const r = fakeRaf();
    let remaining = 3;
    const frames: number[] = [];
    const loop = new FrameLoop((now) => (frames.push(now), --remaining > 0), r.raf, r.caf);
    loop.invalidate();
    for (let t = 1; t <= 6; t++) r.flush(t);
    expect(frames).toEqual([1, 2, 3]);
  });

  it('cancels the pending frame on dispose', () => {
    const r = fakeRaf();
    const frames: number[] = [];
    const loop = new FrameLoop((now) => (frames.push(now), true), r.raf, r.caf);
    loop.invalidate();
    loop.dispose();
    r.flush(1);
    loop.invalidate();
    expect(r.size).toBe(0);
    expect(frames).toEqual([]);
  });
});
