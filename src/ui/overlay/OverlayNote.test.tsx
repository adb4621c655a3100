import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../i18n';
import { pilot, resetPilot } from '../../state/pilot';
import { NOTE_DELAY_MS, OverlayNote, overlayProblem } from './OverlayNote';

const note = () => screen.queryByRole('note');

describe('the stream overlay\'s note while it follows no live feed', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    resetPilot();
  });
  afterEach(async () => {
    vi.useRealTimers();
    resetPilot();
    await setLanguage('en');
  });

  it('says why: no code, no code in the link, gone, limited; nothing while a feed is followed', () => {
    expect(overlayProblem({ code: null, status: 'off', linkProblem: null })).toEqual({ kind: 'none' });
    expect(overlayProblem({ code: null, status: 'off', linkProblem: 'hello-world' })).toEqual({ kind: 'invalid', text: 'hello-world' });
    expect(overlayProblem({ code: 'ABCDE23456', status: 'off', linkProblem: 'x'.repeat(40) })).toEqual({ kind: 'invalid', text: `${'x'.repeat(32)}…` });
    expect(overlayProblem({ code: 'ABCDE23456', status: 'gone', linkProblem: null })).toEqual({ kind: 'gone', code: 'ABCDE23456', reason: null });
    expect(overlayProblem({ code: 'ABCDE23456', status: 'gone', linkProblem: null, endReason: 'deleted' })).toEqual({ kind: 'gone', code: 'ABCDE23456', reason: 'deleted' });
    expect(overlayProblem({ code: 'ABCDE23456', status: 'limited', linkProblem: null })).toEqual({ kind: 'limited', code: 'ABCDE23456' });
    for (const status of ['connected', 'reconnecting', 'off'] as const) {
      expect(overlayProblem({ code: 'ABCDE23456', status, linkProblem: null })).toBeNull();
      expect(overlayProblem({ code: 'ABCDE23456', status, linkProblem: null, lastMap: 'factory', pageMap: 'factory' })).toBeNull();
    }
    // The player on another map than the overlay's: said, while the feed is connected.
    expect(overlayProblem({ code: 'ABCDE23456', status: 'connected', linkProblem: null, lastMap: 'factory', pageMap: 'customs' })).toEqual({
      kind: 'elsewhere',
      map: 'factory',
      page: 'customs',
    });
    expect(overlayProblem({ code: 'ABCDE23456', status: 'reconnecting', linkProblem: null, lastMap: 'factory', pageMap: 'customs' })).toBeNull();
  });

  it("gives the server's reason when the player ended the session or it expired, as the map page's live menu does", async () => {
    act(() => {
      pilot.code = 'ABCDE23456';
      pilot.status = 'gone';
      pilot.endReason = 'deleted';
    });
    render(<OverlayNote />);
    act(() => vi.advanceTimersByTime(NOTE_DELAY_MS));
    expect(note()).toHaveTextContent('raidmap: Live position ABCDE-23456 has ended: the player ended the session.');
    await act(() => setLanguage('ru'));
    expect(note()).toHaveTextContent('raidmap: Трансляция позиции ABCDE-23456 закончилась: игрок завершил сеанс.');
    await act(async () => {
      pilot.endReason = 'expired';
    });
    act(() => vi.advanceTimersByTime(NOTE_DELAY_MS));
    expect(note()).toHaveTextContent('raidmap: Трансляция позиции ABCDE-23456 истекла: сеансом слишком долго не пользовались.');
  });

  it("says so when the player is on another map than the overlay shows, and goes once it shows theirs", async () => {
    act(() => {
      pilot.code = 'ABCDE23456';
      pilot.status = 'connected';
      pilot.lastMap = 'factory';
      pilot.pageMap = 'customs';
    });
    render(<OverlayNote />);
    // The overlay goes to the player's map by itself: nothing while it does.
    act(() => vi.advanceTimersByTime(NOTE_DELAY_MS - 1));
    expect(note()).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(note()).toHaveTextContent('raidmap: the player is on Factory, but this overlay shows Customs. Reload the overlay to follow them.');
    await act(() => setLanguage('ru'));
    expect(note()).toHaveTextContent('raidmap: игрок на карте «Завод», а оверлей показывает карту «Таможня».');
    await act(async () => {
      pilot.pageMap = 'factory';
    });
    expect(note()).toBeNull();
  });

  it('shows a gone code after a short delay, and goes once the feed connects (positions arrive)', async () => {
    act(() => {
      pilot.code = 'ABCDE23456';
      pilot.status = 'gone';
    });
    render(<OverlayNote />);
    // No flash while the page starts.
    expect(note()).toBeNull();
    act(() => vi.advanceTimersByTime(NOTE_DELAY_MS - 1));
    expect(note()).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(note()).toHaveTextContent('raidmap: no live feed with code ABCDE-23456: it ended, expired, or was mistyped.');
    await act(async () => {
      pilot.status = 'connected';
    });
    expect(note()).toBeNull();
    // Broken again and gone: shown again after the delay.
    await act(async () => {
      pilot.status = 'gone';
    });
    expect(note()).toBeNull();
    act(() => vi.advanceTimersByTime(NOTE_DELAY_MS));
    expect(note()).not.toBeNull();
  });

  it('names a link that is no code, in Russian too', async () => {
    act(() => {
      pilot.linkProblem = 'hello-world';
    });
    render(<OverlayNote />);
    act(() => vi.advanceTimersByTime(NOTE_DELAY_MS));
    expect(note()).toHaveTextContent('raidmap: “hello-world” is not a live feed code. Check &connection= in this overlay\'s address.');
    await act(() => setLanguage('ru'));
    expect(note()).toHaveTextContent('raidmap: «hello-world» — не код трансляции позиции.');
  });

  it('asks for a code when the overlay has none', () => {
    render(<OverlayNote />);
    act(() => vi.advanceTimersByTime(NOTE_DELAY_MS));
    expect(note()).toHaveTextContent('Add &connection=CODE');
  });
});
