import { describe, expect, it } from 'vitest';
import {
  checkEditorTargets, cookieHeader, counterDelta, gridPoints, idleRates, medianOfRecords, netOf, pickApart, pickSpread, summariseActions, type ActionSample, type MainThreadCounters,
} from './editor-stats';

const counters = (task: number, cpu = task, script = 0, styleLayout = 0, devtools = 0): MainThreadCounters => ({ task, cpu, script, styleLayout, devtools });

describe('editor benchmark figures', () => {
  it('takes the benchmark\'s own CDP commands, the idle rate and a modal wait off an action', () => {
    const rates = idleRates([
      { used: counters(40, 30, 0, 0, 10), wallMs: 1000 }, // 30 ms/s of own work
      { used: counters(35, 30, 0, 0, 5), wallMs: 1000 },
      { used: counters(100, 100), wallMs: 0 }, // no wall time: ignored
    ]);
    expect(rates.task).toBeCloseTo(0.03);
    const sample: ActionSample = { kind: 'delete', used: counters(120, 20, 80, 0, 5), wallMs: 500, blockedMs: 60, saveMs: 40 };
    // 120 − 5 (CDP) − 60 (confirm) − 0.03 × 500 (idle) = 40
    expect(netOf(sample, rates, 'task')).toBeCloseTo(40);
    // CPU time is not stretched by the modal wait.
    expect(netOf(sample, rates, 'cpu')).toBeCloseTo(20 - 5 - rates.cpu * 500);
  });

  it('summarises actions as percentiles and keeps only real save times', () => {
    const samples: ActionSample[] = [1, 2, 3, 4, 100].map((t) => ({ kind: 'place', used: counters(t), wallMs: 100, blockedMs: 0, saveMs: t === 100 ? Number.NaN : 10 }));
    const summary = summariseActions(samples, counters(0));
    expect(summary.n).toBe(5);
    expect(summary.taskP50).toBe(3);
    expect(summary.taskMax).toBe(100);
    expect(summary.saveP50).toBe(10);
  });

  it('takes the median of each figure over runs and refuses runs of different shapes', () => {
    const runs = [{ run: 1, a: { b: 1 } }, { run: 2, a: { b: 5 } }, { run: 3, a: { b: 2 } }];
    expect(medianOfRecords(runs)).toEqual({ run: 3, a: { b: 2 } });
    expect(() => medianOfRecords([{ a: 1 }, { b: 1 } as unknown as { a: number }])).toThrow(/differ/);
    expect(() => medianOfRecords([])).toThrow();
  });

  it('marks each target met, missed or not measured', () => {
    const none = checkEditorTargets({ runs: 0, browser: null, server: null });
    expect(none.every((t) => t.met === null)).toBe(true);
  });

  it('spreads points over a grid and picks evenly', () => {
    const grid = gridPoints({ x: 0, y: 0, width: 100, height: 100 }, 50);
    expect(grid.length).toBeGreaterThan(0);
    expect(pickSpread([1, 2, 3, 4, 5], 3)).toEqual([1, 3, 5]);
    expect(pickSpread([1, 2], 5)).toEqual([1, 2]);
    expect(() => pickSpread([1], -1)).toThrow(RangeError);
  });

  it('reads a cookie header out of Set-Cookie lines', () => {
    expect(cookieHeader(['sid=abc; HttpOnly; Path=/', 'bad', 'x=1'])).toBe('sid=abc; x=1');
    expect(counterDelta(counters(1), counters(3)).task).toBe(2);
  });
});

describe('pickApart', () => {
  const grid = gridPoints({ x: 0, y: 0, width: 440, height: 220 }, 44);

  it('keeps every point and its drag end the given distance from every other chosen one', () => {
    const drag = { dx: 24, dy: 16 };
    const chosen = pickApart(grid, 8, 60, drag);
    expect(chosen).toHaveLength(8);
    const spots = chosen.flatMap((p) => [p, { x: p.x + drag.dx, y: p.y + drag.dy }]);
    for (let i = 0; i < spots.length; i += 1) {
      for (let j = i + 1; j < spots.length; j += 1) {
        // A point and its own drag end are 29 px apart: only other points' spots count.
        if (Math.floor(i / 2) === Math.floor(j / 2)) continue;
        expect(Math.hypot(spots[i].x - spots[j].x, spots[i].y - spots[j].y)).toBeGreaterThanOrEqual(60);
      }
    }
  });

  it('gives fewer than asked when the points are too close together, never two neighbours', () => {
    // 10 × 5 grid points 44 px apart: no two side by side (44 px), diagonal ones (62 px) may be.
    const chosen = pickApart(grid, 50, 60);
    expect(chosen.length).toBeLessThanOrEqual(25);
    expect(chosen.length).toBeGreaterThan(8);
    for (const a of chosen) for (const b of chosen) if (a !== b) expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeGreaterThan(44);
    expect(pickSpread(grid, 50)).toHaveLength(50);
  });
});
