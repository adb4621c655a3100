import { describe, expect, test } from 'vitest';
import { chromiumTicks, cpuPercent, parseStat, processRole, threadGroupName, threadTicks, ticksDeltaMs } from './process-cpu';

describe('/proc CPU figures', () => {
  test('parses a stat line, command names with spaces and parentheses included', () => {
    const line = '4242 (chromium (gpu) x) S 4200 4200 4200 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 12 0 100 0 0';
    expect(parseStat(line)).toEqual({ pid: 4242, ppid: 4200, name: 'chromium (gpu) x', ticks: 325 });
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
  test('names a process by its command line', () => {
    expect(processRole('/usr/lib/chromium/chromium --type=gpu-process --foo')).toBe('gpu');
    expect(processRole('/usr/lib/chromium/chromium --type=renderer --lang=en')).toBe('renderer');
    expect(processRole('/usr/lib/chromium/chromium --type=utility --utility-sub-type=network.mojom.NetworkService')).toBe('network');
    expect(processRole('/usr/lib/chromium/chromium --type=utility --utility-sub-type=storage.mojom.StorageService')).toBe('utility');
    expect(processRole('/usr/lib/chromium/chromium --headless --remote-debugging-pipe')).toBe('browser');
    expect(processRole('/usr/bin/node --require x/preflight.cjs --import tsx /repo/server/main.ts')).toBe('server');
    expect(processRole('/bin/sh -c true')).toBe('other');
  });
  test('folds numbered thread names', () => {
    expect(threadGroupName('Thread<01>')).toBe('Thread<#>');
    expect(threadGroupName('ThreadPoolForeg')).toBe('ThreadPoolForeg');
    expect(threadGroupName('worker12')).toBe('worker#');
  });
  test('CPU ms per thread group between two readings', () => {
    const before = new Map([['gpu/a', 10], ['renderer/b', 5]]);
    const after = new Map([['gpu/a', 25], ['renderer/b', 5], ['server/node', 3]]);
    expect(ticksDeltaMs(before, after)).toEqual(new Map([['gpu/a', 150], ['server/node', 30]]));
  });
  test('counts the CPU of the threads of a process under the root', async () => {
    const { spawn } = await import('node:child_process');
    const busy = spawn(process.execPath, ['-e', 'const end = Date.now() + 3000; while (Date.now() < end);']);
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const ticks = threadTicks(process.pid);
      // The busy child is a plain Node process (role 'other'); its main thread is named after it.
      expect(ticks.get('other/node') ?? 0).toBeGreaterThan(0);
      expect(threadTicks(busy.pid ?? -1).size).toBe(0); // nothing runs under the child itself
    } finally {
      busy.kill();
    }
  });
});
