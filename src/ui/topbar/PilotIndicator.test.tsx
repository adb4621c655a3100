import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeEventSource } from '../../../tests/support/fake-event-source';
import { setLanguage } from '../../i18n';
import { pilot, PILOT_CODE_KEY, rejectLink, resetPilot } from '../../state/pilot';
import { memoryStorage, readStored, setStorageBackend, writeStored } from '../../state/storage';
import { PilotIndicator } from './PilotIndicator';

describe('PilotIndicator (top bar)', () => {
  beforeEach(() => {
    setStorageBackend(memoryStorage());
    void setLanguage('en');
  });
  afterEach(() => {
    resetPilot();
    setStorageBackend(null);
  });

  it('shows nothing while the page follows no code', () => {
    const { container } = render(<PilotIndicator />);
    expect(container).toBeEmptyDOMElement();
  });

  it('names the state, the code and the last position, and changes with the feed', async () => {
    pilot.code = 'ABCDE23456';
    pilot.status = 'connected';
    pilot.lastUpdateAt = Date.now() - 5000;
    render(<PilotIndicator />);
    const button = screen.getByRole('button', { name: /Following live position ABCDE-23456\. Last position 5 seconds ago/ });
    expect(button.className).toContain('pilot-indicator--connected');
    // valtio tells its subscribers on the next microtask.
    await act(async () => {
      pilot.status = 'reconnecting';
    });
    expect(screen.getByRole('button', { name: /Reconnecting to live position ABCDE-23456/ }).className).toContain('pilot-indicator--reconnecting');
  });

  it('when off, its menu offers Reconnect and Forget; Forget stops following and forgets the code', async () => {
    const user = userEvent.setup();
    pilot.code = 'ABCDE23456';
    pilot.status = 'gone';
    const { container } = render(<PilotIndicator />);
    await user.click(screen.getByRole('button', { name: /No live feed with code ABCDE-23456: it ended, expired, or was mistyped\./ }));
    expect(screen.getByRole('button', { name: 'Reconnect' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Forget this code' }));
    expect(pilot.code).toBeNull();
    expect(readStored(PILOT_CODE_KEY)).toBeNull();
    expect(container).toBeEmptyDOMElement();
  });

  it('waiting out a 429 says why and when it tries again, and offers Reconnect', async () => {
    const user = userEvent.setup();
    pilot.code = 'ABCDE23456';
    pilot.status = 'limited';
    pilot.retryAt = Date.now() + 314_000;
    render(<PilotIndicator />);
    const button = screen.getByRole('button', { name: /too many unknown codes came from your network address, so the server asked to wait\. Trying again in 6 minutes\./ });
    expect(button.className).toContain('pilot-indicator--limited');
    await user.click(button);
    expect(screen.getByRole('button', { name: 'Reconnect' })).toBeInTheDocument();
  });

  it('a link whose code is no code opens a notice with the reason; the remembered code is offered, not followed', async () => {
    const user = userEvent.setup();
    writeStored(PILOT_CODE_KEY, 'ABCDE23456');
    rejectLink('hello-world');
    render(<PilotIndicator />);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'This page\'s link gives “hello-world” as the live position code to follow, which is not a code. The code has “L” and “O”, which codes never contain (no 0, O, 1, I or L). Check it. Nothing is followed.',
    );
    expect(screen.getByText('Not following live position ABCDE-23456 now.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reconnect' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(pilot.linkProblem).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a link with no code and nothing remembered still says so, and Close takes the notice away', async () => {
    const user = userEvent.setup();
    rejectLink('x');
    const { container } = render(<PilotIndicator />);
    expect(screen.getByRole('alert')).toHaveTextContent('A code has 10 characters; this one has 1.');
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(container).toBeEmptyDOMElement();
  });

  it('speaks Russian too', async () => {
    await setLanguage('ru');
    pilot.code = 'ABCDE23456';
    pilot.status = 'gone';
    render(<PilotIndicator />);
    expect(screen.getByRole('button', { name: /Нет трансляции позиции с кодом ABCDE-23456: она закончилась, истекла или код набран с ошибкой\./ })).toBeInTheDocument();
    await setLanguage('en');
  });
});

describe('PilotIndicator: the waiting line and the focus', () => {
  beforeEach(() => {
    setStorageBackend(memoryStorage());
    void setLanguage('en');
  });
  afterEach(async () => {
    resetPilot();
    setStorageBackend(null);
    await setLanguage('en');
  });

  const waiting = 'No position on this map yet: waiting for the next one.';

  it('a feed that ended says so, without "waiting for the next one" (in the menu or the name)', async () => {
    const user = userEvent.setup();
    pilot.code = 'ABCDE23456';
    pilot.status = 'gone';
    render(<PilotIndicator />);
    const button = screen.getByRole('button', { name: /No live feed with code ABCDE-23456/ });
    expect(button).not.toHaveAccessibleName(expect.stringContaining('waiting'));
    await user.click(button);
    expect(screen.getByText('No live feed with code ABCDE-23456: it ended, expired, or was mistyped.')).toBeInTheDocument();
    expect(screen.queryByText(waiting)).toBeNull();
  });

  it('nor in Russian', async () => {
    await setLanguage('ru');
    const user = userEvent.setup();
    pilot.code = 'ABCDE23456';
    pilot.status = 'gone';
    render(<PilotIndicator />);
    await user.click(screen.getByRole('button', { name: /Нет трансляции позиции/ }));
    expect(screen.queryByText('На этой карте позиции пока нет: ждём следующую.')).toBeNull();
    expect(document.body).not.toHaveTextContent('ждём');
  });

  it('an ended feed that had sent a position still says when the last one came', async () => {
    const user = userEvent.setup();
    pilot.code = 'ABCDE23456';
    pilot.status = 'gone';
    pilot.lastUpdateAt = Date.now() - 5000;
    render(<PilotIndicator />);
    await user.click(screen.getByRole('button', { name: /No live feed/ }));
    expect(screen.getByText('Last position 5 seconds ago.')).toBeInTheDocument();
  });

  it('a connected feed with no position yet is waiting for the next one', async () => {
    const user = userEvent.setup();
    pilot.code = 'ABCDE23456';
    pilot.status = 'connected';
    render(<PilotIndicator />);
    await user.click(screen.getByRole('button', { name: /Following live position ABCDE-23456\. No position on this map yet/ }));
    expect(screen.getByText(waiting)).toBeInTheDocument();
  });

  it('Escape in its menu folds it with the focus back on the dot', async () => {
    const user = userEvent.setup();
    pilot.code = 'ABCDE23456';
    pilot.status = 'gone';
    render(<PilotIndicator />);
    const button = screen.getByRole('button', { name: /No live feed/ });
    button.focus();
    await user.keyboard('{Enter}');
    await user.tab();
    expect(screen.getByRole('button', { name: 'Reconnect' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();
  });

  it('Close on a link notice with a code remembered keeps the focus on the dot; with none, onGone places it', async () => {
    const user = userEvent.setup();
    writeStored(PILOT_CODE_KEY, 'ABCDE23456');
    rejectLink('hello-world');
    let gone = 0;
    const { unmount } = render(<PilotIndicator onGone={() => gone++} />);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.getByRole('button', { name: /Not following live position ABCDE-23456/ })).toHaveFocus();
    expect(gone).toBe(0);
    unmount();
    resetPilot();
    setStorageBackend(memoryStorage());
    rejectLink('x');
    render(<PilotIndicator onGone={() => gone++} />);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(gone).toBe(1);
  });
});

describe('PilotIndicator: where the player is, how old the position is, how a retry went', () => {
  beforeEach(async () => {
    setStorageBackend(memoryStorage());
    await setLanguage('en');
  });
  afterEach(async () => {
    resetPilot();
    setStorageBackend(null);
    vi.unstubAllGlobals();
    await setLanguage('en');
  });

  const follow = (map: 'woods' | 'customs', page: 'woods' | 'customs') => {
    pilot.code = 'ABCDE23456';
    pilot.status = 'connected';
    pilot.lastMap = map;
    pilot.lastMapAt = 1;
    pilot.pageMap = page;
  };

  it('says the player is on another map, by its name, with a link to it, and shows a ring, not the dot', async () => {
    const user = userEvent.setup();
    follow('woods', 'customs');
    render(<PilotIndicator />, { wrapper: MemoryRouter });
    const button = screen.getByRole('button', { name: /Following live position ABCDE-23456\. The player is on Woods, not on this map\./ });
    expect(button.className).toContain('pilot-indicator--elsewhere');
    await user.click(button);
    expect(screen.getByRole('link', { name: 'Go to Woods' })).toHaveAttribute('href', '/map/woods');
  });

  it('on the player\'s map it is the green dot, with no link', async () => {
    const user = userEvent.setup();
    follow('woods', 'woods');
    render(<PilotIndicator />, { wrapper: MemoryRouter });
    const button = screen.getByRole('button', { name: /Following live position/ });
    expect(button.className).toContain('pilot-indicator--connected');
    await user.click(button);
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('names the map in Russian', async () => {
    await setLanguage('ru');
    follow('woods', 'customs');
    render(<PilotIndicator />, { wrapper: MemoryRouter });
    expect(screen.getByRole('button', { name: /Игрок сейчас на карте «Лес», а не на этой\./ })).toBeInTheDocument();
  });

  it('a stale position: a faded dot and "last seen"', () => {
    pilot.code = 'ABCDE23456';
    pilot.status = 'connected';
    pilot.lastUpdateAt = Date.now() - 3 * 3600_000;
    pilot.stale = true;
    render(<PilotIndicator />);
    const button = screen.getByRole('button', { name: /Last seen 3 hours ago: no position since\./ });
    expect(button.className).toContain('pilot-indicator--stale');
  });

  it('Reconnect on a gone code keeps the menu open and says when the code is still not found', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    const user = userEvent.setup();
    pilot.code = 'ABCDE23456';
    pilot.status = 'gone';
    render(<PilotIndicator />);
    const button = screen.getByRole('button', { name: /No live feed/ });
    await user.click(button);
    await user.click(screen.getByRole('button', { name: 'Reconnect' }));
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(button).toHaveFocus();
    await act(async () => {
      pilot.status = 'gone';
      pilot.stillGone = true;
    });
    expect(screen.getByRole('status')).toHaveTextContent('Still not found: the code has ended or expired.');
    expect(screen.getByRole('button', { name: 'Reconnect' })).toBeInTheDocument();
  });

  it('a session the player ended says so', () => {
    pilot.code = 'ABCDE23456';
    pilot.status = 'gone';
    pilot.endReason = 'deleted';
    render(<PilotIndicator />);
    expect(screen.getByRole('button', { name: 'Live position ABCDE-23456 has ended: the player ended the session.' })).toBeInTheDocument();
  });

  it('while waiting out a 429 it says when it asks again, not "waiting for the next one"', () => {
    pilot.code = 'ABCDE23456';
    pilot.status = 'limited';
    pilot.retryAt = Date.now() + 5 * 60_000;
    render(<PilotIndicator />);
    const button = screen.getByRole('button', { name: /No position on this map yet: the page asks again in 5 minutes\./ });
    expect(button).not.toHaveAccessibleName(expect.stringContaining('waiting for the next one'));
  });
});
