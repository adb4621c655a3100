import { describe, expect, test } from 'vitest';
import { checkTargets, intervals, median, medianOfRuns, percentile, summariseFrames, type RunResult, type Summary } from './stats';

const run = (over: Partial<RunResult>): RunResult => ({
  markers: 10_000, throttle: 1, run: 1, fps: 30, frameP50: 33, frameP95: 50, frameP99: 60, framesOver50: 2,
  inputLagMs: 20, maxPressLagMs: 10, longTasks: 0, longestTaskMs: 0, busyPct: 20, engineP50: 1, engineP95: 3,
  engineFrames: 200, engineUpdateP95: 1, engineRenderP95: 2, readyMs: 900, firstTileMs: 300, artVisibleMs: 250, reopenReadyMs: 400, reopenFirstTileMs: 150, reopenArtVisibleMs: 120, heapMB: 40, gestureMs: 8000, gpuCpuPct: 90, rendererCpuPct: 40, tileRequests: 50, tileFailures: 0, tileP95Ms: 30, ...over,
});

describe('percentile and median', () => {
  test('interpolate between ranks', () => {
    expect(percentile([1, 2, 3, 4], 0)).toBe(1);
    expect(percentile([4, 3, 2, 1], 1)).toBe(4);
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentile([10, 20], 0.95)).toBeCloseTo(19.5, 10);
    expect(median([5, 1, 3])).toBe(3);
  });
  test('no values give NaN; a quantile outside 0..1 is an error', () => {
    expect(percentile([], 0.5)).toBeNaN();
    expect(() => percentile([1], 1.5)).toThrow(RangeError);
  });
  test('does not reorder the input', () => {
    const values = [3, 1, 2];
    percentile(values, 0.5);
    expect(values).toEqual([3, 1, 2]);
  });
});

describe('summariseFrames', () => {
  test('fps, interval percentiles and long frames from rAF timestamps', () => {
    const stamps = [0, 16, 32, 48, 148, 164];
    expect(intervals(stamps)).toEqual([16, 16, 16, 100, 16]);
    const s = summariseFrames(stamps, 200);
    expect(s.frames).toBe(6);
    expect(s.fps).toBeCloseTo(30, 10);
    expect(s.p50).toBe(16);
    expect(s.over50).toBe(1);
    expect(s.p99).toBeGreaterThan(90);
  });
  test('rejects an empty window', () => {
    expect(() => summariseFrames([0, 1], 0)).toThrow(RangeError);
  });
});

describe('medianOfRuns', () => {
  test('takes the median of each figure', () => {
    const s = medianOfRuns([run({ run: 1, busyPct: 10 }), run({ run: 2, busyPct: 50 }), run({ run: 3, busyPct: 20 })]);
    expect(s.busyPct).toBe(20);
    expect(s.runs).toBe(3);
    expect(s.markers).toBe(10_000);
  });
  test('refuses to mix marker counts or throttles, and empty input', () => {
    expect(() => medianOfRuns([run({}), run({ throttle: 4 })])).toThrow(/different/);
    expect(() => medianOfRuns([])).toThrow(/no runs/);
  });
});

describe('checkTargets', () => {
  const summary = (over: Partial<RunResult>): Summary => medianOfRuns([run(over)]);

  test('marks each target met or missed from the figures', () => {
    const checks = checkTargets([
      summary({}),
      summary({ throttle: 4, engineP95: 20 }),
      summary({ markers: 1_000, engineP95: 2 }),
      summary({ markers: 100_000, engineP95: 3 }),
    ]);
    const byName = (part: string) => checks.find((c) => c.target.includes(part))!;
    expect(byName('busy').met).toBe(true);
    expect(byName('input lag').met).toBe(true);
    expect(byName('throttle 4').met).toBe(false);
    expect(byName('100k vs 1k').met).toBe(true);
    expect(byName('100k vs 1k').measured).toBe('1.50 ×');
    expect(byName('10k markers, throttle 1: ready ≤ 1.0 s').met).toBe(true);
    expect(byName('100k markers, throttle 1: ready ≤ 1.5 s').met).toBe(true);
    expect(byName('10k markers, throttle 1: ready ≤ 0.6 s when the page is opened again').met).toBe(true);
    expect(byName('first map tiles visible').met).toBe(true);
  });

  test('issue 11: a slow first second misses the ready, reopen and first-tile targets', () => {
    const checks = checkTargets([summary({ readyMs: 1200, reopenReadyMs: 700, artVisibleMs: 600 }), summary({ markers: 100_000, readyMs: 1400 })]);
    const byName = (part: string) => checks.find((c) => c.target.includes(part))!;
    expect(byName('10k markers, throttle 1: ready ≤ 1.0 s').met).toBe(false);
    expect(byName('100k markers, throttle 1: ready ≤ 1.5 s').met).toBe(true);
    expect(byName('10k markers, throttle 1: ready ≤ 0.6 s when the page is opened again').met).toBe(false);
    expect(byName('first map tiles visible').measured).toBe('600 ms');
    expect(byName('first map tiles visible').met).toBe(false);
  });

  test('reports targets without figures as not measured', () => {
    const checks = checkTargets([summary({ markers: 1_000 })]);
    expect(checks.every((c) => c.met === null)).toBe(true);
  });

  test('a slow main thread misses the throttle-1 targets', () => {
    const checks = checkTargets([summary({ busyPct: 96, inputLagMs: 6500, readyMs: 2000, longestTaskMs: 300 })]);
    expect(checks.filter((c) => c.met === false).map((c) => c.target.split(': ')[1])).toEqual([
      'main-thread busy ≤ 30 %',
      'input lag ≤ 100 ms',
      'no frame over 50 ms caused by the main thread (longest main-thread task ≤ 50 ms)',
      'ready ≤ 1.0 s after navigation (cold cache)',
    ]);
  });
});
