import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../i18n';
import { pilot, PILOT_CODE_KEY, resetPilot } from '../../state/pilot';
import { memoryStorage, readStored, setStorageBackend } from '../../state/storage';
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
    await user.click(screen.getByRole('button', { name: /has ended or expired/ }));
    expect(screen.getByRole('button', { name: 'Reconnect' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Forget this code' }));
    expect(pilot.code).toBeNull();
    expect(readStored(PILOT_CODE_KEY)).toBeNull();
    expect(container).toBeEmptyDOMElement();
  });
});
