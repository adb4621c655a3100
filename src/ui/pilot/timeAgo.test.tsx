import { render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { timeAgo, timeUntil, useNow } from './timeAgo';

function Wait({ retryAt }: { retryAt: number | null }) {
  const now = useNow(1000, retryAt !== null);
  return <p>{retryAt === null ? 'none' : timeUntil(retryAt, now, 'en')}</p>;
}

describe('timeAgo / timeUntil', () => {
  it('says how long ago and how long until, rounding a wait up', () => {
    expect(timeAgo(0, 12_000, 'en')).toBe('12 seconds ago');
    expect(timeAgo(0, 5 * 60_000 + 30_000, 'en')).toBe('5 minutes ago');
    expect(timeUntil(300_000, 0, 'en')).toBe('in 5 minutes');
    expect(timeUntil(301_000, 0, 'en')).toBe('in 6 minutes');
    expect(timeUntil(0, 1000, 'en')).toBe('now');
  });
});

describe('useNow', () => {
  afterEach(() => vi.useRealTimers());

  it('reads the clock again when it turns active, before anything is painted with the old time', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const view = render(<Wait retryAt={null} />);
    // Every text the paragraph held on the way (a node replaced, or its text changed).
    const observer = new MutationObserver(() => undefined);
    observer.observe(view.container, { subtree: true, characterData: true, characterDataOldValue: true, childList: true });
    // The page sat idle for a minute (no renewal while inactive), then the server said "wait 300 s".
    vi.setSystemTime(1_060_000);
    view.rerender(<Wait retryAt={1_060_000 + 300_000} />);
    expect(view.container.textContent).toBe('in 5 minutes');
    const held = observer.takeRecords().flatMap((r) => [r.oldValue ?? '', ...[...r.removedNodes].map((n) => n.textContent ?? '')]);
    observer.disconnect();
    expect(held).not.toContain('in 6 minutes');
  });

  it('renews every interval while active', () => {
    vi.useFakeTimers({ now: 0 });
    const view = render(<Wait retryAt={125_000} />);
    expect(view.container.textContent).toBe('in 3 minutes');
    vi.advanceTimersByTime(6_000);
    view.rerender(<Wait retryAt={125_000} />);
    expect(view.container.textContent).toBe('in 2 minutes');
  });
});
