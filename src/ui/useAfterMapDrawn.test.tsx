/**
 * useAfterMapDrawn: false until the map's first view (mapView.ready) and the frame after it, then true for good; at
 * the latest LATEST_MS after mounting, so a map that never draws still gets its deferred parts.
 */
import { act, render, screen } from '@testing-library/react';
import { useSnapshot } from 'valtio';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mapView, setReady } from '../state/mapView';
import { LATEST_MS, useAfterMapDrawn } from './useAfterMapDrawn';

function Probe() {
  return <span data-testid="probe">{useAfterMapDrawn() ? 'drawn' : 'waiting'}</span>;
}

/** The browser draws its next frame, and the task after it runs. */
function nextFrameDrawn(): void {
  vi.advanceTimersToNextFrame();
  vi.advanceTimersByTime(1);
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame', 'Date'] });
  mapView.ready = false;
});

afterEach(() => {
  vi.useRealTimers();
  mapView.ready = false;
});

describe('useAfterMapDrawn', () => {
  it('waits for the map to be ready, then stays true when the next map starts loading', async () => {
    render(<Probe />);
    expect(screen.getByTestId('probe').textContent).toBe('waiting');
    await act(async () => setReady(true));
    await act(async () => nextFrameDrawn());
    expect(screen.getByTestId('probe').textContent).toBe('drawn');
    await act(async () => setReady(false));
    expect(screen.getByTestId('probe').textContent).toBe('drawn');
  });

  it("does not render the deferred part in the map's ready update, but in a transition after it", async () => {
    const seen: string[] = [];
    function Recorder() {
      const drawn = useAfterMapDrawn();
      const { ready } = useSnapshot(mapView);
      seen.push(`${ready ? 'ready' : 'not ready'}/${drawn ? 'drawn' : 'waiting'}`);
      return null;
    }
    render(<Recorder />);
    await act(async () => setReady(true));
    // The render that the ready update makes still has the rows waiting, and so does the next
    // frame: the rows follow in a render of their own, after it.
    expect(seen).toEqual(['not ready/waiting', 'ready/waiting']);
    await act(async () => vi.advanceTimersToNextFrame());
    expect(seen).toEqual(['not ready/waiting', 'ready/waiting']);
    await act(async () => vi.advanceTimersByTime(1));
    expect(seen).toEqual(['not ready/waiting', 'ready/waiting', 'ready/drawn']);
  });

  it('forgets the frame it waits for when unmounted in between', async () => {
    const { unmount } = render(<Probe />);
    await act(async () => setReady(true));
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('is true at once on a map that is ready already', () => {
    mapView.ready = true;
    render(<Probe />);
    expect(screen.getByTestId('probe').textContent).toBe('drawn');
  });

  it('gives up waiting after LATEST_MS (a map that never becomes ready)', async () => {
    render(<Probe />);
    await act(async () => vi.advanceTimersByTime(LATEST_MS - 1));
    expect(screen.getByTestId('probe').textContent).toBe('waiting');
    await act(async () => vi.advanceTimersByTime(1));
    expect(screen.getByTestId('probe').textContent).toBe('drawn');
  });

  it('leaves no timer behind when unmounted early', () => {
    const { unmount } = render(<Probe />);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});
