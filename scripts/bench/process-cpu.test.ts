import { describe, expect, test } from 'vitest';
import { chromiumTicks, cpuPercent, parseStat } from './process-cpu';

describe('/proc CPU figures', () => {
  test('parses a stat line, command names with spaces and parentheses included', () => {
    const line = '4242 (chromium (gpu) x) S 4200 4200 4200 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 12 0 100 0 0';
    expect(parseStat(line)).toEqual({ pid: 4242, ppid: 4200, ticks: 325 });
  });
  test('returns null for text that is not a stat line', () => {
    expect(parseStat('garbage')).toBeNull();
    expect(parseStat('12 (x) S a b c')).toBeNull();
  });
  test('CPU % of one core between two snapshots; NaN without both', () => {
    const before = { ticks: { gpu: 100, renderer: 50 }, at: 0 };
    const after = { ticks: { gpu: 250, renderer: 75 }, at: 1000 };
    expect(cpuPercent(before, after, 'gpu')).toBeCloseTo(150, 10);
    expect(cpuPercent(before, after, 'renderer')).toBeCloseTo(25, 10);
    expect(cpuPercent(null, after, 'gpu')).toBeNaN();
  });
  test('finds no Chromium under a process tree that has none', () => {
    // The unit tests run on Linux (/proc), with no browser under the test worker.
    expect(chromiumTicks(process.pid)).toEqual({ gpu: 0, renderer: 0 });
  });
});
