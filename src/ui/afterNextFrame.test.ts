// @vitest-environment jsdom
/**
 * afterNextFrame: the task waits for the next animation frame and then for a task after it;
 * without frames (a hidden tab) it runs after FRAME_WAIT_MS; cancelling leaves nothing behind.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterNextFrame, FRAME_WAIT_MS } from './afterNextFrame';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('afterNextFrame', () => {
  it('runs the task in a task of its own after the next animation frame, once', () => {
    const task = vi.fn();
    const order: string[] = [];
    afterNextFrame(() => {
      order.push('task');
      task();
    });
    requestAnimationFrame(() => order.push('same frame'));
    expect(task).not.toHaveBeenCalled();
    vi.advanceTimersToNextFrame();
    // The frame's own callbacks all run before it: it is not part of that frame.
    expect(order).toEqual(['same frame']);
    vi.advanceTimersByTime(1);
    expect(order).toEqual(['same frame', 'task']);
    vi.advanceTimersByTime(FRAME_WAIT_MS * 2);
    vi.advanceTimersToNextFrame();
    expect(task).toHaveBeenCalledTimes(1);
  });

  it('runs after FRAME_WAIT_MS where no frame comes (a hidden tab)', () => {
    const task = vi.fn();
    const original = globalThis.requestAnimationFrame;
    // A frame that never comes: the callback is taken and not called.
    globalThis.requestAnimationFrame = () => 1;
    try {
      afterNextFrame(task);
      vi.advanceTimersByTime(FRAME_WAIT_MS - 1);
      expect(task).not.toHaveBeenCalled();
      vi.advanceTimersByTime(2);
      expect(task).toHaveBeenCalledTimes(1);
    } finally {
      globalThis.requestAnimationFrame = original;
    }
  });

  it('does nothing once cancelled, and leaves no timer behind', () => {
    const task = vi.fn();
    const cancel = afterNextFrame(task);
    cancel();
    vi.advanceTimersToNextFrame();
    vi.advanceTimersByTime(FRAME_WAIT_MS * 2);
    expect(task).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('can be cancelled between the frame and its task', () => {
    const task = vi.fn();
    const cancel = afterNextFrame(task);
    vi.advanceTimersToNextFrame();
    cancel();
    vi.advanceTimersByTime(FRAME_WAIT_MS * 2);
    expect(task).not.toHaveBeenCalled();
  });
});
