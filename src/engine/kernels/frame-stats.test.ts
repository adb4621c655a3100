import { describe, expect, it } from 'vitest';
import { FrameStatsRecorder, percentile } from './frame-stats';

describe('FrameStatsRecorder', () => {
  it('reports p50 / p95 of update, render and their sum', () => {
    const rec = new FrameStatsRecorder(100);
    for (let i = 1; i <= 100; i++) rec.record(i, 2 * i);
    const s = rec.snapshot();
    expect(s.frames).toBe(100);
    expect(s.updateMs).toEqual({ p50: 50, p95: 95 });
    expect(s.renderMs).toEqual({ p50: 100, p95: 190 });
    expect(s.totalMs).toEqual({ p50: 150, p95: 285 });
    expect(s.recent.at(-1)).toBe(300);
  });

  it('keeps only the last `capacity` frames, oldest first', () => {
    const rec = new FrameStatsRecorder(3);
    for (let i = 1; i <= 5; i++) rec.record(i, 0);
    const s = rec.snapshot();
    expect(s.frames).toBe(5);
    expect(s.recent).toEqual([3, 4, 5]);
  });

  it('is empty-safe and rejects a bad capacity', () => {
    expect(new FrameStatsRecorder().snapshot().totalMs).toEqual({ p50: 0, p95: 0 });
    expect(percentile([], 50)).toBe(0);
    expect(() => new FrameStatsRecorder(0)).toThrow(RangeError);
  });
});
