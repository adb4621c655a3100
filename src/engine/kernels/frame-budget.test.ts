import { describe, expect, it } from 'vitest';
import { FrameBudget } from './frame-budget';

function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('FrameBudget', () => {
  it('always lets the first piece run, even with no time at all', () => {
    const c = clock();
    const budget = new FrameBudget(0, c.now);
    budget.start();
    expect(budget.take()).toBe(true);
    expect(budget.take()).toBe(false);
  });

  it('lets pieces run while the frame has time left, then stops', () => {
    const c = clock();
    const budget = new FrameBudget(3, c.now);
    budget.start();
    const ran: number[] = [];
    for (let piece = 0; piece < 10; piece++) {
      if (!budget.take()) break;
      ran.push(piece);
      c.advance(1.2);
    }
    // 0 ms, 1.2 ms and 2.4 ms are within 3 ms; at 3.6 ms the budget is spent.
    expect(ran).toEqual([0, 1, 2]);
    expect(budget.taken).toBe(3);
  });

  it('honours a count cap when the pieces are cheap', () => {
    const c = clock();
    const budget = new FrameBudget(100, c.now, 2);
    budget.start();
    expect([budget.take(), budget.take(), budget.take()]).toEqual([true, true, false]);
  });

  it('starts afresh each frame', () => {
    const c = clock();
    const budget = new FrameBudget(1, c.now);
    budget.start();
    budget.take();
    c.advance(5);
    expect(budget.take()).toBe(false);
    budget.start();
    expect(budget.take()).toBe(true);
    expect(budget.taken).toBe(1);
  });

  it('takes a larger budget for one frame when asked', () => {
    const c = clock();
    const budget = new FrameBudget(1, c.now);
    budget.start(10);
    let ran = 0;
    while (budget.take()) {
      ran++;
      c.advance(2);
    }
    expect(ran).toBe(5);
    budget.start();
    c.advance(2);
    expect([budget.take(), budget.take()]).toEqual([true, false]);
  });

  it('rejects a negative budget or a zero cap', () => {
    expect(() => new FrameBudget(-1, () => 0)).toThrow(RangeError);
    expect(() => new FrameBudget(1, () => 0, 0)).toThrow(RangeError);
  });
});
