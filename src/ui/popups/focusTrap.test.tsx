import '../../i18n';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Popup } from './Popup';

function renderOverPage(backdrop: boolean) {
  return render(
    <>
      <Popup title="Sign in" onClose={() => {}} backdrop={backdrop}>
        <input aria-label="Name" />
        <button type="button">Send</button>
        <button type="button" disabled>
          Busy
        </button>
      </Popup>
      <button type="button">Behind</button>
    </>,
  );
}

describe('Popup focus trap', () => {
  it('keeps Tab inside a modal popup: past the last control back to Close, Shift+Tab from the dialog to the last', async () => {
    renderOverPage(true);
    const dialog = screen.getByRole('dialog', { name: 'Sign in' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Close' })).toHaveFocus();
    await userEvent.tab();
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveFocus();
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Send' })).toHaveFocus();
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Close' })).toHaveFocus();
    await userEvent.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Send' })).toHaveFocus();
    dialog.focus();
    await userEvent.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Send' })).toHaveFocus();
  });

  it('lets Tab leave a popup without a backdrop (the marker popup is not modal)', async () => {
    renderOverPage(false);
    expect(screen.getByRole('dialog', { name: 'Sign in' })).not.toHaveAttribute('aria-modal');
    screen.getByRole('button', { name: 'Send' }).focus();
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Behind' })).toHaveFocus();
  });
});
