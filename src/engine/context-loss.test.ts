import { describe, expect, it, vi } from 'vitest';
import { watchContextLoss } from './context-loss';

function setup(timeoutMs = 1000) {
  const canvas = new EventTarget();
  const timers: Array<{ callback: () => void; ms: number; cleared: boolean }> = [];
  const handlers = { lost: vi.fn(), restored: vi.fn(), gone: vi.fn() };
  const unwatch = watchContextLoss(canvas, handlers, {
    timeoutMs,
    setTimer: (callback, ms) => {
      const timer = { callback, ms, cleared: false };
      timers.push(timer);
      return timer;
    },
    clearTimer: (timer) => {
      (timer as { cleared: boolean }).cleared = true;
    },
  });
  const lose = () => {
    const event = new Event('webglcontextlost', { cancelable: true });
    canvas.dispatchEvent(event);
    return event;
  };
  const restore = () => canvas.dispatchEvent(new Event('webglcontextrestored'));
  const fire = () => timers.filter((t) => !t.cleared).forEach((t) => t.callback());
  return { handlers, unwatch, lose, restore, fire, timers };
}

describe('watchContextLoss', () => {
  it('holds the frames on loss (and asks the browser for the context back), draws again on restore', () => {
    const t = setup();
    const event = t.lose();
    expect(event.defaultPrevented).toBe(true);
    expect(t.handlers.lost).toHaveBeenCalledTimes(1);
    t.restore();
    expect(t.handlers.restored).toHaveBeenCalledTimes(1);
    expect(t.timers[0].cleared).toBe(true);
    t.fire();
    expect(t.handlers.gone).not.toHaveBeenCalled();
  });

  it('gives up on a context that does not come back in time, and ignores a late restore', () => {
    const t = setup(2500);
    t.lose();
    expect(t.timers[0].ms).toBe(2500);
    t.fire();
    expect(t.handlers.gone).toHaveBeenCalledTimes(1);
    expect(t.handlers.gone.mock.calls[0][0]).toMatch(/lost and did not come back within 3 s/);
    t.restore();
    t.lose();
    expect(t.handlers.restored).not.toHaveBeenCalled();
    expect(t.handlers.lost).toHaveBeenCalledTimes(1);
  });

  it('a second loss before the restore is one loss; a loss after a restore is a new one', () => {
    const t = setup();
    t.lose();
    t.lose();
    expect(t.handlers.lost).toHaveBeenCalledTimes(1);
    t.restore();
    t.lose();
    expect(t.handlers.lost).toHaveBeenCalledTimes(2);
  });

  it('unwatching stops listening and clears the timer', () => {
    const t = setup();
    t.lose();
    t.unwatch();
    expect(t.timers[0].cleared).toBe(true);
    t.restore();
    t.lose();
    expect(t.handlers.restored).not.toHaveBeenCalled();
    expect(t.handlers.lost).toHaveBeenCalledTimes(1);
  });
});
