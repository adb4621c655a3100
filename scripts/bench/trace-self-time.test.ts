import { describe, expect, it } from 'vitest';
import { busiestThread, selfTimeByName, type TraceEvent } from './trace-self-time';

const x = (name: string, ts: number, dur: number, tid = 1): TraceEvent => ({ name, ph: 'X', ts, dur, pid: 7, tid });
const threadName = (tid: number, name: string): TraceEvent => ({ name: 'thread_name', ph: 'M', ts: 0, pid: 7, tid, args: { name } });

describe('selfTimeByName', () => {
  it('takes nested events off their parent, per name, in milliseconds', () => {
    const events = [x('RunTask', 0, 10_000), x('FunctionCall', 1_000, 4_000), x('Layout', 2_000, 1_000), x('Paint', 6_000, 2_000), x('RunTask', 20_000, 1_000)];
    const self = selfTimeByName(events, '7:1');
    expect(self.get('RunTask')).toBeCloseTo(4 + 1);
    expect(self.get('FunctionCall')).toBeCloseTo(3);
    expect(self.get('Layout')).toBeCloseTo(1);
    expect(self.get('Paint')).toBeCloseTo(2);
  });

  it('pairs B and E events, and leaves other threads out', () => {
    const events: TraceEvent[] = [
      x('RunTask', 0, 5_000),
      { name: 'Commit', ph: 'B', ts: 1_000, pid: 7, tid: 1 },
      { name: 'Commit', ph: 'E', ts: 3_000, pid: 7, tid: 1 },
      x('RunTask', 0, 9_000, 2),
    ];
    const self = selfTimeByName(events, '7:1');
    expect(self.get('Commit')).toBeCloseTo(2);
    expect(self.get('RunTask')).toBeCloseTo(3);
  });

  it('clips a child that overruns its parent', () => {
    const self = selfTimeByName([x('RunTask', 0, 2_000), x('Paint', 1_000, 5_000)], '7:1');
    expect(self.get('RunTask')).toBeCloseTo(1);
    expect(self.get('Paint')).toBeCloseTo(1);
  });
});

describe('busiestThread', () => {
  it('is the named thread with the most task time', () => {
    const events = [threadName(1, 'CrRendererMain'), threadName(2, 'CrRendererMain'), threadName(3, 'Compositor'), x('RunTask', 0, 1_000, 1), x('RunTask', 0, 5_000, 2), x('RunTask', 0, 9_000, 3)];
    expect(busiestThread(events)).toBe('7:2');
    expect(busiestThread([x('RunTask', 0, 1_000)])).toBeNull();
  });
});
