import '../../i18n';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeAccountDialog, layout } from '../../state/layout';
import { resetSession, setSessionUser } from '../../state/session';
import { UpsellPopup } from './UpsellPopup';

afterEach(() => {
  resetSession();
  closeAccountDialog();
});

describe('pro-upsell popup', () => {
  it('offers a signed-out visitor "Sign in", which closes it and opens the sign-in dialog', async () => {
    const onClose = vi.fn();
    render(<UpsellPopup onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'raidmap Pro' });
    expect(dialog).toHaveTextContent("Pro is switched on for an account by the site's operator. Already have it? Sign in to use it here.");
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(layout.accountDialog).toBe('signIn');
  });

  it('tells a signed-in user without pro which account lacks it, with no "Sign in"', () => {
    setSessionUser({ name: 'alice', pro: false, admin: false, questsDone: [], questsHidden: [] });
    render(<UpsellPopup onClose={() => undefined} />);
    expect(screen.getByRole('dialog', { name: 'raidmap Pro' })).toHaveTextContent("You are signed in as alice, without pro. Pro is switched on for an account by the site's operator.");
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
  });

  it('closes with "Got it" and changes nothing else', async () => {
    const onClose = vi.fn();
    render(<UpsellPopup onClose={onClose} />);
    await userEvent.click(screen.getByRole('button', { name: 'Got it' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(layout.accountDialog).toBeNull();
  });
});

describe('pro-upsell popup opened before the session was known', () => {
  it('closes itself when the user turns out to be pro', async () => {
    const onClose = vi.fn();
    render(<UpsellPopup onClose={onClose} />);
    expect(onClose).not.toHaveBeenCalled();
    await act(async () => setSessionUser({ name: 'pro', pro: true, admin: false, questsDone: [], questsHidden: [] }));
    expect(onClose).toHaveBeenCalled();
    expect(screen.queryByRole('dialog', { name: 'raidmap Pro' })).toBeNull();
  });
});
