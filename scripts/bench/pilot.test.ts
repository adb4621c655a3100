import { describe, expect, it } from 'vitest';
import { summariseLatency } from './editor-stats';
import { checkPilotTargets, pilotMarkdownTable, summarisePilot } from './pilot';

const latencyRun = (ms: number[], missed = 0) => ({ latency: summariseLatency(ms), missed });
const fanoutRun = (ms: number[], extra: Partial<{ dropped: number; missed: number; failedToOpen: number; clients: number }> = {}) => ({
  clients: 1000, published: 15, delivery: summariseLatency(ms), missed: 0, dropped: 0, failedToOpen: 0, ...extra,
});

describe('live feed benchmark figures', () => {
  it('takes the median of the runs and sums what went missing', () => {
    const summary = summarisePilot(
      [latencyRun([10, 20, 30]), latencyRun([40, 50, 60], 1), latencyRun([70, 80, 90])],
      [fanoutRun([5, 6]), fanoutRun([7, 8], { dropped: 2 })],
    );
    expect(summary.runs).toBe(3);
    expect(summary.latency.p50).toBe(50);
    expect(summary.latencyMissed).toBe(1);
    expect(summary.fanout.dropped).toBe(2);
  });

  it('meets the targets only with every update drawn and no connection dropped', () => {
    const good = summarisePilot([latencyRun([40, 60, 90])], [fanoutRun([20, 30, 60])]);
    expect(checkPilotTargets(good, 1000).map((t) => t.met)).toEqual([true, true]);
    const slow = summarisePilot([latencyRun(Array(20).fill(200))], [fanoutRun([20], { dropped: 1 })]);
    expect(checkPilotTargets(slow, 1000).map((t) => t.met)).toEqual([false, false]);
    const fewer = summarisePilot([latencyRun([40])], [fanoutRun([20], { clients: 900 })]);
    expect(checkPilotTargets(fewer, 1000)[1].met).toBe(false);
  });

  it('reports "not measured" when a part never ran', () => {
    const none = summarisePilot([], []);
    expect(checkPilotTargets(none, 1000).map((t) => t.met)).toEqual([null, null]);
    expect(pilotMarkdownTable(none)).toContain('n/a');
  });
});
